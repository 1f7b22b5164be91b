"""Seed 000's CSPStrategy steps 1-3 (sweeplab.strategies.pgms.studholme_steps): simplification, coupled sets, the
backtracking enumeration checked against brute force, the node cap and the mine-count pruning."""

from __future__ import annotations

import itertools
import time

from hypothesis import given, settings
from hypothesis import strategies as st

from sweeplab.strategies.pgms.studholme_steps import CoupledSet, coupled_sets, prune_by_mine_count, simplify, solve_coupled_set


def brute_solutions(constraints, cells):
    for values in itertools.product((0, 1), repeat=len(cells)):
        assignment = dict(zip(cells, values, strict=True))
        if all(sum(assignment[c] for c in cs) == m for cs, m in constraints):
            yield assignment


# ----- step 1 and 2 -----
def test_subset_simplification_from_the_paper():
    # a+b+c+d = 2 and b+c = 1 give a+d = 1, b+c = 1 left as it is
    a, b, c, d = 10, 11, 12, 13
    assert simplify([((a, b, c, d), 2), ((b, c), 1)]) == (set(), set(), [((a, d), 1), ((b, c), 1)])


def test_trivial_constraints_cascade_back_to_step_1():
    # a+b = 1, a+b+c = 1 -> c = 0 (subset), then c+d = 1 -> d = 1 (trivial), then d+e = 1 -> e = 0
    safe, mines, rest = simplify([((0, 1), 1), ((0, 1, 2), 1), ((2, 3), 1), ((3, 4), 1)])
    assert (safe, mines, rest) == ({2, 4}, {3}, [((0, 1), 1)])


small_systems = st.integers(3, 7).flatmap(
    lambda n: st.tuples(
        st.just(n),
        st.lists(st.integers(0, 1), min_size=n, max_size=n),
        st.lists(st.sets(st.integers(0, n - 1), min_size=1, max_size=4), min_size=1, max_size=6),
    )
)


@settings(max_examples=60, deadline=None)
@given(small_systems)
def test_simplify_keeps_exactly_the_same_solutions(system):
    _, hidden, scopes = system
    constraints = [(tuple(sorted(s)), sum(hidden[c] for c in s)) for s in scopes]
    cells = sorted({c for s in scopes for c in s})
    before = list(brute_solutions(constraints, cells))
    safe, mines, rest = simplify(constraints)
    after = [a for a in brute_solutions(rest, cells) if all(a[c] == 0 for c in safe) and all(a[c] == 1 for c in mines)]
    key = lambda a: tuple(sorted(a.items()))  # noqa: E731
    assert sorted(map(key, before)) == sorted(map(key, after))
    assert all(0 < m < len(cs) for cs, m in rest)  # nothing trivial is left


# ----- step 3: the backtracking enumeration -----
@settings(max_examples=60, deadline=None)
@given(small_systems)
def test_enumeration_counts_and_tallies_match_brute_force(system):
    _, hidden, scopes = system
    constraints = [(tuple(sorted(s)), sum(hidden[c] for c in s)) for s in scopes]
    for group in coupled_sets(constraints):
        solved = solve_coupled_set(group)
        counts: dict[int, int] = {}
        tally: dict[int, list[int]] = {}
        for a in brute_solutions(group, list(solved.cells)):
            k = sum(a.values())
            counts[k] = counts.get(k, 0) + 1
            row = tally.setdefault(k, [0] * len(solved.cells))
            for i, c in enumerate(solved.cells):
                row[i] += a[c]
        assert solved.complete and solved.counts == counts and solved.tally == tally
        capped = solve_coupled_set(group, mines_left=1)
        assert capped.counts == {k: v for k, v in counts.items() if k <= 1}


def test_coupled_sets_split_on_shared_variables_only():
    groups = coupled_sets([((0, 1), 1), ((4, 5), 1), ((1, 2), 1), ((5, 6), 1), ((9,), 0)])
    assert sorted(sorted(c for cs, _ in g for c in cs) for g in groups) == [[0, 1, 1, 2], [4, 5, 5, 6], [9]]


def test_node_cap_stops_a_large_set_and_marks_it_incomplete():
    width = 40  # a two-row band under a row of numbers: about 2**40 partial assignments
    constraints = []
    for i in range(width):
        cs = [j for j in (i - 1, i, i + 1) if 0 <= j < width]
        constraints.append((tuple(sorted(cs + [width + j for j in cs])), 2 if len(cs) == 3 else 1))
    start = time.process_time()
    solved = solve_coupled_set(constraints, node_cap=20_000)
    assert time.process_time() - start < 2
    # the cap is checked after each assignment and the variables it forces, so it can overshoot by a few
    assert not solved.complete and 20_000 < solved.nodes <= 20_000 + 2 * width
    assert sum(solved.counts.values()) == solved.found


def test_mine_count_pruning_from_the_paper():
    # two sets each with solutions of 2, 3 and 4 mines, 5 mines remaining: the 4-mine solutions go
    def fake(counts):
        return CoupledSet((1, 2, 3, 4), 2, dict(counts), {k: [0, 0, 0, 0] for k in counts}, sum(counts.values()), 1)

    a, b = fake({2: 1, 3: 1, 4: 1}), fake({2: 5, 3: 2, 4: 1})
    pruned = prune_by_mine_count([a, b], mines_left=5, unconstrained=0)
    assert [sorted(s.counts) for s in pruned] == [[2, 3], [2, 3]]
    # with 9 mines left and 1 unconstrained square: at least 9 - 1 - 4 = 4 mines in each set
    pruned = prune_by_mine_count([a, b], mines_left=9, unconstrained=1)
    assert [sorted(s.counts) for s in pruned] == [[4], [4]]
