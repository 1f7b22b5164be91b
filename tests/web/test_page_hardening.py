"""The page where the issue found it wanting: a game the auto-solver finished, a counter past 999, a phone's width,
a big board's redraw, and the auto-solver's description."""

from __future__ import annotations

from tests.web.pages import cell, shot, start_game


def stat(page, name: str) -> str:
    return page.inner_text(f"#game-stats .stat[data-stat='{name}'] .value")


def test_a_game_the_auto_solver_finished_counts_its_moves_as_clicks(page):
    start_game(page, "beginner", "safe", 4)
    page.fill("#solver-delay", "0")
    page.select_option("#solver-strategy", "exact")
    page.click("#btn-solve")
    page.wait_for_function("state.game.over && !state.solving", timeout=60_000)
    stats = page.evaluate("state.game.stats")
    assert stats["solver_moves"] > 1 and stats["clicks"] == stats["solver_moves"]
    assert stat(page, "clicks") == f"{stats['clicks']} ({stats['solver_moves']} auto)"
    efficiency = stat(page, "efficiency")
    assert efficiency.endswith("%") and int(efficiency[:-1]) <= 100, efficiency
    assert "Assisted" in page.inner_text("#game-stats")


def test_the_mine_counter_shows_more_than_999(page):
    page.select_option("#play-board", "custom")
    page.fill("#play-custom", "100x100x1500")
    page.click("#btn-new")
    page.wait_for_function("state.game && state.game.mines === 1500")
    assert page.inner_text("#mine-counter") == "1500"
    assert page.inner_text("#timer") == "000"


def test_at_a_phones_width_the_page_does_not_scroll_sideways_and_expert_cells_are_usable(browser, server, shots):
    page = browser.new_page(viewport={"width": 390, "height": 844})
    try:
        page.goto(server)
        page.wait_for_selector("body[data-ready=true]")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        page.select_option("#play-board", "expert")
        page.click("#btn-new")
        page.wait_for_function("state.game && state.game.width === 30")
        sizes = page.evaluate(
            "[document.documentElement.scrollWidth, playBoard.cellSize,"
            " document.querySelector('#play-grid').parentElement.scrollWidth,"
            " document.querySelector('#play-grid').parentElement.clientWidth]"
        )
        page_width, size, board_width, shown = sizes
        assert page_width <= 390, f"the page is {page_width} px wide at 390"
        assert size >= 20 and board_width > shown  # the board scrolls in its frame
        far = cell(page, "play-grid", 29, 15)
        far.click()  # scrolled into view inside the frame
        page.wait_for_function("state.game.moves === 1")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390 and page.evaluate("window.scrollX") == 0
        shot(page, shots, "phone-expert.png")
    finally:
        page.close()


def test_a_move_on_a_big_board_redraws_only_the_cells_it_changes(page):
    page.select_option("#play-board", "custom")
    page.fill("#play-custom", "100x100x1500")
    page.click("#btn-new")
    page.wait_for_function("state.game && state.game.width === 100")
    page.evaluate(
        """() => {
          window.touched = new Set();
          window.watcher = new MutationObserver((records) => {
            for (const r of records) window.touched.add(r.target.closest ? r.target.closest('.c') : r.target.parentElement);
          });
          window.watcher.observe(document.getElementById('play-grid'), {attributes: true, childList: true, subtree: true});
        }"""
    )
    cell(page, "play-grid", 50, 50).click(button="right")  # a flag: one cell changes
    page.wait_for_function("state.game.flags === 1")
    touched = page.evaluate("window.watcher.takeRecords(), window.touched.size")
    assert touched <= 3, f"{touched} cells rewritten for one flag"


def test_the_auto_solver_panel_describes_a_strategy_in_a_line_and_keeps_its_options_for_hover(page):
    page.select_option("#solver-strategy", "best")
    about = page.inner_text("#solver-about")
    assert "=" not in about and len(about) < 200, about
    assert "lookahead=True" in page.get_attribute("#solver-about", "title")
