"""Plain-text rendering of a position or a finished game, for terminals."""

from __future__ import annotations

from sweeplab.core.game import Game
from sweeplab.core.observation import COVERED, FLAGGED, Observation

LEGEND = "# covered  F flag  . zero  1-8 number  * mine  @ exploded mine  x wrong flag"


def _grid(width: int, height: int, chars: list[str], axes: bool) -> str:
    rows = ["".join(chars[y * width : (y + 1) * width]) for y in range(height)]
    if not axes:
        return "\n".join(rows)
    pad = len(str(height - 1))
    top = " " * (pad + 1) + "".join(str(x % 10) for x in range(width))
    return "\n".join([top] + [f"{y:>{pad}} {row}" for y, row in enumerate(rows)])


def _char(value: int) -> str:
    if value == COVERED:
        return "#"
    if value == FLAGGED:
        return "F"
    return "." if value == 0 else str(value)


def render_observation(observation: Observation, axes: bool = True) -> str:
    """The player's view."""
    b = observation.board
    return _grid(b.width, b.height, [_char(v) for v in observation.view], axes)


def render_game(game: Game, axes: bool = True) -> str:
    """The player's view, with the mines shown once the game is over."""
    view = game.observation().view
    chars = [_char(v) for v in view]
    if game.over and game.dealt:
        mines = game.mine_cells()
        for cell, value in enumerate(view):
            if value == COVERED and cell in mines:
                chars[cell] = "*"
            elif value == FLAGGED and cell not in mines:
                chars[cell] = "x"
        if game.exploded is not None:
            chars[game.exploded] = "@"
    return _grid(game.board.width, game.board.height, chars, axes)
