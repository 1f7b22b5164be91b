"""Exact win probability of a strategy: play it through the real engine on every layout the rule can deal.

Sampling (``sweeplab bench``) estimates a win rate; on a small board every layout can be played instead, and the win
probability of the strategy becomes an exact fraction. Each layout is played by
:func:`sweeplab.strategies.base.play` on a :class:`sweeplab.core.game.Game` holding that layout, so the number is the
same strategy that ``bench`` plays.

Seeding: a fresh strategy with the same seed (``seed``, default 0) plays every layout, so a strategy that makes random
choices is evaluated as the one deterministic player that seed makes of it. ``bench`` gives game ``i`` its own strategy
seed (``sweeplab.bench.runner.game_seeds``), so for such a strategy the bench estimate averages over seeds and agrees
with this number only in expectation. The first click decides the deal under ``safe``, ``zero`` and ``xp``: the strategy
is first asked for its opening move on the empty board (flags before it are applied), and the layouts dealt for that
click (:func:`sweeplab.analysis.optimal.search.dealt_layouts`, the game's own dealing, one entry per equally likely way) are
played; every game is checked to open with that click. With ``first_click`` the harness reveals that cell first, as
``bench --first-click`` does.
"""

from __future__ import annotations

import math
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from sweeplab.analysis.optimal.search import dealt_layouts
from sweeplab.core.errors import SweeplabError
from sweeplab.core.game import Game, GameState
from sweeplab.core.rules import Rules
from sweeplab.strategies.base import play
from sweeplab.strategies.registry import make_spec

#: Layouts played per task sent to a worker.
CHUNK = 500


class EvaluationError(SweeplabError):
    """A strategy that cannot be evaluated exactly (too many layouts, not deterministic for its seed, or it failed)."""


@dataclass(frozen=True)
class Evaluation:
    """A strategy's exact result: ``wins`` of ``layouts`` dealt (counted once per way of dealing), played as ``games``
    distinct layouts. ``first_click`` is the cell the games opened with (the strategy's, or the harness's when
    ``harness_click``); ``seconds`` is wall-clock time, ``cpu_seconds`` the CPU time of the games summed over workers,
    an outside program's (``cmd:``) own CPU time included, as ``bench`` counts it."""

    strategy: str
    rules: Rules
    seed: int
    first_click: int
    harness_click: bool
    wins: int
    layouts: int
    games: int
    seconds: float
    cpu_seconds: float

    @property
    def value(self) -> Fraction:
        return Fraction(self.wins, self.layouts)

    def to_dict(self) -> dict[str, object]:
        board = self.rules.board
        return {
            "strategy": self.strategy,
            "board": self.rules.spec(),
            "rule": self.rules.first_click,
            "seed": self.seed,
            "first_click": list(board.xy(self.first_click)),
            "harness_click": self.harness_click,
            "wins": self.wins,
            "layouts": self.layouts,
            "win_probability": str(self.value),
            "win_rate": float(self.value),
            "games": self.games,
            "seconds": round(self.seconds, 3),
            "cpu_seconds": round(self.cpu_seconds, 3),
        }


def opening_move(spec: str, rules: Rules, seed: int) -> int:
    """The cell a fresh strategy ``spec`` seeded ``seed`` reveals first on the empty board (flags before it applied)."""
    player = make_spec(spec, seed, outside=True)
    player.begin(rules)  # told the rule, as play() tells it in every game: an opening may depend on it
    game = Game(Rules(rules.width, rules.height, rules.mines, "unsafe"), layout=range(rules.mines))
    for _ in range(10 * rules.board.cells + 10):
        try:
            move = player.choose(game.observation())
        except SweeplabError as error:
            raise EvaluationError(f"{spec} failed on the empty board: {error}") from None
        except Exception as error:
            raise EvaluationError(f"{spec} crashed on the empty board: {type(error).__name__}: {error}") from error
        if move.kind == "reveal":
            return move.cell
        try:
            game.apply(move)
        except SweeplabError as error:
            raise EvaluationError(f"{spec} chose an illegal opening move: {error}") from None
    raise EvaluationError(f"{spec} never revealed a cell on the empty board")


def _cells(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


@dataclass(frozen=True)
class _Task:
    spec: str
    rules: Rules
    seed: int
    click: int
    harness: bool
    layouts: tuple[tuple[int, int], ...]  # (mine mask, ways dealt)


def _play_task(task: _Task) -> tuple[int, int, float]:
    """(weighted wins, games, CPU seconds) of one chunk of layouts: this process's CPU time over the chunk and, for
    an outside program (``cmd:``), the program's own, each game's share as the bench counts it (``program_cpu``:
    read from the running program's CPU-time clock, see :mod:`sweeplab.strategies.external.process`)."""
    start = time.process_time()
    program = 0.0
    plain = Rules(task.rules.width, task.rules.height, task.rules.mines, "unsafe")
    wins = 0
    for mask, ways in task.layouts:
        game = Game(plain, layout=_cells(mask))
        if task.harness:
            game.reveal(task.click)
        player = make_spec(task.spec, task.seed, outside=True)
        try:
            play(player, game, told=task.rules)  # the strategy knows the rule the layouts were dealt by
        except SweeplabError as error:
            raise EvaluationError(f"{task.spec} failed on the layout with mines at {_cells(mask)}: {error}") from None
        except Exception as error:  # a strategy bug: name the layout so that it can be replayed
            raise EvaluationError(
                f"{task.spec} crashed on the layout with mines at {_cells(mask)}: {type(error).__name__}: {error}"
            ) from error
        opened = next((m.cell for m in game.history if m.kind == "reveal"), None)
        if not task.harness and opened != task.click:
            raise EvaluationError(
                f"{task.spec} with seed {task.seed} opened at {opened} on the layout with mines at {_cells(mask)}, "
                f"not at {task.click} as on the empty board: it is not one deterministic player for a fixed seed"
            )
        if game.state is GameState.WON:
            wins += ways
        program += getattr(player, "program_cpu", 0.0)
    return wins, len(task.layouts), time.process_time() - start + program


def evaluate(
    spec: str,
    rules: Rules,
    *,
    seed: int = 0,
    first_click: int | None = None,
    executor: object | None = None,
    max_layouts: int = 2_000_000,
    on_games: Callable[[int], None] | None = None,
) -> Evaluation:
    """Play ``spec`` on every layout ``rules`` can deal and return its exact win probability.

    ``executor`` (see :mod:`sweeplab.bench.executors`; default this process) plays chunks of layouts in parallel;
    ``on_games(n)`` is called as chunks finish. More than ``max_layouts`` distinct layouts is refused.
    """
    from sweeplab.bench.executors import Executor, LocalExecutor

    total = math.comb(rules.board.cells, rules.mines)
    if total > max_layouts:
        raise EvaluationError(
            f"{rules.spec()} has {total:,} layouts, more than the {max_layouts:,} allowed (raise --max-layouts to play them all)"
        )
    start = time.perf_counter()
    harness = first_click is not None
    click = first_click if first_click is not None else opening_move(spec, rules, seed)
    dealt = dealt_layouts(rules, click)
    ways = Counter(dealt)
    items = sorted(ways.items())
    tasks = [_Task(spec, rules, seed, click, harness, tuple(items[i : i + CHUNK])) for i in range(0, len(items), CHUNK)]
    own = executor is None
    ex: Executor = LocalExecutor(1) if executor is None else executor  # type: ignore[assignment]
    try:
        parts = ex.run(_play_task, tasks, (lambda part: on_games(part[1])) if on_games else None)
    finally:
        if own:
            ex.close()
    return Evaluation(
        strategy=spec,
        rules=rules,
        seed=seed,
        first_click=click,
        harness_click=harness,
        wins=sum(p[0] for p in parts),
        layouts=len(dealt),
        games=len(items),
        seconds=time.perf_counter() - start,
        cpu_seconds=sum(p[2] for p in parts),
    )
