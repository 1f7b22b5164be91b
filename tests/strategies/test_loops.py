"""The players' C module lends the game and the harness its hot paths outside the players: 3BV, a layout's numbers,
the dealer's sample and the games' seeds, each the same as its Python twin on every input."""

import math
import random

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from sweeplab.core import game as game_module
from sweeplab.core import seeds as seeds_module
from sweeplab.core.game import Game, _sample
from sweeplab.core.rules import Rules
from sweeplab.core.seeds import _entropy_pool, seed_sequence_state
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
def test_the_game_counts_with_the_lent_twins():
    assert game_module._THREE_BV is LOOPS.three_bv  # lent when the players' module loaded
    assert game_module._NUMBERS is LOOPS.layout_numbers and game_module._SAMPLE is LOOPS.sample_pool
    assert seeds_module._SPAWN is LOOPS.spawn_state
    game = Game(Rules(30, 16, 99, "unsafe"), 5)
    game.reveal(0)
    assert game.three_bv() == game.three_bv_in_python()


@needs_kernel
@settings(max_examples=200, deadline=None)
@given(width=st.integers(1, 14), height=st.integers(1, 14), data=st.data())
def test_a_layouts_numbers_in_c_are_the_python_ones(width, height, data):
    cells = width * height
    mines = data.draw(st.lists(st.integers(0, cells - 1), max_size=2 * cells))  # repeats count once
    game = Game(Rules(width, height, 0, "unsafe"), 1)
    game_module.lend(None)
    try:
        game._set_layout(mines)
        expected = (game._mine, game._number)
    finally:
        game_module.lend(LOOPS)
    three_bv = game.three_bv_in_python()
    assert LOOPS.layout_numbers(mines, cells, width) == (*expected, three_bv)
    assert LOOPS.layout_numbers(tuple(mines), cells, width) == (*expected, three_bv)
    game._set_layout(mines)  # the lent twin: the same lists, the 3BV kept from the deal
    assert (game._mine, game._number, game.three_bv()) == (*expected, three_bv)


@needs_kernel
@settings(max_examples=300, deadline=None)
@given(n=st.integers(0, 700), data=st.data(), seed=st.integers(0, 2**64))
def test_the_sample_in_c_draws_what_the_interpreter_draws(n, data, seed):
    k = data.draw(st.integers(0, n))
    assume(n <= 21 + (4 ** math.ceil(math.log(k * 3, 4)) if k > 5 else 0))  # where sample keeps a pool (_sample)
    pool = list(range(n))
    chosen = LOOPS.sample_pool(random.Random(seed).getrandbits, pool, k)
    twin_pool = list(range(n))
    game_module.lend(None)
    try:
        twin = _sample(random.Random(seed), twin_pool, k)
    finally:
        game_module.lend(LOOPS)
    assert chosen == twin == random.Random(seed).sample(range(n), k)
    assert pool == twin_pool  # the pool left shuffled alike


@needs_kernel
@settings(max_examples=300, deadline=None)
@given(entropy=st.integers(0, 2**300), key=st.integers(0, 2**64 - 1), words=st.integers(0, 9))
def test_the_games_seeds_in_c_are_the_python_ones(entropy, key, words):
    in_c = seed_sequence_state(entropy, (key,), words)
    seeds_module.lend(None)
    try:
        assert seed_sequence_state(entropy, (key,), words) == in_c
    finally:
        seeds_module.lend(LOOPS.spawn_state)
    pool, hash_const = _entropy_pool(entropy, True)
    assert LOOPS.spawn_state(pool, hash_const, key, words) == in_c
