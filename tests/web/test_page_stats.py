"""A finished game's statistics on the page, and this browser's record (localStorage) with its Reset button."""

from __future__ import annotations

import pytest

from tests.web.pages import cell, click_cell, dealt, shot, start_game, three_bv_clicks


def stat(page, name: str) -> str:
    return page.inner_text(f"#game-stats .stat[data-stat='{name}'] .value")


def test_a_won_game_shows_time_3bv_clicks_and_efficiency_and_sets_a_record(page, shots):
    page.evaluate("resetRecords()")
    assert "No game finished" in page.inner_text("#records")
    game = dealt("beginner", 0)  # 3BV 6
    start_game(page, "beginner", "unsafe", 0)
    assert page.is_hidden("#game-stats")
    for index in three_bv_clicks(game):
        click_cell(page, game, index)
    page.wait_for_function("state.game.state === 'won'")
    stats = page.evaluate("state.game.stats")
    assert stats["three_bv"] == stats["three_bv_solved"] == 6 and stats["clicks"] == 6 and stats["efficiency"] == 1
    assert page.is_visible("#game-stats")
    assert stat(page, "3BV") == "6" and stat(page, "clicks") == "6" and stat(page, "efficiency") == "100%"
    assert stat(page, "time") == f"{stats['time']:.2f} s"
    assert stat(page, "3BV/s") == (f"{stats['three_bv_per_second']:.2f}" if stats["time"] > 0 else "–")
    assert "Assisted" not in page.inner_text("#game-stats")
    row = page.locator("#records tr[data-board='9x9x10'] td")
    assert [row.nth(i).inner_text() for i in range(5)] == ["9x9x10", "1", "1", "100%", f"{stats['time']:.2f} s"]
    shot(page, shots, "stats.png")

    # a lost game counts as played, and the statistics count only the 3BV solved
    other = dealt("beginner", 3)
    start_game(page, "beginner", "unsafe", 3)
    assert page.is_hidden("#game-stats")
    first = three_bv_clicks(other)[0]
    click_cell(page, other, first)
    click_cell(page, other, min(other.mine_cells()))
    page.wait_for_function("state.game.state === 'lost'")
    assert stat(page, "3BV") == f"1 / {other.three_bv()}" and stat(page, "clicks") == "2"
    assert stat(page, "efficiency") == "50%"
    assert page.inner_text("#records-total").startswith("2 played, 1 won (50%)")

    # the record is the browser's: it survives a reload, and Reset forgets it
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    assert page.inner_text("#records-total").startswith("2 played, 1 won")
    page.click("#records-reset")
    assert "No game finished" in page.inner_text("#records")
    assert page.evaluate("localStorage.getItem('sweeplab.records.v1')") is None


def test_an_undone_loss_then_a_win_counts_once_and_is_no_record(page):
    page.evaluate("resetRecords()")
    game = dealt("beginner", 1)
    clicks = three_bv_clicks(game)
    start_game(page, "beginner", "unsafe", 1)
    assert page.is_disabled("#btn-undo")
    click_cell(page, game, clicks[0])
    mine = min(game.mine_cells())
    click_cell(page, game, mine)
    page.wait_for_function("state.game.state === 'lost'")
    assert page.inner_text("#records-total").startswith("1 played, 0 won")
    page.click("#btn-undo")  # take back the losing click
    page.wait_for_function("state.game.state === 'playing' && state.game.undos === 1")
    x, y = game.board.xy(mine)
    assert "covered" in cell(page, "play-grid", x, y).get_attribute("class")
    assert page.is_hidden("#game-stats") and "1 undo (assisted)" in page.inner_text("#play-info")
    assert "undo: reveal" in page.inner_text("#move-log li:last-child")
    for index in clicks[1:]:
        click_cell(page, game, index)
    page.wait_for_function("state.game.state === 'won'")
    assert "Assisted (1 undo): not a record" in page.inner_text("#game-stats")
    assert page.evaluate("state.game.stats.clicks") == len(clicks) + 1
    row = page.locator("#records tr[data-board='9x9x10'] td")
    assert [row.nth(i).inner_text() for i in range(5)] == ["9x9x10", "1", "1", "100%", "–"]


@pytest.mark.parametrize("how", ["button", "ctrl+z"])
def test_undo_by_button_and_ctrl_z(page, how):
    game = dealt("beginner", 2)
    start_game(page, "beginner", "unsafe", 2)
    first = three_bv_clicks(game)[0]
    click_cell(page, game, first)
    click_cell(page, game, min(game.mine_cells()), button="right")
    assert page.evaluate("state.game.flags") == 1
    if how == "button":
        page.click("#btn-undo")
    else:
        page.keyboard.press("Control+z")
    page.wait_for_function("state.game.undos === 1")
    assert page.evaluate("[state.game.moves, state.game.flags]") == [1, 0]
    page.keyboard.press("Control+z")
    page.wait_for_function("state.game.undos === 2 && state.game.moves === 0")
    assert page.is_disabled("#btn-undo") and page.locator("#play-grid .c.open").count() == 0
    page.keyboard.press("Control+z")  # nothing left to take back: nothing happens, no error
    assert page.inner_text("#play-message") == ""
