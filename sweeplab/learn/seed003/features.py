"""State-action features of seed 003 section 4.2.2 for each candidate cell of a position, built by one function.

Source: ``003_f5c1155f4ddfa843.txt`` section 4.2.2 (the input ``X`` of the classifiers) and equation (4) (the
corner/edge/middle location score). The paper's list: the board's size, the number of mines, the coordinates of the
candidate (a frontier cell, or a random covered cell), its probability from DSScsp (a fixed value off the frontier),
the size of the frontier, the frontier cell of least probability, and the location score. sweeplab adds mines left,
covered cells left and the local window of numbers. :data:`FEATURE_NAMES` lists the columns in order.

Reconstructions (the formulas were lost in extraction):

* Location score, equation (4): "the probability of a block to have no neighbouring mine", from ``F`` flags used
  and ``U`` cells left to uncover. We take the density of the cells left, ``rho = (M - F) / U``, and score a cell
  ``(1 - rho) ** n`` where ``n`` is its number of neighbours on the board (3 in a corner, 5 on an edge, 8 in the
  middle), so a corner scores highest, as the paper says.
* Probability off the frontier: the paper gives such a cell a constant ("no information"); we give it the value the
  DSScsp player itself uses, ``(mines left - expected frontier mines) / unconstrained cells``, and add a
  ``frontier`` column (1 on the frontier, 0 off it) so a model can still tell the two apart.
* "Variable with minimum probability": an index is no use to a model as a number, so we give the least probability
  among the candidates and the candidate's distance above it (``probability - min_probability``).
* Coordinates: as fractions of the board (``x / (width - 1)``), plus the Manhattan distance to the border of
  section 4.2.1, so one model serves every board size.
* Local window: the ``(2r+1) x (2r+1)`` cells around the candidate (``r = 2`` by default) less the centre, each as
  four columns: revealed (0/1), its number (0-8, 0 when not revealed), flagged (0/1), off the board (0/1).

``probability="exact"`` uses sweeplab's exact engine instead of DSScsp (an option beyond the paper).

>>> from sweeplab.formats.position import parse_position
>>> obs = parse_position("3x3x1\\n1HH\\nHHH\\nHHH\\n")
>>> f = build_features(obs)
>>> f.matrix.shape == (8, len(FEATURE_NAMES))
True
>>> round(float(f.column("probability")[f.cells.index(1)]), 3)  # (1, 0) touches the 1: one of three cells
0.333
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from sweeplab.analysis.analyzer import Analyzer
from sweeplab.core.geometry import Board
from sweeplab.core.observation import COVERED, FLAGGED, Observation
from sweeplab.strategies.dss.players import DSScspStrategy

WINDOW = 2  #: radius of the local window (5 x 5 less the centre)
PROBABILITY_SOURCES = ("dsscsp", "exact")

_SCALARS = (
    "width",
    "height",
    "mines",
    "mines_left",
    "covered_left",
    "density_left",
    "x",
    "y",
    "edge_distance",
    "frontier",
    "probability",
    "frontier_size",
    "min_probability",
    "above_min",
    "location_score",
    "covered_neighbours",
)
_CHANNELS = ("revealed", "number", "flagged", "outside")


def window_offsets(radius: int = WINDOW) -> list[tuple[int, int]]:
    """The (dx, dy) of the window cells, row by row, without the centre.

    >>> len(window_offsets(1)), window_offsets(1)[:3]
    (8, [(-1, -1), (0, -1), (1, -1)])
    """
    return [(dx, dy) for dy in range(-radius, radius + 1) for dx in range(-radius, radius + 1) if dx or dy]


@lru_cache(maxsize=8)
def feature_names(radius: int = WINDOW) -> tuple[str, ...]:
    """The column names for a window of ``radius``."""
    window = [f"w{dx:+d}{dy:+d}_{ch}" for dx, dy in window_offsets(radius) for ch in _CHANNELS]
    return _SCALARS + tuple(window)


FEATURE_NAMES = feature_names()


@dataclass(frozen=True)
class Features:
    """One row per candidate cell (``cells[i]`` is row ``i``), columns named by :data:`FEATURE_NAMES`."""

    cells: list[int]
    matrix: np.ndarray
    names: tuple[str, ...] = FEATURE_NAMES

    def column(self, name: str) -> np.ndarray:
        return self.matrix[:, self.names.index(name)]


def probabilities_for(observation: Observation, source: str = "dsscsp", seed: int = 0) -> dict[int, float]:
    """Mine probability of every covered (unflagged) cell: DSScsp's equation (3), or the exact engine's."""
    if source == "dsscsp":
        return DSScspStrategy(seed=seed).probabilities(observation)
    if source == "exact":
        result = Analyzer().analyze(observation)
        return dict(result.covered())
    raise ValueError(f"unknown probability source {source!r}: choose one of {', '.join(PROBABILITY_SOURCES)}")


@lru_cache(maxsize=64)
def _geometry(width: int, height: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per cell of a board: its neighbours padded to 8 with the index ``cells`` (a slot past the board, always
    False in the masks below), its number of neighbours, and its distance to the border."""
    table = Board(width, height).neighbours
    cells = width * height
    padded = np.full((cells, 8), cells, dtype=np.intp)
    for c, row in enumerate(table):
        padded[c, : len(row)] = row
    counts = np.array([len(row) for row in table], dtype=np.float64)
    x, y = np.arange(cells) % width, np.arange(cells) // width
    edge = np.minimum(np.minimum(x, y), np.minimum(width - 1 - x, height - 1 - y))
    return padded, counts, edge


def _masks(view: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
    """(revealed, covered) per cell of ``view``, each with one False slot appended (the padding of :func:`_geometry`)."""
    v = np.fromiter(view, dtype=np.int16, count=len(view))
    return np.append(v >= 0, False), np.append(v == COVERED, False)


def frontier_mask(observation: Observation) -> np.ndarray:
    """Per cell: whether it has a revealed neighbour (for a covered cell: whether it lies on the frontier)."""
    board = observation.board
    padded = _geometry(board.width, board.height)[0]
    return _masks(observation.view)[0][padded].any(axis=1)


def location_scores(observation: Observation, cells: Sequence[int]) -> np.ndarray:
    """Equation (4) as reconstructed: ``(1 - rho) ** neighbours`` with ``rho`` the density of the cells left."""
    covered = observation.view.count(COVERED)
    rho = observation.mines_left / covered if covered else 0.0
    rho = min(1.0, max(0.0, rho))
    board = observation.board
    n = _geometry(board.width, board.height)[1][np.asarray(cells, dtype=np.intp)]
    return np.power(1.0 - rho, n)


@lru_cache(maxsize=8)
def _offsets(radius: int) -> tuple[np.ndarray, np.ndarray]:
    offsets = window_offsets(radius)
    return np.array([o[0] for o in offsets]), np.array([o[1] for o in offsets])


def _window(observation: Observation, cells: Sequence[int], radius: int) -> np.ndarray:
    """The window channels for each cell, shape (len(cells), 4 * ((2r+1)^2 - 1))."""
    board = observation.board
    w, h = board.width, board.height
    view = np.asarray(observation.view, dtype=np.int16).reshape(h, w)
    pad = np.full((h + 2 * radius, w + 2 * radius), -3, dtype=np.int16)  # -3: off the board
    pad[radius : radius + h, radius : radius + w] = view
    dx, dy = _offsets(radius)
    at = np.asarray(cells, dtype=np.intp)
    xs, ys = at % w, at // w
    values = pad[ys[:, None] + radius + dy[None, :], xs[:, None] + radius + dx[None, :]]
    out = np.empty((len(cells), len(dx), 4), dtype=np.float64)
    out[:, :, 0] = values >= 0
    out[:, :, 1] = np.where(values >= 0, values, 0)
    out[:, :, 2] = values == FLAGGED
    out[:, :, 3] = values == -3
    return out.reshape(len(cells), -1)


def build_features(
    observation: Observation,
    cells: Sequence[int] | None = None,
    probabilities: Mapping[int, float] | None = None,
    *,
    probability: str = "dsscsp",
    radius: int = WINDOW,
    seed: int = 0,
) -> Features:
    """The feature rows of ``cells`` (default: every covered, unflagged cell) in ``observation``.

    ``probabilities`` (cell -> mine probability for every covered cell) is computed with ``probability``
    (``"dsscsp"`` or ``"exact"``) when not given. ``seed`` fixes DSScsp's branch order (its probabilities do not
    depend on it when its enumeration is complete).
    """
    if cells is None:
        cells = list(observation.covered())
    cells = list(cells)
    if probabilities is None:
        probabilities = probabilities_for(observation, probability, seed)
    board = observation.board
    view = observation.view
    names = feature_names(radius)
    matrix = np.zeros((len(cells), len(names)), dtype=np.float64)
    if not cells:
        return Features(cells, matrix, names)
    padded, _, edge = _geometry(board.width, board.height)
    revealed, is_covered = _masks(view)
    at = np.asarray(cells, dtype=np.intp)
    near = padded[at]
    covered = view.count(COVERED)
    mines_left = observation.mines_left
    frontier = revealed[near].any(axis=1)
    frontier_size = int(np.count_nonzero(is_covered[:-1] & revealed[padded].any(axis=1)))
    p = np.array([probabilities[c] for c in cells], dtype=np.float64)
    least = float(p.min())
    w, h = board.width, board.height
    matrix[:, 0] = w
    matrix[:, 1] = h
    matrix[:, 2] = observation.mines
    matrix[:, 3] = mines_left
    matrix[:, 4] = covered
    matrix[:, 5] = mines_left / covered if covered else 0.0
    matrix[:, 6] = (at % w) / (w - 1) if w > 1 else 0.0
    matrix[:, 7] = (at // w) / (h - 1) if h > 1 else 0.0
    matrix[:, 8] = edge[at]
    matrix[:, 9] = frontier
    matrix[:, 10] = p
    matrix[:, 11] = frontier_size
    matrix[:, 12] = least
    matrix[:, 13] = p - least
    matrix[:, 14] = location_scores(observation, cells)
    matrix[:, 15] = np.count_nonzero(is_covered[near], axis=1)
    matrix[:, len(_SCALARS) :] = _window(observation, cells, radius)
    return Features(cells, matrix, names)


def sample_candidates(
    observation: Observation, probabilities: Mapping[int, float], rng: random.Random, extra: int = 8
) -> list[int]:
    """Seed 003's training candidates: every frontier cell, plus up to ``extra`` random covered cells off it."""
    view = observation.view
    front = frontier_mask(observation)
    on: list[int] = []
    off: list[int] = []
    for c in probabilities:
        if view[c] != COVERED:
            continue
        (on if front[c] else off).append(c)
    if len(off) > extra:
        off = sorted(rng.sample(off, extra))
    return sorted(on + off)


__all__ = [
    "FEATURE_NAMES",
    "PROBABILITY_SOURCES",
    "WINDOW",
    "Features",
    "build_features",
    "feature_names",
    "frontier_mask",
    "location_scores",
    "probabilities_for",
    "sample_candidates",
    "window_offsets",
]
