"""Seed 003's matrix algorithms (sweeplab.strategies.dss.matrix): DSS on hand-built matrices, DSScsp vs backtracking vs
brute force, and the limited traversal's caps."""

import itertools
import random

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from sweeplab.analysis.exact.constraints import constraints_from
from sweeplab.core.geometry import Board
from sweeplab.core.observation import COVERED, FLAGGED, Observation
from sweeplab.strategies.dss.matrix import column_means, components, dss, enumerate_solutions, matrix_from, substitute


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
