"""What the board looks like in Chromium: every number readable on a revealed cell (WCAG contrast >= 3:1),
covered and revealed cells told apart, the hint kept until the position changes, and a 200x50 board that fits the
window, with a zoom."""

from __future__ import annotations

from tests.web.pages import cell, contrast, luminance, rgb, shot, start_game


def test_every_number_colour_has_3_to_1_contrast_on_a_revealed_cell(page):
    # the page's own renderer draws a row of the nine revealed values with the page's own stylesheet
    page.evaluate("playBoard.resize(9, 1); playBoard.render([0, 1, 2, 3, 4, 5, 6, 7, 8])")
    colours = page.eval_on_selector_all(
        "#play-grid .c.open",
        "cells => cells.map(c => [c.textContent, getComputedStyle(c).color, getComputedStyle(c).backgroundColor])",
    )
    assert [text for text, _, _ in colours] == ["", "1", "2", "3", "4", "5", "6", "7", "8"]
    ratios = {int(text): contrast(colour, background) for text, colour, background in colours[1:]}
    low = {n: round(r, 2) for n, r in ratios.items() if r < 3}
    assert not low, f"numbers under 3:1 on the revealed background: {low}"
    assert ratios[7] >= 3 and ratios[8] >= 3  # the two the classic palette fails on its grey
    assert len({colour for _, colour, _ in colours[1:]}) == 8, "each number has its own colour"


def test_covered_cells_are_raised_and_revealed_cells_flat(page):
    start_game(page, "beginner", "zero", 4)
    cell(page, "play-grid", 4, 4).click()
    page.wait_for_function("state.game.moves === 1")
    style = """c => { const s = getComputedStyle(c); return {
        background: s.backgroundColor, top: s.borderTopColor, bottom: s.borderBottomColor,
        width: parseFloat(s.borderTopWidth), bottomWidth: parseFloat(s.borderBottomWidth) }; }"""
    covered = page.locator("#play-grid .c.covered").first.evaluate(style)
    revealed = page.locator("#play-grid .c.open").first.evaluate(style)
    # raised: a light top edge over a dark bottom edge, several pixels wide; revealed: a hairline, no bevel
    assert covered["width"] >= 3 and covered["bottomWidth"] >= 3
    assert luminance(rgb(covered["top"])) > luminance(rgb(covered["bottom"])) * 2
    assert revealed["width"] <= 1 and revealed["bottomWidth"] == 0
    assert contrast(covered["background"], revealed["background"]) >= 1.4, (covered, revealed)


def test_the_hint_stays_until_the_position_changes(page):
    start_game(page, "beginner", "zero", 4)
    cell(page, "play-grid", 4, 4).click()
    page.wait_for_function("state.game.moves === 1")
    page.click("#btn-hint")
    page.wait_for_function("state.hint !== null")
    text = page.inner_text("#hint-text")
    assert text
    # the overlay's checkboxes redraw the aids; they used to drop the hint with them
    page.check("#overlay-on")
    page.wait_for_function("state.overlay !== null")
    page.uncheck("#overlay-on")
    page.check("#overlay-numbers")
    page.wait_for_function("state.overlay !== null")
    assert page.inner_text("#hint-text") == text and page.evaluate("state.hint !== null")
    # a refused move changes nothing either
    cell(page, "play-grid", 4, 4).click()
    assert page.inner_text("#hint-text") == text
    # a move does: the old hint no longer describes the board
    view = page.evaluate("state.game.view")
    covered = view.index(-1)
    cell(page, "play-grid", covered % 9, covered // 9).click(button="right")
    page.wait_for_function("state.game.moves === 2")
    page.wait_for_function("document.querySelector('#hint-text').textContent === ''")
    assert page.evaluate("state.hint") is None


def board_size(page) -> dict:
    return page.evaluate(
        """() => { const frame = document.querySelector('#view-play .frame');
        return { page: document.documentElement.scrollWidth, window: window.innerWidth,
                 frameScroll: frame.scrollWidth - frame.clientWidth, cell: playBoard.cellSize,
                 boardScroll: frame.querySelector('.board-scroll').scrollWidth - frame.querySelector('.board-scroll').clientWidth,
                 board: document.querySelector('#play-grid').getBoundingClientRect().width }; }"""
    )


def test_a_200_by_50_board_fits_the_window_and_zooms(page, shots):
    page.select_option("#play-board", "custom")
    page.fill("#play-custom", "200x50x1000")
    page.select_option("#play-rule", "safe")
    page.fill("#play-seed", "3")
    page.click("#btn-new")
    page.wait_for_function("state.game && state.game.width === 200")
    fitted = board_size(page)
    assert fitted["page"] <= fitted["window"], f"the page scrolls sideways: {fitted}"
    assert fitted["frameScroll"] == fitted["boardScroll"] == 0 and fitted["cell"] >= 6, fitted
    assert page.inner_text("#zoom-level") == f"{fitted['cell']} px" and page.is_disabled("#zoom-fit")
    cell(page, "play-grid", 100, 25).click()
    page.wait_for_function("state.game.moves === 1")
    shot(page, shots, "big-board.png")
    page.click("body")  # the focus leaves the seed field: + and - now zoom
    page.keyboard.press("+")
    page.keyboard.press("+")
    zoomed = board_size(page)
    assert zoomed["cell"] > fitted["cell"] and zoomed["page"] <= zoomed["window"], "zoomed in, the page never scrolls sideways"
    assert zoomed["boardScroll"] > 0 and zoomed["frameScroll"] == 0, "the board scrolls inside its frame"
    page.click("#zoom-fit")
    assert board_size(page)["cell"] == fitted["cell"]
    page.click("#zoom-out")
    assert board_size(page)["cell"] == 6
    # a small board keeps its comfortable size, and a narrower window refits a big one
    page.keyboard.press("=")
    page.set_viewport_size({"width": 900, "height": 800})
    page.wait_for_function(f"playBoard.cellSize < {fitted['cell']} || playBoard.cellSize === 6")
    start_game(page, "beginner", "safe", 1)
    assert page.evaluate("playBoard.cellSize") == 26
