"""The Q-network's input (seed 003, equations (9) and (10) as :mod:`sweeplab.learn.seed003.dqn` reconstructs them): a score
per cell from its mine probability and location, and the ``k x k`` sub-states of scores around candidate cells."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from sweeplab.core.observation import COVERED, Observation
from sweeplab.learn.seed003.features import location_scores

SIDE = 5  #: k, the sub-state is k x k
REVEALED = -1.0
OUTSIDE = -2.0


def substate_names(side: int = SIDE) -> tuple[str, ...]:
    """Column names of a sub-state row, row by row: ``s{dx:+d}{dy:+d}`` (the centre, the action, is ``s+0+0``).

    >>> substate_names(3)[:2], substate_names(3)[4]
    (('s-1-1', 's+0-1'), 's+0+0')
    """
    r = side // 2
    return tuple(f"s{dx:+d}{dy:+d}" for dy in range(-r, r + 1) for dx in range(-r, r + 1))


SUBSTATE_NAMES = substate_names()


def alpha_for(width: int, height: int, density: float, coefficients: Sequence[float]) -> float:
    """Equation (10): ``c0 + c1 w + c2 h + c3 r`` (never below 0).

    >>> alpha_for(9, 9, 0.12, (0.1, 0.0, 0.0, 1.0))
    0.22
    """
    c0, c1, c2, c3 = coefficients
    return max(0.0, round(c0 + c1 * width + c2 * height + c3 * density, 12))


def scores(observation: Observation, probabilities: dict[int, float], alpha: float) -> np.ndarray:
    """Equation (9) for every cell of the board (shape (height, width)): covered cells ``(1 - P) + alpha * score``,
    flagged cells ``alpha * score``, revealed cells -1."""
    board = observation.board
    grid = np.full(board.cells, REVEALED, dtype=np.float64)
    hidden = [c for c, v in enumerate(observation.view) if v < 0]
    if hidden:
        location = location_scores(observation, hidden)
        p = np.array([probabilities.get(c, 1.0) if observation.view[c] == COVERED else 1.0 for c in hidden])
        grid[hidden] = (1.0 - p) + alpha * location
    return grid.reshape(board.height, board.width)


def substates(grid: np.ndarray, cells: Sequence[int], side: int = SIDE) -> np.ndarray:
    """The ``side x side`` windows of ``grid`` centred on ``cells``, flattened (off the board: -2).

    >>> substates(np.arange(4.0).reshape(2, 2), [0], side=3).tolist()
    [[-2.0, -2.0, -2.0, -2.0, 0.0, 1.0, -2.0, 2.0, 3.0]]
    """
    r = side // 2
    h, w = grid.shape
    pad = np.full((h + 2 * r, w + 2 * r), OUTSIDE)
    pad[r : r + h, r : r + w] = grid
    xs = np.array([c % w for c in cells])
    ys = np.array([c // w for c in cells])
    d = np.arange(-r, r + 1)
    rows = ys[:, None, None] + r + d[None, :, None]
    cols = xs[:, None, None] + r + d[None, None, :]
    return pad[rows, cols].reshape(len(cells), side * side)


__all__ = ["OUTSIDE", "REVEALED", "SIDE", "SUBSTATE_NAMES", "alpha_for", "scores", "substate_names", "substates"]
