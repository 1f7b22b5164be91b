"""PGMS's EquationStrategy as seed 000 describes it: trivial rules, subset reduction, certain moves, random guesses."""

from __future__ import annotations

import pytest

from sweeplab.core.game import Game, GameState, Move
from sweeplab.core.geometry import Board
from sweeplab.core.observation import COVERED, FLAGGED, Observation
from sweeplab.core.rules import Rules
from sweeplab.formats.position import parse_position
from sweeplab.strategies import make, play


def all_moves(strategy, observation):
    first = strategy.choose(observation)
    return [first, *strategy._queue]


def test_one_two_one_against_a_wall():
    # HHH over 1 2 1: the 1s' squares a+b = 1 and b+c = 1, the 2's a+b+c = 2 -> c = 1, then b = 0 and a = 1
    s = make("equation", seed=0)
    moves = all_moves(s, parse_position("3x2x2\nHHH\n121\n"))
    assert set(moves) == {Move.reveal(1), Move.flag(0), Move.flag(2)}
    assert moves[0] == Move.reveal(1)  # clear squares first
    assert s.pending_guess is None


def test_one_two_one_in_a_longer_row_needs_the_chain_of_reductions():
    # HHHHH over 1 1 2 1 1 (mines at b and d): a+b = 1, a+b+c = 1 -> c = 0; then b+c+d = 2 -> b+d = 2 -> mines,
    # then a = e = 0. No single number decides anything here.
    observation = parse_position("5x2x2\nHHHHH\n11211\n")
    assert set(all_moves(make("equation", seed=0), observation)) == {
        Move.reveal(0),
        Move.reveal(2),
        Move.reveal(4),
        Move.flag(1),
        Move.flag(3),
    }
    sp = make("single-point", seed=0)  # single-point can only guess here
    sp.choose(observation)
    assert sp.pending_guess is not None


def test_flags_are_subtracted_and_trivial_rules_apply():
    # 1 H H / F 1 H: the (0,0) 1 already has its flag, so (1,0) is clear; the (1,1) 1 too -> all its squares clear
    observation = Observation(Board(3, 2), 1, (1, COVERED, COVERED, FLAGGED, 1, COVERED))
    assert set(all_moves(make("equation", seed=0), observation)) == {Move.reveal(1), Move.reveal(2), Move.reveal(5)}


def test_guesses_at_random_when_nothing_is_certain():
    observation = parse_position("3x2x1\nHHH\n1HH\n")  # the 1 sees (0,0), (1,0), (1,1): nothing certain
    cells = set()
    for seed in range(12):
        s = make("equation", seed=seed)
        move = s.choose(observation)
        assert move.kind == "reveal" and s.pending_guess.kind == "random" and s.pending_guess.safety is None
        cells.add(move.cell)
    assert len(cells) > 2  # not only the constrained squares, not one fixed cell


def test_first_move_is_random():
    observation = Game(Rules(9, 9, 10, "safe"), 1).observation()
    firsts = set()
    for seed in range(10):
        s = make("equation", seed=seed)
        firsts.add(s.choose(observation).cell)
        assert s.pending_guess.kind == "first" and s.pending_guess.safety == pytest.approx(1 - 10 / 81)
    assert len(firsts) > 3


def test_pgms_guess_rule_takes_the_least_pessimistic_square():
    # H H H / 1 H H with 2 mines: the squares of the 1 have 1/3, the two others mines left / covered = 2/5
    observation = parse_position("3x2x2\nHHH\n1HH\n")
    for seed in range(5):
        s = make("equation", seed=seed, guess="pgms")
        move = s.choose(observation)
        assert move.cell in (0, 1, 4) and s.pending_guess.kind == "educated"
        assert s.pending_guess.safety == pytest.approx(2 / 3)
    with pytest.raises(ValueError, match="unknown guess rule"):
        make("equation", seed=0, guess="psychic")


@pytest.mark.parametrize("rule", ["random", "pgms"])
def test_never_flags_a_safe_square_and_reveals_mines_only_when_guessing(rule):
    rules = Rules(8, 8, 10, "safe")
    for seed in range(20):
        s = make("equation", seed=seed, guess=rule)
        game = play(s, Game(rules, seed))
        mines = game.mine_cells()
        guessed = {g.move for g in s.guesses}
        for i, move in enumerate(game.history):
            if move.kind == "flag":
                assert move.cell in mines
            elif i not in guessed:
                assert move.cell not in mines
        if game.state is GameState.LOST:
            assert s.guesses[-1].cell == game.exploded


def test_difference_and_three_equation_rules():
    from sweeplab.strategies.pgms.equation import combination_moves

    # {0,1,2} = 2 and {1,2,3} = 1: subtracting, 0 - 3 = 1, so 0 is a mine and 3 is clear
    assert combination_moves([((0, 1, 2), 2), ((1, 2, 3), 1)]) == ({3}, {0})
    assert combination_moves([((0, 1, 2), 1), ((1, 2, 3), 1)]) == (set(), set())  # nothing forced
    # {0..4} = 3, {0,1,5} = 1, {2,3,6} = 1: no pair decides, but e1 - e0 - e2 = 4 - 5 - 6 = 1 makes 4 a mine
    # and 5, 6 clear ("the Mio trick")
    equations = [((0, 1, 2, 3, 4), 3), ((0, 1, 5), 1), ((2, 3, 6), 1)]
    assert combination_moves(equations) == (set(), set())
    assert combination_moves(equations, triples=True) == ({5, 6}, {4})


@pytest.mark.parametrize("rules", ["difference", "mio"])
def test_rule_sets_never_flag_a_safe_square_or_reveal_a_mine(rules):
    for seed in range(20):
        s = make("equation", seed=seed, guess="pgms", rules=rules)
        game = play(s, Game(Rules(9, 9, 10, "safe"), seed))
        certain = {g.move for g in s.guesses}
        mines = game.mine_cells()
        for i, move in enumerate(game.history):
            if move.kind == "flag":
                assert move.cell in mines
            elif i not in certain and move.kind == "reveal" and i != len(game.history) - 1:
                assert move.cell not in mines


def test_mio_adds_the_global_equation_near_the_end():
    # a 1x4 strip with one mine: the 1 at x=2 sees x=1 and x=3; x=0 is seen by no number. Only the count of mines
    # (x0 + x1 + x3 = 1, with x1 + x3 = 1) makes x=0 clear.
    observation = Observation(Board(4, 1), 1, (COVERED, COVERED, 1, COVERED))
    s = make("equation", seed=0, rules="mio")
    assert set(all_moves(s, observation)) == {Move.reveal(0)}
    plain = make("equation", seed=0, rules="difference")
    plain.choose(observation)
    assert plain.pending_guess is not None  # without the global equation it must guess
