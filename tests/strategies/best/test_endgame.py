"""The endgame search against an independent brute-force game tree."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sweeplab.analysis import analyze
from sweeplab.analysis.exact.listing import list_layouts
from sweeplab.core.game import Game
from sweeplab.core.geometry import Board
from sweeplab.core.observation import COVERED, Observation
from sweeplab.core.rules import Rules
from sweeplab.formats.position import parse_position
from sweeplab.strategies.best.endgame import Endgame, SearchBudgetExceeded
from tests.analysis.compiled import needs_gametree_kernel
from tests.strategies.best.brute import consistent_layouts, game_value, move_value

#: Both searches: the C one (where built; under CI it must be) and the pure-Python one.
ENGINES = [pytest.param(True, id="c", marks=needs_gametree_kernel), pytest.param(False, id="python")]


def search(observation: Observation, limit: int = 100_000, use_kernel: bool | None = None) -> tuple[int, int, int]:
    result = analyze(observation)
    listed = list_layouts(result, limit)
    assert listed is not None
    endgame = Endgame(observation, *listed, use_kernel=use_kernel)
    decision = endgame.decide(endgame.all, 10**7)
    return decision.cell, decision.wins, decision.layouts


def blank(width: int, height: int, mines: int) -> Observation:
    return Observation(Board(width, height), mines, (COVERED,) * (width * height))


@pytest.mark.parametrize("use_kernel", ENGINES)
@pytest.mark.parametrize(("width", "height", "mines", "wins", "layouts"), [(3, 3, 2, 24, 36), (4, 4, 4, 961, 1820)])
def test_known_optimal_values_from_the_start(width, height, mines, wins, layouts, use_kernel):
    """The published optimal values (anchors.md): 3x3/2 wins 24 of 36 layouts, 4x4/4 wins 961 of 1,820."""
    assert search(blank(width, height, mines), use_kernel=use_kernel)[1:] == (wins, layouts)


@pytest.mark.parametrize("use_kernel", ENGINES)
def test_a_budget_past_any_counter_is_no_budget(use_kernel):
    observation = blank(3, 3, 2)
    endgame = Endgame(observation, *list_layouts(analyze(observation), 100), use_kernel=use_kernel)
    assert endgame.decide(endgame.all, 10**30).wins == 24
    assert Fraction(endgame.value(endgame.all, 0, 10**30), endgame.count) == move_value(observation, 0)


@pytest.mark.parametrize("use_kernel", ENGINES)
@pytest.mark.parametrize(("width", "height", "mines"), [(3, 3, 2), (4, 3, 2), (4, 3, 3), (5, 2, 3), (3, 3, 4)])
def test_matches_brute_force_from_the_start(width, height, mines, use_kernel):
    observation = blank(width, height, mines)
    _, wins, layouts = search(observation, use_kernel=use_kernel)
    assert Fraction(wins, layouts) == game_value(observation)


POSITIONS = [
    "4x3x3\n1HHH\nHHHH\nHHHH\n",
    "4x4x3\n01HH\n01HH\n12HH\nHHHH\n",
    "5x3x3\n1HHHH\nHHHHH\nHH1HH\n",
    "4x4x2\n001H\n112H\nHHHH\nHHHH\n",
]


@pytest.mark.parametrize("use_kernel", ENGINES)
@pytest.mark.parametrize("text", POSITIONS)
def test_matches_brute_force_in_play(text, use_kernel):
    observation = parse_position(text)
    cell, wins, layouts = search(observation, use_kernel=use_kernel)
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


@pytest.mark.parametrize("use_kernel", ENGINES)
def test_budget_is_enforced_and_finished_work_is_kept(use_kernel):
    observation = blank(4, 4, 4)
    endgame = Endgame(observation, *list_layouts(analyze(observation), 10**6), use_kernel=use_kernel)
    with pytest.raises(SearchBudgetExceeded):
        endgame.decide(endgame.all, 100)
    assert endgame.expanded == 101
    kept = endgame.memo_size
    assert kept > 0
    assert endgame.decide(endgame.all, 10**7).wins == 961
    assert endgame.memo_size > kept


def test_known_follows_the_game():
    """After a move, the layouts still possible are those matching what was revealed."""
    game = Game(Rules(4, 4, 3, "unsafe"), layout=[3, 7, 12])
    observation = game.observation()
    endgame = Endgame(observation, *list_layouts(analyze(observation), 10**6))
    game.reveal(0)
    later = game.observation()
    S = endgame.known(later)
    assert S.bit_count() == len(consistent_layouts(later)) == analyze(later).layouts


@pytest.mark.parametrize("use_kernel", ENGINES)
def test_value_of_every_first_move_on_4x4(use_kernel):
    """Every first click's exact value on 4x4/4 with no protection: the best is the published 961 of 1,820 (an edge
    cell), and the values agree with brute force on a smaller board."""
    observation = blank(4, 4, 4)
    endgame = Endgame(observation, *list_layouts(analyze(observation), 10**6), use_kernel=use_kernel)
    values = [endgame.value(endgame.all, cell, 10**7) for cell in range(16)]
    assert max(values) == 961 == endgame.decide(endgame.all, 10**7).wins
    assert values[0] == values[3] == values[12] == values[15] < 961  # the corners are worse than an edge
    small = parse_position(POSITIONS[1])
    endgame = Endgame(small, *list_layouts(analyze(small), 10**6), use_kernel=use_kernel)
    for cell in endgame.covered:
        assert Fraction(endgame.value(endgame.all, cell, 10**7), endgame.count) == move_value(small, cell)
