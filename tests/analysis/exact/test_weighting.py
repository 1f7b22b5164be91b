"""Weighting by the global mine count (sweeplab.analysis.exact.weighting): the count decides, solutions are weighted,
and the lazy weighing of exact results."""

import random
from fractions import Fraction

import pytest

from sweeplab.analysis.analyzer import Analyzer, analyze
from sweeplab.analysis.exact.weighting import LIGHT_BITS, _binomial_bits, _feasible_total, _LazyMines
from sweeplab.core.game import Game
from sweeplab.core.rules import Rules
from sweeplab.formats.position import parse_position
from tests.analysis.brute import brute_force


def test_global_mine_count_decides():
    # seed 001's Figure 5 idea: the 1 holds the only mine, so the count alone makes every other cell safe
    obs = parse_position("3x3x1\n1HH\nHHH\nHHH\n")
    r = analyze(obs)
    frame = {1, 3, 4}
    for c in obs.covered():
        assert r.fraction(c) == (Fraction(1, 3) if c in frame else 0)
    assert set(r.safe) == set(obs.covered()) - frame
    assert r.unconstrained_probability == 0 and r.layouts == 3
    # with two mines the same cells are no longer safe: the count, not the numbers, decided
    r = analyze(parse_position("3x3x2\n1HH\nHHH\nHHH\n"))
    assert r.fraction(2) == Fraction(1, 5) and r.safe == ()


def test_count_weighting_differs_from_equal_solutions():
    # a 1 touching two cells, 3 unconstrained cells, 2 mines: solutions are not equally likely
    obs = parse_position("3x2x2\n1HH\nHHH\n")
    r = analyze(obs)
    assert r.layouts == brute_force(obs)[0]
    assert sum(r.probability(c) for c in obs.covered()) == pytest.approx(2)


def test_lazy_weighing_is_computed_once_on_first_use():
    import pickle

    game = Game(Rules(16, 16, 40, "safe"), 3)
    game.reveal(0)
    result = Analyzer().analyze(game.observation())
    assert result._layouts is None and isinstance(result._mines, _LazyMines)  # the certain safe cells cost no weighing
    fresh = pickle.loads(pickle.dumps(result))  # unweighed, its mine finder still lazy: it can go to another process
    assert isinstance(fresh._mines, _LazyMines) and fresh.mines == result.mines and fresh.layouts == result.layouts
    layouts, mines = result.layouts, result.mines
    assert result._layouts == layouts and result._mines == mines
    assert sum(result.fraction(c) for c in game.observation().covered()) == 40
    assert pickle.loads(pickle.dumps(result)).fraction(5) == result.fraction(5)


def test_positions_with_huge_weights_are_weighed_at_once_within_the_clock():
    """The deferred weighing has no deadline, so a position whose weights C(U, R) are huge (a 256x256 board early on)
    is weighed inside analyze(), under its budget, while an expert position is deferred."""
    game = Game(Rules(256, 256, 12_000, "safe"), 1)
    game.reveal(0)
    obs = game.observation()
    result = Analyzer().analyze(obs)
    assert _binomial_bits(len(result.unconstrained), 12_000) > LIGHT_BITS
    assert result._layouts is not None  # weighed at once
    small = Game(Rules(30, 16, 99, "safe"), 1)
    small.reveal(0)
    assert Analyzer().analyze(small.observation())._layouts is None


def test_a_feasible_total_is_found_as_the_sets_of_sums_find_it():
    rng = random.Random(5)
    for _ in range(300):
        counts = [rng.sample(range(8), rng.randint(1, 3)) for _ in range(rng.randint(0, 5))]
        U, R = rng.randint(0, 6), rng.randint(-2, 20)
        sums = {0}
        for ks in counts:
            sums = {s + k for s in sums for k in ks if s + k <= R}
        assert _feasible_total(counts, U, R) == any(0 <= R - s <= U for s in sums), (counts, U, R)


def test_the_numeric_weighting_holds_when_the_rest_pulls_a_component_far_below_a_float():
    """600 components of three cells each against 20,000 free cells and 1,200 mines: the free cells pull the
    components' mines far below what the components alone prefer, so each component's completions are near
    e**-1300 of the rest's peak, below the smallest float. Scaled per component they stay usable: the shares are
    finite and, with the free cells' share, account for every mine."""
    import math

    from sweeplab.analysis.exact.components import Component
    from sweeplab.analysis.exact.counting import Tally
    from sweeplab.analysis.exact.weighting import _cell_shares, _weigh_numeric

    n, U, R = 600, 20_000, 1_200
    components = [Component([(3 * i, 3 * i + 1, 3 * i + 2)], [((0,), 0, 0)]) for i in range(n)]
    tallies = [Tally({k: math.comb(3, k) for k in range(4)}, {k: [k * math.comb(3, k)] for k in range(4)}) for _ in range(n)]
    weighing = _weigh_numeric(tallies, U, R)
    assert all(z > 0 for z in weighing.z.values())
    shares = _cell_shares(components, tallies, weighing, True)
    inside = sum(num for row in shares for num, _ in row)
    assert all(0 < num < 3 for row in shares for num, _ in row)
    assert inside + weighing.unconstrained[0] == pytest.approx(R, rel=1e-9)


def test_the_last_component_alone_is_weighed_as_in_the_full_pass():
    """``last_only`` (the chain's completions) stops the backward pass after the last component: its g and z are
    those of the full pass, with a single count among the others and some counts impossible."""
    import numpy as np

    from sweeplab.analysis.exact.counting import Tally
    from sweeplab.analysis.exact.weighting import _weigh_numeric

    rng = random.Random(3)
    tallies = [Tally({k: rng.randint(0, 40) for k in range(rng.randint(1, 6))} | {0: 1}, {}) for _ in range(200)]
    tallies.insert(50, Tally({2: 7}, {}))
    tallies.append(Tally({k: 1 for k in range(30)}, {}))
    full = _weigh_numeric(tallies, 500, 300)
    last = _weigh_numeric(tallies, 500, 300, last_only=True)
    assert list(last.g) == [len(tallies) - 1] and last.z[len(tallies) - 1] == full.z[len(tallies) - 1]
    assert np.array_equal(last.g[len(tallies) - 1], full.g[len(tallies) - 1])
    assert (last.unconstrained, last.layouts) == (full.unconstrained, full.layouts)
