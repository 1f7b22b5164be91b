import random

import numpy as np
import pytest

from sweeplab.analysis import Analyzer
from sweeplab.formats.position import parse_position
from sweeplab.learn.seed003.features import FEATURE_NAMES, build_features, location_scores, sample_candidates, window_offsets

# 4x3 board, 2 mines; a flag at (3, 2); the 1 at (0, 0) touches (1, 0), (0, 1), (1, 1)
POSITION = "4x3x2\n1HHH\nHHHH\nHHHF\n"


def _row(features, cell):
    return dict(zip(features.names, features.matrix[features.cells.index(cell)], strict=True))


def test_scalar_features_on_a_hand_built_position():
    obs = parse_position(POSITION)
    f = build_features(obs)
    assert f.cells == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]  # every covered unflagged cell; the flag (11) is not a candidate
    assert f.matrix.shape == (10, len(FEATURE_NAMES))
    r = _row(f, 1)
    assert (r["width"], r["height"], r["mines"], r["mines_left"], r["covered_left"]) == (4, 3, 2, 1, 10)
    assert r["density_left"] == pytest.approx(0.1)
    assert (r["x"], r["y"], r["edge_distance"], r["frontier"]) == (pytest.approx(1 / 3), 0.0, 0, 1)
    assert r["probability"] == pytest.approx(1 / 3)  # one mine among the 1's three cells (DSScsp, equation (3))
    assert r["frontier_size"] == 3
    far = _row(f, 3)
    assert far["frontier"] == 0 and far["probability"] == pytest.approx(0.0)  # the one mine left is on the frontier
    assert r["min_probability"] == pytest.approx(0.0) and r["above_min"] == pytest.approx(1 / 3)
    assert r["covered_neighbours"] == 4  # (2,0), (0,1), (1,1), (2,1); (0,0) is revealed


def test_location_score_ranks_corner_edge_middle():
    obs = parse_position("5x5x5\n" + "HHHHH\n" * 5)
    corner, edge, middle = location_scores(obs, [0, 2, 12])
    assert corner == pytest.approx(0.8**3) and edge == pytest.approx(0.8**5) and middle == pytest.approx(0.8**8)
    assert corner > edge > middle


def test_window_channels():
    obs = parse_position(POSITION)
    f = build_features(obs, cells=[5])  # (1, 1): the 1 at (0, 0) is up-left, the flag (3, 2) is at (+2, +1)
    r = _row(f, 5)
    assert r["w-1-1_revealed"] == 1 and r["w-1-1_number"] == 1 and r["w-1-1_outside"] == 0
    assert r["w+2+1_flagged"] == 1 and r["w+2+1_revealed"] == 0
    assert r["w-2-2_outside"] == 1 and r["w+0+1_outside"] == 0 and r["w+0+2_outside"] == 1
    assert len(window_offsets()) * 4 + 16 == len(FEATURE_NAMES)


def test_exact_probability_option_uses_the_exact_engine():
    # DSScsp's equation (3) counts frontier solutions equally; the exact engine weights them by the cells left
    obs = parse_position("5x1x2\n1HHHH\n")
    dss = build_features(obs, probability="dsscsp")
    exact = build_features(obs, probability="exact")
    result = Analyzer().analyze(obs)
    assert exact.column("probability").tolist() == pytest.approx([result.probability(c) for c in exact.cells])
    assert dss.column("probability")[0] == pytest.approx(1.0)  # (1,0) is the 1's only covered neighbour: a mine
    assert np.all(exact.matrix[:, FEATURE_NAMES.index("width")] == 5)


def test_candidates_are_the_frontier_plus_random_others():
    obs = parse_position("6x6x4\n1HHHHH\n" + "HHHHHH\n" * 5)
    probabilities = {c: 0.1 for c in obs.covered()}
    cells = sample_candidates(obs, probabilities, random.Random(0), extra=5)
    assert {1, 6, 7} <= set(cells) and len(cells) == 8
    assert sample_candidates(obs, probabilities, random.Random(0), extra=5) == cells


def test_array_features_match_their_per_cell_definitions_on_played_positions():
    """The vectorised columns equal the plain definitions: frontier, frontier size, covered neighbours, border
    distance, coordinates, on positions of real games with flags."""
    from sweeplab.core.game import Game
    from sweeplab.core.observation import COVERED
    from sweeplab.core.rules import Rules
    from sweeplab.learn.seed003.players import ManhattanPlayer
    from sweeplab.strategies.base import play

    seen = []
    for seed in range(6):
        player = ManhattanPlayer(seed)
        player.watcher = lambda observation, probabilities: seen.append((observation, probabilities))
        play(player, Game(Rules(13, 9, 20, "safe"), seed))
    assert len(seen) > 3
    for obs, probabilities in seen:
        board, view = obs.board, obs.view
        cells = sorted(probabilities)
        f = build_features(obs, cells, probabilities)
        front = [any(view[n] >= 0 for n in board.neighbours[c]) for c in cells]
        assert f.column("frontier").tolist() == [float(x) for x in front]
        size = sum(1 for c, v in enumerate(view) if v == COVERED and any(view[n] >= 0 for n in board.neighbours[c]))
        assert set(f.column("frontier_size")) == {size}
        assert f.column("covered_neighbours").tolist() == [
            sum(1 for n in board.neighbours[c] if view[n] == COVERED) for c in cells
        ]
        assert f.column("edge_distance").tolist() == [board.edge_distance(c) for c in cells]
        assert f.column("x").tolist() == [(c % board.width) / (board.width - 1) for c in cells]
        on = [c for c in cells if view[c] == COVERED and front[cells.index(c)]]
        assert [c for c in sample_candidates(obs, probabilities, random.Random(0), 0)] == on
