"""The page in a real browser: Playwright drives Debian's Chromium against `sweeplab serve` on a free port.

Each test saves a screenshot of its view: under ``results/web/`` (committed, shown in the README) when
``SWEEPLAB_SCREENSHOTS`` names that folder (``make screenshots``), else in a temporary folder, so that ``make test``
leaves the committed images alone. Without Chromium the tests skip, except under CI (``CI=true``), where they fail:
``make test`` installs Chromium first.
"""

from __future__ import annotations

import json
import subprocess

import pytest

from sweeplab.analysis import analyze
from sweeplab.bench.runner import game_seeds
from sweeplab.core.game import Game
from sweeplab.core.observation import Observation
from sweeplab.core.rules import make_rules
from sweeplab.formats.position import format_position, parse_position
from sweeplab.strategies import registry
from sweeplab.strategies.base import play, play_move
from tests.web.pages import cell, shot, start_game
from tests.web.servers import sweeplab_command
from tests.web.test_app import winning_seed


def position_needing_a_guess() -> Observation:
    """An expert position from real play where the exact strategy has nothing certain left: it must guess."""
    game = Game(make_rules("expert", "zero"), 5)
    game.reveal(game.board.index(15, 8))
    player = registry.make("exact", seed=5)
    while not game.over:
        result = analyze(game.observation())
        if not result.safe and game.moves > 1:
            return game.observation()
        play_move(player, game)
    raise AssertionError("the game ended without a guess")


def test_play_by_clicking_reveal_flag_and_hint(page, shots):
    start_game(page, "beginner", "zero", 4)
    assert page.inner_text("#mine-counter") == "010"
    cell(page, "play-grid", 4, 4).click()
    page.wait_for_function("state.game.moves === 1")
    assert "open" in cell(page, "play-grid", 4, 4).get_attribute("class")
    assert page.locator("#play-grid .c.open").count() > 1
    view = page.evaluate("state.game.view")
    covered = next(i for i, v in enumerate(view) if v == -1)
    target = cell(page, "play-grid", covered % 9, covered // 9)
    target.click(button="right")
    page.wait_for_function("state.game.flags === 1")
    assert "flag" in target.get_attribute("class") and page.inner_text("#mine-counter") == "009"
    target.click(button="right")
    page.wait_for_function("state.game.flags === 0")
    assert "covered" in target.get_attribute("class") and page.inner_text("#mine-counter") == "010"
    target.click(button="right")
    page.wait_for_function("state.game.flags === 1")
    page.check("input[name=level][value='3']")
    page.click("#btn-hint")
    page.wait_for_function("state.hint !== null")
    marks = page.locator("#play-grid .c.mk-safe, #play-grid .c.mk-mine, #play-grid .c.mk-guess").count()
    assert marks > 0 and page.inner_text("#hint-text")
    assert page.locator("#move-log li").count() == 4
    shot(page, shots, "play.png")


def test_auto_solver_plays_a_beginner_game_to_a_win(page, shots):
    seed = winning_seed("beginner", "exact")
    start_game(page, "beginner", "safe", seed)
    page.select_option("#solver-strategy", "exact")
    page.eval_on_selector("#solver-delay", "el => { el.value = '0'; el.dispatchEvent(new Event('input')); }")
    assert page.inner_text("#solver-delay-out") == "0.00 s"
    page.click("#btn-solve")
    page.wait_for_function("state.game.over", timeout=30_000)
    assert page.inner_text("#game-status").startswith("Won in"), page.inner_text("#game-status")
    moves = page.evaluate("state.game.moves")
    assert page.locator("#move-log li").count() == moves + 1
    assert page.inner_text("#move-log li:last-child").startswith("Game won in")
    assert page.locator("#play-grid .c.flag").count() == 10, "a won game shows its mines flagged, as the classic game does"
    assert page.inner_text("#mine-counter") == "000"
    assert page.inner_text("#btn-solve") == "Solve" and page.is_disabled("#btn-step")
    shot(page, shots, "solver.png")


def test_overlay_numbers_match_sweeplab_analyze(page, server, tmp_path, shots):
    start_game(page, "intermediate", "zero", 21)
    cell(page, "play-grid", 8, 8).click()
    page.wait_for_function("state.game.moves === 1")
    page.check("#overlay-on")
    page.check("#overlay-numbers")
    page.wait_for_function("state.overlay !== null")
    page.wait_for_selector("#play-grid .c.ov .pct")
    game_id = page.evaluate("state.game.id")
    position = tmp_path / "position.txt"
    position.write_bytes(page.request.get(f"{server}api/games/{game_id}/position").body())  # with the page's cookie
    analysis = subprocess.run(
        [*sweeplab_command(), "analyze", str(position), "--json"], capture_output=True, text=True, check=True
    )
    answer = json.loads(analysis.stdout)
    shown = page.eval_on_selector_all(
        "#play-grid .c.ov", "cells => cells.map(c => [+c.dataset.x, +c.dataset.y, c.querySelector('.pct').textContent])"
    )
    observation = parse_position(position.read_text())
    assert len(shown) == len(observation.covered())
    for x, y, text in shown:
        p = answer["probabilities"][y][x] * 100
        if text == "<1":
            assert 0 < p < 0.5
        elif text == ">99":
            assert 99.5 < p < 100
        else:
            assert abs(int(text) - p) <= 0.5 + 1e-9, (x, y, text, p)
    # a frontier cell, checked on its own as a reader would: hover shows the exact value too
    frontier = next(
        (x, y)
        for x, y, text in shown
        if text not in ("0", "100")
        and answer["probabilities"][y][x] not in (None,)
        and any(
            abs(dx) + abs(dy) and 0 <= x + dx < 16 and 0 <= y + dy < 16 and observation.view[(y + dy) * 16 + x + dx] >= 0
            for dx in (-1, 0, 1)
            for dy in (-1, 0, 1)
        )
    )
    title = cell(page, "play-grid", *frontier).get_attribute("title")
    assert f"{answer['probabilities'][frontier[1]][frontier[0]] * 100:.2f}%" in title
    shot(page, shots, "overlay.png")


def test_analyser_edits_a_position_and_names_a_failing_number(page, shots):
    page.click(".tab[data-view=analyse]")
    page.fill("#an-width", "5")
    page.fill("#an-height", "3")
    page.fill("#an-mines", "3")
    page.click("#an-new")
    for x, value in ((0, "1"), (1, "2"), (2, "1")):
        page.click(f"#an-palette button[data-value='{value}']")
        cell(page, "an-grid", x, 0).click()
    page.wait_for_function("analyser.result && analyser.result.position === '5x3x3\\n121HH\\nHHHHH\\nHHHHH\\n'")
    assert page.input_value("#an-text") == "5x3x3\n121HH\nHHHHH\nHHHHH\n"
    for x, y in ((3, 0), (1, 1), (3, 1)):
        assert "mk-safe" in cell(page, "an-grid", x, y).get_attribute("class")
    for x, y in ((0, 1), (2, 1)):
        assert "mk-mine" in cell(page, "an-grid", x, y).get_attribute("class")
    assert cell(page, "an-grid", 4, 0).inner_text() == "14"  # 1/7, as `sweeplab analyze` says
    assert "7 layouts" in page.inner_text("#an-result")
    # a 3 in the corner with two covered neighbours cannot hold: said in words and marked on the board
    page.click("#an-palette button[data-value='3']")
    cell(page, "an-grid", 0, 0).click()
    page.wait_for_function("analyser.bad.length > 0")
    message = page.inner_text("#an-message")
    assert message.startswith("Inconsistent: the 3 at (0, 0) cannot hold"), message
    assert "mk-bad" in cell(page, "an-grid", 0, 0).get_attribute("class")
    # keyboard edit: point at the cell and type 1
    cell(page, "an-grid", 0, 0).hover()
    page.keyboard.press("1")
    page.wait_for_function("analyser.result !== null && analyser.bad.length === 0")
    # paste a position from a real game and analyse it
    text = format_position(position_needing_a_guess())
    observation = parse_position(text)
    page.fill("#an-text", text)
    page.click("#an-load-text")
    page.wait_for_function("analyser.result && analyser.result.width === 30")
    result = analyze(observation)
    best = page.evaluate("analyser.result.best")
    assert best["probability"] == pytest.approx(min(p for _, p in result.covered()) if not result.safe else 0.0)
    assert page.get_attribute("#an-download", "href").startswith("data:text/plain")
    shot(page, shots, "analyser.png")


def test_layout_counts_read_the_same_at_any_size(page):
    """The server sends every digit of a count up to 30 digits and scientific notation past them (a dense board's
    count has hundreds of digits): the page shows both alike."""
    shown = page.evaluate("['961', '1820000', '30011345678', '3.0236e+263', '1.0000e+40'].map(bigCount)")
    assert shown == ["961", "1,820,000", "3.00 × 10^10", "3.02 × 10^263", "1.00 × 10^40"]


def test_benchmark_panel_runs_in_the_server(page, shots):
    page.click(".tab[data-view=bench]")
    assert page.evaluate("bench.order") == ["exact", "single-point"]
    order = [page.inner_text(f"#bench-strategies label:has(input[value='{n}']) .order") for n in ("exact", "single-point")]
    assert order == ["1", "2"]
    page.check("#bench-strategies input[value=level2]")
    page.fill("#bench-games", "40")
    page.click("#bench-run")
    page.wait_for_selector("table.results", timeout=60_000)
    rows = page.eval_on_selector_all("table.results tbody tr", "rows => rows.map(r => r.cells[0].textContent)")
    assert rows[:3] == ["exact", "single-point", "level2"] and rows[3:] == ["exact − single-point", "exact − level2"]
    assert page.get_attribute("#bench-json", "href") == "/api/bench/report.json"
    assert "finished: 120/120 games" in page.inner_text("#bench-status")
    assert page.is_disabled("#bench-cancel")
    shot(page, shots, "bench.png")


def test_an_expired_game_says_so(page):
    start_game(page, "beginner", "zero", 4)
    per_browser = page.evaluate("state.meta.limits.games_per_client")
    page.evaluate(
        """async (count) => { for (let i = 0; i < count; i++) await api("POST", "/api/games", { board: "beginner" }); }""",
        per_browser,
    )  # this browser's newer games push the one on the board out
    cell(page, "play-grid", 4, 4).click()
    page.wait_for_function("document.querySelector('#play-message').textContent !== ''")
    message = page.inner_text("#play-message")
    assert message.startswith("this game has expired: this browser started newer games"), message


def seed_with_a_weighed_guess(board: str = "expert", strategy: str = "best") -> int:
    """A seed whose game, as the page deals and plays it, has a guess with alternatives in its explanation."""
    rules = make_rules(board, "safe")
    for seed in range(50):
        layout_seed, strategy_seed = game_seeds(seed, 0)
        player = registry.make(strategy, seed=strategy_seed)
        game = play(player, Game(rules, layout_seed))
        if any(g.explanation and g.explanation.figures.get("alternatives") for g in player.guesses) and game.moves > 20:
            return seed
    raise AssertionError("no such seed in 50")


def test_explanations_stay_in_the_window_and_mark_their_cells(browser, server, shots):
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    page.goto(server)
    page.wait_for_selector("body[data-ready=true]")
    start_game(page, "expert", "safe", seed_with_a_weighed_guess())
    page.select_option("#solver-strategy", "best")
    page.eval_on_selector("#solver-delay", "el => { el.value = '0'; el.dispatchEvent(new Event('input')); }")
    page.click("#btn-solve")
    page.wait_for_function("state.game.over", timeout=120_000)
    widths = page.evaluate(
        "({ page: document.documentElement.scrollWidth, log: document.querySelector('#move-log').getBoundingClientRect().width })"
    )
    assert widths["page"] <= 1400 and widths["log"] <= 460, widths
    table = page.locator("#move-log .explain table").first
    assert table.count() == 1, "a guess with alternatives shows them as a table"
    rows = table.locator("tbody tr")
    cells = [tuple(map(int, rows.nth(i).get_attribute("data-cell").split(","))) for i in range(rows.count())]
    assert "chosen" in rows.first.get_attribute("class") and len(cells) >= 2
    table.scroll_into_view_if_needed()
    table.hover()
    page.wait_for_selector("#play-grid .c.hl-chosen")
    assert "hl-chosen" in cell(page, "play-grid", *cells[0]).get_attribute("class")
    for x, y in cells[1:]:
        assert "hl-alt" in cell(page, "play-grid", x, y).get_attribute("class"), (x, y)
    shot(page, shots, "explanations.png")
    page.mouse.move(5, 5)
    page.wait_for_function("document.querySelectorAll('#play-grid .c.hl-chosen, #play-grid .c.hl-alt').length === 0")
    page.close()
