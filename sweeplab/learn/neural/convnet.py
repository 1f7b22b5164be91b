"""The ``neural`` player's network: a board read as planes, a fully convolutional residual network run in NumPy.

A position of any size becomes ``PLANES`` planes of ``height x width`` (:func:`planes`):

* 0: the cell is covered (flagged cells count as covered: the player never flags);
* 1-9: the cell shows the number 0, 1, ... 8 (one plane each);
* 10: the cell is on the board (1 everywhere; the zero padding around the board reads as "off the board");
* 11: the density of the rest, ``mines left / covered cells`` (one value over the whole board): the mine count
  as an input.

The network (:class:`ConvNet`) is a 3x3 convolution from the planes to ``channels``, ``blocks`` residual blocks of
two 3x3 convolutions (``x + conv(relu(conv(relu(x))))``), a ReLU and a 1x1 convolution to one logit per cell; the
mine probability is its sigmoid. Every convolution pads with zeros, so one network reads every board size, and a
cell sees the cells within ``2 * blocks + 1`` steps of it. PyTorch (the ``learn`` extra) trains it
(:mod:`sweeplab.learn.neural.train`); a saved network is its weights in ``model.npz``, played here in NumPy (float32,
each convolution one matrix product over the 3x3 windows), so the player loads without PyTorch.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from sweeplab.core.observation import Observation

PLANES = 12


def view_grid(observation: Observation) -> np.ndarray:
    """The view as a (height, width) int8 grid: the numbers 0-8, and -1 for a covered or flagged cell."""
    board = observation.board
    grid = np.fromiter(observation.view, dtype=np.int8, count=board.cells).reshape(board.height, board.width)
    return np.maximum(grid, -1)


def planes(grid: np.ndarray, mines_left: int) -> np.ndarray:
    """The network's input for a view grid (:func:`view_grid`) and the mines left: (``PLANES``, height, width) float32."""
    height, width = grid.shape
    out = np.zeros((PLANES, height, width), dtype=np.float32)
    covered = grid < 0
    out[0] = covered
    for n in range(9):
        out[1 + n] = grid == n
    out[10] = 1.0
    count = int(covered.sum())
    out[11] = mines_left / count if count else 0.0
    return out


#: the board's symmetries as (transposed, flipped left-right, flipped upside down), in the order ``symmetries`` takes
#: them: the identity, the two mirror images and the half turn, then the same after a transpose
SYMMETRIES = (
    (False, False, False),
    (False, True, False),
    (False, False, True),
    (False, True, True),
    (True, False, False),
    (True, True, False),
    (True, False, True),
    (True, True, True),
)
SYMMETRY_COUNTS = (1, 2, 4, 8)


def _transform(grid: np.ndarray, turned: bool, flip_x: bool, flip_y: bool) -> np.ndarray:
    """``grid`` transposed (first), then flipped left-right and upside down as told."""
    out = grid.T if turned else grid
    if flip_x:
        out = out[:, ::-1]
    if flip_y:
        out = out[::-1, :]
    return out


def _untransform(grid: np.ndarray, turned: bool, flip_x: bool, flip_y: bool) -> np.ndarray:
    """The inverse of :func:`_transform`: a prediction on the transformed grid mapped back onto the board."""
    out = grid[::-1, :] if flip_y else grid
    if flip_x:
        out = out[:, ::-1]
    return out.T if turned else out


def _conv(x: np.ndarray, weight: np.ndarray, bias: np.ndarray) -> np.ndarray:
    """A 'same' convolution of ``x`` (C, H, W) with ``weight`` (O, C, k, k) and zero padding: (O, H, W)."""
    out_channels, channels, k, _ = weight.shape
    _, height, width = x.shape
    if k == 1:
        flat = _single_threaded_matmul(weight.reshape(out_channels, channels), x.reshape(channels, -1))
        return flat.reshape(out_channels, height, width) + bias[:, None, None]
    pad = k // 2
    padded = np.zeros((channels, height + 2 * pad, width + 2 * pad), dtype=x.dtype)
    padded[:, pad : pad + height, pad : pad + width] = x
    windows = np.lib.stride_tricks.sliding_window_view(padded, (k, k), axis=(1, 2))  # C, H, W, k, k
    columns = np.ascontiguousarray(windows.transpose(0, 3, 4, 1, 2)).reshape(channels * k * k, height * width)
    return (
        _single_threaded_matmul(weight.reshape(out_channels, -1), columns).reshape(out_channels, height, width)
        + bias[:, None, None]
    )


#: OpenBLAS runs a product on one thread below this many multiply-adds (its SMP threshold); above it, it wakes its
#: thread pool, which on a busy machine (every bench worker is one) costs some 50 times the product itself.
_ONE_THREAD = 262_143


def _single_threaded_matmul(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a @ b`` in blocks of ``b``'s columns small enough for OpenBLAS to keep each on the calling thread."""
    rows, inner = a.shape
    step = max(1, _ONE_THREAD // max(1, rows * inner))
    if b.shape[1] <= step:
        return a @ b
    out = np.empty((rows, b.shape[1]), dtype=np.result_type(a, b))
    for start in range(0, b.shape[1], step):
        np.matmul(a, b[:, start : start + step], out=out[:, start : start + step])
    return out


@dataclass
class ConvNet:
    """The network's weights: ``convs[i] = (weight (O, C, k, k), bias (O,))`` in order: the stem, two per block, and
    the 1x1 head."""

    convs: list[tuple[np.ndarray, np.ndarray]]

    @property
    def blocks(self) -> int:
        return (len(self.convs) - 2) // 2

    @property
    def channels(self) -> int:
        return int(self.convs[0][0].shape[0])

    def logits(self, x: np.ndarray) -> np.ndarray:
        """The logit of each cell for input planes ``x`` (``PLANES``, H, W): (H, W)."""
        stem, *body, head = self.convs
        h = _conv(x, *stem)
        for i in range(0, len(body), 2):
            inner = _conv(np.maximum(h, 0.0), *body[i])
            h = h + _conv(np.maximum(inner, 0.0), *body[i + 1])
        return _conv(np.maximum(h, 0.0), *head)[0]

    def probabilities(self, grid: np.ndarray, mines_left: int, symmetries: int = 1) -> np.ndarray:
        """The predicted mine probability of every cell of a view grid (:func:`view_grid`): (H, W) float64.

        With ``symmetries`` 2, 4 or 8 the prediction is the mean over as many of the board's symmetries
        (:data:`SYMMETRIES`: the grid flipped and transposed, the prediction mapped back): the game does not change
        under them, the network's errors partly do, so the mean errs less, at that many times the cost."""
        if symmetries not in SYMMETRY_COUNTS:
            raise ValueError(f"symmetries must be one of {', '.join(map(str, SYMMETRY_COUNTS))}, not {symmetries}")
        total = np.zeros(grid.shape, dtype=np.float64)
        for turned, flip_x, flip_y in SYMMETRIES[:symmetries]:
            view = _transform(grid, turned, flip_x, flip_y)
            logits = self.logits(planes(np.ascontiguousarray(view), mines_left)).astype(np.float64)
            predicted = 1.0 / (1.0 + np.exp(-np.clip(logits, -60.0, 60.0)))
            total += _untransform(predicted, turned, flip_x, flip_y)
        return total / symmetries

    def parameters(self) -> int:
        return int(sum(w.size + b.size for w, b in self.convs))

    def save(self, path: Path) -> None:
        arrays: dict[str, np.ndarray] = {}
        for i, (weight, bias) in enumerate(self.convs):
            arrays[f"w{i}"], arrays[f"b{i}"] = weight.astype(np.float32), bias.astype(np.float32)
        np.savez_compressed(path, **arrays)  # type: ignore[arg-type]

    @classmethod
    def load(cls, path: Path) -> ConvNet:
        """Read ``model.npz``; a ValueError says what is wrong with a file that is not such a network."""
        with np.load(path, allow_pickle=False) as data:
            convs: list[tuple[np.ndarray, np.ndarray]] = []
            while f"w{len(convs)}" in data:
                i = len(convs)
                convs.append((data[f"w{i}"].astype(np.float32), data[f"b{i}"].astype(np.float32)))
        if len(convs) < 2 or len(convs) % 2:
            raise ValueError(f"{path}: not a convolutional network (expected w0, b0, ... for a stem, blocks and a head)")
        if convs[0][0].shape[1] != PLANES or convs[-1][0].shape[:2] != (1, convs[0][0].shape[0]):
            raise ValueError(f"{path}: the network's input or output does not match {PLANES} planes in, one logit out")
        return cls(convs)
