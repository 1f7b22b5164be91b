"""The ``levels`` experiment: every seed paper's win-rate table by level and first-click rule (seed 000's Figures 2-5,
seed 001's c1..c4 table, seed 002's Results table, seed 003's versions, seed 004's 10x10 agent)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sweeplab.bench.journal import write_text
from sweeplab.bench.runner import GameResult
from sweeplab.bench.summary import Summary, paired
from sweeplab.core.rules import make_rules
from sweeplab.strategies.registry import format_spec
from sweeplab.studies import plots
from sweeplab.studies.experiment import (
    Experiment,
    Plan,
    Point,
    Settings,
    difference_in_se,
    header,
    markdown_table,
    pct,
    pick_strategies,
    rate_cell,
    registered,
    write_csv,
)
from sweeplab.studies.published import (
    SEED_001,
    SEED_001_GAMES,
    SEED_002,
    SEED_004,
)


@dataclass(frozen=True)
class LevelGroup:
    name: str
    boards: tuple[str, ...]
    rules: tuple[str, ...]
    strategies: tuple[tuple[str, str, dict[str, Any]], ...]  # (paper label, sweeplab strategy, its options)
    published: dict[tuple[str, str], float] = field(default_factory=dict)
    published_games: int | None = None
    note: str = ""


LEVEL_GROUPS = (
    LevelGroup(
        "seed 000",
        ("beginner-classic", "intermediate-classic", "expert"),
        ("unsafe", "safe", "hint"),
        (
            ("CSPStrategy", "cspstrategy", {}),
            ("EquationStrategy", "equation", {}),
            ("EquationStrategy, PGMS guess", "equation", {"guess": "pgms"}),
            ("SinglePointStrategy", "single-point", {}),
            ("sweeplab exact (reference)", "exact", {}),
        ),
        note=(
            "Figures 2-4 (bar charts; their values were lost in extraction); EquationStrategy also with the guess of "
            "PGMS's own source (the paper leaves its guess unstated); sweeplab's exact strategy added for reference"
        ),
    ),
    LevelGroup(
        "seed 001",
        ("9x9x10", "16x16x40", "30x16x99"),
        ("zero",),
        (
            ("c1", "gac", {"subsets": False, "pairs": False}),
            ("c1 + c2", "gac", {"pairs": False}),
            ("c1 + c2 + c3", "gac", {}),
            ("c1 + c2 + c3 + c4", "gac-endgame", {}),
        ),
        SEED_001,
        SEED_001_GAMES,
        note="its table, 1000 games per cell, Vista/7 first click",
    ),
    LevelGroup(
        "seed 002",
        ("9x9x10", "8x8x10", "16x16x40", "30x16x99"),
        ("safe",),
        (("Lvl 1", "single-point", {}), ("Lvl 2", "level2", {}), ("Lvl 3", "level3", {})),
        SEED_002,
        note="its Results table (sample size not stated)",
    ),
    LevelGroup(
        "seed 003",
        ("9x9x10",),
        ("safe",),
        (
            ("Backtracking", "backtracking", {}),
            ("DSS", "dss", {}),
            ("DSScsp", "dsscsp", {}),
            ("DSScsp limited", "dsscsp-limited", {}),
            ("DSScsp + Manhattan", "dsscsp-manhattan", {}),
            ("DSScsp limited + Manhattan", "dsscsp-limited-manhattan", {}),
        ),
        note="its Table 4 on the standard beginner board (values lost in extraction; first-click rule not stated)",
    ),
    LevelGroup(
        "seed 004",
        ("10x10x10",),
        ("unsafe",),
        (("CSP agent", "corners", {}), ("simulated annealing", "sa", {}), ("genetic algorithm", "ga", {})),
        {k: 100 * w / n for k, (w, n) in SEED_004.items()},
        130,
        note="104 of 130 games on 10x10 with 10 mines, first click able to hit a mine",
    ),
)


class Levels(Experiment):
    name = "levels"
    title = "Win rate by level and first-click rule"
    source = "seed 000 Figures 2-5; seed 001's table; seed 002's table; seed 003 Table 4; seed 004 section 5"

    def plan(self, settings: Settings) -> Plan:
        notes: list[str] = []
        points: list[Point] = []
        known = registered()
        games = settings.size()
        for group in LEVEL_GROUPS:
            if settings.strategies:
                chosen = pick_strategies(settings, [], notes)
                labels = {s: label for label, s, options in group.strategies if not options}
                pairs: list[tuple[str | None, str, dict[str, Any]]] = [(labels.get(s), s, {}) for s in chosen]
            else:
                pairs = [(label, s, options) for label, s, options in group.strategies if s in known and s not in settings.skip]
                missing = list(dict.fromkeys(s for _, s, _ in group.strategies if s not in known))
                if missing:
                    notes.append(f"{group.name}: skipped (not registered yet): {', '.join(missing)}")
            for board in group.boards:
                for rule in group.rules:
                    rules = make_rules(board, rule)
                    for label, strategy, options in pairs:
                        published = group.published.get((rules.spec(), label)) if label else None
                        pse = None
                        if published is not None and group.published_games:
                            p = published / 100
                            pse = math.sqrt(p * (1 - p) / group.published_games)
                        shown = format_spec(strategy, options)
                        extra = tuple(sorted(options.items()))
                        points.append(Point(group.name, shown, rules, games, None, label, published, pse, strategy, extra))
        return Plan(points, notes)

    def write(
        self, settings: Settings, plan: Plan, results: list[list[GameResult]], summaries: list[Summary], out: Path
    ) -> list[Path]:
        files = self.write_summaries(plan, summaries, out, settings)
        # paired differences against the first strategy of each (group, board, rule)
        pair_rows: list[dict[str, Any]] = []
        cells: dict[tuple[str, str, str], list[int]] = {}
        for k, p in enumerate(plan.points):
            cells.setdefault((p.group, p.rules.spec(), p.rules.first_click), []).append(k)
        for (group_name, board, rule), ks in cells.items():
            for k in ks[1:]:
                a, b = plan.points[ks[0]], plan.points[k]
                d = paired(a.strategy, results[ks[0]], b.strategy, results[k])
                pair_rows.append(
                    {
                        "group": group_name,
                        "board": board,
                        "rule": rule,
                        "a": d.a,
                        "b": d.b,
                        "games": d.games,
                        "difference": d.difference,
                        "se": d.se,
                        "a_only": d.a_only,
                        "b_only": d.b_only,
                    }
                )
        files.append(
            write_csv(
                out / "pairs.csv",
                pair_rows,
                ["group", "board", "rule", "a", "b", "games", "difference", "se", "a_only", "b_only"],
            )
        )
        text = header(self.title, settings, plan.notes)
        for group in LEVEL_GROUPS:
            ks = [k for k, p in enumerate(plan.points) if p.group == group.name]
            if not ks:
                continue
            text += f"## {group.name}: {group.note}\n\n"
            rows = []
            for k in ks:
                p, s = plan.points[k], summaries[k]
                dse = difference_in_se(s, p.published, p.published_se)
                rows.append(
                    [
                        s.board,
                        s.rule,
                        s.strategy + (f" ({p.paper})" if p.paper else ""),
                        s.games,
                        rate_cell(s),
                        f"{pct(s.wilson_low)}-{pct(s.wilson_high)}",
                        s.timeouts,
                        f"{1000 * s.cpu_mean:.2f}",
                        "-"
                        if p.published is None
                        else f"{p.published:g}" + (f" ± {100 * p.published_se:.1f}" if p.published_se else ""),
                        "-" if dse is None else f"{dse:+.1f}",
                    ]
                )
            text += (
                markdown_table(
                    [
                        "board",
                        "rule",
                        "strategy (paper's name)",
                        "games",
                        "win % ± SE",
                        "95% Wilson",
                        "timeouts",
                        "CPU ms/game",
                        "published %",
                        "difference / SE",
                    ],
                    rows,
                )
                + "\n\n"
            )
        if pair_rows:
            text += (
                "## Paired differences (same layouts)\n\n"
                + markdown_table(
                    ["group", "board", "rule", "a - b", "games", "difference % ± SE"],
                    [
                        [
                            r["group"],
                            r["board"],
                            r["rule"],
                            f"{r['a']} - {r['b']}",
                            r["games"],
                            f"{100 * r['difference']:+.1f} ± {100 * r['se']:.1f}",
                        ]
                        for r in pair_rows
                    ],
                )
                + "\n"
            )
        write_text(out / "table.md", text)
        files.append(out / "table.md")
        for group in LEVEL_GROUPS:
            ks = [k for k, p in enumerate(plan.points) if p.group == group.name]
            if ks:
                slug = group.name.replace(" ", "")
                files.append(
                    plots.level_bars(
                        [plan.points[k] for k in ks], [summaries[k] for k in ks], group.name, out / f"levels-{slug}.png"
                    )
                )
        ks = [k for k, p in enumerate(plan.points) if p.group == "seed 000" and p.rules.first_click == "safe"]
        if ks:
            files.append(plots.cpu_bars([summaries[k] for k in ks], out / "cpu-seed000-safe.png"))
        return files
