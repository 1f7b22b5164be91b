"""A no-guess board on the page: the rule is offered, the first click opens, and the deal's report is shown."""

from __future__ import annotations

from tests.web.pages import cell, start_game


def test_a_noguess_game_opens_at_the_first_click_and_says_how_it_was_dealt(page):
    assert "noguess" in page.locator("#play-rule option").all_inner_texts()
    start_game(page, "expert", "noguess", 5)
    cell(page, "play-grid", 12, 7).click()
    page.wait_for_function("state.game.moves === 1")
    game = page.evaluate("state.game")
    assert game["view"][7 * 30 + 12] == 0  # the click opened (a zero) as the rule promises
    assert game["deal"].startswith("no-guess deal: ") and "verified" in game["deal"]
    assert game["deal"] in page.inner_text("#play-info")
