"""Seed 002's levels: averaged K/N probabilities (level 2), configuration enumeration (level 3), the generic rule."""

import itertools
import time
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sweeplab.analysis.exact.constraints import constraints_from
from sweeplab.core.game import Game, GameState, Move
from sweeplab.core.rules import Rules
from sweeplab.formats.position import parse_position
from sweeplab.strategies import make, play
from sweeplab.strategies.levels import (
    average_probabilities,
    coupled_groups,
    enumerate_group,
    enumerated_probabilities,
    guess_candidates,
    trivial_moves,
)

# The paper's 5x5 example: square 6 shows "1", square 17 shows "3", everything else covered.
FIVE_BY_FIVE = "5x5x{}\nHHHHH\nH1HHH\nHHHHH\nHH3HH\nHHHHH\n"
ONE_EIGHTH = {0, 1, 2, 5, 7, 10}
THREE_EIGHTHS = {13, 16, 18, 21, 22, 23}
UNTOUCHED = {3, 4, 8, 9, 14, 15, 19, 20, 24}


def _probabilities(text):
    problem = constraints_from(parse_position(text))
    return average_probabilities([(c.cells, c.mines) for c in problem.constraints])


def test_level2_five_by_five_example():
    p = _probabilities(FIVE_BY_FIVE.format(4))
    assert {c for c, v in p.items() if v == Fraction(1, 8)} == ONE_EIGHTH
    assert {c for c, v in p.items() if v == Fraction(3, 8)} == THREE_EIGHTHS
    # (1/8 + 3/8) / 2 = 1/4: the paper's formula (its text prints 0.4)
    assert p[11] == p[12] == Fraction(1, 4)
    assert not set(p) & UNTOUCHED


def test_level2_clicks_the_smallest_probability_when_below_the_board_average():
    obs = parse_position(FIVE_BY_FIVE.format(4))  # average 4/23 > 1/8
    chosen = set()
    for seed in range(12):
        s = make("level2", seed=seed)
        move = s.choose(obs)
        assert move.kind == "reveal" and move.cell in ONE_EIGHTH
        assert s.pending_guess is not None and s.pending_guess.kind == "educated"
        assert s.pending_guess.safety == pytest.approx(7 / 8)
        chosen.add(move.cell)
    assert len(chosen) > 1  # ties broken at random


BIG = "9x9x{}\n" + "HHHHHHHHH\n" * 4 + "HHHH3HHHH\n" + "HHHHHHHHH\n" * 4


def test_average_board_probability_fallback():
    ring = {3 * 9 + 3, 3 * 9 + 4, 3 * 9 + 5, 4 * 9 + 3, 4 * 9 + 5, 5 * 9 + 3, 5 * 9 + 4, 5 * 9 + 5}
    # 10 mines over 80 covered cells: average 1/8 < 3/8 -> a random square no number touches
    for seed in range(10):
        s = make("level2", seed=seed)
        move = s.choose(parse_position(BIG.format(10)))
        assert move.cell not in ring and move.cell != 40
        assert s.pending_guess is not None and s.pending_guess.kind == "unconstrained"
        assert s.pending_guess.safety == pytest.approx(1 - 10 / 80)
    # 40 mines: average 1/2 > 3/8 -> the ring
    s = make("level2", seed=0)
    assert s.choose(parse_position(BIG.format(40))).cell in ring
    assert s.pending_guess is not None and s.pending_guess.kind == "educated"


def test_fallback_without_untouched_squares_takes_any_covered_square():
    # every covered cell touches a number: averages 5/12, 4/9, 5/12, all above 1 mine / 3 cells
    obs = parse_position("3x2x1\nHHH\n111\n")
    p = _probabilities("3x2x1\nHHH\n111\n")
    assert p == {0: Fraction(5, 12), 1: Fraction(4, 9), 2: Fraction(5, 12)}
    kinds = set()
    for seed in range(8):
        s = make("level2", seed=seed)
        assert s.choose(obs).cell in (0, 1, 2)
        kinds.add(s.pending_guess.kind)
    assert kinds == {"random"}
    # equal to the average is not "bigger": the 1 over three cells with 1 mine left -> educated
    s = make("level2", seed=0)
    s.choose(parse_position("2x2x1\n1H\nHH\n"))
    assert s.pending_guess is not None and s.pending_guess.kind == "educated"


def _brute(sets):
    cells = sorted({c for cs, _ in sets for c in cs})
    solutions = [
        dict(zip(cells, values, strict=True))
        for values in itertools.product((0, 1), repeat=len(cells))
        if all(sum(v for c, v in zip(cells, values, strict=True) if c in cs) == m for cs, m in sets)
    ]
    return solutions


def _stated_result(sets):
    """The paper's result: 1, 2, 3 -> 1/2 and 4 -> 0 over two configurations."""
    result = enumerate_group(sets, list(range(len(sets))))
    if result is None:
        return False
    solutions, mined = result
    cells = {1, 2, 3, 4}
    return solutions == 2 and {c: Fraction(mined.get(c, 0), solutions) for c in cells} == {
        1: Fraction(1, 2),
        2: Fraction(1, 2),
        3: Fraction(1, 2),
        4: 0,
    }


def _third_constraints():
    for size in range(1, 5):
        for scope in itertools.combinations((1, 2, 3, 4), size):
            for mines in range(size + 1):
                yield (scope, mines)


def test_level3_paper_example_readings():
    printed = [((1, 3), 1), ((2, 3, 4), 2)]
    assert enumerate_group(printed, [0, 1])[0] == 3
    # No third sum constraint, whatever its scope and count, gives the stated result with the two printed ones...
    assert not any(_stated_result([*printed, third]) for third in _third_constraints())
    # ... the printed third "{1, 2} -> 3" is impossible on two cells; read as {2, 3} -> 1 it leaves two
    # configurations with 1, 2, 3 -> 1/2 but 4 mined in both.
    solutions, mined = enumerate_group([*printed, ((2, 3), 1)], [0, 1, 2])
    assert solutions == 2 and mined == {1: 1, 2: 1, 3: 1, 4: 2}
    # With the second constraint read as {2, 3, 4} -> 1 and the third as {2, 3} -> 1 the stated result holds.
    reading = [((1, 3), 1), ((2, 3, 4), 1), ((2, 3), 1)]
    assert _stated_result(reading)
    probabilities, fallback = enumerated_probabilities(reading)
    assert probabilities[4] == 0 and not fallback


def test_level3_finds_the_121_safe_square_level2_only_guesses():
    obs = parse_position("3x2x2\n121\nHHH\n")
    s = make("level3", seed=0)
    assert s.choose(obs) == Move.reveal(4)
    assert [s.choose(obs) for _ in range(2)] == [Move.flag(3), Move.flag(5)]
    assert s.pending_guess is None
    s2 = make("level2", seed=0)
    assert s2.choose(obs) == Move.reveal(4)  # averages 7/12, 5/9, 7/12: the middle is the smallest...
    assert s2.pending_guess is not None and s2.pending_guess.kind == "educated"  # ...but only as a guess


@pytest.mark.parametrize("name", ["level2", "level3"])
def test_level1_trivial_patterns_come_first(name):
    assert trivial_moves([((1, 2), 0), ((3, 4), 2), ((5, 6), 1)]) == ([1, 2], [3, 4])
    obs = parse_position("5x1x1\nH0HH1\n")  # the 0 makes cells 0 and 2 safe; the 1 at 4 has one covered neighbour
    s = make(name, seed=0)
    moves = [s.choose(obs) for _ in range(3)]
    assert moves == [Move.reveal(0), Move.reveal(2), Move.flag(3)] and s.pending_guess is None


def test_level3_node_limit_falls_back_to_level2():
    # a chain of overlapping 4-cell windows holding 2 mines each has very many configurations
    sets = [((2 * i, 2 * i + 1, 2 * i + 2, 2 * i + 3), 2) for i in range(40)]
    assert coupled_groups(sets) == [list(range(40))]
    assert enumerate_group(sets, list(range(40)), node_limit=1000) is None
    start = time.process_time()
    probabilities, fallback = enumerated_probabilities(sets)
    assert time.process_time() - start < 10
    assert fallback == {c for cs, _ in sets for c in cs}
    assert probabilities == average_probabilities(sets)


@settings(max_examples=80, deadline=None)
@given(st.data())
def test_level3_matches_brute_force(data):
    cells = list(range(8))
    mines = set(data.draw(st.lists(st.sampled_from(cells), unique=True, max_size=5)))
    scopes = data.draw(st.lists(st.lists(st.sampled_from(cells), unique=True, min_size=1, max_size=4), min_size=1, max_size=5))
    sets = [(tuple(sorted(s)), sum(c in mines for c in s)) for s in scopes]
    probabilities, fallback = enumerated_probabilities(sets)
    assert not fallback
    for group in coupled_groups(sets):
        group_sets = [sets[i] for i in group]
        solutions = _brute(group_sets)
        for c in {c for cs, _ in group_sets for c in cs}:
            assert probabilities[c] == Fraction(sum(s[c] for s in solutions), len(solutions))


@pytest.mark.parametrize("name", ["level2", "level3"])
def test_loses_only_on_guesses_and_flags_only_mines(name):
    for seed in range(15):
        game = Game(Rules(9, 9, 10, "safe"), seed)
        s = make(name, seed=seed)
        play(s, game)
        assert set(game.observation().flagged()) <= set(game.mine_cells())
        if game.state is GameState.LOST:
            assert s.guesses and s.guesses[-1].outcome is False and s.guesses[-1].cell == game.exploded


def test_first_corner_opens_a_corner_and_the_default_a_random_cell():
    from sweeplab.core.game import Game
    from sweeplab.core.rules import Rules

    observation = Game(Rules(9, 9, 10, "safe"), 0).observation()
    corners = set(observation.board.corners())
    for name in ("level2", "level3"):
        picks = {make(name, seed=seed, first="corner").choose(observation).cell for seed in range(12)}
        assert picks <= corners and len(picks) > 1
        randoms = {make(name, seed=seed).choose(observation).cell for seed in range(12)}
        assert not randoms <= corners
    with pytest.raises(Exception, match="first must be one of random, corner"):
        make("level3", first="centre")


def test_guess_candidates_is_the_generic_rule():
    """Smallest probability when at most the board average, else the cells no number touches, else any cell."""
    observation = parse_position(FIVE_BY_FIVE.format(4))
    problem = constraints_from(observation)
    sets = [(c.cells, c.mines) for c in problem.constraints]
    cells, kind, safety = guess_candidates(observation, problem, average_probabilities(sets))
    assert set(cells) == ONE_EIGHTH and kind == "educated" and safety == 7 / 8
    # every estimate above the average (mines left / covered): a cell no number touches
    dense = parse_position("3x1x1\n1HH\n")
    problem = constraints_from(dense)
    cells, kind, safety = guess_candidates(dense, problem, {1: Fraction(1)})
    assert (cells, kind, safety) == ([2], "unconstrained", 0.5)
    cells, kind, safety = guess_candidates(dense, constraints_from(parse_position("2x1x1\n1H\n")), {1: Fraction(1)})
    assert kind == "random" and safety is None
