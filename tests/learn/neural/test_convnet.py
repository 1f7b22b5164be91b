"""The neural player's input planes and its NumPy network, checked against the PyTorch module it is trained as."""

import numpy as np
import pytest
import torch

from sweeplab.core.geometry import Board
from sweeplab.core.observation import COVERED, FLAGGED, Observation
from sweeplab.learn.neural.convnet import PLANES, ConvNet, planes, view_grid
from sweeplab.learn.neural.train import from_numpy, to_numpy, torch_convnet


def test_planes_encode_the_view_and_the_density():
    view = (0, 1, COVERED, FLAGGED, 8, COVERED)
    observation = Observation(Board(3, 2), 2, view)
    grid = view_grid(observation)
    assert grid.tolist() == [[0, 1, -1], [-1, 8, -1]]  # a flag reads as covered
    x = planes(grid, observation.mines_left)
    assert x.shape == (PLANES, 2, 3) and x.dtype == np.float32
    assert x[0].tolist() == [[0, 0, 1], [1, 0, 1]]
    assert x[1][0, 0] == 1 and x[2][0, 1] == 1 and x[9][1, 1] == 1  # the numbers 0, 1 and 8
    assert x[1:10].sum(axis=0).tolist() == [[1, 1, 0], [0, 1, 0]]  # one number plane per revealed cell
    assert (x[10] == 1).all()
    assert np.allclose(x[11], observation.mines_left / 3)


@pytest.mark.parametrize(("channels", "blocks", "shape"), [(4, 0, (3, 5)), (6, 2, (9, 9)), (5, 1, (16, 30))])
def test_numpy_network_matches_torch_on_any_board(channels, blocks, shape):
    torch.manual_seed(channels)
    model = torch_convnet(channels, blocks)
    net = to_numpy(model)
    assert net.channels == channels and net.blocks == blocks
    rng = np.random.default_rng(1)
    grid = rng.integers(-1, 9, size=shape).astype(np.int8)
    x = planes(grid, 7)
    with torch.no_grad():
        expected = model(torch.from_numpy(x[None]))[0].numpy()
    assert np.allclose(net.logits(x), expected, atol=1e-5)
    p = net.probabilities(grid, 7)
    assert p.shape == shape and ((p > 0) & (p < 1)).all()
    back = to_numpy(from_numpy(net, "cpu"))
    assert all(np.array_equal(a, b) and np.array_equal(c, d) for (a, c), (b, d) in zip(net.convs, back.convs, strict=True))


def test_save_and_load(tmp_path):
    net = to_numpy(torch_convnet(3, 1))
    net.save(tmp_path / "model.npz")
    loaded = ConvNet.load(tmp_path / "model.npz")
    grid = np.full((4, 4), -1, np.int8)
    assert np.array_equal(loaded.probabilities(grid, 3), net.probabilities(grid, 3))
    np.savez(tmp_path / "bad.npz", w0=np.zeros((2, 2)), b0=np.zeros(2))
    with pytest.raises(ValueError, match="not a convolutional network"):
        ConvNet.load(tmp_path / "bad.npz")
    np.savez(tmp_path / "wrong.npz", w0=np.zeros((2, 5, 3, 3)), b0=np.zeros(2), w1=np.zeros((1, 2, 1, 1)), b1=np.zeros(1))
    with pytest.raises(ValueError, match="12 planes"):
        ConvNet.load(tmp_path / "wrong.npz")


def test_the_mean_over_the_symmetries_is_a_symmetric_prediction():
    """Averaged over all eight symmetries, the prediction of a flipped or transposed board is the prediction of the
    board flipped or transposed the same way; one pass (an untrained network) is not, and 2 or 4 are means of it."""
    torch.manual_seed(3)
    net = to_numpy(torch_convnet(4, 1))
    grid = np.random.default_rng(2).integers(-1, 9, size=(5, 7)).astype(np.int8)
    single = net.probabilities(grid, 6)
    assert not np.allclose(net.probabilities(grid.T.copy(), 6), single.T)  # the network itself is not symmetric
    both = net.probabilities(grid, 6, symmetries=2)
    assert np.allclose(both, (single + net.probabilities(grid[:, ::-1].copy(), 6)[:, ::-1]) / 2)
    every = net.probabilities(grid, 6, symmetries=8)
    assert np.allclose(net.probabilities(grid.T.copy(), 6, symmetries=8), every.T)
    assert np.allclose(net.probabilities(grid[::-1, ::-1].copy(), 6, symmetries=8), every[::-1, ::-1])
    assert np.allclose(net.probabilities(grid[:, ::-1].copy(), 6, symmetries=4), net.probabilities(grid, 6, 4)[:, ::-1])
    with pytest.raises(ValueError, match="symmetries must be one of 1, 2, 4, 8"):
        net.probabilities(grid, 6, symmetries=3)
