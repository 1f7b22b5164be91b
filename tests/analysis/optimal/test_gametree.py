"""The game-tree search: its C and Python twins step for step, and its two front ends against each other."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sweeplab.analysis import analyze
from sweeplab.analysis.exact.listing import list_layouts
from sweeplab.analysis.optimal.gametree import KERNEL, LayoutSetSearch, SearchBudgetExceeded
from sweeplab.analysis.optimal.layouts import layout_masks
from sweeplab.analysis.optimal.search import OptimalSearch
from sweeplab.core.game import Game
from sweeplab.core.geometry import Board
from sweeplab.core.observation import Observation
from sweeplab.core.rules import Rules
from sweeplab.strategies.best.endgame import Endgame
from tests.analysis.compiled import needs_gametree_kernel

ENGINES = [False, True] if KERNEL is not None else [False]


def blank_sets(width: int, height: int, mines: int, use_kernel: bool) -> LayoutSetSearch:
    """The layout-set search over every layout of a blank board: per cell, the layouts where it shows each number and
    those where it is a mine."""
    board = Board(width, height)
    layouts = layout_masks(board.cells, mines)
    shows: list[list[int]] = []
    mine: list[int] = []
    for c in range(board.cells):
        by_number: dict[int, int] = {}
        at = 0
        for i, layout in enumerate(layouts):
            if layout >> c & 1:
                at |= 1 << i
            else:
                number = sum(layout >> n & 1 for n in board.neighbours[c])
                by_number[number] = by_number.get(number, 0) | 1 << i
        shows.append([by_number[v] for v in sorted(by_number)])
        mine.append(at)
    return LayoutSetSearch(shows, mine, len(layouts), use_kernel)


@pytest.mark.parametrize("kernel", ENGINES, ids=lambda k: "C" if k else "python")
@pytest.mark.parametrize(("width", "height", "mines"), [(3, 3, 2), (4, 3, 3), (2, 4, 3), (4, 4, 4)])
def test_both_front_ends_give_every_first_click_the_same_value(width, height, mines, kernel):
    """The information-state search (flood fill, symmetry, bounds) and the layout-set search (free reveals, memo on
    the set) are two views of one game: every first click's value on a blank board is the same in both."""
    states = OptimalSearch(width, height, mines, kernel=kernel)
    sets = blank_sets(width, height, mines, kernel)
    every = states.every_encoded()
    for cell in range(width * height):
        assert states.move_value(0, 0, every, cell) == sets.move_value(sets.all, cell, 10**9)
    assert sets.best_move(sets.all, 10**9)[1] == max(states.move_value(0, 0, every, c) for c in range(width * height))


@pytest.mark.parametrize("kernel", ENGINES, ids=lambda k: "C" if k else "python")
def test_layout_set_budget_counts_positions_and_keeps_its_work(kernel):
    sets = blank_sets(4, 4, 4, kernel)
    with pytest.raises(SearchBudgetExceeded):
        sets.best_move(sets.all, 0)
    assert sets.expanded == 1
    with pytest.raises(SearchBudgetExceeded):
        sets.best_move(sets.all, -5)  # a budget below nothing is none
    assert sets.best_move(sets.all, 10**30)[1] == 961  # one past any counter is no budget
    assert sets.memo_size > 0


def test_asking_for_a_missing_c_search_is_an_error(monkeypatch):
    monkeypatch.setattr("sweeplab.analysis.optimal.gametree.KERNEL", None)
    with pytest.raises(RuntimeError, match="not built"):
        LayoutSetSearch([[1]], [0], 1, use_kernel=True)


@needs_gametree_kernel
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(1, 4), st.integers(1, 3), st.data())
def test_c_search_equals_python_search(w, h, data):
    mines = data.draw(st.integers(0, w * h))
    rule = data.draw(st.sampled_from(["unsafe", "safe", "zero", "xp"]))
    try:
        Rules(w, h, mines, rule)
    except ValueError:
        return
    c = OptimalSearch(w, h, mines, kernel=True).solve(rule, every_first_click=True)
    python = OptimalSearch(w, h, mines, kernel=False).solve(rule, every_first_click=True)
    assert [(f.cell, f.wins, f.layouts) for f in c.first_clicks] == [(f.cell, f.wins, f.layouts) for f in python.first_clicks]


def _positions_of_play(seed: int, width: int, height: int, mines: int, moves: int) -> Observation | None:
    """A position after up to ``moves`` reveals of the safest-looking covered cells (first covered in reading order
    among the lowest probability), or None when the game ended."""
    game = Game(Rules(width, height, mines, "safe"), seed)
    game.reveal((seed % height) * width + (seed // height) % width)
    for _ in range(moves):
        if game.over:
            return None
        result = analyze(game.observation())
        _, cells = result.lowest(1e-12)
        game.reveal(min(cells))
    return None if game.over else game.observation()


@needs_gametree_kernel
@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from([(5, 5, 5), (6, 5, 7), (8, 4, 7), (6, 6, 8)]), st.integers(0, 3))
def test_c_and_python_searches_agree_step_for_step(seed, board, moves):
    """The C search chooses the same cell with the same alternatives and expands the same number of positions as the
    Python one, within a budget, past it (both give up after the same count) and when continued from what they kept."""
    observation = _positions_of_play(seed, *board, moves)
    if observation is None:
        return
    listed = list_layouts(analyze(observation), 3000)
    if listed is None:
        return
    searches = [Endgame(observation, *listed, use_kernel=use) for use in (True, False)]
    for budget in (50, 400, 10**6):  # each call continues from what the last one kept
        outcomes = []
        for endgame in searches:
            try:
                outcomes.append((endgame.decide(endgame.all, budget), endgame.expanded))
            except SearchBudgetExceeded:
                outcomes.append((None, endgame.expanded))
        assert outcomes[0] == outcomes[1]
    assert outcomes[0][0] is not None  # the last, generous budget finishes
    # the value of single moves, from the whole set and from the part where one cell showed its first number, within
    # a small budget (both give up after the same count) and a generous one
    c, p = searches
    column = next((j for j, parts in enumerate(c.shows) if len(parts) > 1), None)
    for S in (c.all,) if column is None else (c.all, c.all & c.shows[column][0]):
        for cell in c.covered[:6]:
            for budget in (30, 10**6):
                got = []
                for endgame in (c, p):
                    try:
                        got.append((endgame.value(S, cell, budget), endgame.expanded))
                    except SearchBudgetExceeded:
                        got.append((None, endgame.expanded))
                assert got[0] == got[1]
