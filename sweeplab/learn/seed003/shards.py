"""Training data at scale: games played in chunks on the bench's executors (this process, local processes or Dask),
each chunk saved as one shard of a data folder as soon as it is done, so that an interrupted run resumes with the
shards it has.

Two kinds of rows:

* ``features``: the classifiers' rows (the features of the candidate cells at each guess of the Manhattan player,
  label 1 for a mine), as :func:`sweeplab.learn.seed003.data.collect` records them;
* ``substates``: deep Q-learning's single pass (the sub-state of each guess of the Manhattan player and its
  discounted return), as :func:`sweeplab.learn.seed003.dqn.simulate` records them, for given equation (10) coefficients.

Chunk ``k`` plays games ``k*K`` to ``k*K + K - 1`` (``K`` games per shard). Game ``i`` depends only on the root seed
and ``i``, so the rows are the same whatever the executor, the number of workers, or the interruptions on the way.

A data folder holds ``run.json`` (the settings and whether the folder is complete: the bench's journal record, which
also locks the folder while a run writes it), one ``shard-NNNNNN.npz`` per chunk (written whole or not at all: ``x``,
``y``, ``game``, ``names`` and the chunk's ``start``, ``games``, ``won``, ``positions``, ``cpu_seconds``), and, once
every chunk is done, the manifest ``data.json`` (settings, totals, the shards in order) that
:meth:`sweeplab.learn.seed003.data.Dataset.load` reads.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import zipfile
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from sweeplab.bench.executors import Executor
from sweeplab.bench.journal import RUN, Journal, OutputError, atomic, write_text
from sweeplab.learn.seed003.data import FOLDER_MANIFEST, BoardRange, DataError, Dataset, boards_manifest, collect, read_manifest
from sweeplab.learn.seed003.episodes import Episode, fit_alpha, simulate
from sweeplab.learn.seed003.features import FEATURE_NAMES
from sweeplab.learn.seed003.players import ManhattanPlayer, WatchedStrategy
from sweeplab.learn.seed003.substates import SUBSTATE_NAMES

ROWS = ("features", "substates")
#: Games per shard unless told otherwise: a few seconds of CPU per chunk, a few MB per shard.
SHARD_GAMES = 1000
_SHARD = re.compile(r"^shard-(\d{6,})\.npz$")
_META = ("start", "games", "won", "positions", "cpu_seconds")


def shard_name(number: int) -> str:
    """The file name of chunk ``number``'s shard.

    >>> shard_name(12)
    'shard-000012.npz'
    """
    return f"shard-{number:06d}.npz"


@dataclass(frozen=True)
class Chunk:
    """One task: games ``start`` to ``start + games - 1`` of root ``seed`` played by ``player(seed)`` (by default
    the Manhattan player; a trainer's latest model during iterative training), recorded as ``rows``."""

    number: int
    start: int
    games: int
    seed: int
    boards: BoardRange
    rows: str = "features"
    probability: str = "dsscsp"
    extra: int = 8
    coefficients: tuple[float, ...] = ()
    player: Callable[[int], WatchedStrategy] = ManhattanPlayer
    #: the worker compresses the shard's file itself and sends back only the bytes (what a data folder saves)
    encode: bool = False


class ChunkLike(Protocol):
    """What a data folder needs of a chunk of any kind of rows: its number and its games."""

    @property
    def number(self) -> int: ...
    @property
    def start(self) -> int: ...
    @property
    def games(self) -> int: ...


@dataclass
class Shard:
    """What one chunk recorded: its rows and its games' outcomes (``positions``: the guesses recorded). An encoded
    shard carries its file's bytes in ``blob`` instead of its rows (``data`` is then empty, ``rows`` its count)."""

    number: int
    data: Dataset
    start: int
    games: int
    won: int
    positions: int
    seconds: float
    blob: bytes | None = None
    rows: int | None = None

    def meta(self) -> dict[str, Any]:
        return {
            "file": shard_name(self.number),
            "start": self.start,
            "games": self.games,
            "won": self.won,
            "positions": self.positions,
            "rows": self.rows if self.rows is not None else len(self.data),
            "cpu_seconds": round(self.seconds, 3),
        }

    def encoded(self) -> Shard:
        """This shard as its file's bytes (an ``.npz``: the rows and the meta), without the rows in memory."""
        d = self.data
        meta = {k: v for k, v in self.meta().items() if k in _META}
        buffer = io.BytesIO()
        np.savez_compressed(buffer, x=d.x, y=d.y, game=d.game, names=np.array(d.names), **meta)
        empty = Dataset(d.x[:0], d.y[:0], d.game[:0], d.names)
        return replace(self, data=empty, blob=buffer.getvalue(), rows=len(d))


def plan(
    games: int, seed: int, boards: BoardRange, shard_games: int = SHARD_GAMES, start: int = 0, **options: Any
) -> list[Chunk]:
    """The chunks of games ``start`` to ``start + games - 1``, ``shard_games`` each (the last may be shorter);
    ``options`` go to each chunk.

    >>> [(c.start, c.games) for c in plan(5, 0, BoardRange(), 2)]
    [(0, 2), (2, 2), (4, 1)]
    """
    if shard_games < 1 or games < 1:
        raise DataError("games and games per shard must be at least 1")
    if options.get("rows", "features") not in ROWS:
        raise DataError(f"unknown rows {options['rows']!r}: choose one of {', '.join(ROWS)}")
    if options.get("rows") == "substates" and len(options.get("coefficients", ())) != 4:
        raise DataError("sub-state rows need equation (10)'s four alpha coefficients")
    starts = range(start, start + games, shard_games)
    end = start + games
    return [Chunk(k, s, min(shard_games, end - s), seed, boards, **options) for k, s in enumerate(starts)]


def play_chunk(chunk: Chunk) -> Shard:
    """Play one chunk's games and record its rows (a worker's task); encoded if the chunk says so."""
    shard = _play(chunk)
    return shard.encoded() if chunk.encode else shard


def _play(chunk: Chunk) -> Shard:
    if chunk.rows == "substates":
        episode = simulate(chunk.player, chunk.coefficients, chunk.games, chunk.seed, chunk.boards, start=chunk.start)
        data = Dataset(episode.x, episode.y, episode.game, SUBSTATE_NAMES)
        return Shard(chunk.number, data, chunk.start, chunk.games, episode.won, len(episode.y), episode.seconds)
    collected = collect(
        chunk.player,
        chunk.games,
        chunk.seed,
        chunk.boards,
        probability=chunk.probability,
        extra=chunk.extra,
        start=chunk.start,
    )
    return Shard(chunk.number, collected.data, chunk.start, chunk.games, collected.won, collected.positions, collected.seconds)


def save_shard(folder: Path, shard: Shard) -> Path:
    """Write ``shard`` into ``folder`` whole or not at all (a temporary name, then a rename)."""
    blob = (shard if shard.blob is not None else shard.encoded()).blob
    assert blob is not None

    def write(temp: Path) -> None:
        temp.write_bytes(blob)

    return atomic(write, Path(folder) / shard_name(shard.number))


def shard_meta(path: Path) -> dict[str, Any]:
    """A shard's outcomes and row count, read without its rows; ``DataError`` if it does not read back."""
    try:
        with np.load(path, allow_pickle=False) as data:
            meta = {k: float(data[k]) if k == "cpu_seconds" else int(data[k]) for k in _META}
            meta["rows"] = int(data["y"].shape[0])
    except (OSError, ValueError, KeyError, zipfile.BadZipFile, EOFError) as error:
        raise DataError(f"{path}: not a readable shard ({error})") from None
    return {"file": Path(path).name, **meta}


@dataclass
class DataFolder:
    """A data folder open for writing: locked, its settings checked against ``run.json`` (see the module docstring).

    Without ``resume`` or ``force`` a folder holding a run (finished or not) is refused; ``resume`` keeps the shards
    of the same settings, ``force`` deletes everything a data run wrote there and starts afresh. A folder holding
    shards but no ``run.json`` is refused unless ``force``. ``finished`` is true when the folder is already complete.
    """

    directory: Path
    settings: dict[str, Any]
    resume: bool = False
    force: bool = False
    command: str = ""
    done: dict[int, dict[str, Any]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.directory = Path(self.directory)
        had_run = (self.directory / RUN).exists()
        if not had_run and not self.force and self.directory.is_dir() and any(self._shard_files()):
            raise OutputError(
                f"{self.directory} holds data shards but no {RUN}: choose another --out, or --force to replace them"
            )
        self.journal = Journal(self.directory, self.settings, resume=self.resume, force=self.force, command=self.command)
        self.notes = list(self.journal.notes)
        self.finished = self.journal.finished
        if self.finished:
            return
        try:
            if self.resume and had_run and not self.force:
                self._scan()
            else:
                self._clear()
        except BaseException:
            self.close()
            raise

    def _shard_files(self) -> Iterable[Path]:
        if not self.directory.is_dir():
            return []
        return (p for p in self.directory.iterdir() if _SHARD.match(p.name))

    def _clear(self) -> None:
        for path in list(self._shard_files()):
            path.unlink()
        for name in (FOLDER_MANIFEST, ALPHA):
            with contextlib.suppress(FileNotFoundError):
                (self.directory / name).unlink()

    def _scan(self) -> None:
        for path in sorted(self._shard_files()):
            number = int(_SHARD.match(path.name).group(1))  # type: ignore[union-attr]
            try:
                self.done[number] = shard_meta(path)
            except DataError as error:
                self.notes.append(f"{error}: its games are played again")
                path.unlink()

    def keep(self, chunk: Chunk | ChunkLike) -> bool:
        """Whether ``chunk``'s shard is already here (the same games); a shard that does not match is deleted."""
        meta = self.done.get(chunk.number)
        if meta is None:
            return False
        if (meta["start"], meta["games"]) == (chunk.start, chunk.games):
            return True
        self.notes.append(f"{meta['file']} holds other games than its chunk: they are played again")
        (self.directory / meta["file"]).unlink()
        del self.done[chunk.number]
        return False

    def save(self, shard: Shard) -> None:
        save_shard(self.directory, shard)
        self.done[shard.number] = shard.meta()

    def finish(self, manifest: dict[str, Any], wall: float | None = None) -> Path:
        """Write ``data.json`` (``manifest`` plus the shards in order) and mark the run finished."""
        path = self.directory / FOLDER_MANIFEST
        shards = [self.done[k] for k in sorted(self.done)]
        write_text(path, json.dumps(dict(manifest, shards=shards), indent=2, sort_keys=True) + "\n")
        self.journal.finish([path, *(self.directory / s["file"] for s in shards)], wall)
        self.finished = True
        return path

    def close(self) -> None:
        self.journal.close()

    def __enter__(self) -> DataFolder:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


#: In a data folder of sub-state rows whose coefficients were fitted: the fit, reused when the run is resumed.
ALPHA = "alpha.json"


def totals(metas: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """The sums over shards: games, won, positions, rows, CPU seconds of play."""
    metas = list(metas)
    out: dict[str, Any] = {k: sum(int(m[k]) for m in metas) for k in ("games", "won", "positions", "rows")}
    out["cpu_seconds"] = round(sum(float(m["cpu_seconds"]) for m in metas), 2)
    return out


def data_settings(
    rows: str,
    seed: int,
    games: int,
    shard_games: int,
    boards: BoardRange,
    probability: str = "dsscsp",
    extra: int = 8,
    coefficients: Sequence[float] | None = None,
    alpha_games: int = 100,
) -> dict[str, Any]:
    """What makes a data folder's rows (``run.json``'s settings: a resumed run must have the same)."""
    settings: dict[str, Any] = {
        "rows": rows,
        "seed": seed,
        "games": games,
        "shard_games": shard_games,
        "boards": boards_manifest(boards),
    }
    if rows == "features":
        settings.update(probability=probability, extra_candidates=extra)
    else:
        settings.update(alpha=list(coefficients) if coefficients else None, alpha_games=None if coefficients else alpha_games)
    return settings


def data_manifest(
    settings: dict[str, Any],
    metas: Iterable[dict[str, Any]],
    command: str,
    executor: str,
    wall: float,
    coefficients: Sequence[float] | None = None,
    alpha_fit: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The manifest of a data set: its settings, columns, label, totals, and how it was made."""
    substates = settings["rows"] == "substates"
    manifest = {
        "command": command,
        "player": "dsscsp-manhattan",
        "features": list(SUBSTATE_NAMES if substates else FEATURE_NAMES),
        "label": "y = the guess's linearly discounted return in [-1, 1] (seed 003 equation (11) as reconstructed)"
        if substates
        else "y = 1 for a mine, 0 for a safe cell",
        "executor": executor,
        **settings,
        **totals(metas),
        "wall_seconds": wall,
    }
    if substates and coefficients is not None:
        manifest["alpha_coefficients"] = list(coefficients)
        manifest["alpha_fit"] = alpha_fit
    return manifest


def generate(
    chunks: Sequence[Chunk | ChunkLike],
    executor: Executor,
    folder: DataFolder | None = None,
    progress: Callable[[int], None] | None = None,
    play: Callable[[Any], Shard] = play_chunk,
) -> list[Shard]:
    """Play the chunks on ``executor`` with ``play`` (a worker's task: :func:`play_chunk`, or another kind of rows'
    player returning its shard encoded); with ``folder``, skip the chunks it has and save each new shard as it comes.

    Returns the new shards in chunk order (without ``folder``: all of them, with their rows; with ``folder``, the
    workers compress the shards and only the files keep the rows). ``progress(games)`` is called after each chunk."""

    def task(chunk: Chunk | ChunkLike) -> Chunk | ChunkLike:
        return replace(chunk, encode=True) if folder is not None and isinstance(chunk, Chunk) else chunk

    todo = [task(c) for c in chunks if folder is None or not folder.keep(c)]
    new: dict[int, Shard] = {}
    stream = executor.imap_unordered(play, todo, len(todo))
    with contextlib.closing(stream):
        for shard in stream:
            if folder is not None:
                folder.save(shard)
            new[shard.number] = shard
            if progress is not None:
                progress(shard.games)
    return [new[k] for k in sorted(new)]


def fitted_alpha(
    games: int,
    seed: int,
    executor: Executor | None = None,
    folder: DataFolder | None = None,
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """Equation (10)'s fit for sub-state rows (:func:`sweeplab.learn.seed003.dqn.fit_alpha`, its points played on
    ``executor``): read back from ``folder`` when a resumed run made it before, else made and saved there."""
    saved = folder.directory / ALPHA if folder is not None else None
    if saved is not None and saved.exists():
        try:
            fit: dict[str, Any] = json.loads(saved.read_text())
            if len(fit["coefficients"]) == 4:
                return fit
        except (OSError, ValueError, KeyError, TypeError):
            pass  # made again below
    fit = fit_alpha(games, seed, progress=progress, executor=executor)
    if saved is not None:
        write_text(saved, json.dumps(fit, indent=1) + "\n")
    return fit


def load_substates(path: Path) -> tuple[Episode, tuple[float, ...]]:
    """The rows of ``sweeplab learn data --rows substates`` (a folder or a file) as deep Q-learning's single pass,
    with the equation (10) coefficients they were made with."""
    data = Dataset.load(path)
    manifest = read_manifest(path)
    coefficients = manifest.get("alpha_coefficients")
    if data.names != SUBSTATE_NAMES or not isinstance(coefficients, list) or len(coefficients) != 4:
        raise DataError(f"{path}: not sub-state rows; make them with `sweeplab learn data --rows substates`")
    games, won, seconds = int(manifest["games"]), int(manifest["won"]), float(manifest["cpu_seconds"])
    episode = Episode(data.x, data.y.astype(np.float32), data.game, games, won, seconds)
    return episode, tuple(float(c) for c in coefficients)


def play_on(
    executor: Executor,
    player: Callable[[int], WatchedStrategy],
    games: int,
    seed: int,
    boards: BoardRange,
    *,
    start: int = 0,
    rows: str = "features",
    coefficients: Sequence[float] = (),
    progress: Callable[[int], None] | None = None,
) -> Shard:
    """Games ``start`` to ``start + games - 1`` played by ``player`` on ``executor`` in chunks (a few per worker),
    their rows joined in order: the rows :func:`~sweeplab.learn.seed003.data.collect` (features) or
    :func:`~sweeplab.learn.seed003.episodes.simulate` (substates) record in one process, with the games' totals."""
    size = max(1, min(SHARD_GAMES, -(-games // (4 * max(1, executor.workers)))))
    chunks = plan(games, seed, boards, size, start, rows=rows, coefficients=tuple(coefficients), player=player)
    shards = generate(chunks, executor, progress=progress)
    data = join(shards)
    won, positions = sum(s.won for s in shards), sum(s.positions for s in shards)
    return Shard(0, data, start, games, won, positions, sum(s.seconds for s in shards))


def join(shards: list[Shard]) -> Dataset:
    """The rows of ``shards`` in order, as one data set."""
    return Dataset.concat([s.data for s in shards])


__all__ = [
    "ALPHA",
    "ROWS",
    "SHARD_GAMES",
    "Chunk",
    "DataFolder",
    "Shard",
    "data_manifest",
    "data_settings",
    "fitted_alpha",
    "generate",
    "join",
    "load_substates",
    "plan",
    "play_chunk",
    "play_on",
    "save_shard",
    "shard_meta",
    "shard_name",
    "totals",
]
