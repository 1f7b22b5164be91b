"""The players' C module lends the game its 3BV count: the same as the Python one on every layout."""

from hypothesis import given, settings
from hypothesis import strategies as st

from sweeplab.core import game as game_module
from sweeplab.core.game import Game
from sweeplab.core.rules import Rules
from sweeplab.strategies.loops import LOOPS
from tests.analysis.compiled import needs_kernel


@needs_kernel
@settings(max_examples=200, deadline=None)
@given(width=st.integers(1, 12), height=st.integers(1, 12), density=st.floats(0, 1), seed=st.integers(0, 10**6))
def test_three_bv_in_c_is_the_python_count(width, height, density, seed):
    mines = round(density * width * height)
    game = Game(Rules(width, height, mines, "unsafe"), seed)
    game.reveal(0)
    assert LOOPS.three_bv(game._mine, game._number, width, height) == game.three_bv_in_python()


@needs_kernel
def test_the_game_counts_with_the_lent_twin():
    assert game_module._THREE_BV is LOOPS.three_bv  # lent when the players' module loaded
    game = Game(Rules(30, 16, 99, "unsafe"), 5)
    game.reveal(0)
    assert game.three_bv() == game.three_bv_in_python()
