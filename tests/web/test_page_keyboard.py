"""Playing by keyboard (a cursor, Enter, Space, Ctrl+Z) and the pressed look of a held mouse button, in Chromium."""

from __future__ import annotations

from sweeplab.bench.runner import game_seeds
from sweeplab.core.game import Game
from sweeplab.core.rules import make_rules
from tests.web.pages import cell, start_game


def cursor(page) -> list[int]:
    return page.eval_on_selector_all("#play-grid .c.cursor", "cells => cells.map(c => [+c.dataset.x, +c.dataset.y])")


def go_to(page, x: int, y: int) -> None:
    """Walk the cursor to (x, y) with the arrow keys."""
    [[cx, cy]] = cursor(page)
    for _ in range(abs(x - cx)):
        page.keyboard.press("ArrowRight" if x > cx else "ArrowLeft")
    for _ in range(abs(y - cy)):
        page.keyboard.press("ArrowDown" if y > cy else "ArrowUp")
    assert cursor(page) == [[x, y]]


def moves(page, count: int) -> None:
    page.wait_for_function(f"state.game.moves === {count} && !state.busy")


def test_arrows_enter_space_and_chord_play_a_game(page):
    assert "Enter" in page.inner_text("#key-help") and "Space" in page.inner_text("#key-help")
    start_game(page, "beginner", "zero", 4)
    game_id = page.evaluate("state.game.id")
    assert cursor(page) == []
    page.keyboard.press("ArrowRight")  # the first arrow shows the cursor, in the middle of the board
    assert cursor(page) == [[4, 4]]
    outline = page.eval_on_selector("#play-grid .c.cursor", "c => getComputedStyle(c).outlineStyle")
    assert outline == "solid"
    page.keyboard.press("Enter")  # the focus is still on "New game": Enter plays the board, not the button
    moves(page, 1)
    assert page.evaluate("state.game.id") == game_id and "open" in cell(page, "play-grid", 4, 4).get_attribute("class")

    layout_seed, _ = game_seeds(4, 0)
    shadow = Game(make_rules("beginner", "zero"), layout_seed)
    shadow.reveal(shadow.board.index(4, 4))
    view, mines = page.evaluate("state.game.view"), shadow.mine_cells()
    assert list(shadow.observation().view) == view
    # a number with a covered neighbour that is not a mine: flag its mines with Space, then chord it with Space
    number = next(
        c for c, v in enumerate(view) if v > 0 and any(view[n] == -1 and n not in mines for n in shadow.board.neighbours[c])
    )
    done = 1
    for mine in sorted(n for n in shadow.board.neighbours[number] if n in mines):
        go_to(page, *shadow.board.xy(mine))
        page.keyboard.press(" ")
        done += 1
        moves(page, done)
        assert "flag" in cell(page, "play-grid", *shadow.board.xy(mine)).get_attribute("class")
    go_to(page, *shadow.board.xy(number))
    page.keyboard.press(" ")
    done += 1
    moves(page, done)
    flags = len([n for n in shadow.board.neighbours[number] if n in mines])
    assert page.evaluate("state.game.view").count(-1) < view.count(-1) - flags, "the chord opened a cell"
    assert page.inner_text("#move-log li:last-child").startswith("you: chord")
    # Space on a flag takes it off; Ctrl+Z puts it back
    mine = min(n for n in shadow.board.neighbours[number] if n in mines)
    go_to(page, *shadow.board.xy(mine))
    page.keyboard.press(" ")
    moves(page, done + 1)
    assert "covered" in cell(page, "play-grid", *shadow.board.xy(mine)).get_attribute("class")
    page.keyboard.press("Control+z")
    page.wait_for_function("state.game.undos === 1")
    assert "flag" in cell(page, "play-grid", *shadow.board.xy(mine)).get_attribute("class")
    # Shift moves by five, and the cursor stops at the edge
    go_to(page, 0, 0)
    page.keyboard.press("Shift+ArrowRight")
    assert cursor(page) == [[5, 0]]
    page.keyboard.press("Shift+ArrowRight")
    page.keyboard.press("ArrowUp")
    assert cursor(page) == [[8, 0]]
    assert page.inner_text("#play-message") == ""


def test_space_acts_on_the_cell_under_the_mouse(page):
    start_game(page, "beginner", "zero", 4)
    page.keyboard.press(" ")  # nothing pointed at: Space shows the cursor and plays nothing
    assert cursor(page) == [[4, 4]] and page.evaluate("state.game.moves") == 0
    cell(page, "play-grid", 4, 4).click()
    page.wait_for_function("state.game.moves === 1")
    view = page.evaluate("state.game.view")
    covered = view.index(-1)
    cell(page, "play-grid", covered % 9, covered // 9).hover()
    assert cursor(page) == [], "the mouse took the cursor: its outline is hidden"
    page.keyboard.press(" ")
    page.wait_for_function("state.game.flags === 1")
    assert page.evaluate("state.game.view")[covered] == -2
    x, y = covered % 9, covered // 9
    page.keyboard.press("ArrowDown")  # the first arrow shows the cursor where the mouse left it; the next moves it
    assert cursor(page) == [[x, y]]
    page.keyboard.press("ArrowDown")
    assert cursor(page) == [[x, y + 1]]


def test_keys_typed_into_a_field_are_not_moves(page):
    start_game(page, "beginner", "zero", 4)
    page.click("#play-seed")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    page.keyboard.type(" ")
    assert page.evaluate("state.game.moves") == 0 and cursor(page) == []


def pressed(page) -> list[list[int]]:
    return page.eval_on_selector_all("#play-grid .c.pressed", "cells => cells.map(c => [+c.dataset.x, +c.dataset.y])")


def test_a_held_button_presses_the_cell_or_a_numbers_covered_neighbours(page):
    start_game(page, "beginner", "zero", 4)
    target = cell(page, "play-grid", 2, 7)
    raised = target.evaluate("c => [getComputedStyle(c).backgroundColor, getComputedStyle(c).borderTopWidth]")
    box = target.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    assert pressed(page) == [[2, 7]]
    sunk = target.evaluate("c => [getComputedStyle(c).backgroundColor, getComputedStyle(c).borderTopWidth]")
    revealed_background = page.evaluate("getComputedStyle(document.documentElement).getPropertyValue('--revealed')")
    assert sunk != raised and sunk[1] == "1px", (raised, sunk, revealed_background)
    # dragging with the button held presses the cell under the pointer instead; leaving the board releases it
    other = cell(page, "play-grid", 3, 7).bounding_box()
    page.mouse.move(other["x"] + 5, other["y"] + 5)
    assert pressed(page) == [[3, 7]]
    page.mouse.move(5, 5)
    assert pressed(page) == []
    page.mouse.up()
    assert page.evaluate("state.game.moves") == 0

    cell(page, "play-grid", 4, 4).click()
    page.wait_for_function("state.game.moves === 1")
    view = page.evaluate("state.game.view")

    def covered_around(c: int) -> list[list[int]]:
        x, y = c % 9, c // 9
        return sorted(
            [x + dx, y + dy]
            for dx in (-1, 0, 1)
            for dy in (-1, 0, 1)
            if (dx or dy) and 0 <= x + dx < 9 and 0 <= y + dy < 9 and view[(y + dy) * 9 + x + dx] == -1
        )

    number = next(c for c, v in enumerate(view) if v > 0 and len(covered_around(c)) >= 3)
    x, y, around = number % 9, number // 9, covered_around(number)
    flagged = around[0]
    cell(page, "play-grid", *flagged).click(button="right")
    page.wait_for_function("state.game.flags === 1")
    box = cell(page, "play-grid", x, y).bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    assert sorted(pressed(page)) == around[1:], "a number held shows its covered, unflagged neighbours pressed"
    page.mouse.up()
    assert pressed(page) == []
