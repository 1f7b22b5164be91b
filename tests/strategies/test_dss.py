"""Seed 003's CSP family: DSS on hand-built matrices, DSScsp vs backtracking vs brute force, the limited traversal's
caps, the Manhattan tie-break, and the strategies' moves on hand-built positions."""

import itertools
import random

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from sweeplab.analysis.constraints import constraints_from
from sweeplab.core.game import Game, Move
from sweeplab.core.geometry import Board
from sweeplab.core.observation import COVERED, FLAGGED, Observation
from sweeplab.core.rules import Rules
from sweeplab.formats.position import parse_position
from sweeplab.strategies import StrategyError, make, play
from sweeplab.strategies.dss import (
    column_means,
    components,
    dss,
    enumerate_solutions,
    matrix_from,
    pick_guess,
    substitute,
)


def mask(*columns):
    m = 0
    for c in columns:
        m |= 1 << c
    return m


def brute_force(rows, n):
    """Every 0/1 assignment of n columns satisfying the rows, as bitmasks."""
    out = set()
    for values in itertools.product((0, 1), repeat=n):
        s = sum(v << j for j, v in enumerate(values))
        if all((s & support).bit_count() == b for support, b in rows):
            out.add(s)
    return out


def backbones(solutions, n):
    ones = zeros = 0
    for j in range(n):
        column = {(s >> j) & 1 for s in solutions}
        if column == {1}:
            ones |= 1 << j
        elif column == {0}:
            zeros |= 1 << j
    return ones, zeros


# ----- DSS on hand-built matrices -----


def test_dss_single_row_rules():
    red = dss([(mask(0, 1, 2), 0), (mask(3, 4), 2)])
    assert red.zeros == mask(0, 1, 2) and red.ones == mask(3, 4) and red.rows == ()


def test_dss_subset_reduction():
    # x0 + x1 = 1 and x0 + x1 + x2 = 2 (the classic 1-2 on a wall): x2 is a mine, x0/x1 stay open
    red = dss([(mask(0, 1), 1), (mask(0, 1, 2), 2)])
    assert red.ones == mask(2) and red.zeros == 0 and red.rows == ((mask(0, 1), 1),)


def test_dss_general_pair_neither_row_decides_alone():
    # x0 + x1 + x2 = 2 and x1 + x2 + x3 = 1: b_i - b_j = 1 = |{0}|, so x0 = 1 and x3 = 0
    rows = [(mask(0, 1, 2), 2), (mask(1, 2, 3), 1)]
    red = dss(rows)
    assert red.ones == mask(0) and red.zeros == mask(3) and red.rows == ((mask(1, 2), 1),)
    assert (red.ones, red.zeros) == backbones(brute_force(rows, 4), 4)


def test_dss_chains_to_a_fixed_point():
    # 1-2-1 along a wall: columns 0..4 under numbers seeing {0,1,2}=1, {1,2,3}=2, {2,3,4}=1
    rows = [(mask(0, 1, 2), 1), (mask(1, 2, 3), 2), (mask(2, 3, 4), 1)]
    red = dss(rows)
    assert (red.ones, red.zeros) == (mask(1, 3), mask(0, 2, 4)) == backbones(brute_force(rows, 5), 5)
    assert red.rows == ()


def test_dss_finds_nothing_when_nothing_is_forced():
    rows = [(mask(0, 1), 1), (mask(1, 2), 1)]
    red = dss(rows)
    assert red.ones == red.zeros == 0 and set(red.rows) == set(rows)


def test_dss_and_pruning_detect_contradictions():
    assert dss([(mask(0), 1), (mask(0, 1), 0)]) is None
    assert dss([(mask(0, 1), 1), (mask(0, 1), 2)]) is None
    assert dss([(mask(0, 1, 2), 3), (mask(1, 2, 3), 0)]) is None
    assert substitute([(mask(0, 1), 1)], ones=mask(0, 1), zeros=0) is None  # b < 0
    assert substitute([(mask(0, 1), 2)], ones=0, zeros=mask(0)) is None  # b > support


# ----- DSScsp and backtracking enumeration -----


def test_enumerations_agree_on_a_hand_built_matrix():
    rows = [(mask(0, 1, 2), 1), (mask(2, 3, 4), 2), (mask(4, 5), 1)]
    truth = brute_force(rows, 6)
    plain = enumerate_solutions(rows, use_dss=False)
    fast = enumerate_solutions(rows, use_dss=True, rng=random.Random(3))
    assert plain.complete and fast.complete
    assert set(plain.solutions) == set(fast.solutions) == truth
    assert len(plain.solutions) == len(truth) == len(fast.solutions)
    assert fast.nodes < plain.nodes  # DSS at the nodes shrinks the tree


def test_enumeration_of_an_infeasible_matrix_is_empty_and_complete():
    e = enumerate_solutions([(mask(0, 1), 1), (mask(0, 1, 2), 3)])
    assert e.solutions == () and e.complete


def test_components_split_independent_rows():
    rows = [(mask(0, 1), 1), (mask(5, 6), 1), (mask(1, 2), 1), (mask(9), 0)]
    assert components(rows) == [[rows[0], rows[2]], [rows[1]], [rows[3]]]


def positions():
    """Small random consistent positions: a hidden layout, some safe cells revealed, some mines flagged."""

    @st.composite
    def build(draw):
        width = draw(st.integers(2, 6))
        height = draw(st.integers(2, 5))
        cells = width * height
        mines = draw(st.integers(1, max(1, cells // 3)))
        layout = set(draw(st.permutations(range(cells)))[:mines])
        board = Board(width, height)
        opened = draw(st.lists(st.booleans(), min_size=cells, max_size=cells))
        flagged = draw(st.lists(st.booleans(), min_size=cells, max_size=cells))
        view = []
        for c in range(cells):
            if c in layout:
                view.append(FLAGGED if flagged[c] else COVERED)
            elif opened[c]:
                view.append(sum(n in layout for n in board.neighbours[c]))
            else:
                view.append(COVERED)
        return Observation(board, mines, tuple(view))

    return build()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(), st.integers(0, 2**32))
def test_dss_and_dsscsp_match_brute_force_on_random_positions(observation, seed):
    columns, rows = matrix_from(constraints_from(observation))
    n = len(columns)
    assume(0 < n <= 12)
    truth = brute_force(rows, n)
    assert truth  # the position came from a real layout
    red = dss(rows)
    assert red is not None
    for s in truth:  # every value DSS fixes holds in every solution
        assert s & red.ones == red.ones and s & red.zeros == 0
    fast = enumerate_solutions(rows, use_dss=True, rng=random.Random(seed))
    plain = enumerate_solutions(rows, use_dss=False)
    assert fast.complete and plain.complete
    assert len(fast.solutions) == len(set(fast.solutions)) == len(truth)
    assert set(fast.solutions) == set(plain.solutions) == truth
    # equation (3) per independent sub-matrix equals equation (3) over the whole solution matrix
    per_part = {}
    for part in components(rows):
        support = 0
        for s, _ in part:
            support |= s
        per_part.update(column_means(enumerate_solutions(part).solutions, support))
    whole = column_means(sorted(truth), (1 << n) - 1)
    assert per_part.keys() == whole.keys()
    assert all(abs(per_part[j] - whole[j]) < 1e-9 for j in whole)


# ----- limited traversal -----

WIDE = [(mask(*range(12)), 6)]  # one row, C(12, 6) = 924 solutions


def test_limited_traversal_respects_the_solution_cap():
    e = enumerate_solutions(WIDE, rng=random.Random(1), max_solutions=50)
    assert len(e.solutions) == 50 and not e.complete and e.stopped == "solutions"
    assert all(s.bit_count() == 6 for s in e.solutions)
    full = enumerate_solutions(WIDE, rng=random.Random(1))
    assert full.complete and len(full.solutions) == 924


def test_limited_traversal_respects_the_node_and_depth_caps():
    e = enumerate_solutions(WIDE, use_dss=False, max_nodes=40)
    assert e.nodes == 40 and not e.complete and e.stopped == "nodes"
    shallow = enumerate_solutions(WIDE, rng=random.Random(1), max_depth=3)
    assert shallow.solutions == () and not shallow.complete and shallow.stopped == "depth"
    deep_enough = enumerate_solutions(WIDE, rng=random.Random(1), max_depth=12)
    assert deep_enough.complete and len(deep_enough.solutions) == 924


def test_limited_traversal_is_deterministic_for_a_seed_and_random_across_seeds():
    runs = [enumerate_solutions(WIDE, rng=random.Random(seed), max_solutions=20).solutions for seed in (5, 5, 6, 7)]
    assert runs[0] == runs[1]
    assert len({frozenset(r) for r in runs}) > 1


# ----- the Manhattan tie-break -----


def test_pick_guess_manhattan_prefers_the_border_within_the_tolerance():
    p = {10: 0.10, 0: 0.13, 1: 0.20}
    distance = {10: 2, 0: 0, 1: 0}
    assert pick_guess(p, random.Random(0)) == 10
    assert pick_guess(p, random.Random(0), distance, tolerance=0.05) == 0
    assert pick_guess(p, random.Random(0), distance, tolerance=0.01) == 10
    # same distance: the lower probability wins
    assert pick_guess({4: 0.12, 5: 0.1}, random.Random(0), {4: 0, 5: 0}) == 5


def centre_one():
    """7x7, 2 mines, only the centre revealed showing 1: its 8 neighbours are at 1/8, the other 40 cells at 1/40."""
    view = [COVERED] * 49
    view[24] = 1
    return Observation(Board(7, 7), 2, tuple(view), moves=1)


def test_unconstrained_probability_and_manhattan_choice():
    board = Board(7, 7)
    plain_distances = set()
    for seed in range(12):
        s = make("dsscsp-manhattan", seed=seed)
        move = s.choose(centre_one())
        assert move.kind == "reveal" and board.edge_distance(move.cell) == 0
        assert s.pending_guess.kind == "unconstrained" and s.pending_guess.safety == pytest.approx(1 - 1 / 40)
        s = make("dsscsp", seed=seed)
        move = s.choose(centre_one())
        assert s.pending_guess.safety == pytest.approx(1 - 1 / 40)
        plain_distances.add(board.edge_distance(move.cell))
    assert plain_distances == {0, 1}  # without the heuristic, any of the 40 tied cells


# ----- the strategies on positions -----


@pytest.mark.parametrize("name", ["dss", "dsscsp", "dsscsp-limited", "dsscsp-manhattan", "dsscsp-limited-manhattan"])
def test_certain_moves_come_from_dss_without_an_enumeration(name):
    position = parse_position("4x3x2\n11HH\nHHHH\nHHHH\n")
    s = make(name, seed=0)
    move = s.choose(position)
    # (0,0)=1 sees {(0,1),(1,1)}; (1,0)=1 sees {(2,0),(0,1),(1,1),(2,1)}: subset -> (2,0),(2,1) are safe
    assert move == Move.reveal(position.board.index(2, 0))
    assert s.pending_guess is None and s.searches == 0
    assert s.choose(position) == Move.reveal(position.board.index(2, 1))


def test_backtracking_finds_the_same_certain_moves_by_enumeration():
    position = parse_position("4x3x2\n11HH\nHHHH\nHHHH\n")
    s = make("backtracking", seed=0)
    assert s.choose(position) == Move.reveal(position.board.index(2, 0))
    assert s.pending_guess is None and s.searches == 1


def test_certain_mines_are_flagged():
    s = make("dsscsp", seed=0)
    assert s.choose(parse_position("2x1x1\n1H\n")) == Move.flag(1)


def test_first_move_is_a_corner():
    board = Board(9, 9)
    for seed in range(8):
        s = make("dsscsp-limited", seed=seed)
        move = s.choose(Observation(board, 10, (COVERED,) * 81))
        assert board.is_corner(move.cell) and s.pending_guess.kind == "first"


def test_a_tripped_guard_still_gives_a_legal_move():
    s = make("dsscsp", seed=0, max_nodes=1)
    move = s.choose(centre_one())
    assert move.kind == "reveal" and s.truncated == 1 and s.pending_guess is not None
    # with no solution found, the frontier falls back to the board density: 2 mines / 48 covered
    s = make("backtracking", seed=0, max_nodes=1)
    s.choose(centre_one())
    assert s.truncated == 1


def test_options_are_checked():
    with pytest.raises(StrategyError, match="max_nodes must be at least 1"):
        make("dsscsp", seed=0, max_nodes=0)
    with pytest.raises(StrategyError, match="tolerance"):
        make("dsscsp-manhattan", seed=0, tolerance=2)
    with pytest.raises(TypeError):
        make("dss", seed=0, depth=3)


def test_dss_dsscsp_and_backtracking_give_the_same_probabilities_along_a_game():
    """With complete enumerations the three versions give equation (3) the same values (only their speed differs)."""
    seen = []
    play(make("dsscsp", seed=4), Game(Rules(16, 16, 40, "safe"), 4), on_move=lambda g, m: seen.append(g.observation()))
    compared = 0
    for observation in seen[1::3]:
        if observation.is_start() or all(v != COVERED for v in observation.view):
            continue
        problem = constraints_from(observation)
        columns, rows = matrix_from(problem)
        results = [make(name, seed=1)._probabilities(problem, columns, rows) for name in ("backtracking", "dss", "dsscsp")]
        assert results[0] == results[1]
        assert results[0][1:] == results[2][1:]
        assert results[0][0].keys() == results[2][0].keys()
        assert all(abs(results[0][0][c] - results[2][0][c]) < 1e-9 for c in results[0][0])
        compared += 1
    assert compared > 5


# ----- the options: "limited + DSS" and the location score (4.2.2) -----
def test_location_score_is_the_chance_of_a_zero_by_place():
    from sweeplab.strategies.dss import location_score

    board = Board(7, 7)
    assert location_score(board, 0, 0.2) == pytest.approx(0.8**4)  # corner
    assert location_score(board, 3, 0.2) == pytest.approx(0.8**6)  # edge
    assert location_score(board, 24, 0.2) == pytest.approx(0.8**9)  # middle


def test_location_heuristic_guesses_a_corner_among_tied_cells():
    board = Board(7, 7)
    for seed in range(8):
        s = make("dsscsp", seed=seed, heuristic="location")
        move = s.choose(centre_one())
        assert board.is_corner(move.cell) and s.pending_guess.safety == pytest.approx(1 - 1 / 40)
    assert make("dsscsp-manhattan").heuristic == "manhattan" and make("dsscsp").heuristic == "none"
    assert make("dsscsp-manhattan", heuristic="none").heuristic == "none"
    with pytest.raises(StrategyError, match="heuristic must be one of"):
        make("dsscsp", heuristic="closest")


def test_limited_option_gives_plain_backtracking_the_limited_guards():
    limited = make("dss", limited=True)
    assert limited.is_limited and limited.max_solutions == 1000 and limited.max_depth == 300
    full = make("dss")
    assert not full.is_limited and full.max_solutions is None
    assert not make("dsscsp-limited", limited=False).is_limited
