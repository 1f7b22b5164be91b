"""Play seeded batches of games: game i of root seed S gets the same layout for every strategy and any job count.

A run is described by a :class:`BenchSpec` (strategy, rules, root seed, first click, time limit, optional fixed
layouts). Its games are cut into batches that an executor (:mod:`sweeplab.bench.executors`: local processes or a
Dask cluster) plays anywhere; results always come back in game-index order, so they do not depend on where or in
how many pieces they were played.
"""

from __future__ import annotations

import math
import signal
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import NamedTuple

import numpy as np

from sweeplab.core.errors import SweeplabError
from sweeplab.core.game import Game, GameState, Move
from sweeplab.core.rules import Rules
from sweeplab.strategies.base import Guess, play
from sweeplab.strategies.registry import make

#: Rules under which the first reveal can never hit a mine: a guess made before anything is revealed cannot lose.
SAFE_FIRST_RULES = ("safe", "xp", "zero")


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

    def __post_init__(self) -> None:
        if self.guess_count < 0:
            self.guess_count = len(self.counted_guesses())

    def counted_guesses(self) -> tuple[GuessRecord, ...]:
        """The guesses that could have lost: all but a ``first`` guess and a protected first reveal."""
        out = []
        for g in self.guesses:
            if g.kind == "first":
                continue
            if self.protected_first and g.move == 0:
                continue
            out.append(g)
        return tuple(out)


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


def game_seeds(root: int, index: int) -> tuple[int, int]:
    """The (layout seed, strategy seed) of game ``index`` under ``root``: numpy's SeedSequence child ``index``.

    >>> game_seeds(0, 0) == game_seeds(0, 0) != game_seeds(0, 1)
    True
    """
    words = np.random.SeedSequence(root, spawn_key=(index,)).generate_state(4, dtype=np.uint32)
    w = [int(v) for v in words]
    return (w[0] << 32) | w[1], (w[2] << 32) | w[3]


def deal(rules: Rules, root: int, index: int, first_click: int | None = None) -> Game:
    """Game ``index`` of ``root`` as the harness deals it, with ``first_click`` revealed if given.

    Without a click, the ``safe``, ``xp`` and ``zero`` rules deal (or move a mine) at the strategy's first reveal.
    """
    game = Game(rules, game_seeds(root, index)[0])
    if first_click is not None and game.observation().view[first_click] < 0:
        game.reveal(first_click)
    return game


class _Timer:
    """A per-game CPU-time limit.

    In a process's main thread on Unix it arms ``ITIMER_PROF`` (process CPU time) whose signal raises
    :class:`GameTimeout` inside the game, even in the middle of a long ``choose``. Elsewhere (a Dask worker
    thread, Windows) signals are unavailable, so the limit is checked after every move with the thread's CPU
    clock: a single ``choose`` call that never returns is then not interrupted (strategies must guard their searches).
    """

    def __init__(self, limit: float | None) -> None:
        self.limit = limit
        self.use_signal = (
            limit is not None and hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
        )
        self._old: object = None
        self.deadline = math.inf

    def __enter__(self) -> _Timer:
        if self.limit is None:
            return self
        self.deadline = time.thread_time() + self.limit
        if self.use_signal:
            self._old = signal.signal(signal.SIGPROF, _raise_timeout)
            signal.setitimer(signal.ITIMER_PROF, self.limit)
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
) -> GameResult:
    """Play game ``index``; ``first_click`` (a cell) is revealed for the strategy before it takes over.

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
    try:
        player = make(strategy, seed=strategy_seed, **(options or {}))
        timer = _Timer(time_limit)
        with timer:
            play(player, game, on_move=timer.check if time_limit is not None else None)
    except GameTimeout:
        timed_out = not game.over
    except SweeplabError as error:
        raise BenchError(
            f"{strategy} failed in game {index} of seed {root} on {rules.spec()} ({rules.first_click}): {error}"
        ) from None
    except Exception as error:  # a strategy bug: name the game so it can be replayed with `sweeplab play`
        raise BenchError(
            f"{strategy} crashed in game {index} of seed {root} on {rules.spec()} ({rules.first_click}): "
            f"{type(error).__name__}: {error}"
        ) from error
    cpu = time.thread_time() - start
    view = game.observation().view
    largest = getattr(player, "largest_set", None)
    return GameResult(
        index=index,
        won=game.state is GameState.WON,
        moves=game.moves,
        cpu_seconds=cpu,
        three_bv=game.three_bv() if game.dealt else None,
        revealed=sum(1 for v in view if v >= 0),
        guesses=tuple(GuessRecord.of(g) for g in player.guesses),
        timed_out=timed_out,
        largest_set=tuple(int(v) for v in largest) if largest is not None else None,
        protected_first=protected,
    )


@dataclass(frozen=True)
class Batch:
    """A slice of one spec's games, the unit sent to a worker: the spec (without its layouts) and the slice's layouts."""

    spec: BenchSpec
    indices: tuple[int, ...]
    layouts: tuple[tuple[int, ...], ...] | None = None
    openings: tuple[int | None, ...] | None = None


def play_batch(batch: Batch) -> list[GameResult]:
    """Play a batch's games in order (runs in a worker); without ``keep_guesses`` the guess records are dropped."""
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
        )
        for j, i in enumerate(batch.indices)
    ]
    if not spec.keep_guesses:
        for result in results:
            result.guesses = ()
    return results


def batch_size(games: int, jobs: int) -> int:
    """A batch size that gives every worker several batches (for balance) without tiny tasks."""
    return max(1, min(100, math.ceil(games / (4 * max(1, jobs)))))


def make_batches(spec: BenchSpec, games: int, size: int) -> list[Batch]:
    """Cut games 0..games-1 into consecutive batches of ``size``."""
    if spec.layouts is not None and len(spec.layouts) < games:
        raise BenchError(f"{games} games asked for but only {len(spec.layouts)} layouts given")
    bare = replace(spec, layouts=None, openings=None)
    out = []
    for lo in range(0, games, size):
        hi = min(lo + size, games)
        layouts = spec.layouts[lo:hi] if spec.layouts is not None else None
        openings = spec.openings[lo:hi] if spec.openings is not None else None
        out.append(Batch(bare, tuple(range(lo, hi)), layouts, openings))
    return out


def run_many(
    work: Sequence[tuple[BenchSpec, int]],
    executor: object | None = None,
    on_games: Callable[[int], None] | None = None,
    batch: int | None = None,
) -> list[list[GameResult]]:
    """Play every (spec, games) pair on one executor (all batches in flight together); results per spec in index order."""
    from sweeplab.bench.executors import Executor, LocalExecutor

    own = executor is None
    ex: Executor = LocalExecutor(1) if executor is None else executor  # type: ignore[assignment]
    try:
        tasks: list[Batch] = []
        owners: list[int] = []
        for k, (spec, games) in enumerate(work):
            size = batch or batch_size(games, ex.workers)
            for b in make_batches(spec, games, size):
                tasks.append(b)
                owners.append(k)
        parts = ex.run(play_batch, tasks, (lambda part: on_games(len(part))) if on_games else None)
    finally:
        if own:
            ex.close()
    out: list[list[GameResult]] = [[] for _ in work]
    for k, part in zip(owners, parts, strict=True):
        out[k].extend(part)
    return out


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
    "SAFE_FIRST_RULES",
    "Batch",
    "BenchError",
    "BenchSpec",
    "GameResult",
    "GameTimeout",
    "GuessRecord",
    "deal",
    "game_seeds",
    "play_batch",
    "play_one",
    "run",
    "run_many",
]
