"""The ``neural`` player's training data: whole positions labelled with the exact engine's mine probabilities.

A chunk of games is played by ``exact`` (or, for the rounds on the network's own games, by ``neural`` with a given
model) and every position a player decides without a certain single-point move is recorded: the view, the mines
left and the exact mine probability of every covered cell (positions whose analysis is an estimate are skipped).
Game ``i`` of root seed ``S`` is dealt on board ``boards[i % len(boards)]`` from the seeds
:func:`sweeplab.learn.seed003.data.deals` gives game ``i``, so a seed fixes the data whatever the executor.

Chunks are played and saved as shards of a data folder exactly as the classifiers' are
(:func:`sweeplab.learn.seed003.shards.generate` with :func:`play_positions` as the task, into a
:class:`sweeplab.learn.seed003.shards.DataFolder`: locked, resumable, ``data.json`` when complete). A shard holds ``shape``
(n, 2: height, width), ``mines_left`` (n),
``game`` (n), ``grid`` (every position's cells one after another: the numbers 0-8, -1 covered) and ``y`` (the same
cells' exact mine probabilities, -1 for a revealed cell), with the chunk's ``start``, ``games``, ``won``,
``positions`` and ``cpu_seconds``.
"""

from __future__ import annotations

import io
import time
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from sweeplab.analysis import DEFAULT_BUDGET, Analyzer, Probabilities
from sweeplab.core.game import Game, GameState
from sweeplab.core.observation import Observation
from sweeplab.core.rules import Rules
from sweeplab.learn.neural.convnet import view_grid
from sweeplab.learn.seed003.data import BoardRange, DataError, Dataset, deals, folder_shards
from sweeplab.learn.seed003.shards import Shard
from sweeplab.strategies.base import Strategy, play
from sweeplab.strategies.exact import ExactStrategy

_EMPTY = Dataset(np.zeros((0, 0), np.float32), np.zeros(0, np.float32), np.zeros(0, np.int64), ())


@dataclass(frozen=True)
class PositionChunk:
    """Games ``start`` to ``start + games - 1`` of root ``seed`` on ``boards`` (in turn), played by ``exact``, or by
    ``neural`` with the model in folder ``model`` when it is given (and its pass for certain moves, ``certain``)."""

    number: int
    start: int
    games: int
    seed: int
    boards: tuple[Rules, ...]
    model: str = ""
    certain: str = "subset"


@dataclass
class Positions:
    """Recorded positions (see the module docstring for the arrays)."""

    shape: np.ndarray
    mines_left: np.ndarray
    game: np.ndarray
    grid: np.ndarray
    y: np.ndarray

    def __len__(self) -> int:
        return len(self.shape)

    def offsets(self) -> np.ndarray:
        """Where each position's cells start in ``grid`` and ``y`` (n + 1 entries)."""
        return np.concatenate([[0], np.cumsum(self.shape[:, 0].astype(np.int64) * self.shape[:, 1])])

    @classmethod
    def join(cls, parts: Sequence[Positions]) -> Positions:
        return cls(*(np.concatenate([getattr(p, k) for p in parts]) for k in ("shape", "mines_left", "game", "grid", "y")))


class _Recorder:
    """Collects (view grid, mines left, exact probabilities) per position."""

    def __init__(self) -> None:
        self.shape: list[tuple[int, int]] = []
        self.mines_left: list[int] = []
        self.game: list[int] = []
        self.grid: list[np.ndarray] = []
        self.y: list[np.ndarray] = []
        self.current = 0

    def add(self, observation: Observation, result: Probabilities) -> None:
        if not result.exact:
            return
        grid = view_grid(observation)
        y = np.full(grid.size, -1.0, dtype=np.float32)
        for cell, p in result.covered():
            y[cell] = p
        self.shape.append(grid.shape)
        self.mines_left.append(observation.mines_left)
        self.game.append(self.current)
        self.grid.append(grid.ravel())
        self.y.append(y)

    def positions(self) -> Positions:
        if not self.shape:
            return Positions(
                np.zeros((0, 2), np.int16),
                np.zeros(0, np.int32),
                np.zeros(0, np.int32),
                np.zeros(0, np.int8),
                np.zeros(0, np.float32),
            )
        return Positions(
            np.array(self.shape, dtype=np.int16),
            np.array(self.mines_left, dtype=np.int32),
            np.array(self.game, dtype=np.int32),
            np.concatenate(self.grid),
            np.concatenate(self.y),
        )


class _RecordingAnalyzer:
    """An analyzer that hands every result to the recorder (``exact``'s analyses are its decisions)."""

    def __init__(self, analyzer: Analyzer, recorder: _Recorder) -> None:
        self.analyzer, self.recorder = analyzer, recorder
        self.use_kernel = analyzer.use_kernel

    def analyze_patiently(self, observation: Observation) -> Probabilities:
        result = self.analyzer.analyze_patiently(observation)
        self.recorder.add(observation, result)
        return result


def _player(chunk: PositionChunk, seed: int, recorder: _Recorder, labels: Analyzer) -> Strategy:
    if not chunk.model:
        strategy = ExactStrategy(seed)
        strategy.analyzer = _RecordingAnalyzer(strategy.analyzer, recorder)  # type: ignore[assignment]
        return strategy
    from sweeplab.learn.neural.player import NeuralStrategy

    neural = NeuralStrategy(seed, model=chunk.model, certain=chunk.certain)
    neural.watcher = lambda observation: recorder.add(observation, labels.analyze_patiently(observation))
    return neural


def record(chunk: PositionChunk) -> tuple[Positions, int, float]:
    """Play one chunk: its positions, the games won, and the CPU seconds it took."""
    started = time.process_time()
    recorder = _Recorder()
    labels = Analyzer(DEFAULT_BUDGET)
    won = 0
    for i in range(chunk.start, chunk.start + chunk.games):
        rules = chunk.boards[i % len(chunk.boards)]
        deal = next(deals(chunk.seed, 1, BoardRange.fixed(rules), start=i))
        recorder.current = i
        game = play(_player(chunk, deal.player_seed, recorder, labels), Game(rules, deal.game_seed))
        won += game.state is GameState.WON
    return recorder.positions(), won, time.process_time() - started


def play_positions(chunk: PositionChunk) -> Shard:
    """Play one chunk and return its shard as the file's bytes (a worker's task)."""
    found, won, seconds = record(chunk)
    shard = Shard(chunk.number, _EMPTY, chunk.start, chunk.games, won, len(found), seconds, rows=len(found.y))
    buffer = io.BytesIO()
    meta = {k: v for k, v in shard.meta().items() if k in ("start", "games", "won", "positions", "cpu_seconds")}
    np.savez_compressed(buffer, **vars(found), **meta)
    return replace(shard, blob=buffer.getvalue())


def plan_positions(
    games: int, seed: int, boards: Sequence[Rules], shard_games: int, model: str = "", certain: str = "subset"
) -> list[PositionChunk]:
    """The chunks of games 0 to ``games - 1``, ``shard_games`` each."""
    if games < 1 or shard_games < 1:
        raise DataError("games and games per shard must be at least 1")
    if not boards:
        raise DataError("give at least one board")
    return [
        PositionChunk(k, s, min(shard_games, games - s), seed, tuple(boards), model, certain)
        for k, s in enumerate(range(0, games, shard_games))
    ]


def position_settings(
    seed: int, games: int, shard_games: int, boards: Sequence[Rules], model: str, certain: str = "subset"
) -> dict[str, Any]:
    """What makes a position folder's rows (``run.json``'s settings; a resumed run must have the same)."""
    return {
        "rows": "positions",
        "seed": seed,
        "games": games,
        "shard_games": shard_games,
        "boards": [f"{r.width}x{r.height}x{r.mines}" for r in boards],
        "rule": boards[0].first_click if boards else None,
        "player": f"neural[model={model},certain={certain}]" if model else "exact",
    }


def load_positions(folder: Path) -> Positions:
    """Every position of a complete position folder, in shard order; :class:`DataError` names a bad file."""
    parts = []
    for name in folder_shards(folder):
        path = Path(folder) / name
        try:
            with np.load(path, allow_pickle=False) as data:
                parts.append(Positions(*(data[k] for k in ("shape", "mines_left", "game", "grid", "y"))))
        except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as error:
            raise DataError(f"{path}: not a readable position shard ({error})") from None
    if not parts:
        raise DataError(f"{folder}: the data folder lists no shards")
    return Positions.join(parts)
