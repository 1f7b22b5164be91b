"""The endgame search against an independent brute-force game tree, and the layout listing against enumeration."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sweeplab.analysis.exact import analyze
from sweeplab.core.game import Game
from sweeplab.core.geometry import Board
from sweeplab.core.observation import COVERED, Observation
from sweeplab.core.rules import Rules
from sweeplab.formats.position import parse_position
from sweeplab.strategies.best.endgame import Endgame, SearchBudgetExceeded, list_layouts
from tests.strategies.best.brute import consistent_layouts, game_value


def search(observation: Observation, limit: int = 100_000) -> tuple[int, int, int]:
    result = analyze(observation)
    listed = list_layouts(result, limit)
    assert listed is not None
    endgame = Endgame(observation, *listed)
    decision = endgame.decide(endgame.all, 10**7)
    return decision.cell, decision.wins, decision.layouts


def blank(width: int, height: int, mines: int) -> Observation:
    return Observation(Board(width, height), mines, (COVERED,) * (width * height))


@pytest.mark.parametrize(("width", "height", "mines", "wins", "layouts"), [(3, 3, 2, 24, 36), (4, 4, 4, 961, 1820)])
def test_known_optimal_values_from_the_start(width, height, mines, wins, layouts):
    """The published optimal values (anchors.md): 3x3/2 wins 24 of 36 layouts, 4x4/4 wins 961 of 1,820."""
    assert search(blank(width, height, mines))[1:] == (wins, layouts)


@pytest.mark.parametrize(("width", "height", "mines"), [(3, 3, 2), (4, 3, 2), (4, 3, 3), (5, 2, 3), (3, 3, 4)])
def test_matches_brute_force_from_the_start(width, height, mines):
    observation = blank(width, height, mines)
    _, wins, layouts = search(observation)
    assert Fraction(wins, layouts) == game_value(observation)


POSITIONS = [
    "4x3x3\n1HHH\nHHHH\nHHHH\n",
    "4x4x3\n01HH\n01HH\n12HH\nHHHH\n",
    "5x3x3\n1HHHH\nHHHHH\nHH1HH\n",
    "4x4x2\n001H\n112H\nHHHH\nHHHH\n",
]


@pytest.mark.parametrize("text", POSITIONS)
def test_matches_brute_force_in_play(text):
    observation = parse_position(text)
    cell, wins, layouts = search(observation)
    assert Fraction(wins, layouts) == game_value(observation)
    assert observation.view[cell] == COVERED


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 10**6), st.integers(1, 4))
def test_matches_brute_force_on_random_positions(seed, reveals):
    """Positions from random play on a 4x3 board with 3 mines: the search's value is the brute-force game value."""
    game = Game(Rules(4, 3, 3, "safe"), seed)
    for cell in (0, 11, 5, 2)[:reveals]:
        if game.observation().view[cell] == COVERED and not game.over:
            game.reveal(cell)
    if game.over:
        return
    observation = game.observation()
    _, wins, layouts = search(observation)
    assert Fraction(wins, layouts) == game_value(observation)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.integers(3, 5), st.integers(3, 4), st.integers(2, 4))
def test_list_layouts_is_every_consistent_layout(seed, width, height, mines):
    game = Game(Rules(width, height, mines, "safe"), seed)
    game.reveal(0)
    if game.over:
        return
    observation = game.observation()
    listed = list_layouts(analyze(observation), 10**6)
    assert listed is not None
    covered, matrix = listed
    found = {frozenset(c for c, bit in zip(covered, row, strict=True) if bit) for row in matrix}
    assert len(found) == len(matrix)  # no layout twice
    assert found == set(consistent_layouts(observation))


def test_list_layouts_refuses_too_many():
    assert list_layouts(analyze(blank(5, 5, 5)), 1000) is None  # C(25, 5) = 53,130 layouts


def test_budget_is_enforced_and_finished_work_is_kept():
    observation = blank(4, 4, 4)
    endgame = Endgame(observation, *list_layouts(analyze(observation), 10**6))
    with pytest.raises(SearchBudgetExceeded):
        endgame.decide(endgame.all, 100)
    kept = len(endgame.memo)
    assert kept > 0
    assert endgame.decide(endgame.all, 10**7).wins == 961


def test_known_follows_the_game():
    """After a move, the layouts still possible are those matching what was revealed."""
    game = Game(Rules(4, 4, 3, "unsafe"), layout=[3, 7, 12])
    observation = game.observation()
    endgame = Endgame(observation, *list_layouts(analyze(observation), 10**6))
    game.reveal(0)
    later = game.observation()
    S = endgame.known(later)
    assert S.bit_count() == len(consistent_layouts(later)) == analyze(later).layouts
