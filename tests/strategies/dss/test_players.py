"""Seed 003's CSP family (sweeplab.strategies.dss.players): the Manhattan tie-break, the location score and the strategies' moves
on hand-built positions (the matrix algorithms are tested in test_dss_matrix.py)."""

import random

import pytest

from sweeplab.analysis.exact.constraints import constraints_from
from sweeplab.core.game import Game, Move
from sweeplab.core.geometry import Board
from sweeplab.core.observation import COVERED, Observation
from sweeplab.core.rules import Rules
from sweeplab.formats.position import parse_position
from sweeplab.strategies import StrategyError, make, play
from sweeplab.strategies.dss.matrix import matrix_from
from sweeplab.strategies.dss.players import pick_guess

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
    from sweeplab.strategies.dss.players import location_score

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
