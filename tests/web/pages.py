"""Helpers for the browser tests (their fixtures, ``server``, ``browser``, ``page`` and ``shots``, are in conftest.py):
cells of a board, a seeded game started from the page's controls, screenshots, and colour contrast as WCAG
defines it."""

from __future__ import annotations

import re
from pathlib import Path

from sweeplab.bench.runner import game_seeds
from sweeplab.core.game import Game
from sweeplab.core.rules import make_rules


def cell(page, grid: str, x: int, y: int):
    return page.locator(f"#{grid} .c[data-x='{x}'][data-y='{y}']")


def start_game(page, board: str, rule: str, seed: int) -> None:
    page.select_option("#play-board", board)
    page.select_option("#play-rule", rule)
    page.fill("#play-seed", str(seed))
    page.click("#btn-new")
    page.wait_for_function(f"state.game && state.game.seed === '{seed}' && state.game.moves === 0")


def shot(page, folder: Path, name: str) -> None:
    path = folder / name
    page.screenshot(path=str(path), full_page=True)
    assert path.stat().st_size > 10_000, f"{path} looks empty"


def rgb(css: str) -> tuple[float, float, float]:
    """A computed colour, ``rgb(r, g, b)`` or ``rgba(r, g, b, a)`` (opaque only), as 0-255 floats."""
    match = re.fullmatch(r"rgba?\(([\d.]+), ([\d.]+), ([\d.]+)(?:, ([\d.]+))?\)", css.strip())
    assert match, f"not a computed colour: {css!r}"
    assert match.group(4) in (None, "1"), f"a see-through colour has no single contrast: {css}"
    return float(match.group(1)), float(match.group(2)), float(match.group(3))


def luminance(colour: tuple[float, float, float]) -> float:
    """WCAG 2 relative luminance."""

    def linear(channel: float) -> float:
        c = channel / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(c) for c in colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    """WCAG 2 contrast ratio of two computed colours (1 to 21)."""
    la, lb = sorted((luminance(rgb(a)), luminance(rgb(b))), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def dealt(board: str, seed: int) -> Game:
    """The game the page deals for ``board`` with the ``unsafe`` rule and ``seed`` (its layout is known at once)."""
    return Game(make_rules(board, "unsafe"), game_seeds(seed, 0)[0])


def three_bv_clicks(game: Game) -> list[int]:
    """The cells whose reveals clear ``game`` in exactly :meth:`Game.three_bv` clicks: one zero of each opening,
    then each number no opening reveals."""
    board, mines = game.board, game.mine_cells()
    number = {c: game.number(c) for c in range(board.cells) if c not in mines}
    reached: set[int] = set()
    clicks = []
    for start in (c for c, n in number.items() if n == 0):
        if start in reached:
            continue
        clicks.append(start)
        stack = [start]
        reached.add(start)
        while stack:
            for n in board.neighbours[stack.pop()]:
                if n not in reached and n not in mines:
                    reached.add(n)
                    if number[n] == 0:
                        stack.append(n)
    clicks += [c for c in number if c not in reached]
    assert len(clicks) == game.three_bv()
    return clicks


def click_cell(page, game: Game, index: int, button: str = "left") -> None:
    """Click a cell of the play board and wait for the server's answer."""
    before = page.evaluate("state.game.moves + state.game.undos * 1000")
    x, y = game.board.xy(index)
    cell(page, "play-grid", x, y).click(button=button)
    page.wait_for_function(f"state.game.moves + state.game.undos * 1000 !== {before}")
