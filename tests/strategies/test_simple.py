import pytest

from sweeplab.core.game import Game, GameState, Move
from sweeplab.core.geometry import Board
from sweeplab.core.observation import COVERED, FLAGGED, Observation
from sweeplab.core.rules import Rules
from sweeplab.strategies import StrategyError, make, play
from sweeplab.strategies.base import Strategy


def test_single_point_deductions():
    # 1 H H / F 1 H  -> the top-left 1 already has its flag: (1,0), (2,0)... are safe neighbours of (0,0)
    board = Board(3, 2)
    view = (1, COVERED, COVERED, FLAGGED, 1, COVERED)
    s = make("single-point", seed=0)
    move = s.choose(Observation(board, 1, view))
    assert move == Move.reveal(1)
    # 1 H on a 2x1 board: the H is a mine
    s = make("single-point", seed=0)
    assert s.choose(Observation(Board(2, 1), 1, (1, COVERED))) == Move.flag(1)


def test_single_point_guesses_when_stuck_and_logs_it():
    s = make("single-point", seed=0)
    move = s.choose(Observation(Board(3, 3), 1, (COVERED,) * 9))
    assert move.kind == "reveal" and s.pending_guess is not None and s.pending_guess.kind == "random"


def test_play_records_guess_outcomes():
    game = Game(Rules(9, 9, 10, "safe"), 3)
    s = make("random", seed=3)
    play(s, game)
    assert s.guesses and all(g.outcome is not None for g in s.guesses)
    assert s.guesses[-1].outcome == (game.state is GameState.WON)


def test_play_stops_a_strategy_that_never_finishes():
    class Dither(Strategy):
        name = "dither"

        def choose(self, observation):
            c = 0
            return Move.unflag(c) if observation.view[c] == FLAGGED else Move.flag(c)

    with pytest.raises(StrategyError, match="made 30 moves without finishing"):
        play(Dither(), Game(Rules(3, 3, 1, "safe"), 1), max_moves=30)


def test_illegal_move_is_reported_with_the_strategy_name():
    class Bad(Strategy):
        name = "bad"

        def choose(self, observation):
            return Move.reveal(999)

    with pytest.raises(StrategyError, match="strategy 'bad' chose an illegal move: cannot reveal cell 999"):
        play(Bad(), Game(Rules(3, 3, 1, "safe"), 1))


def test_unknown_option():
    with pytest.raises(StrategyError, match="takes no option"):
        make("random", seed=1, depth=3)
