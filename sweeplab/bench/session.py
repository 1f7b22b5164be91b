"""One ``sweeplab bench`` run: several strategies on the same games, summarised, compared pairwise and saved."""

from __future__ import annotations

import csv
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sweeplab.bench.layouts import LayoutSet
from sweeplab.bench.runner import BenchSpec, GameResult, run_many
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

    def to_dict(self) -> dict[str, Any]:
        return {
            "settings": self.settings,
            "summaries": [s.to_dict() for s in self.summaries],
            "paired": [p.__dict__ for p in self.pairs],
        }

    def save(self, out: Path) -> list[Path]:
        """Write ``bench.json`` (the summaries) and ``games.csv`` (one row per strategy and game) into ``out``."""
        out.mkdir(parents=True, exist_ok=True)
        summary_path = out / "bench.json"
        summary_path.write_text(json.dumps(self.to_dict(), indent=1) + "\n")
        games_path = out / "games.csv"
        with games_path.open("w", newline="") as handle:
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
) -> BenchReport:
    """Play ``games`` games of each strategy (the same games: same seed or same layouts) one strategy at a time,
    so that each strategy's games per second is its own; then summarise and pair every strategy with the first."""
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
    for strategy in strategies:
        name, chosen = parse_spec(strategy)
        options = tuple(sorted(chosen.items()))
        spec = BenchSpec(name, rules, seed, first_click, time_limit, layout_cells, openings, options)
        start = time.perf_counter()
        results = run_many([(spec, games)], executor, on_games, batch)[0]
        wall = time.perf_counter() - start
        report.results[strategy] = results
        report.summaries.append(summarize(results, strategy, rules, seed, sets, wall))
    first = strategies[0]
    for other in strategies[1:]:
        report.pairs.append(paired(first, report.results[first], other, report.results[other]))
    return report


__all__ = ["BenchReport", "bench"]
