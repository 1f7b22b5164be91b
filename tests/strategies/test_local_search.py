import time

import pytest

from sweeplab.analysis.search.local_search import penalty
from sweeplab.core.game import Game, GameState, Move
from sweeplab.core.geometry import Board
from sweeplab.core.observation import COVERED, Observation
from sweeplab.core.rules import Rules
from sweeplab.formats.position import parse_position
from sweeplab.strategies import make, play
from sweeplab.studies.papers.consistency import stuck_positions


@pytest.mark.parametrize("name", ["sa", "ga"])
def test_trivial_rules_come_first(name):
    player = make(name, seed=0)
    assert player.choose(parse_position("3x2x1\n1HH\nFHH\n")) == Move.reveal(1)
    assert player.pending_guess is None and player.searches == 0
    assert make(name, seed=0).choose(parse_position("2x1x1\n1H\n")) == Move.flag(1)


@pytest.mark.parametrize("name", ["sa", "ga"])
def test_reveals_a_cell_never_a_mine_in_the_sample(name):
    # 1 1 H / H H H with one mine: it is at (0,1) or (1,1), so (2,0) and (2,1) are safe, though no trivial rule says so
    obs = parse_position("3x2x1\n11H\nHHH\n")
    player = make(name, seed=0)
    estimate = player.estimates(obs)
    assert estimate[2] == estimate[5] == 0.0
    assert estimate[3] + estimate[4] == pytest.approx(1.0) and estimate[3] > 0 and estimate[4] > 0
    player = make(name, seed=0)
    move = player.choose(obs)
    assert move.cell in (2, 5)
    guess = player.pending_guess
    assert guess.kind == "educated" and guess.safety == 1.0


def test_sampled_layouts_are_consistent_and_distinct():
    obs = stuck_positions(1, Rules(9, 9, 10, "safe"), seed=3)[0]
    player = make("sa", seed=0)
    layouts = player.sample_layouts(obs)
    assert layouts and all(penalty(obs, layout) == 0 and len(layout) == obs.mines for layout in layouts)


def test_first_move_is_recorded_as_first():
    player = make("sa", seed=0)
    move = player.choose(Observation(Board(9, 9), 10, (COVERED,) * 81))
    assert move.kind == "reveal" and player.pending_guess.kind == "first"


def test_options_bound_the_work():
    player = make("ga", seed=0, runs=2, budget=100)
    assert (player.runs, player.budget) == (2, 100)
    with pytest.raises(ValueError):
        make("sa", seed=0, runs=0)
    with pytest.raises(ValueError, match="runs must be between 1 and 10,000, not 100000000000000000000"):
        make("sa", seed=0, runs=10**20)  # it would never finish a move
    with pytest.raises(ValueError, match="budget must be between 1 and 100,000,000"):
        make("ga", seed=0, budget=10**9)


def test_work_per_move_is_bounded_on_an_expert_position():
    # a stuck position from an expert game: one move costs at most runs * budget solver iterations
    obs = stuck_positions(1, Rules(30, 16, 99, "safe"), min_revealed=60)[0]
    for name in ("sa", "ga"):
        player = make(name, seed=0, runs=2, budget=500)
        start = time.process_time()
        move = player.choose(obs)
        assert time.process_time() - start < 3.0
        assert move.kind == "reveal" and obs.view[move.cell] == COVERED


@pytest.mark.parametrize("name", ["sa", "ga"])
def test_plays_and_wins_some_beginner_games(name):
    games = [play(make(name, seed=s), Game(Rules(9, 9, 10, "safe"), s)) for s in range(10)]
    assert sum(g.state is GameState.WON for g in games) >= 3
