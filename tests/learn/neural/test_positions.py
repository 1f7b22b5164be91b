"""The neural player's training positions: every covered cell labelled with the exact engine's probability, the
same rows whatever the chunking, and a resumable data folder."""

import numpy as np

from sweeplab.analysis import Analyzer
from sweeplab.core.geometry import Board
from sweeplab.core.observation import Observation
from sweeplab.core.rules import Rules
from sweeplab.learn.neural.positions import PositionChunk, Positions, plan_positions, record

BOARDS = (Rules(9, 9, 10, "safe"), Rules(8, 8, 12, "safe"))


def test_positions_hold_the_exact_probabilities():
    found, won, seconds = record(PositionChunk(0, 0, 12, 3, BOARDS))
    assert len(found) > 12 and 0 <= won <= 12 and seconds > 0
    offsets = found.offsets()
    assert offsets[-1] == len(found.grid) == len(found.y)
    analyzer = Analyzer()
    for i in range(0, len(found), max(1, len(found) // 15)):
        h, w = (int(v) for v in found.shape[i])
        grid = found.grid[offsets[i] : offsets[i + 1]]
        y = found.y[offsets[i] : offsets[i + 1]]
        assert ((grid < 0) == (y >= 0)).all()  # covered cells carry a probability, revealed ones -1
        mines = int(found.mines_left[i])
        observation = Observation(Board(w, h), mines, tuple(int(v) for v in grid))
        result = analyzer.analyze(observation)
        expected = dict(result.covered())
        assert np.allclose([y[c] for c in expected], list(expected.values()), atol=1e-6)
        assert {int(found.game[i]) % 2} == {0 if (h, w) == (9, 9) else 1}  # boards in turn


def test_the_same_positions_whatever_the_chunks():
    whole, _, _ = record(PositionChunk(0, 0, 6, 5, BOARDS))
    chunks = plan_positions(6, 5, BOARDS, 4)
    assert [(c.start, c.games) for c in chunks] == [(0, 4), (4, 2)]
    joined = Positions.join([record(c)[0] for c in chunks])
    for key in ("shape", "mines_left", "game", "grid", "y"):
        assert np.array_equal(getattr(whole, key), getattr(joined, key))


def test_a_round_on_the_networks_own_games_is_labelled_by_exact(tmp_path):
    import torch

    from sweeplab.learn.neural.train import save_convnet, to_numpy, torch_convnet

    torch.manual_seed(0)
    save_convnet(to_numpy(torch_convnet(4, 1)), {"note": "untrained"}, tmp_path)
    found, _, _ = record(PositionChunk(0, 0, 4, 1, BOARDS[:1], str(tmp_path)))
    assert len(found) >= 4  # at least the opening of each game
    assert ((found.grid < 0) == (found.y >= 0)).all()
    # the player before the subset pass asks its network about more positions of the same games
    before, _, _ = record(PositionChunk(0, 0, 4, 1, BOARDS[:1], str(tmp_path), "single-point"))
    assert len(before) > len(found)
