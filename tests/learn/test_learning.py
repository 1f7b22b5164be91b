"""Each learned family learns: a short training on a small generated data set scores better on held-out games than
the same model untrained and than a trivial baseline (the training rows' base rate or mean; for the classifiers also
DSScsp's own mine probability, one of their input features)."""

import numpy as np
import pytest

from sweeplab.core.rules import make_rules
from sweeplab.learn.seed003.classifiers import scores, train_nn, train_xgboost
from sweeplab.learn.seed003.data import BoardRange, collect
from sweeplab.learn.seed003.dqn import _split, simulate, train_dqn
from sweeplab.learn.seed003.features import FEATURE_NAMES
from sweeplab.learn.seed003.players import ManhattanPlayer

BOARDS = BoardRange((9, 16), (9, 16), (0.12, 0.16))
ALPHA = (0.1, 0.0, 0.0, 0.0)


@pytest.fixture(scope="module")
def data():
    return collect(ManhattanPlayer, 120, seed=5, boards=BOARDS).data


@pytest.fixture(scope="module")
def baselines(data):
    """Held-out log loss of the base rate (the training rows' mine rate for every cell) and of DSScsp's probability."""
    train, valid = data.split(0.1)
    probability = valid.x[:, FEATURE_NAMES.index("probability")]
    return {
        "base_rate": scores(np.full(len(valid), train.y.mean()), valid.y)["log_loss"],
        "dsscsp": scores(probability, valid.y)["log_loss"],
    }


def test_xgboost_learns(data, baselines):
    _, card = train_xgboost(data, seed=0, rounds=30)
    first, last = card["curve"][0], card["curve"][-1]
    assert (first["round"], last["round"]) == (1, 30)
    assert last["validation"] == card["validation"]
    loss = card["validation"]["log_loss"]
    assert loss < first["validation"]["log_loss"] - 0.03  # better than one tree
    assert loss < baselines["base_rate"] - 0.03
    assert loss < baselines["dsscsp"]  # the model adds to the exact probability it is given
    assert last["train"]["log_loss"] < first["train"]["log_loss"]


def test_network_learns(data, baselines):
    _, card = train_nn(1, 0, seed=0, first=data, epochs=15, learning_rate=3e-3)
    curve = card["episodes"][0]["curve"]
    assert [p["epoch"] for p in curve] == list(range(16))  # epoch 0 is the untrained network
    loss = card["validation"]["log_loss"]
    assert loss < curve[0]["validation"]["log_loss"] - 0.1
    assert loss < baselines["base_rate"] - 0.03
    assert curve[-1]["train"]["log_loss"] < curve[0]["train"]["log_loss"]


def test_q_network_learns():
    boards = BoardRange.fixed(make_rules("beginner"))
    _, card = train_dqn(600, seed=0, boards=boards, coefficients=ALPHA, epochs=60, validation=0.3)
    curve = card["episodes"][0]["curve"]
    assert [p["epoch"] for p in curve] == list(range(61))
    mse = card["validation"]["mse"]
    assert mse < curve[0]["validation"]["mse"] - 0.1  # far better than the untrained network
    # the same games and split as the trainer's: predicting the training rows' mean return for every row
    (_, yt), (_, yv) = _split(simulate(ManhattanPlayer, ALPHA, 600, 0, boards), 0.3)
    assert len(yv) == card["validation"]["rows"]
    assert mse < float(np.mean((yv - yt.mean()) ** 2)) - 0.02
    assert curve[-1]["train"]["mse"] < curve[0]["train"]["mse"]
