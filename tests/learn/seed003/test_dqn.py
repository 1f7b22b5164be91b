import json

import numpy as np
import pytest

from sweeplab.core.rules import Rules, make_rules
from sweeplab.learn.models import read_card
from sweeplab.learn.seed003.data import BoardRange
from sweeplab.learn.seed003.dqn import fit_alpha, returns, reward, simulate, train_dqn
from sweeplab.learn.seed003.network import save_network
from sweeplab.learn.seed003.players import DQNStrategy, ManhattanPlayer
from sweeplab.learn.seed003.scorers import load_dqn
from sweeplab.learn.seed003.substates import SIDE
from tests.learn.conftest import beginner_wins


def test_rewards_and_linearly_discounted_returns():
    assert reward(5, lost=False) == pytest.approx(5 / 25) and reward(99, lost=False) == 1.0 and reward(3, lost=True) == -1.0
    g = returns([0.2, 0.4, -1.0])
    assert g[2] == -1.0 and g[1] == pytest.approx((0.4 - 2) / 3) and g[0] == pytest.approx((0.2 + 0.8 - 3) / 6)
    assert all(-1 <= v <= 1 for v in g)


def test_simulate_records_one_state_per_guess_with_returns_in_range():
    boards = BoardRange.fixed(make_rules("beginner"))
    ep = simulate(ManhattanPlayer, (0.1, 0, 0, 0), 30, seed=3, boards=boards)
    assert ep.x.shape[1] == SIDE * SIDE and len(ep.y) == len(ep.x) > 0
    assert np.all(np.abs(ep.y) <= 1)
    lost_games = ep.games - ep.won
    assert np.sum(ep.y == -1.0) == lost_games  # each lost game ends on a guess whose return is -1


def test_fit_alpha_returns_equation_10_coefficients():
    fit = fit_alpha(3, seed=0, alphas=(0.0, 0.3), boards=((6, 6), (8, 8)), densities=(0.12, 0.2))
    assert len(fit["coefficients"]) == 4 and len(fit["boards"]) == 4
    assert all(r["best_alpha"] in (0.0, 0.3) and len(r["wins"]) == 2 for r in fit["boards"])


def test_tiny_q_learning_beats_random_and_retrains_identically(random_wins, tmp_path):
    boards = BoardRange.fixed(Rules(9, 9, 10))
    network, card = train_dqn(60, episodes=1, seed=0, boards=boards, coefficients=(0.1, 0, 0, 0), epochs=5)
    assert [e["player"] for e in card["episodes"]] == ["dsscsp-manhattan", "dqn (explore 0.1)"]
    held = sum(e["validation"]["rows"] for e in card["episodes"])
    assert card["rows"] == sum(e["rows"] for e in card["episodes"]) == card["train_rows"] + card["validation_rows"]
    assert card["validation_rows"] == held > 0  # the held-out rows are not counted as trained on
    save_network(network, card, tmp_path / "dqn")
    scorer = load_dqn(tmp_path / "dqn", read_card(tmp_path / "dqn"))
    assert scorer.coefficients == (0.1, 0.0, 0.0, 0.0)
    assert beginner_wins(lambda s: DQNStrategy(s, scorer=scorer)) >= random_wins + 50
    again, _ = train_dqn(60, episodes=1, seed=0, boards=boards, coefficients=(0.1, 0, 0, 0), epochs=5)
    assert all((a[0] == b[0]).all() for a, b in zip(again.layers, network.layers, strict=True))


def test_a_single_game_has_no_validation_rows_and_says_so_without_nan():
    _, card = train_dqn(1, seed=0, boards=BoardRange.fixed(Rules(9, 9, 10)), coefficients=(0.1, 0, 0, 0), epochs=1)
    assert card["validation"] == {"rows": 0, "mse": None, "sign_accuracy": None}
    assert "NaN" not in json.dumps(card)


def test_replay_trains_each_episode_on_every_row_so_far():
    """With replay the curve's training rows grow by each episode's own (the single pass's kept); without it each
    episode's curve covers its own rows alone. The first pass is the same network either way."""
    boards = BoardRange.fixed(Rules(9, 9, 10))
    _, plain = train_dqn(40, episodes=2, seed=1, boards=boards, coefficients=(0.1, 0, 0, 0), epochs=2)
    _, replayed = train_dqn(40, episodes=2, seed=1, boards=boards, coefficients=(0.1, 0, 0, 0), epochs=2, replay=True)
    own = [e["curve"][0]["train"]["rows"] for e in plain["episodes"]]
    seen = [e["curve"][0]["train"]["rows"] for e in replayed["episodes"]]
    assert seen[0] == own[0] and plain["episodes"][0]["curve"] == replayed["episodes"][0]["curve"]
    assert seen[1] == own[0] + own[1]  # episode 1 is played by the same network in both runs: the same rows
    assert seen[2] > seen[1]
    assert replayed["parameters"]["replay"] and not plain["parameters"]["replay"]
