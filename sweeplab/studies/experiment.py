"""The experiment machinery every study shares: a plan of points (strategy x rules x games), the settings from the
command line, the base class that plays the points and writes data.csv, data.json and table.md."""

from __future__ import annotations

import csv
import gzip
import json
import math
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sweeplab.bench.journal import Journal, replacing, write_text
from sweeplab.bench.runner import Batch, BenchSpec, GameResult, make_batches, run_many
from sweeplab.bench.summary import Summary
from sweeplab.core.errors import SweeplabError, UnknownStrategyError
from sweeplab.core.rules import Rules

FULL_GAMES = 10_000
QUICK_GAMES = 20


class ExperimentError(SweeplabError):
    """An experiment was asked for something it cannot do (unknown name, impossible settings)."""


@dataclass(frozen=True)
class Point:
    """One measurement: a strategy on rules for some games; ``x`` is the swept variable, ``paper`` the paper's label.

    ``strategy`` is the name shown in tables; ``registry_name`` and ``options`` (when the strategy is played with
    options, e.g. ``gac`` without pair variables for seed 001's c1 + c2) say what is actually built.
    ``seed_offset`` is added to the run's root seed: points that are pooled (calibration over many boards) get
    independent layouts this way, while points that are compared (strategies on one board) share them.
    ``first_click`` is a cell the harness reveals before the strategy plays (None: the strategy chooses).
    """

    group: str
    strategy: str
    rules: Rules
    games: int
    x: float | None = None
    paper: str | None = None
    published: float | None = None
    published_se: float | None = None
    registry_name: str | None = None
    options: tuple[tuple[str, Any], ...] = ()
    seed_offset: int = 0
    first_click: int | None = None

    @property
    def build_name(self) -> str:
        return self.registry_name or self.strategy


@dataclass
class Settings:
    """What the command line asked for."""

    quick: bool = False
    strategies: list[str] | None = None
    seed: int = 0
    games: int | None = None
    time_limit: float | None = None
    board: str | None = None
    rule: str | None = None
    command: str = ""
    skip: list[str] = field(default_factory=list)
    groups: list[str] = field(default_factory=list)
    """Only the plan's points of these groups (``--groups``); all of them when empty."""

    def size(self, full: int = FULL_GAMES, quick: int = QUICK_GAMES) -> int:
        if self.games is not None:
            return self.games
        return quick if self.quick else full


@dataclass
class Plan:
    points: list[Point]
    notes: list[str] = field(default_factory=list)


def registered() -> list[str]:
    from sweeplab.strategies.registry import names

    return names()


def pick_strategies(settings: Settings, defaults: Sequence[str], notes: list[str], fallback: str = "single-point") -> list[str]:
    """The strategies to run: those asked for (names or specs ``NAME[key=value,...]``, each checked), else the
    registered defaults (skips noted)."""
    from sweeplab.strategies.registry import parse_spec

    known = registered()
    if settings.strategies:
        for spec in settings.strategies:
            name = spec.partition("[")[0].strip()
            if name not in known:
                raise UnknownStrategyError(f"unknown strategy {name!r}: choose one of {', '.join(known)}")
            parse_spec(spec)
        return list(settings.strategies)
    chosen = [n for n in defaults if n in known and n not in settings.skip]
    missing = [n for n in defaults if n not in known]
    if missing:
        notes.append(f"skipped (not registered yet): {', '.join(missing)}")
    if not chosen:
        chosen = [fallback]
        notes.append(f"none of the default strategies is registered; ran {fallback} instead")
    return chosen


# ----------------------------------------------------------------------------------------------- files


def run_grouped(
    fn: Callable[[Batch], Any],
    specs: Sequence[tuple[BenchSpec, int]],
    size: int,
    executor: object | None,
    on_part: Callable[[Any], None] | None = None,
) -> list[list[Any]]:
    """For an experiment that measures outside the bench runner (its own batch function, no journal): cut each
    ``(spec, games)`` into batches of ``size``, run ``fn`` on every batch on ``executor`` (one process when None),
    and return each spec's results of ``fn`` in batch order."""
    from sweeplab.bench.executors import Executor, LocalExecutor

    own = executor is None
    ex: Executor = LocalExecutor(1) if executor is None else executor  # type: ignore[assignment]
    tasks: list[Batch] = []
    owners: list[int] = []
    for k, (spec, games) in enumerate(specs):
        for b in make_batches(spec, games, size):
            tasks.append(b)
            owners.append(k)
    try:
        parts = ex.run(fn, tasks, on_part)
    finally:
        if own:
            ex.close()
    grouped: list[list[Any]] = [[] for _ in specs]
    for k, part in zip(owners, parts, strict=True):
        grouped[k].append(part)
    return grouped


def write_csv(path: Path, rows: Sequence[dict[str, Any]], columns: Sequence[str] | None = None) -> Path:
    columns = list(columns or (rows[0].keys() if rows else []))
    opener = gzip.open if path.suffix == ".gz" else open
    with replacing(path) as temp, opener(temp, "wt", newline="") as handle:  # type: ignore[operator]
        writer = csv.DictWriter(handle, fieldnames=columns, extrasaction="ignore", lineterminator="\n")
        writer.writeheader()
        for row in rows:
            writer.writerow({k: _fmt(row.get(k)) for k in columns})
    return path


def _fmt(value: Any) -> Any:
    if isinstance(value, float):
        return "" if math.isnan(value) else f"{value:.6g}"
    return "" if value is None else value


def write_json(path: Path, data: Any) -> Path:
    return write_text(path, json.dumps(data, indent=1, default=_json_default) + "\n")


def _json_default(value: Any) -> Any:
    if isinstance(value, float) and math.isnan(value):
        return None
    raise TypeError(f"cannot store {type(value).__name__} in JSON")


def markdown_table(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def pct(value: float | None, digits: int = 1) -> str:
    return "-" if value is None or (isinstance(value, float) and math.isnan(value)) else f"{100 * value:.{digits}f}"


def rate_cell(s: Summary) -> str:
    return f"{100 * s.win_rate:.1f} ± {100 * s.sem:.1f}"


def difference_in_se(s: Summary, published: float | None, published_se: float | None) -> float | None:
    """(measured - published) in combined standard errors (the paper's SE taken as 0 when unknown)."""
    if published is None:
        return None
    se = math.hypot(s.sem, published_se or 0.0)
    diff = s.win_rate - published / 100
    return diff / se if se > 0 else (0.0 if diff == 0 else math.copysign(math.inf, diff))


def summary_row(point: Point, s: Summary) -> dict[str, Any]:
    row: dict[str, Any] = {"group": point.group, "x": point.x, "paper_label": point.paper, "published_percent": point.published}
    row.update(s.to_dict())
    row["published_se_percent"] = None if point.published_se is None else 100 * point.published_se
    row["difference_in_se"] = difference_in_se(s, point.published, point.published_se)
    return row


SUMMARY_COLUMNS = [
    "group",
    "strategy",
    "board",
    "rule",
    "x",
    "seed",
    "games",
    "wins",
    "timeouts",
    "win_rate",
    "sets",
    "sem",
    "wilson_low",
    "wilson_high",
    "cpu_mean",
    "cpu_median",
    "cpu_p99",
    "guesses_per_game",
    "paper_label",
    "published_percent",
    "published_se_percent",
    "difference_in_se",
]


def header(title: str, settings: Settings, notes: Sequence[str]) -> str:
    lines = [f"# {title}", "", f"Produced by `{settings.command}`" if settings.command else "", ""]
    lines += [f"- {n}" for n in notes]
    return "\n".join(lines).rstrip() + "\n\n"


# ----------------------------------------------------------------------------------------------- experiments


class Experiment(ABC):
    """One experiment: plan the points, then write the files from their results."""

    name = ""
    title = ""
    source = ""
    keeps_guesses = False  # only experiments that read the guess records keep them (memory: 600,000-game runs)

    @abstractmethod
    def plan(self, settings: Settings) -> Plan:
        """The points to play (and notes on what was skipped)."""

    @abstractmethod
    def write(
        self, settings: Settings, plan: Plan, results: list[list[GameResult]], summaries: list[Summary], out: Path
    ) -> list[Path]:
        """Write the experiment's files from the played points; returns their paths."""

    def measure(
        self,
        specs: Sequence[tuple[BenchSpec, int]],
        executor: object | None,
        on_games: Callable[[int], None] | None,
        journal: Journal | None = None,
    ) -> list[list[GameResult]]:
        """Play the planned points (one ``(spec, games)`` per point), streaming finished games to ``journal``;
        experiments that measure something other than whole games (e.g. only the first click) override this, and
        replay everything on a resume."""
        return run_many(specs, executor, on_games, journal=journal)

    def write_summaries(
        self, plan: Plan, summaries: list[Summary], out: Path, settings: Settings, extra: dict[str, Any] | None = None
    ) -> list[Path]:
        rows = [summary_row(p, s) for p, s in zip(plan.points, summaries, strict=True)]
        data = {
            "experiment": self.name,
            "title": self.title,
            "source": self.source,
            "command": settings.command,
            "seed": settings.seed,
            "quick": settings.quick,
            "time_limit": settings.time_limit,
            "notes": plan.notes,
            "points": rows,
        }
        data.update(extra or {})
        return [write_csv(out / "data.csv", rows, SUMMARY_COLUMNS), write_json(out / "data.json", data)]
