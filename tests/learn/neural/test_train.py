"""The neural player's network learns: a short training on a few hundred positions predicts the exact probabilities
of held-out positions better than the untrained network and than the trivial baseline (every covered cell at the
density of the rest, mines left / covered cells)."""

import numpy as np
import pytest
import torch

from sweeplab.core.rules import Rules
from sweeplab.learn.neural.positions import PositionChunk, record
from sweeplab.learn.neural.train import ConvSettings, resolve_device, train_convnet


@pytest.fixture(scope="module")
def positions():
    return record(PositionChunk(0, 0, 160, 11, (Rules(9, 9, 10, "safe"), Rules(8, 8, 10, "safe"))))[0]


def _density_loss(data, games):
    """Held-out cross-entropy of predicting mines left / covered cells for every covered cell."""
    offsets = data.offsets()
    total = cells = 0.0
    for i in np.flatnonzero(np.isin(data.game, games)):
        grid, y = data.grid[offsets[i] : offsets[i + 1]], data.y[offsets[i] : offsets[i + 1]]
        covered = grid < 0
        p = np.clip(data.mines_left[i] / covered.sum(), 1e-6, 1 - 1e-6)
        t = y[covered]
        total += float(-(t * np.log(p) + (1 - t) * np.log(1 - p)).sum())
        cells += covered.sum()
    return total / cells


def test_a_short_training_learns(positions):
    settings = ConvSettings(channels=12, blocks=2, epochs=6, batch=16, learning_rate=3e-3, validation=0.2, seed=1)
    net, record_ = train_convnet(positions, settings)
    curve = record_["curve"]
    assert [p["epoch"] for p in curve] == list(range(7))  # epoch 0 is the untrained network
    first, last = curve[0]["validation"], curve[-1]["validation"]
    games = np.unique(positions.game)
    held = games[int(len(games) * 0.8) :]
    assert last["positions"] == int(np.isin(positions.game, held).sum()) > 20
    assert last["log_loss"] < first["log_loss"] - 0.05
    assert last["log_loss"] < _density_loss(positions, held) - 0.01  # it reads the numbers, not only the density
    assert last["mae"] < first["mae"] and last["picks_safest"] > first["picks_safest"]
    assert curve[-1]["train"]["log_loss"] < curve[1]["train"]["log_loss"]
    assert record_["parameters"] == net.parameters() and record_["settings"]["device"] == "cpu"


def test_training_continues_from_a_model(positions):
    settings = ConvSettings(channels=4, blocks=1, epochs=1, batch=32, seed=2)
    net, first = train_convnet(positions, settings)
    more, record_ = train_convnet(positions, ConvSettings(channels=99, blocks=9, epochs=1, batch=32, seed=2), start=net)
    assert (more.channels, more.blocks) == (4, 1)  # the model's size wins over the settings'
    assert record_["curve"][0]["validation"] == first["curve"][-1]["validation"]  # it starts where the first ended


def test_device():
    assert resolve_device("cpu") == "cpu"
    assert resolve_device("auto") in ("cpu", "cuda")
    if not torch.cuda.is_available():
        with pytest.raises(ValueError, match="no CUDA device"):
            resolve_device("cuda")
