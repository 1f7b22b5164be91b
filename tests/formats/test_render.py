from sweeplab.core.game import Game
from sweeplab.core.rules import Rules
from sweeplab.formats.render import render_game, render_observation


def test_render_view_and_final_board():
    g = Game(Rules(5, 1, 2, "unsafe"), layout=[2, 4])
    g.reveal(0)
    g.flag(4)
    assert render_observation(g.observation(), axes=False) == ".1##F"
    g.reveal(2)
    assert render_game(g, axes=False) == ".1@#F"


def test_wrong_flag_and_axes():
    g = Game(Rules(3, 1, 1, "unsafe"), layout=[0])
    g.flag(2)
    g.reveal(0)
    text = render_game(g)
    assert text.splitlines() == ["  012", "0 @#x"]


def test_wide_boards_get_a_tens_row():
    text = render_observation(Game(Rules(12, 2, 1, "safe"), seed=0).observation())
    assert text.splitlines()[:2] == ["            11", "  012345678901"]
