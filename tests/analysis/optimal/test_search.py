"""The optimal-play search against a plain game-tree search, the published values, and its own invariances."""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from itertools import combinations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sweeplab.analysis.optimal.search import (
    KERNEL,
    OptimalSearch,
    SearchBudgetExceeded,
    SearchError,
)
from sweeplab.core.geometry import Board
from sweeplab.core.rules import Rules

# ----- a plain game-tree search: every move tried, the game's own flood fill, no table, no pruning, no symmetry -----


def plain_deal(rules: Rules, click: int) -> list[frozenset[int]]:
    """The layouts dealt for a first click, one per way of dealing, written from the rules' descriptions."""
    board = rules.board
    cells = range(board.cells)
    every = [frozenset(c) for c in combinations(cells, rules.mines)]
    if rules.first_click == "unsafe":
        return every
    if rules.first_click == "xp":
        out = []
        for layout in every:
            if click in layout:
                target = min(c for c in cells if c != click and c not in layout)
                layout = (layout - {click}) | {target}
            out.append(layout)
        return out
    keep = {click}
    if rules.first_click == "zero" and board.cells - len(board.neighbours[click]) - 1 >= rules.mines:
        keep |= set(board.neighbours[click])
    return [layout for layout in every if not layout & keep]


def plain_reveal(board: Board, layout: frozenset[int], view: tuple[int, ...], cell: int) -> tuple[int, ...] | None:
    """The view after revealing ``cell`` (None: a mine), with the flood fill of zeros."""
    if cell in layout:
        return None
    out = list(view)
    stack = [cell]
    while stack:
        c = stack.pop()
        if out[c] >= 0:
            continue
        out[c] = sum(n in layout for n in board.neighbours[c])
        if out[c] == 0:
            stack.extend(n for n in board.neighbours[c] if out[n] < 0)
    return tuple(out)


def plain_optimal(rules: Rules) -> Fraction:
    board = rules.board
    safe_cells = board.cells - rules.mines

    @cache
    def wins(view: tuple[int, ...], layouts: tuple[frozenset[int], ...]) -> int:
        if sum(v >= 0 for v in view) == safe_cells:
            return len(layouts)
        best = 0
        for cell in (c for c, v in enumerate(view) if v < 0):
            best = max(best, move(view, layouts, cell))
        return best

    def move(view: tuple[int, ...], layouts: tuple[frozenset[int], ...], cell: int) -> int:
        outcomes: dict[tuple[int, ...], list[frozenset[int]]] = {}
        for layout in layouts:
            after = plain_reveal(board, layout, view, cell)
            if after is not None:
                outcomes.setdefault(after, []).append(layout)
        return sum(wins(after, tuple(group)) for after, group in outcomes.items())

    start = (-1,) * board.cells
    return max(Fraction(move(start, tuple(plain_deal(rules, c)), c), len(plain_deal(rules, c))) for c in range(board.cells))


SMALL = [(w, h) for w, h in ((1, 4), (2, 2), (4, 1), (1, 5), (1, 6), (2, 3), (3, 2), (6, 1))]


def _small_cases() -> list[tuple[int, int, int, str]]:
    out = []
    for w, h in SMALL:
        for mines in range(1, w * h):
            for rule in ("unsafe", "safe", "zero", "xp"):
                try:
                    Rules(w, h, mines, rule)
                except ValueError:
                    continue
                out.append((w, h, mines, rule))
    return out


ENGINES = [False, True] if KERNEL is not None else [False]


@pytest.mark.parametrize("kernel", ENGINES, ids=lambda k: "C" if k else "python")
@pytest.mark.parametrize("w,h,mines,rule", _small_cases())
def test_search_equals_plain_game_tree(w, h, mines, rule, kernel):
    rules = Rules(w, h, mines, rule)
    assert OptimalSearch(w, h, mines, kernel=kernel).solve(rule).value == plain_optimal(rules)


# ----- published values -----


def test_three_by_three_two_mines_is_two_thirds():
    result = OptimalSearch(3, 3, 2).solve("unsafe")
    assert (result.wins, result.layouts) == (24, 36)


def test_four_by_four_four_mines_is_961_of_1820():
    result = OptimalSearch(4, 4, 4).solve("unsafe")
    assert (result.wins, result.layouts) == (961, 1820)
    assert result.best == (1, 2, 4, 7, 8, 11, 13, 14)  # the edge cells next to the corners


@pytest.mark.parametrize("kernel", ENGINES, ids=lambda k: "C" if k else "python")
def test_move_value_is_each_moves_exact_worth(kernel):
    """After the corner of 4x4x4 shows its number, ``move_value`` of every cell equals ``move_values(exact=True)``, and
    the best of them is the state's value that ``move_values`` puts first. (Both stand on the same search, checked
    against a plain game tree above; this checks that ``move_value`` asks it for an exact value, not a bound.)"""
    search = OptimalSearch(4, 4, 4, kernel=kernel)
    layouts = [e for e in search.every_encoded() if not e & 1 and (e >> 16) & 15 == 1]  # the corner shows 1
    revealed, code = 1, (1 + 1)
    exact = search.move_values(revealed, code, layouts, exact=True)
    assert all(search.move_value(revealed, code, layouts, cell) == wins for wins, cell, _ in exact)
    assert search.move_values(revealed, code, layouts)[0][0] == max(wins for wins, _, _ in exact)


def test_safe_is_unsafe_given_a_surviving_first_click():
    """Under ``unsafe`` every first click survives with chance (cells - mines) / cells and then faces the ``safe`` deal."""
    search = OptimalSearch(4, 4, 3)
    unsafe, safe = search.solve("unsafe"), search.solve("safe")
    assert safe.value == unsafe.value * Fraction(16, 13)
    assert safe.best == unsafe.best


# ----- invariances -----


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(1, 4), st.integers(1, 4), st.data())
def test_symmetry_folding_changes_no_value(w, h, data):
    mines = data.draw(st.integers(0, w * h))
    rule = data.draw(st.sampled_from(["unsafe", "safe", "zero"]))
    kernel = data.draw(st.sampled_from(ENGINES)) if w * h <= 12 else None
    try:
        Rules(w, h, mines, rule)
    except ValueError:
        return
    folded = OptimalSearch(w, h, mines, kernel=kernel).solve(rule, every_first_click=True)
    plain = OptimalSearch(w, h, mines, symmetry=False, kernel=kernel).solve(rule, every_first_click=True)
    assert folded.value == plain.value
    values = {c: f.value for f in plain.first_clicks for c in f.cells}
    for f in folded.first_clicks:
        for c in f.cells:
            assert values[c] == f.value


# ----- errors -----


def test_refuses_the_hint_rule_and_huge_boards():
    with pytest.raises(SearchError, match="'hint' rule is not modelled"):
        OptimalSearch(3, 3, 2).solve("hint")
    with pytest.raises(SearchError, match="more than the 1,000"):
        OptimalSearch(8, 8, 10, max_layouts=1000)


@pytest.mark.parametrize("kernel", ENGINES, ids=lambda k: "C" if k else "python")
def test_budget_stops_the_search(kernel):
    search = OptimalSearch(4, 4, 4, kernel=kernel)
    search.max_states = 10
    with pytest.raises(SearchBudgetExceeded, match="more than 10 states"):
        search.solve("unsafe")
    search = OptimalSearch(4, 4, 4, kernel=kernel)
    search.deadline = 0.0  # long past
    with pytest.raises(SearchBudgetExceeded, match="time limit"):
        search.solve("unsafe")
