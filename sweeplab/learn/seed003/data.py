"""Training data for seed 003's classifiers: games over a range of boards, the features of candidate cells at each
guess and whether each was safe, saved as a compressed ``.npz`` with a JSON manifest beside it.

Source: ``003_f5c1155f4ddfa843.txt`` section 5.2 (data from games played by the Manhattan version over a range of
board widths, heights and mine ratios; the numbers were lost in extraction) and section 4.2.2 (the candidates: the
frontier cells plus random covered cells).

Choices where the paper is silent or its numbers were lost:

* Boards: each game draws its width from 8-30, height from 8-16 and mine ratio from 0.10-0.21 (uniformly, with the
  game's own generator), so the three standard levels (9x9/10, 16x16/40, 30x16/99 at ratios 0.12, 0.16, 0.21) lie
  inside the range. First click rule ``safe``.
* Rows are recorded only when the player must guess (no certain move is left), since that is the only time the
  model is asked; a position gives every frontier cell and up to 8 random covered cells off the frontier.
* Label ``y`` is 1 for a mine and 0 for a safe cell (the models predict the mine probability; the players reveal
  the cell with the least).
* Game ``i`` of root seed ``S`` draws its board, layout and player seeds from
  ``numpy.random.SeedSequence(S, spawn_key=(i,))``, as the benchmark runner does, so a seed fixes the data.

A data set is one ``.npz`` file (with ``FILE.json`` beside it), or a data folder written in shards by
:mod:`sweeplab.learn.seed003.shards` (``shard-000000.npz``, ... and the manifest ``data.json`` listing them in order);
:meth:`Dataset.load` reads either.
"""

from __future__ import annotations

import json
import random
import time
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from sweeplab.core.errors import SweeplabError
from sweeplab.core.game import Game, GameState
from sweeplab.core.heldout import development_seed
from sweeplab.core.observation import Observation
from sweeplab.core.rules import Rules
from sweeplab.core.seeds import seed_entropy
from sweeplab.learn.seed003.features import FEATURE_NAMES, build_features, probabilities_for, sample_candidates
from sweeplab.learn.seed003.players import WatchedStrategy
from sweeplab.strategies.base import play


class DataError(SweeplabError):
    """A data file that cannot be read or does not hold what a model needs; the message names the file."""


@dataclass(frozen=True)
class BoardRange:
    """The boards games are dealt on: width, height and mine ratio drawn uniformly from these closed ranges."""

    widths: tuple[int, int] = (8, 30)
    heights: tuple[int, int] = (8, 16)
    densities: tuple[float, float] = (0.10, 0.21)
    rule: str = "safe"

    def draw(self, rng: np.random.Generator) -> Rules:
        width = int(rng.integers(self.widths[0], self.widths[1] + 1))
        height = int(rng.integers(self.heights[0], self.heights[1] + 1))
        density = float(rng.uniform(*self.densities))
        mines = max(1, round(density * width * height))
        return Rules(width, height, mines, self.rule)

    @classmethod
    def fixed(cls, rules: Rules) -> BoardRange:
        """Every game on one board."""
        return cls((rules.width, rules.width), (rules.height, rules.height), (rules.density, rules.density), rules.first_click)


@dataclass(frozen=True)
class Deal:
    """One game of a seeded series: its index, rules, layout seed and player seed."""

    index: int
    rules: Rules
    game_seed: int
    player_seed: int


def deals(seed: int, games: int, boards: BoardRange, start: int = 0) -> Iterator[Deal]:
    """Games ``start`` to ``start + games - 1`` of root seed ``seed``, a development seed: every training row and
    every game a model is tuned on is dealt here, so a held-out seed (:mod:`sweeplab.core.heldout`) is refused."""
    development_seed(seed, "training and tuning games")
    for i in range(start, start + games):
        rng = np.random.default_rng(np.random.SeedSequence(seed_entropy(seed), spawn_key=(i,)))
        rules = boards.draw(rng)
        if rules.first_click == "safe" and rules.mines >= rules.width * rules.height:
            rules = Rules(rules.width, rules.height, rules.width * rules.height - 1, rules.first_click)
        yield Deal(i, rules, int(rng.integers(2**62)), int(rng.integers(2**62)))


@dataclass
class Dataset:
    """Feature rows ``x`` (float32), labels ``y`` (1 = mine), and the game each row came from."""

    x: np.ndarray
    y: np.ndarray
    game: np.ndarray
    names: tuple[str, ...] = FEATURE_NAMES

    def __len__(self) -> int:
        return len(self.y)

    def split(self, validation: float = 0.1) -> tuple[Dataset, Dataset]:
        """(train, validation): the last ``validation`` fraction of the games is held out (never split a game)."""
        games = np.unique(self.game)
        if not len(games):
            raise DataError("no candidate cells were recorded (the games needed no guess): play more games, or a denser board")
        cut = games[int(len(games) * (1 - validation))] if len(games) > 1 else games[-1] + 1
        held = self.game >= cut
        return self._take(~held), self._take(held)

    def columns(self, keep: np.ndarray) -> Dataset:
        """The same rows with only the columns ``keep`` (indices, in order)."""
        return Dataset(np.ascontiguousarray(self.x[:, keep]), self.y, self.game, tuple(self.names[i] for i in keep))

    def _take(self, mask: np.ndarray) -> Dataset:
        return Dataset(self.x[mask], self.y[mask], self.game[mask], self.names)

    def save(self, path: Path, manifest: dict[str, Any]) -> Path:
        """Write ``path`` (npz) and ``path`` + ``.json`` (the manifest, with the row and column counts added)."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("wb") as handle:
            np.savez_compressed(handle, x=self.x, y=self.y, game=self.game, names=np.array(self.names))
        manifest = dict(
            manifest, rows=len(self), columns=len(self.names), mines=int(self.y.sum()), file=path.name, bytes=path.stat().st_size
        )
        manifest_path(path).write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n")
        return path

    @classmethod
    def load(cls, path: Path) -> Dataset:
        """The data in ``path``: an ``.npz`` file, or a data folder (every shard its ``data.json`` lists, in order)."""
        path = Path(path)
        if path.is_dir():
            return cls.concat([cls.load(path / name) for name in folder_shards(path)])
        try:
            with np.load(path, allow_pickle=False) as data:
                return cls(data["x"], data["y"], data["game"], tuple(str(n) for n in data["names"]))
        except FileNotFoundError:
            raise DataError(f"{path}: no such data file; make one with `sweeplab learn data --out {path}`") from None
        except (OSError, ValueError, KeyError, zipfile.BadZipFile, EOFError) as error:
            raise DataError(f"{path}: not a sweeplab data file (npz with x, y, game, names): {error}") from None

    @classmethod
    def concat(cls, parts: list[Dataset]) -> Dataset:
        """The rows of ``parts`` one after the other (they must have the same columns)."""
        if not parts:
            raise DataError("no data to join: the data folder lists no shards")
        for part in parts[1:]:
            if part.names != parts[0].names:
                raise DataError("the shards have different columns: make the data folder again")
        return cls(
            np.concatenate([p.x for p in parts]),
            np.concatenate([p.y for p in parts]),
            np.concatenate([p.game for p in parts]),
            parts[0].names,
        )


def manifest_path(path: Path) -> Path:
    """The manifest of a data set: ``FILE.npz.json`` beside a file, ``data.json`` inside a data folder."""
    path = Path(path)
    return path / FOLDER_MANIFEST if path.is_dir() else Path(str(path) + ".json")


#: The manifest of a data folder: the settings, totals and the shards in order (written when the folder is complete).
FOLDER_MANIFEST = "data.json"


def read_manifest(path: Path) -> dict[str, Any]:
    """The manifest of a data file or folder; :class:`DataError` names the file when there is none or it is broken."""
    where = manifest_path(path)
    try:
        data = json.loads(where.read_text())
    except FileNotFoundError:
        if Path(path).is_dir() and (Path(path) / "run.json").exists():
            raise DataError(
                f"{path}: the data folder is unfinished (no {FOLDER_MANIFEST}): finish it with the same "
                "`sweeplab learn data` command and --resume"
            ) from None
        raise DataError(f"{where}: no manifest; make the data with `sweeplab learn data --out {path}`") from None
    except (OSError, ValueError) as error:
        raise DataError(f"{where}: not a readable manifest ({error})") from None
    if not isinstance(data, dict):
        raise DataError(f"{where}: not a manifest (a JSON object)")
    return data


def folder_shards(folder: Path) -> list[str]:
    """The shard files of a complete data folder, in order, as its manifest lists them."""
    shards = read_manifest(folder).get("shards")
    if not isinstance(shards, list) or not all(isinstance(s, dict) and isinstance(s.get("file"), str) for s in shards):
        raise DataError(f"{manifest_path(folder)}: lists no shards (a list of {{'file': ...}})")
    names = [str(s["file"]) for s in shards]
    for name in names:
        if Path(name).name != name:
            raise DataError(f"{manifest_path(folder)}: shard {name!r} is not a file name inside the folder")
    return names


@dataclass
class Collected:
    """What :func:`collect` gathered, with the games' outcomes."""

    data: Dataset
    games: int
    won: int
    positions: int
    seconds: float


PlayerFactory = Callable[[int], WatchedStrategy]


def collect(
    player: PlayerFactory,
    games: int,
    seed: int,
    boards: BoardRange | None = None,
    *,
    probability: str = "dsscsp",
    extra: int = 8,
    start: int = 0,
    progress: Callable[[int], None] | None = None,
) -> Collected:
    """Play ``games`` games with ``player(seed)`` and record the candidates' features and labels at every guess.

    ``probability="exact"`` records the exact engine's probability in the features instead of DSScsp's.
    """
    boards = boards or BoardRange()
    xs: list[np.ndarray] = []
    ys: list[np.ndarray] = []
    gs: list[np.ndarray] = []
    won = positions = 0
    t0 = time.process_time()
    for deal in deals(seed, games, boards, start):
        game = Game(deal.rules, deal.game_seed)
        strategy = player(deal.player_seed)
        pick = random.Random(deal.player_seed ^ 0x5EED)

        def record(
            observation: Observation,
            probabilities: dict[int, float],
            game: Game = game,
            pick: random.Random = pick,
            index: int = deal.index,
        ) -> None:
            nonlocal positions
            cells = sample_candidates(observation, probabilities, pick, extra)
            if not cells:
                return
            if probability != "dsscsp":
                probabilities = probabilities_for(observation, probability)
            features = build_features(observation, cells, probabilities)
            mines = game.mine_cells()
            xs.append(features.matrix.astype(np.float32))
            ys.append(np.array([c in mines for c in cells], dtype=np.uint8))
            gs.append(np.full(len(cells), index, dtype=np.int32))
            positions += 1

        strategy.watcher = record
        play(strategy, game)
        won += game.state is GameState.WON
        if progress is not None:
            progress(1)
    width = len(FEATURE_NAMES)
    data = Dataset(
        np.concatenate(xs) if xs else np.zeros((0, width), np.float32),
        np.concatenate(ys) if ys else np.zeros(0, np.uint8),
        np.concatenate(gs) if gs else np.zeros(0, np.int32),
    )
    return Collected(data, games, won, positions, time.process_time() - t0)


def boards_manifest(boards: BoardRange) -> dict[str, Any]:
    return asdict(boards)


__all__ = [
    "FOLDER_MANIFEST",
    "BoardRange",
    "Collected",
    "DataError",
    "Dataset",
    "Deal",
    "boards_manifest",
    "collect",
    "deals",
    "folder_shards",
    "manifest_path",
    "read_manifest",
]
