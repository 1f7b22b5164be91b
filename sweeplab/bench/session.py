"""One ``sweeplab bench`` run: several strategies on the same games, summarised, compared pairwise and saved."""

from __future__ import annotations

import csv
import hashlib
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sweeplab.bench.journal import Journal, replacing, write_text
from sweeplab.bench.layouts import LayoutSet
from sweeplab.bench.runner import BenchSpec, GameResult, Stopped, run_many
from sweeplab.bench.summary import Paired, Summary, outcome, paired, summarize
from sweeplab.core.rules import Rules
from sweeplab.strategies.registry import parse_spec


@dataclass
class BenchReport:
    """Everything a bench run measured: its settings, per-strategy results and summaries, pairwise differences."""

    settings: dict[str, Any]
    results: dict[str, list[GameResult]] = field(default_factory=dict)
    summaries: list[Summary] = field(default_factory=list)
    pairs: list[Paired] = field(default_factory=list)
    complete: bool = True

    def to_dict(self) -> dict[str, Any]:
        return {
            "settings": self.settings,
            "summaries": [s.to_dict() for s in self.summaries],
            "paired": [p.__dict__ for p in self.pairs],
        }

    def save(self, out: Path) -> list[Path]:
        """Write ``bench.json`` (the summaries) and ``games.csv`` (one row per strategy and game) into ``out``, each
        whole or not at all (a temporary name, then a rename)."""
        out.mkdir(parents=True, exist_ok=True)
        summary_path = write_text(out / "bench.json", json.dumps(self.to_dict(), indent=1) + "\n")
        games_path = out / "games.csv"
        with replacing(games_path) as temp, temp.open("w", newline="") as handle:
            writer = csv.writer(handle, lineterminator="\n")
            writer.writerow(
                ["strategy", "game", "won", "timed_out", "outcome", "moves", "cpu_seconds", "three_bv", "revealed", "guesses"]
            )
            for strategy, results in self.results.items():
                for r in results:
                    writer.writerow(
                        [
                            strategy,
                            r.index,
                            int(r.won),
                            int(r.timed_out),
                            outcome(r),
                            r.moves,
                            f"{r.cpu_seconds:.6f}",
                            "" if r.three_bv is None else r.three_bv,
                            r.revealed,
                            r.guess_count,
                        ]
                    )
        return [summary_path, games_path]


def layouts_digest(layouts: LayoutSet) -> str:
    """A short fingerprint of a layout set's boards, so a resume can tell that the files changed."""
    digest = hashlib.sha256()
    for lay in layouts.layouts:
        digest.update(f"{lay.width}x{lay.height}:{','.join(map(str, lay.mines))};".encode())
    digest.update(repr((layouts.first_click, layouts.openings)).encode())
    return digest.hexdigest()[:16]


def run_settings(
    strategies: Sequence[str],
    rules: Rules,
    games: int,
    seed: int,
    *,
    sets: int | None = None,
    first_click: int | None = None,
    time_limit: float | None = None,
    layouts: LayoutSet | None = None,
    move_time_limit: float | None = None,
) -> dict[str, Any]:
    """What makes a bench run's result, keyed by option name: stored with its journal, compared on ``--resume``
    (``--move-time-limit`` only where an outside program plays)."""
    outside = {"--move-time-limit": move_time_limit} if any(s.startswith("cmd:") for s in strategies) else {}
    return outside | {
        "command": "bench",
        "--strategy": ",".join(strategies),
        "--board": rules.spec(),
        "--rule": rules.first_click,
        "--games": games,
        "--seed": seed,
        "--sets": sets,
        "--first-click": None if first_click is None else f"{first_click % rules.width},{first_click // rules.width}",
        "--time-limit": time_limit,
        "--layouts": None if layouts is None else {"directory": str(layouts.directory), "digest": layouts_digest(layouts)},
    }


def _partial(report: BenchReport, strategies: Sequence[str], rules: Rules, seed: int, walls: dict[str, float]) -> BenchReport:
    """Summaries of the games finished so far (binomial or default sets: the games may not split as asked)."""
    report.complete = False
    report.summaries = [
        summarize(report.results[s], s, rules, seed, None, walls.get(s)) for s in strategies if report.results.get(s)
    ]
    first = strategies[0]
    for other in strategies[1:]:
        a, b = report.results.get(first, []), report.results.get(other, [])
        common = {r.index for r in a} & {r.index for r in b}
        if common:
            report.pairs.append(paired(first, [r for r in a if r.index in common], other, [r for r in b if r.index in common]))
    return report


def bench(
    strategies: Sequence[str],
    rules: Rules,
    games: int,
    seed: int = 0,
    *,
    sets: int | None = None,
    first_click: int | None = None,
    time_limit: float | None = None,
    layouts: LayoutSet | None = None,
    executor: object | None = None,
    batch: int | None = None,
    on_games: Callable[[int], None] | None = None,
    journal: Journal | None = None,
    move_time_limit: float | None = None,
) -> BenchReport:
    """Play ``games`` games of each strategy (the same games: same seed or same layouts) one strategy at a time,
    so that each strategy's games per second is its own; then summarise and pair every strategy with the first.

    With a ``journal`` (see :mod:`sweeplab.bench.journal`) finished games are streamed to it and games it already
    holds are not played again. A run stopped by a signal or a failed write raises
    :class:`~sweeplab.bench.runner.Stopped` whose ``report`` summarises the games finished. An outside program
    (``cmd:``) gets ``move_time_limit`` per answer and ``time_limit`` per game, and keeps its stderr in the journal's
    folder.
    """
    layout_cells = None
    openings = None
    if layouts is not None:
        layout_cells = tuple(lay.mines for lay in layouts.layouts[:games])
        if first_click is None:
            first_click = layouts.first_click
            if first_click is None and layouts.openings is not None:
                openings = layouts.openings[:games]
    report = BenchReport(
        {
            "board": rules.spec(),
            "rule": rules.first_click,
            "games": games,
            "seed": seed,
            "first_click": None if first_click is None else [first_click % rules.width, first_click // rules.width],
            "time_limit": time_limit,
            "layouts": None if layouts is None else str(layouts.directory),
        }
    )
    walls: dict[str, float] = {}
    for strategy in strategies:
        name, chosen = parse_spec(strategy, outside=True)
        if name.startswith("cmd:"):
            chosen = {"log_dir": str(journal.directory.resolve()) if journal else "", "time_limit": time_limit or 0.0}
            chosen |= {"move_time_limit": move_time_limit} if move_time_limit else {}
        options = tuple(sorted(chosen.items()))
        spec = BenchSpec(name, rules, seed, first_click, time_limit, layout_cells, openings, options, keep_guesses=False)
        start = time.perf_counter()
        try:
            results = run_many([(spec, games)], executor, on_games, batch, journal=journal, keys=[strategy])[0]
        except Stopped as stop:
            report.results[strategy] = stop.partial[0]
            walls[strategy] = journal.wall(strategy) if journal else time.perf_counter() - start
            stop.report = _partial(report, strategies, rules, seed, walls)
            raise
        wall = journal.wall(strategy) if journal else time.perf_counter() - start
        walls[strategy] = wall
        report.results[strategy] = results
        report.summaries.append(summarize(results, strategy, rules, seed, sets, wall))
    first = strategies[0]
    for other in strategies[1:]:
        report.pairs.append(paired(first, report.results[first], other, report.results[other]))
    return report


__all__ = ["BenchReport", "bench", "layouts_digest", "run_settings"]
