"""The Q-network's input (sweeplab.learn.seed003.substates): scores per cell and the sub-states around candidates."""

import pytest

from sweeplab.formats.position import parse_position
from sweeplab.learn.seed003.substates import OUTSIDE, REVEALED, SIDE, scores, substates


def test_scores_and_substate_on_a_hand_built_position():
    obs = parse_position("3x3x1\n1HH\nHHH\nHHH\n")
    probabilities = {c: (1 / 3 if c in (1, 3, 4) else 0.0) for c in obs.covered()}
    grid = scores(obs, probabilities, alpha=0.5)
    assert grid[0, 0] == REVEALED
    rho = 1 / 8  # one mine among 8 covered cells
    assert grid[0, 1] == pytest.approx(2 / 3 + 0.5 * (1 - rho) ** 5)  # an edge cell: 5 neighbours
    assert grid[2, 2] == pytest.approx(1.0 + 0.5 * (1 - rho) ** 3)  # a corner
    state = substates(grid, [4])[0]  # the centre cell: the 5x5 window reaches one cell off the board all round
    assert state.shape == (SIDE * SIDE,) and state[12] == grid[1, 1]
    assert state[0] == OUTSIDE and state[6] == REVEALED
