"""Seed 002's claims: the first click, the level 1-2 gap, and level 2 against the mine count on 15x15."""

from __future__ import annotations

import itertools
import math
from pathlib import Path
from typing import Any

from sweeplab.bench.runner import GameResult
from sweeplab.bench.summary import Summary
from sweeplab.core.rules import Rules, make_rules
from sweeplab.studies import plots
from sweeplab.studies.claim import (
    NOT_REPRODUCED,
    REPRODUCED,
    Claim,
    ClaimExperiment,
    pp,
    spec_point,
    verdict,
    zscore,
)
from sweeplab.studies.experiment import (
    Plan,
    Settings,
)
from sweeplab.studies.published import SEED_002


class Seed002Claim(ClaimExperiment):
    name = "seed002"
    title = "Seed 002: its levels with a corner start and an unprotected first click; level 2 against the mine count"
    source = "seed 002, Results and its level-2 graph"
    BOARDS = ("9x9x10", "8x8x10", "16x16x40", "30x16x99")
    VARIANTS = (
        ("Lvl 3", "level3", "safe"),
        ("Lvl 3", "level3[first=corner]", "safe"),
        ("Lvl 2", "level2[first=corner]", "safe"),
        ("Lvl 1", "single-point", "unsafe"),
        ("Lvl 2", "level2", "unsafe"),
    )
    SWEEP = tuple(range(5, 80, 5))  # mines on 15x15 for the level-2 graph

    def plan(self, settings: Settings) -> Plan:
        points = []
        for board in self.BOARDS:
            for label, spec, rule in self.VARIANTS:
                rules = make_rules(board, rule)
                published = SEED_002.get((rules.spec(), label))
                points.append(spec_point("table", spec, rules, settings.size(), None, label, published))
        sweep = (10, 40) if settings.quick else self.SWEEP
        for mines in sweep:
            points.append(spec_point("15x15", "level2", Rules(15, 15, mines, "safe"), settings.size(), float(mines)))
        return Plan(points, [])

    def claims(self, plan: Plan, results: list[list[GameResult]], summaries: list[Summary]) -> list[Claim]:
        out = []
        for p, s in zip(plan.points, summaries, strict=True):
            if p.group != "table" or p.strategy != "level3[first=corner]" or p.published is None:
                continue
            z = zscore(s.win_rate, s.sem, p.published / 100)
            out.append(
                Claim(
                    f"seed 002 | {s.board} | level 3 from a corner",
                    "seed 002, Results",
                    f"level 3 wins {p.published:g}% on {s.board} (first click in a corner)",
                    f"{p.published:g}% (sample not stated)",
                    pp(s.win_rate, s.sem),
                    z,
                    verdict(z),
                    f"Opening in a corner, level 3 wins {pp(s.win_rate, s.sem)} of {s.games:,} games on {s.board} against "
                    f"the paper's {p.published:g}% (its sample size is not stated, so only our SE counts).",
                )
            )
        sweep = [(p, s) for p, s in zip(plan.points, summaries, strict=True) if p.group == "15x15"]
        if sweep:
            good = [int(p.x or 0) for p, s in sweep if s.win_rate >= 0.8]
            half = next((int(p.x or 0) for p, s in sweep if s.win_rate < 0.5), None)
            poor = next((int(p.x or 0) for p, s in sweep if s.win_rate < 0.1), None)
            falls = all(b[1].win_rate <= a[1].win_rate + 2 * math.hypot(a[1].sem, b[1].sem) for a, b in itertools.pairwise(sweep))
            first, last = sweep[0][1], sweep[-1][1]
            out.append(
                Claim(
                    "seed 002 | level 2 on 15x15 against the mine count",
                    "seed 002, Results (graph lost)",
                    "level 2 is rather good at low density and fast becomes poor with a little more mines (15x15)",
                    "no numbers (the graph was lost)",
                    f"{pp(first.win_rate)} at {int(sweep[0][0].x or 0)} mines, {pp(last.win_rate)} at {int(sweep[-1][0].x or 0)}",
                    None,
                    REPRODUCED if falls and good and half is not None else NOT_REPRODUCED,
                    f"Level 2 wins at least 80% up to {max(good) if good else '-'} mines (density "
                    f"{(max(good) if good else 0) / 225:.2f}), falls below 50% at {half} mines "
                    f"({(half or 0) / 225:.2f}) and below 10% at {poor} ({(poor or 0) / 225:.2f}); the curve never rises by "
                    f"more than 2 SE from one mine count to the next.",
                )
            )
        return out

    def extra(
        self, plan: Plan, results: list[list[GameResult]], summaries: list[Summary], out: Path
    ) -> tuple[dict[str, Any], str, list[Path]]:
        series: dict[str, list[tuple[float, Summary]]] = {}
        for p, s in zip(plan.points, summaries, strict=True):
            if p.group == "15x15":
                series.setdefault(p.strategy, []).append((p.x or 0.0, s))
        files = [plots.win_line(series, "mines on 15x15", "level2-15x15.png", out, "seed 002: level 2")] if series else []
        return {}, "", files
