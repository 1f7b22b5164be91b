"""Play seeded batches of games: game i of root seed S gets the same layout for every strategy and any job count.

A run is described by a :class:`BenchSpec` (strategy, rules, root seed, first click, time limit, optional fixed
layouts). Its games are cut into batches that an executor (:mod:`sweeplab.bench.executors`: local processes or a
Dask cluster) plays anywhere; results always come back in game-index order, so they do not depend on where or in
how many pieces they were played.
"""

from __future__ import annotations

import contextlib
import math
import signal
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any, NamedTuple, Protocol

from sweeplab.bench.signals import Interrupted, deferred
from sweeplab.bench.signals import check as check_signals
from sweeplab.core.errors import SweeplabError
from sweeplab.core.game import Game, GameState, Move
from sweeplab.core.rules import Rules
from sweeplab.core.seeds import SEED_SPAN, seed_entropy, seed_sequence_state  # noqa: F401  (SEED_SPAN: part of the runner's interface)
from sweeplab.strategies.base import Guess, play
from sweeplab.strategies.external.protocol import Forfeit, ProgramFailed
from sweeplab.strategies.registry import make

#: Rules under which the first reveal can never hit a mine: a guess made before anything is revealed cannot lose.
SAFE_FIRST_RULES = ("safe", "xp", "zero", "noguess")


class BenchError(SweeplabError):
    """A game of a benchmark failed (the strategy raised); the message names the game so it can be replayed."""


class GameTimeout(Exception):
    """Raised inside a game that ran past its time limit."""


class GuessRecord(NamedTuple):
    """A guess as the harness keeps it: small, picklable, in play order."""

    cell: int
    kind: str
    safety: float | None
    outcome: bool | None
    move: int

    @classmethod
    def of(cls, guess: Guess) -> GuessRecord:
        return cls(guess.cell, guess.kind, guess.safety, guess.outcome, guess.move)


@dataclass(slots=True)
class GameResult:
    """One game's outcome, as the scorer sees it.

    ``timed_out`` games are not wins and are reported separately (never dropped). ``largest_set`` is the
    strategy's ``largest_set`` attribute after the game (variables, constraints, degrees of freedom,
    solutions) when it exposes one. ``protected_first`` is true when the strategy's first reveal could not
    lose (a safe-first-click rule and no cell revealed before it). ``guess_count`` is ``len(counted_guesses())``,
    kept when a run drops the guesses themselves to save memory.
    """

    index: int
    won: bool
    moves: int
    cpu_seconds: float
    three_bv: int | None
    revealed: int
    guesses: tuple[GuessRecord, ...] = ()
    timed_out: bool = False
    largest_set: tuple[int, ...] | None = None
    protected_first: bool = False
    guess_count: int = -1
    rule_kept: bool = True
    outcome: str = ""

    def __post_init__(self) -> None:
        if self.guess_count < 0:
            self.guess_count = len(self.counted_guesses())
        if not self.outcome:
            self.outcome = classify(self)

    def to_json(self) -> dict[str, Any]:
        """The result as JSON values (a journal line); :meth:`from_json` gives back an equal result."""
        data = {f.name: getattr(self, f.name) for f in fields(self)}
        data["guesses"] = [list(g) for g in self.guesses]
        data["largest_set"] = None if self.largest_set is None else list(self.largest_set)
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameResult:
        """The result :meth:`to_json` wrote; a missing or mistyped field raises ``ValueError``/``TypeError``."""
        names = {f.name for f in fields(cls)}
        unknown = set(data) - names
        if unknown:
            raise ValueError(f"unknown fields {sorted(unknown)}")
        for name, kind in _JSON_TYPES.items():
            value = data[name]
            if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
                raise TypeError(f"{name} is {value!r}")
        values = dict(data)
        values["guesses"] = tuple(GuessRecord(*g) for g in data.get("guesses", ()))
        largest = data.get("largest_set")
        values["largest_set"] = None if largest is None else tuple(int(v) for v in largest)
        return cls(**values)

    def counted_guesses(self) -> tuple[GuessRecord, ...]:
        """The guesses that could have lost: all but a ``first`` guess and a protected first reveal."""
        return tuple(counted(self.guesses, self.protected_first))


def counted(guesses: Sequence[Any], protected_first: bool) -> list[Any]:
    """The guesses (records or a player's :class:`Guess` objects) that could have lost: all but a ``first`` guess
    and a protected first reveal."""
    return [g for g in guesses if g.kind != "first" and not (protected_first and g.move == 0)]


_JSON_TYPES: dict[str, type | tuple[type, ...]] = {
    "index": int,
    "won": bool,
    "moves": int,
    "cpu_seconds": (float, int),
    "revealed": int,
    "timed_out": bool,
    "outcome": str,
}

#: Seed 000's Figure 6 categories, in its order, plus the harness's own (see :func:`classify`).
OUTCOMES = (
    "won without guessing",
    "won with guessing",
    "lost on a craps shoot",
    "lost on an educated guess",
    "lost on another guess",
    "lost without a recorded guess",
    "timed out",
)


def classify(result: GameResult) -> str:
    """Why a game was won or lost (seed 000, Figure 6); stored in the result as ``outcome`` when it is made, so
    that a run that drops the guess records to save memory still knows it.

    A guess counts unless it could not lose (a ``first`` guess or a reveal protected by a safe-first-click rule).
    A loss is put down to the kind of the failed guess: ``craps`` -> craps shoot, ``educated`` -> educated guess,
    any other kind -> another guess. A loss with no failed guess recorded means the strategy does not report its
    guesses (or lost on a move it thought certain).
    """
    return outcome_of(result.timed_out, result.won, result.guess_count, result.guesses)


def outcome_of(timed_out: bool, won: bool, guess_count: int, guesses: Sequence[Any]) -> str:
    """:func:`classify` from a game's figures and its guesses (records or a player's :class:`Guess` objects)."""
    if timed_out:
        return "timed out"
    if won:
        return "won with guessing" if guess_count > 0 else "won without guessing"
    failed = [g for g in guesses if g.outcome is False]
    if not failed:
        return "lost without a recorded guess"
    kind = failed[-1].kind
    if kind == "craps":
        return "lost on a craps shoot"
    if kind == "educated":
        return "lost on an educated guess"
    return "lost on another guess"


@dataclass(frozen=True)
class BenchSpec:
    """What to play: a strategy on rules from a root seed, optionally on fixed layouts.

    ``first_click`` is a cell the harness reveals before the strategy plays (None: the strategy chooses).
    ``layouts`` (mine-cell tuples, game i plays ``layouts[i]``) replace the seeded deal; ``openings`` give a
    per-game cell to reveal first (the hint cells of dealt ``hint`` layouts). ``time_limit`` is CPU seconds per game.
    """

    strategy: str
    rules: Rules
    seed: int = 0
    first_click: int | None = None
    time_limit: float | None = None
    layouts: tuple[tuple[int, ...], ...] | None = None
    openings: tuple[int | None, ...] | None = None
    options: tuple[tuple[str, object], ...] = field(default=())
    keep_guesses: bool = True

    def __post_init__(self) -> None:
        if self.time_limit is not None and not (isinstance(self.time_limit, int | float) and 0 < self.time_limit < math.inf):
            raise BenchError(f"the time limit must be a finite number of seconds above 0, not {self.time_limit!r}")


def game_seeds(root: int, index: int) -> tuple[int, int]:
    """The (layout seed, strategy seed) of game ``index`` under ``root``: numpy's SeedSequence child ``index`` of
    :func:`seed_entropy` (``root``); any integer is a root seed.

    >>> game_seeds(0, 0) == game_seeds(0, 0) != game_seeds(0, 1)
    True
    >>> game_seeds(-1, 0) != game_seeds(1, 0)
    True
    """
    w = seed_sequence_state(seed_entropy(root), (index,), 4)  # numpy's words, without numpy
    return (w[0] << 32) | w[1], (w[2] << 32) | w[3]


def deal(rules: Rules, root: int, index: int, first_click: int | None = None) -> Game:
    """Game ``index`` of ``root`` as the harness deals it, with ``first_click`` revealed if given.

    Without a click, the ``safe``, ``xp``, ``zero`` and ``noguess`` rules deal (or move a mine) at the strategy's first reveal.
    """
    game = Game(rules, game_seeds(root, index)[0])
    if first_click is not None and game.observation().view[first_click] < 0:
        game.reveal(first_click)
    return game


GRACE = 0.25  # the timer's signal comes this share of the limit after it (and a millisecond), for moves to end first


class GameTimer:
    """A per-game CPU-time limit.

    The game stops at the first move that ends past :attr:`deadline` (the thread's CPU clock; :func:`play`'s
    ``deadline``, or :meth:`check` after each move). In a process's main thread on Unix it also arms ``ITIMER_PROF``
    (process CPU time) whose signal raises :class:`GameTimeout` inside the game, a little after the limit
    (:data:`GRACE`), so that a long ``choose`` is cut short while a game played move by move, or by the C game loop,
    stops at a move's end with its moves recorded. Elsewhere (a Dask worker thread, Windows) signals are unavailable:
    a single ``choose`` call that never returns is then not interrupted (strategies must guard their searches).
    """

    def __init__(self, limit: float | None) -> None:
        self.limit = limit
        self.use_signal = (
            limit is not None and hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
        )
        self._old: object = None
        self.deadline = math.inf

    def __enter__(self) -> GameTimer:
        if self.limit is None:
            return self
        self.deadline = time.thread_time() + self.limit
        if self.use_signal:
            self._old = signal.signal(signal.SIGPROF, _raise_timeout)
            signal.setitimer(signal.ITIMER_PROF, self.limit * (1 + GRACE) + 0.001)
        return self

    def check(self, game: Game, move: Move) -> None:
        if time.thread_time() > self.deadline and not game.over:
            raise GameTimeout

    def __exit__(self, *exc: object) -> None:
        if self.use_signal:
            signal.setitimer(signal.ITIMER_PROF, 0)
            signal.signal(signal.SIGPROF, self._old)  # type: ignore[arg-type]


def _raise_timeout(signum: int, frame: object) -> None:
    raise GameTimeout


def play_one(
    strategy: str,
    rules: Rules,
    root: int,
    index: int,
    first_click: int | None = None,
    *,
    time_limit: float | None = None,
    layout: Sequence[int] | None = None,
    opening: int | None = None,
    options: dict[str, object] | None = None,
    keep_guesses: bool = True,
) -> GameResult:
    """Play game ``index``; ``first_click`` (a cell) is revealed for the strategy before it takes over. Without
    ``keep_guesses`` the result holds no guess records (only their count and the outcome they give).

    With ``layout`` the game plays those mine cells as they are (no first-click rule; the dealer applied it) and
    ``opening`` (if given and no ``first_click``) is revealed first.
    """
    game_seed, strategy_seed = game_seeds(root, index)
    start = time.thread_time()
    if layout is None:
        game = Game(rules, game_seed)
    else:
        game = Game(Rules(rules.width, rules.height, rules.mines, "unsafe"), layout=layout)
    click = first_click if first_click is not None else opening
    if click is not None and game.observation().view[click] < 0:
        game.reveal(click)
    protected = layout is None and rules.first_click in SAFE_FIRST_RULES and game.moves == 0
    timed_out = False
    forfeit = ""
    try:
        player = make(strategy, seed=strategy_seed, **(options or {}))
        timer = GameTimer(time_limit)
        with timer:
            play(player, game, deadline=timer.deadline if time_limit is not None else None)
        timed_out = time_limit is not None and not game.over  # stopped at the deadline
    except GameTimeout:
        timed_out = not game.over
    except Forfeit as error:  # an outside program's fault: its loss, unless it fails the run's first game
        if index == 0:
            raise ProgramFailed(f"{strategy} failed the first game (game 0 of seed {root}): {error}") from None
        forfeit, timed_out = error.outcome, "time limit" in error.outcome
    except SweeplabError as error:
        raise BenchError(
            f"{strategy} failed in game {index} of seed {root} on {rules.spec()} ({rules.first_click}): {error}"
        ) from None
    except Exception as error:  # a strategy bug: name the game so it can be replayed with `sweeplab play`
        raise BenchError(
            f"{strategy} crashed in game {index} of seed {root} on {rules.spec()} ({rules.first_click}): "
            f"{type(error).__name__}: {error}"
        ) from error
    cpu = time.thread_time() - start + getattr(player, "program_cpu", 0.0)  # an outside program's CPU too
    largest = getattr(player, "largest_set", None)
    won, guesses = game.state is GameState.WON, player.guesses
    if keep_guesses:
        records, count, outcome = tuple(GuessRecord.of(g) for g in guesses), -1, forfeit
    else:  # the count and the outcome from the player's own guesses, no record made
        records, count = (), len(counted(guesses, protected))
        outcome = forfeit or outcome_of(timed_out, won, count, guesses)
    return GameResult(
        index=index,
        won=won,
        moves=game.moves,
        cpu_seconds=cpu,
        three_bv=game.three_bv() if game.dealt else None,
        revealed=game.revealed,
        guesses=records,
        timed_out=timed_out,
        largest_set=tuple(int(v) for v in largest) if largest is not None else None,
        protected_first=protected,
        guess_count=count,
        rule_kept=bool(getattr(game, "rule_kept", True)),
        outcome=outcome,
    )


@dataclass(frozen=True)
class Batch:
    """A slice of one spec's games, the unit sent to a worker: the spec (without its layouts) and the slice's layouts."""

    spec: BenchSpec
    indices: tuple[int, ...]
    layouts: tuple[tuple[int, ...], ...] | None = None
    openings: tuple[int | None, ...] | None = None


def play_batch(batch: Batch) -> list[GameResult]:
    """Play a batch's games in order (runs in a worker); without ``keep_guesses`` no guess records are kept."""
    spec = batch.spec
    options = dict(spec.options)
    results = [
        play_one(
            spec.strategy,
            spec.rules,
            spec.seed,
            i,
            spec.first_click,
            time_limit=spec.time_limit,
            layout=batch.layouts[j] if batch.layouts is not None else None,
            opening=batch.openings[j] if batch.openings is not None else None,
            options=options,
            keep_guesses=spec.keep_guesses,
        )
        for j, i in enumerate(batch.indices)
    ]
    return results


def batch_size(games: int, jobs: int) -> int:
    """A batch size that gives every worker several batches (for balance) without tiny tasks."""
    return max(1, min(100, math.ceil(games / (4 * max(1, jobs)))))


def _check_layouts(spec: BenchSpec, games: int) -> None:
    if spec.layouts is not None and len(spec.layouts) < games:
        raise BenchError(f"{games} games asked for but only {len(spec.layouts)} layouts given")


def iter_batches(spec: BenchSpec, indices: Iterator[int] | range | Sequence[int], size: int) -> Iterator[Batch]:
    """The games ``indices`` (in order) cut into batches of ``size``, made one at a time as they are asked for, so
    that a run of any length starts at once and holds only the batches in flight."""
    bare = replace(spec, layouts=None, openings=None)
    chunk: list[int] = []

    def make(chunk: list[int]) -> Batch:
        layouts = tuple(spec.layouts[i] for i in chunk) if spec.layouts is not None else None
        openings = tuple(spec.openings[i] for i in chunk) if spec.openings is not None else None
        return Batch(bare, tuple(chunk), layouts, openings)

    for i in indices:
        chunk.append(i)
        if len(chunk) == size:
            yield make(chunk)
            chunk = []
    if chunk:
        yield make(chunk)


def make_batches(spec: BenchSpec, games: int, size: int) -> list[Batch]:
    """Cut games 0..games-1 into consecutive batches of ``size`` (all at once; runs use :func:`iter_batches`)."""
    _check_layouts(spec, games)
    return list(iter_batches(spec, range(games), size))


class Journal(Protocol):
    """Where a run keeps its finished games (see :mod:`sweeplab.bench.journal`)."""

    def done(self, key: str) -> dict[int, GameResult]: ...

    def record(self, key: str, results: Sequence[GameResult], seconds: float) -> None: ...


class Stopped(Exception):
    """A run stopped before its end: by SIGINT/SIGTERM (``cause`` is :class:`Interrupted`), because its journal
    could not be written (``cause`` is the ``OSError``) or because its workers failed (:class:`WorkersFailed`).
    ``partial`` holds, per work item, the games finished (in the journal, if there is one), in index order;
    ``report`` is for the layer above to fill (a partial summary)."""

    def __init__(self, cause: BaseException, partial: list[list[GameResult]]) -> None:
        self.cause = cause
        self.partial = partial
        self.report: Any = None
        super().__init__(str(cause))

    @property
    def exit_status(self) -> int:
        """130 for SIGINT, 143 for SIGTERM, 1 for a failed write or failed workers."""
        return self.cause.exit_status if isinstance(self.cause, Interrupted) else 1


class WorkersFailed(SweeplabError):
    """The processes or cluster playing the games failed (a worker was killed, the Dask scheduler went away)."""


class _WriteFailed(Exception):
    """The journal refused a batch (carries the ``OSError``)."""

    def __init__(self, error: OSError) -> None:
        self.error = error
        super().__init__(str(error))


def _play_tagged(task: tuple[int, Batch]) -> tuple[int, list[GameResult]]:
    return task[0], play_batch(task[1])


def run_many(
    work: Sequence[tuple[BenchSpec, int]],
    executor: object | None = None,
    on_games: Callable[[int], None] | None = None,
    batch: int | None = None,
    *,
    journal: Journal | None = None,
    keys: Sequence[str] | None = None,
) -> list[list[GameResult]]:
    """Play every (spec, games) pair on one executor (batches in flight together); results per spec in index order.

    With a ``journal``, games it already holds (under ``keys[k]`` for work item ``k``, default ``str(k)``) are not
    played again, and every finished batch is recorded in it before it counts. Batches are made lazily, a few per
    worker ahead, so memory does not grow with the number of games asked for, only with the games finished (about
    220 bytes each for a bench, which drops the guess records: measured with tracemalloc on 10,000 beginner games).
    SIGINT/SIGTERM (as :class:`Interrupted`, see :mod:`sweeplab.bench.signals`), a failed journal write or failed
    workers stop the workers and raise
    :class:`Stopped` with the games finished so far; a strategy that crashes raises its ``BenchError`` (after the
    workers are stopped).
    """
    from sweeplab.bench.executors import Executor, LocalExecutor

    names = list(keys) if keys is not None else [str(k) for k in range(len(work))]
    if len(names) != len(work) or len(set(names)) != len(names):
        raise ValueError("run_many needs one distinct key per work item")
    for spec, games in work:
        _check_layouts(spec, games)
    done: list[dict[int, GameResult]] = [journal.done(name) if journal else {} for name in names]
    missing = [games - sum(1 for i in d if 0 <= i < games) for (_, games), d in zip(work, done, strict=True)]
    own = executor is None
    ex: Executor = LocalExecutor(1) if executor is None else executor  # type: ignore[assignment]
    sizes = [batch or batch_size(m, ex.workers) for m in missing]
    count = sum(math.ceil(m / size) for m, size in zip(missing, sizes, strict=True))

    def tasks() -> Iterator[tuple[int, Batch]]:
        for k, (spec, games) in enumerate(work):
            todo = (i for i in range(games) if i not in done[k])
            for b in iter_batches(spec, todo, sizes[k]):
                yield k, b

    mark = time.perf_counter()
    try:
        stream = ex.imap_unordered(_play_tagged, tasks(), count)
        with contextlib.closing(stream):
            for k, part in stream:
                now = time.perf_counter()
                with deferred():  # a signal waits until the batch is both on disk and counted
                    if journal is not None:
                        try:
                            journal.record(names[k], part, now - mark)
                        except OSError as error:
                            raise _WriteFailed(error) from error
                    for result in part:
                        done[k][result.index] = result
                mark = now
                if on_games:
                    on_games(len(part))
                check_signals()  # one raised where Python ignored it (a __del__) stops the run here
    except SweeplabError:
        raise  # a strategy that crashed (BenchError), a bad task: the message names the game
    except (Interrupted, KeyboardInterrupt, _WriteFailed, Exception) as error:
        if isinstance(error, KeyboardInterrupt):
            cause: BaseException = Interrupted(signal.SIGINT)
        elif isinstance(error, _WriteFailed):
            cause = error.error
        elif isinstance(error, Interrupted):
            cause = error
        else:  # the workers failed: a local worker process was killed, the Dask cluster went away
            cause = WorkersFailed(f"the workers failed ({type(error).__name__}: {error})")
        partial = [[d[i] for i in sorted(d) if i < games] for d, (_, games) in zip(done, work, strict=True)]
        raise Stopped(cause, partial) from error
    finally:
        if own:
            ex.close()
    return [[d[i] for i in range(games)] for d, (_, games) in zip(done, work, strict=True)]


def run(
    strategy: str,
    rules: Rules,
    games: int,
    seed: int = 0,
    first_click: int | None = None,
    jobs: int = 1,
    on_batch: Callable[[int], None] | None = None,
    batch: int | None = None,
    *,
    time_limit: float | None = None,
    executor: object | None = None,
) -> list[GameResult]:
    """Play ``games`` games (indices 0..games-1) and return their results in index order.

    ``executor`` (see :mod:`sweeplab.bench.executors`) overrides ``jobs``; by default ``jobs`` local processes
    (or this process when 1) play the batches.
    """
    from sweeplab.bench.executors import LocalExecutor

    spec = BenchSpec(strategy, rules, seed, first_click, time_limit)
    if executor is not None:
        return run_many([(spec, games)], executor, on_batch, batch)[0]
    with LocalExecutor(jobs) as ex:
        return run_many([(spec, games)], ex, on_batch, batch)[0]


__all__ = [
    "OUTCOMES",
    "SAFE_FIRST_RULES",
    "Batch",
    "BenchError",
    "BenchSpec",
    "GameResult",
    "GameTimeout",
    "GameTimer",
    "GuessRecord",
    "Stopped",
    "WorkersFailed",
    "classify",
    "deal",
    "game_seeds",
    "iter_batches",
    "play_batch",
    "play_one",
    "run",
    "run_many",
    "seed_entropy",
]
