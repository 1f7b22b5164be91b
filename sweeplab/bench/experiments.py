"""Seed 000's experiments (and the other seeds' tables), each a command that writes CSV/JSON data, a Markdown table
and PNG plots: ``sweeplab experiment NAME --out DIR``.

An experiment *plans* a list of points (strategy x rules x games), plays them all on one executor (every point
from the same root seed, so strategies meet the same layouts), summarises each point and writes its files. The
numbers in docs/results.md come only from these files. ``--quick`` sizes are for tests; full sizes follow the papers
(10,000 games per point, seed 000's "100 sets of 100 games").
"""

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

from sweeplab.bench import plots
from sweeplab.bench.journal import Journal, replacing, write_text
from sweeplab.bench.published import (
    SEED_000_FIGURE_6,
    SEED_000_FRONTIER,
    SEED_000_FRONTIER_GAMES,
    SEED_000_TABLES,
    SEED_001,
    SEED_001_GAMES,
    SEED_002,
    SEED_004,
)
from sweeplab.bench.runner import Batch, BenchSpec, GameResult, Stopped, make_batches, run_many
from sweeplab.bench.stats import calibration, fit_exponential, fit_logistic, logistic
from sweeplab.bench.summary import OUTCOMES, Summary, outcome_counts, paired, summarize
from sweeplab.core.errors import SweeplabError, UnknownStrategyError
from sweeplab.core.rules import PRESETS, Rules, make_rules
from sweeplab.strategies.registry import format_spec

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


def _density_boards(settings: Settings) -> list[tuple[str, tuple[int, int]]]:
    return [(name, PRESETS[name][:2]) for name in ("beginner-classic", "intermediate-classic", "expert")]


def _density_cell(s: Summary | None) -> str:
    return "-" if s is None else f"{rate_cell(s)} ({s.board.rsplit('x', 1)[1]} mines)"


class Density(Experiment):
    name = "density"
    title = "Win rate against mine density (seed 000, Figure 7)"
    source = "seed 000 Figure 7"
    FULL = tuple(round(0.025 * i, 3) for i in range(1, 17))  # 0.025 .. 0.40
    QUICK = (0.1, 0.2, 0.3)

    def plan(self, settings: Settings) -> Plan:
        notes: list[str] = []
        strategies = pick_strategies(settings, ["cspstrategy"], notes)
        rule = settings.rule or "safe"
        points = []
        for name, (w, h) in _density_boards(settings):
            for d in self.QUICK if settings.quick else self.FULL:
                mines = round(d * w * h)
                rules = Rules(w, h, mines, rule)
                for s in strategies:
                    points.append(Point(name, s, rules, settings.size(), d))
        return Plan(points, notes)

    def write(
        self, settings: Settings, plan: Plan, results: list[list[GameResult]], summaries: list[Summary], out: Path
    ) -> list[Path]:
        fits = []
        series: dict[tuple[str, str], list[tuple[float, Summary]]] = {}
        for p, s in zip(plan.points, summaries, strict=True):
            series.setdefault((p.group, p.strategy), []).append((p.rules.density, s))
        for (board, strategy), pts in series.items():
            try:
                mid, slope = fit_logistic([x for x, _ in pts], [s.wins for _, s in pts], [s.games for _, s in pts])
            except ValueError:
                mid, slope = math.nan, math.nan
            fits.append(
                {"board": board, "size": pts[0][1].board.rsplit("x", 1)[0], "strategy": strategy, "midpoint": mid, "slope": slope}
            )
        files = self.write_summaries(plan, summaries, out, settings, {"fits": fits})
        files.append(write_csv(out / "fits.csv", fits, ["board", "size", "strategy", "midpoint", "slope"]))
        text = header(self.title, settings, plan.notes)
        text += (
            f"Rule `{plan.points[0].rules.first_click if plan.points else '-'}`; win % ± SE per nominal density "
            "(mines = round(density x cells)); "
            "a logistic curve 1 / (1 + exp(slope (density - midpoint))) is fitted by maximum likelihood to each series "
            "at its actual densities (mines / cells).\n\n"
        )
        for strategy in dict.fromkeys(p.strategy for p in plan.points):
            boards = list(dict.fromkeys(p.group for p in plan.points))
            densities = sorted({round(p.x or 0.0, 4) for p in plan.points if p.strategy == strategy})
            grid = {
                (p.group, round(p.x or 0.0, 4)): s for p, s in zip(plan.points, summaries, strict=True) if p.strategy == strategy
            }
            rows = []
            for d in densities:
                rows.append([f"{d:.3f}"] + [_density_cell(grid.get((b, d))) for b in boards])
            text += (
                f"## {strategy}\n\n"
                + markdown_table(["density"] + [f"{b} ({PRESETS[b][0]}x{PRESETS[b][1]})" for b in boards], rows)
                + "\n\n"
            )
            text += (
                markdown_table(
                    ["board", "fitted midpoint (50% wins)", "slope"],
                    [[f["board"], f"{f['midpoint']:.4f}", f"{f['slope']:.2f}"] for f in fits if f["strategy"] == strategy],
                )
                + "\n\n"
            )
        write_text(out / "table.md", text)
        files.append(out / "table.md")
        files.append(plots.density_plot(series, fits, out / "density.png"))
        return files


class Size(Experiment):
    name = "size"
    title = "Win rate and CPU time against the side of square boards at density 0.2 (seed 000, Figures 8-9)"
    source = "seed 000 Figures 8 and 9"
    FULL = (5, 6, 8, 10, 12, 15, 20, 25, 30, 40, 50, 60, 70)
    QUICK = (5, 8, 10)
    DENSITY = 0.2

    def plan(self, settings: Settings) -> Plan:
        notes: list[str] = []
        strategies = pick_strategies(settings, ["cspstrategy"], notes)
        rule = settings.rule or "safe"
        points = []
        for n in self.QUICK if settings.quick else self.FULL:
            rules = Rules(n, n, round(self.DENSITY * n * n), rule)
            for s in strategies:
                points.append(Point(f"{n}x{n}", s, rules, settings.size(), float(n)))
        return Plan(points, notes)

    def write(
        self, settings: Settings, plan: Plan, results: list[list[GameResult]], summaries: list[Summary], out: Path
    ) -> list[Path]:
        fits = []
        series: dict[str, list[tuple[float, Summary]]] = {}
        for p, s in zip(plan.points, summaries, strict=True):
            series.setdefault(p.strategy, []).append((p.x or 0.0, s))
        for strategy, pts in series.items():
            try:
                scale, rate = fit_exponential([x for x, _ in pts], [s.cpu_mean for _, s in pts])
            except ValueError:
                scale, rate = math.nan, math.nan
            fits.append({"strategy": strategy, "cpu_scale": scale, "cpu_rate_per_side": rate})
        files = self.write_summaries(plan, summaries, out, settings, {"cpu_fits": fits})
        text = header(self.title, settings, plan.notes)
        for strategy, pts in series.items():
            rows = [
                [
                    f"{int(x)}",
                    s.board,
                    rate_cell(s),
                    f"{1000 * s.cpu_mean:.2f}",
                    f"{1000 * s.cpu_median:.2f}",
                    f"{1000 * s.cpu_p99:.2f}",
                    s.timeouts,
                ]
                for x, s in pts
            ]
            text += (
                f"## {strategy}\n\n"
                + markdown_table(["side", "board", "win % ± SE", "CPU ms mean", "median", "p99", "timeouts"], rows)
                + "\n\n"
            )
            f = next(f for f in fits if f["strategy"] == strategy)
            text += (
                f"CPU time per game fitted to scale x exp(rate x side): scale {f['cpu_scale']:.3g} s, "
                f"rate {f['cpu_rate_per_side']:.3g} per cell of side.\n\n"
            )
        write_text(out / "table.md", text)
        files.append(out / "table.md")
        files.append(plots.win_line(series, "side of the square board", "size.png", out, "Figure 8: density 0.2"))
        files.append(plots.cpu_line(series, fits, out / "size-cpu.png"))
        return files


class Aspect(Experiment):
    name = "aspect"
    title = "Win rate against board shape: 900 cells, 180 mines (seed 000, Figure 10)"
    source = "seed 000 Figure 10"
    FULL = tuple(r for r in range(1, 31) if 900 % r == 0)
    QUICK = (10, 20, 30)

    def plan(self, settings: Settings) -> Plan:
        notes: list[str] = []
        strategies = pick_strategies(settings, ["cspstrategy"], notes)
        rule = settings.rule or "safe"
        points = []
        skipped = []
        for rows in self.QUICK if settings.quick else self.FULL:
            try:
                rules = Rules(900 // rows, rows, 180, rule)
            except SweeplabError as error:
                skipped.append(f"{900 // rows}x{rows} ({error})")
                continue
            for s in strategies:
                points.append(Point(f"{900 // rows}x{rows}", s, rules, settings.size(), float(rows)))
        if skipped:
            notes.append("boards the game engine cannot hold were skipped: " + "; ".join(skipped))
        return Plan(points, notes)

    def write(
        self, settings: Settings, plan: Plan, results: list[list[GameResult]], summaries: list[Summary], out: Path
    ) -> list[Path]:
        files = self.write_summaries(plan, summaries, out, settings)
        series: dict[str, list[tuple[float, Summary]]] = {}
        for p, s in zip(plan.points, summaries, strict=True):
            series.setdefault(p.strategy, []).append((p.x or 0.0, s))
        text = header(self.title, settings, plan.notes)
        for strategy, pts in series.items():
            rows = [
                [int(x), s.board, rate_cell(s), f"{pct(s.wilson_low)}-{pct(s.wilson_high)}", f"{1000 * s.cpu_mean:.2f}"]
                for x, s in pts
            ]
            text += (
                f"## {strategy}\n\n" + markdown_table(["rows", "board", "win % ± SE", "95% Wilson", "CPU ms/game"], rows) + "\n\n"
            )
        write_text(out / "table.md", text)
        files.append(out / "table.md")
        files.append(plots.win_line(series, "number of rows (900 cells, 180 mines)", "aspect.png", out, "Figure 10"))
        return files


def _single_board(settings: Settings) -> Rules:
    return make_rules(settings.board or "expert", settings.rule or "safe")


class Outcomes(Experiment):
    name = "outcomes"
    title = "Why games are won or lost (seed 000, Figure 6)"
    source = "seed 000 Figure 6"
    keeps_guesses = True

    def plan(self, settings: Settings) -> Plan:
        notes: list[str] = []
        strategies = pick_strategies(settings, ["cspstrategy"], notes)
        rules = _single_board(settings)
        return Plan([Point("outcomes", s, rules, settings.size()) for s in strategies], notes)

    def write(
        self, settings: Settings, plan: Plan, results: list[list[GameResult]], summaries: list[Summary], out: Path
    ) -> list[Path]:
        table = []
        for p, res in zip(plan.points, results, strict=True):
            counts = outcome_counts(res)
            lost = sum(1 for r in res if not r.won and not r.timed_out)
            if lost and counts["lost without a recorded guess"] == lost:
                plan.notes.append(f"{p.strategy} records no failed guess for any loss: it does not report its guesses")
            for name in OUTCOMES:
                table.append(
                    {
                        "strategy": p.strategy,
                        "board": p.rules.spec(),
                        "rule": p.rules.first_click,
                        "outcome": name,
                        "games": counts[name],
                        "percent": 100 * counts[name] / len(res),
                        "se_percent": 100 * math.sqrt((counts[name] / len(res)) * (1 - counts[name] / len(res)) / len(res)),
                        "published_percent": SEED_000_FIGURE_6.get(name),
                    }
                )
        decomposition = [row for p, res in zip(plan.points, results, strict=True) for row in loss_decomposition(p.strategy, res)]
        files = self.write_summaries(plan, summaries, out, settings, {"outcomes": table, "decomposition": decomposition})
        files.append(write_csv(out / "outcomes.csv", table, list(table[0]) if table else ["strategy"]))
        text = header(self.title, settings, plan.notes)
        text += (
            "A loss is put down to the kind of the guess that failed; guesses that could not lose "
            "(a protected first click) do not count as guessing.\n\n"
        )
        for p, s in zip(plan.points, summaries, strict=True):
            rows = [
                [
                    r["outcome"],
                    r["games"],
                    f"{r['percent']:.1f} ± {r['se_percent']:.1f}",
                    "-" if r["published_percent"] is None else f"{r['published_percent']:g}",
                ]
                for r in table
                if r["strategy"] == p.strategy
            ]
            text += f"## {p.strategy} on {s.board} ({s.rule}), {s.games} games\n\n"
            text += (
                markdown_table(["outcome", "games", "% ± SE", "seed 000 Figure 6 % (CSPStrategy, 10,000 expert games)"], rows)
                + "\n\n"
            )
        if decomposition:
            text += "## Where the losses come from: guesses per game, their failures, and the paper's failure rates\n\n"
            text += decomposition_markdown(decomposition) + "\n\n"
        write_text(out / "table.md", text)
        files.append(out / "table.md")
        files.append(plots.outcome_bars(table, out / "outcomes.png"))
        return files


def paper_pool(strategies: Sequence[str], games: int, quick: bool = False) -> list[Point]:
    """Every board seed 000 played CSPStrategy on, one point each: Figures 2-4 (three levels x three first-click
    rules), Figure 7's densities, Figure 8's square boards and Figure 10's shapes (standard rules).

    The paper's guess log (Tables 1-3) and its largest coupled sets ("In 600,000 games") come from all the games
    CSPStrategy played: its 10x10 outlier of Figure 9 is the set with the most solutions, and the first moves of the
    density-0.2 boards fill Table 3's "80%" row. Each point gets its own layouts (``seed_offset``), so the pooled
    counts are independent; the strategies share each point's layouts. Group names: ``levels:RULE``, ``density``,
    ``size``, ``aspect``.
    """
    boards: list[tuple[str, Rules]] = []
    levels = ("expert",) if quick else ("beginner-classic", "intermediate-classic", "expert")
    for rule in ("unsafe", "safe", "hint"):
        for name in levels:
            boards.append((f"levels:{rule}", make_rules(name, rule)))
    for _, (w, h) in _density_boards(Settings()):
        for d in Density.QUICK[:1] if quick else Density.FULL:
            boards.append(("density", Rules(w, h, round(d * w * h), "safe")))
    for n in Size.QUICK[:1] if quick else Size.FULL:
        boards.append(("size", Rules(n, n, round(Size.DENSITY * n * n), "safe")))
    for rows in Aspect.QUICK[-1:] if quick else Aspect.FULL:
        try:
            boards.append(("aspect", Rules(900 // rows, rows, 180, "safe")))
        except SweeplabError:
            continue
    points = []
    for k, (group, rules) in enumerate(boards):
        for s in strategies:
            points.append(Point(group, s, rules, games, seed_offset=1_000_000 * (k + 1)))
    return points


def paper_bin(estimate: float) -> int:
    """A guess's estimated success as the paper's log printed it: a whole percent, truncated ("GUESS: 83% ...";
    Table 2's "66%" row holds the 2/3 guesses).

    >>> paper_bin(2 / 3), paper_bin(0.8), paper_bin(0.849999)
    (66, 80, 84)
    """
    return math.floor(100 * estimate + 1e-9)


def paper_rows(kind: str) -> list[tuple[str, int, int, int, int]]:
    """Seed 000's rows for a guess kind as (label, lowest percent, highest percent, successes, observations)."""
    out = []
    for label, successes, observations, _ in SEED_000_TABLES.get(kind, []):
        numbers = [int(t.rstrip("%")) for t in label.split(" to ")]
        out.append((label, numbers[0], numbers[-1], successes, observations))
    return out


def paper_bin_table(strategy: str, triples: Sequence[tuple[str, float, bool]]) -> list[dict[str, Any]]:
    """Guesses (kind, estimate, outcome) in the paper's own bins, beside the paper's observed rate, with z =
    (ours - paper) / sqrt(paper (1 - paper) / ours' n + the paper's own SE squared), the difference our rate would
    show if it had the paper's; guesses outside the paper's bins form one row per kind ("other")."""
    rows = []
    for kind in ("craps", "educated", "unconstrained"):
        table = paper_rows(kind)
        cells: dict[str, list[tuple[float, bool]]] = {label: [] for label, *_ in table}
        cells["other"] = []
        for k, estimate, outcome in triples:
            if k != kind:
                continue
            pct_value = paper_bin(estimate)
            label = next((t[0] for t in table if t[1] <= pct_value <= t[2]), "other")
            cells[label].append((estimate, outcome))
        published = {t[0]: (t[3], t[4]) for t in table}
        for label, items in cells.items():
            n = len(items)
            if not n and label == "other":
                continue
            wins = sum(1 for _, o in items if o)
            ps, pn = published.get(label, (None, None))
            rate = wins / n if n else math.nan
            se = math.sqrt(rate * (1 - rate) / n) if n else math.nan
            prate = ps / pn if ps is not None and pn else None
            pse = math.sqrt(prate * (1 - prate) / pn) if prate is not None and pn else None
            z = None
            if n and prate is not None and pse is not None:
                # the SE our rate would have if it were the paper's (finite when every guess of a small bin won)
                total = math.hypot(math.sqrt(prate * (1 - prate) / n), pse)
                z = (rate - prate) / total if total else None
            rows.append(
                {
                    "strategy": strategy,
                    "kind": kind,
                    "bin": label,
                    "observations": n,
                    "successes": wins,
                    "mean_estimate": sum(e for e, _ in items) / n if n else None,
                    "rate": rate if n else None,
                    "se": se if n else None,
                    "paper_observations": pn,
                    "paper_rate": prate,
                    "paper_se": pse,
                    "z_paper": z,
                }
            )
    return rows


def loss_decomposition(strategy: str, results: Sequence[GameResult]) -> list[dict[str, Any]]:
    """Per guess kind: guesses per game, their failure rate, losses per game (each game ends at its first failed
    guess), and the losses per game the same guesses would give at seed 000's Tables 1-3 success rates bin by bin
    (a first-order counterfactual: it ignores that an earlier loss ends the game before its later guesses)."""
    games = len(results)
    out: list[dict[str, Any]] = []
    if not games:
        return out
    for kind, label in (("craps", "craps shoot"), ("educated", "educated guess"), ("unconstrained", "other guess")):
        table = paper_rows(kind)
        guesses = [g for r in results for g in r.counted_guesses() if g.kind == kind and g.outcome is not None]
        failures = sum(1 for g in guesses if not g.outcome)
        expected = 0.0
        covered = 0
        for g in guesses:
            if g.safety is None:
                continue
            row = next((t for t in table if t[1] <= paper_bin(g.safety) <= t[2]), None)
            if row is not None:
                expected += 1 - row[3] / row[4]
                covered += 1
        out.append(
            {
                "strategy": strategy,
                "kind": kind,
                "outcome": f"lost on {'an' if label[0] in 'aeiou' else 'a'} {label}",
                "games": games,
                "guesses": len(guesses),
                "guesses_per_game": len(guesses) / games,
                "failures": failures,
                "failure_rate": failures / len(guesses) if guesses else None,
                "mean_estimate": sum(g.safety or 0.0 for g in guesses) / len(guesses) if guesses else None,
                "losses_per_game": failures / games,
                "in_paper_bins": covered,
                "losses_per_game_at_paper_rates": expected / games,
            }
        )
    return out


def decomposition_markdown(rows: Sequence[dict[str, Any]]) -> str:
    """The loss decomposition as a Markdown table."""
    return markdown_table(
        [
            "strategy",
            "guess kind",
            "guesses per game",
            "failure rate %",
            "mean estimated success %",
            "games lost on them %",
            "% lost at seed 000's rates",
        ],
        [
            [
                r["strategy"],
                r["kind"],
                f"{r['guesses_per_game']:.3f}",
                "-" if r["failure_rate"] is None else f"{100 * r['failure_rate']:.1f}",
                "-" if r["mean_estimate"] is None else f"{100 * r['mean_estimate']:.1f}",
                f"{100 * r['losses_per_game']:.1f}",
                f"{100 * r['losses_per_game_at_paper_rates']:.1f}",
            ]
            for r in rows
        ],
    )


class Calibration(Experiment):
    name = "calibration"
    title = "Are the guesses' estimated chances right? (seed 000, Tables 1-3)"
    source = "seed 000 Tables 1-3"
    keeps_guesses = True
    FULL_PER_POINT = 1200  # x 84 boards: 100,800 games per strategy

    def plan(self, settings: Settings) -> Plan:
        notes: list[str] = []
        strategies = pick_strategies(settings, ["cspstrategy", "exact"], notes)
        if settings.board:
            rules = _single_board(settings)
            return Plan([Point("calibration", s, rules, settings.size()) for s in strategies], notes)
        points = paper_pool(strategies, settings.size(self.FULL_PER_POINT), settings.quick)
        boards = len(points) // len(strategies)
        notes.append(
            f"pooled as seed 000's guess log: every board of its Figures 2-4, 7, 8 and 10 ({boards} boards, "
            f"{points[0].games:,} games each, independent layouts per board)"
        )
        return Plan(points, notes)

    def write(
        self, settings: Settings, plan: Plan, results: list[list[GameResult]], summaries: list[Summary], out: Path
    ) -> list[Path]:
        rows = []
        paper_table: list[dict[str, Any]] = []
        per_strategy: dict[str, list[Any]] = {}
        groups: list[dict[str, Any]] = []
        pooled: dict[str, list[tuple[str, float, bool]]] = {}
        by_group: dict[tuple[str, str], list[tuple[str, float, bool]]] = {}
        games: dict[tuple[str, str], int] = {}
        for p, res in zip(plan.points, results, strict=True):
            triples = [
                (g.kind, g.safety, bool(g.outcome))
                for r in res
                for g in r.counted_guesses()
                if g.safety is not None and g.outcome is not None
            ]
            pooled.setdefault(p.strategy, []).extend(triples)
            by_group.setdefault((p.strategy, p.group), []).extend(triples)
            games[(p.strategy, p.group)] = games.get((p.strategy, p.group), 0) + len(res)
        for strategy, triples in pooled.items():
            if not triples:
                plan.notes.append(f"{strategy} gives no estimated chance with its guesses: nothing to calibrate")
                continue
            bins = calibration(triples)
            per_strategy[strategy] = bins
            for b in bins:
                rows.append(
                    {
                        "strategy": strategy,
                        "kind": b.kind,
                        "low": b.low,
                        "high": b.high,
                        "observations": b.observations,
                        "successes": b.successes,
                        "mean_estimate": b.mean_estimate,
                        "rate": b.rate,
                        "se": b.se,
                        "z": b.z,
                    }
                )
            paper_table += paper_bin_table(strategy, triples)
        for (strategy, group), triples in by_group.items():
            for kind in ("craps", "educated", "unconstrained"):
                mine = [(e, o) for k, e, o in triples if k == kind]
                head = [(e, o) for e, o in mine if kind == "educated" and 80 <= paper_bin(e) <= 84]
                groups.append(
                    {
                        "strategy": strategy,
                        "group": group,
                        "games": games[(strategy, group)],
                        "kind": kind,
                        "guesses": len(mine),
                        "successes": sum(1 for _, o in mine if o),
                        "mean_estimate": sum(e for e, _ in mine) / len(mine) if mine else None,
                        "bin_80_84_guesses": len(head) if kind == "educated" else None,
                        "bin_80_84_successes": sum(1 for _, o in head if o) if kind == "educated" else None,
                        "bin_80_84_mean_estimate": (sum(e for e, _ in head) / len(head)) if head else None,
                    }
                )
        cols = ["strategy", "kind", "low", "high", "observations", "successes", "mean_estimate", "rate", "se", "z"]
        files = self.write_summaries(plan, summaries, out, settings, {"bins": rows, "paper_bins": paper_table, "groups": groups})
        files.append(write_csv(out / "bins.csv", rows, cols))
        files.append(write_csv(out / "paper-bins.csv", paper_table, list(paper_table[0]) if paper_table else ["strategy"]))
        files.append(write_csv(out / "groups.csv", groups, list(groups[0]) if groups else ["strategy"]))
        text = header(self.title, settings, plan.notes)
        text += (
            "Each guess's estimated chance of success against its outcome, binned by guess kind; "
            "z = (observed - mean estimate) / sqrt(estimate (1 - estimate) / observations), the error the rate would have "
            "if the estimate were right. "
            "A calibrated estimate keeps |z| under about 2 in most bins.\n\n"
        )
        for strategy, bins in per_strategy.items():
            for kind in dict.fromkeys(b.kind for b in bins):
                kb = [b for b in bins if b.kind == kind]
                text += (
                    f"## {strategy}: {kind} guesses\n\n"
                    + markdown_table(
                        ["estimated success", "mean estimate %", "successes", "observations", "observed % ± SE", "z"],
                        [
                            [
                                f"{100 * b.low:.0f}% to {100 * b.high:.0f}%",
                                f"{100 * b.mean_estimate:.1f}",
                                b.successes,
                                b.observations,
                                f"{100 * b.rate:.1f} ± {100 * b.se:.1f}",
                                f"{b.z:+.1f}",
                            ]
                            for b in kb
                        ],
                    )
                    + "\n\n"
                )
                off = [b for b in kb if abs(b.z) > 2]
                text += f"{len(off)} of {len(kb)} bins lie more than 2 SE from their estimate.\n\n"
        for strategy in per_strategy:
            text += f"## {strategy} in seed 000's bins (estimates truncated to whole percents, as its log printed them)\n\n"
            text += paper_bins_markdown([r for r in paper_table if r["strategy"] == strategy]) + "\n\n"
        write_text(out / "table.md", text)
        files.append(out / "table.md")
        files.append(plots.reliability(per_strategy, out / "reliability.png"))
        return files


def paper_bins_markdown(rows: Sequence[dict[str, Any]]) -> str:
    """The paper-bin comparison as a Markdown table."""
    return markdown_table(
        ["kind", "estimated success", "observations", "observed % ± SE", "mean estimate %", "paper observed % ± SE", "z"],
        [
            [
                r["kind"],
                r["bin"],
                r["observations"],
                "-" if r["rate"] is None else f"{100 * r['rate']:.1f} ± {100 * r['se']:.1f}",
                "-" if r["mean_estimate"] is None else f"{100 * r['mean_estimate']:.1f}",
                "-" if r["paper_rate"] is None else f"{100 * r['paper_rate']:.1f} ± {100 * r['paper_se']:.1f}",
                "-" if r["z_paper"] is None else f"{r['z_paper']:+.1f}",
            ]
            for r in rows
        ],
    )


class Frontier(Experiment):
    name = "frontier"
    title = "The largest coupled set of constraints met per game (seed 000)"
    source = "seed 000, 'Advanced Minesweeper Analysis' (600,000 games)"

    def plan(self, settings: Settings) -> Plan:
        notes: list[str] = []
        strategies = pick_strategies(settings, ["cspstrategy"], notes)
        if settings.board:
            rules = _single_board(settings)
            return Plan([Point("frontier", s, rules, settings.size(SEED_000_FRONTIER_GAMES)) for s in strategies], notes)
        boards = len(paper_pool(["-"], 1, settings.quick))
        per_board = settings.size(math.ceil(SEED_000_FRONTIER_GAMES / boards))
        notes.append(
            f"pooled as seed 000's 600,000 games: every board of its Figures 2-4, 7, 8 and 10 ({boards} boards, "
            f"{per_board:,} games each, {boards * per_board:,} in all)"
        )
        return Plan(paper_pool(strategies, per_board, settings.quick), notes)

    def write(
        self, settings: Settings, plan: Plan, results: list[list[GameResult]], summaries: list[Summary], out: Path
    ) -> list[Path]:
        per_game = []
        extremes = []
        data: dict[str, list[tuple[int, ...]]] = {}
        sets_of: dict[str, list[tuple[str, int, tuple[int, ...]]]] = {}
        for p, res in zip(plan.points, results, strict=True):
            found = [(p.rules.spec(), r.index, r.largest_set) for r in res if r.largest_set is not None]
            sets_of.setdefault(p.strategy, []).extend(found)
            for board, index, size in found:
                per_game.append(
                    {
                        "strategy": p.strategy,
                        "board": board,
                        "rule": p.rules.first_click,
                        "game": index,
                        "variables": size[0],
                        "constraints": size[1],
                        "dof": size[2],
                        "solutions": size[3],
                    }
                )
        for strategy, found in sets_of.items():
            if not found:
                plan.notes.append(f"{strategy} does not expose `largest_set`: skipped")
                continue
            data[strategy] = [size for _, _, size in found]
            for what, key in (
                ("most degrees of freedom", lambda f: (f[2][2], f[2][3])),
                ("most variables and constraints", lambda f: (f[2][0] + f[2][1], f[2][3])),
                ("most solutions", lambda f: (f[2][3], f[2][2])),
            ):
                board, index, size = max(found, key=key)
                extremes.append(
                    {
                        "strategy": strategy,
                        "what": what,
                        "board": board,
                        "game": index,
                        "variables": size[0],
                        "constraints": size[1],
                        "dof": size[2],
                        "solutions": size[3],
                    }
                )
            small = sum(1 for f in found if f[2][3] < 1000)
            extremes.append(
                {
                    "strategy": strategy,
                    "what": f"games whose largest set had < 1000 solutions: {small} of {len(found)}",
                    "board": None,
                    "game": None,
                    "variables": None,
                    "constraints": None,
                    "dof": None,
                    "solutions": None,
                    "small": small,
                    "games_with_sets": len(found),
                }
            )
        columns = ["strategy", "what", "board", "game", "variables", "constraints", "dof", "solutions"]
        files = self.write_summaries(plan, summaries, out, settings, {"extremes": extremes})
        files.append(
            write_csv(
                out / "games.csv.gz",
                per_game,
                ["strategy", "board", "rule", "game", "variables", "constraints", "dof", "solutions"],
            )
        )
        files.append(write_csv(out / "extremes.csv", extremes, columns))
        text = header(self.title, settings, plan.notes)
        for strategy in data:
            rows = [
                [
                    e["what"],
                    e["board"] or "",
                    e["game"] if e["game"] is not None else "",
                    e["variables"] or "",
                    e["constraints"] or "",
                    e["dof"] or "",
                    e["solutions"] or "",
                ]
                for e in extremes
                if e["strategy"] == strategy
            ]
            text += (
                f"## {strategy}\n\n"
                + markdown_table(["", "board", "game", "variables", "constraints", "degrees of freedom", "solutions"], rows)
                + "\n\n"
            )
        text += (
            f"## seed 000 (CSPStrategy, {SEED_000_FRONTIER_GAMES:,} games), as published\n\n"
            + markdown_table(
                ["", "variables", "constraints", "degrees of freedom", "solutions"], [list(r) for r in SEED_000_FRONTIER]
            )
            + "\n"
        )
        write_text(out / "table.md", text)
        files.append(out / "table.md")
        files.append(plots.frontier_hist(data, out / "frontier.png"))
        return files


_BASE: dict[str, Experiment] = {e.name: e for e in (Levels(), Density(), Size(), Aspect(), Outcomes(), Calibration(), Frontier())}


_ALL: dict[str, Experiment] = {}


def experiments() -> dict[str, Experiment]:
    """Every experiment by name: the ones above, :mod:`sweeplab.bench.audit`'s (each guess against the exact chance)
    and :mod:`sweeplab.bench.claims`'s (the papers' claims turned into numbers). Those modules build on this one, so
    they are loaded on first use; ``EXPERIMENTS`` is this dictionary."""
    if not _ALL:
        from sweeplab.bench import audit, claims

        _ALL.update(_BASE)
        for experiment in (audit.GuessAudit(), *claims.CLAIM_EXPERIMENTS):
            _ALL[experiment.name] = experiment
    return _ALL


def __getattr__(name: str) -> Any:
    if name == "EXPERIMENTS":
        return experiments()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def plan_experiment(name: str, settings: Settings) -> tuple[Experiment, Plan]:
    """The experiment called ``name`` and its plan under ``settings`` (an ``ExperimentError`` if there is nothing to play)."""
    try:
        experiment = experiments()[name]
    except KeyError:
        raise ExperimentError(f"unknown experiment {name!r}: choose one of {', '.join(experiments())}") from None
    plan = experiment.plan(settings)
    if settings.skip:
        plan.notes.append(f"left out on request (--skip): {', '.join(settings.skip)}")
    if not plan.points:
        raise ExperimentError(f"experiment {name!r} has nothing to play with these settings")
    return experiment, plan


def run_settings(name: str, settings: Settings) -> dict[str, Any]:
    """What makes an experiment's result, keyed by option name (with the planned points, so that a resume after the
    plan changed is refused): stored with its journal, compared on ``--resume``."""
    _, plan = plan_experiment(name, settings)
    return {
        "command": f"experiment {name}",
        "--quick": settings.quick,
        "--strategy": ",".join(settings.strategies) if settings.strategies else None,
        "--skip": ",".join(settings.skip) if settings.skip else None,
        "--games": settings.games,
        "--seed": settings.seed,
        "--board": settings.board,
        "--rule": settings.rule,
        "--time-limit": settings.time_limit,
        "points": [
            f"{p.group}|{format_spec(p.build_name, dict(p.options))}|{p.rules.spec()}|{p.rules.first_click}|{p.games}"
            for p in plan.points
        ],
    }


def total_games(name: str, settings: Settings) -> int:
    """How many games experiment ``name`` plays under ``settings``."""
    return sum(p.games for p in plan_experiment(name, settings)[1].points)


def _built(p: Point) -> tuple[str, tuple[tuple[str, Any], ...]]:
    """(registry name, options) of what a point plays; a strategy given as a spec ``NAME[...]`` is read here."""
    from sweeplab.strategies.registry import parse_spec

    name, options = parse_spec(p.build_name) if "[" in p.build_name else (p.build_name, {})
    return name, tuple(sorted({**options, **dict(p.options)}.items()))


def run_experiment(
    name: str,
    out: Path,
    settings: Settings,
    executor: object | None = None,
    echo: Callable[[str], None] = print,
    progress: Callable[[int], Callable[[int], None] | None] | None = None,
    journal: Journal | None = None,
) -> list[Path]:
    """Plan, play and write experiment ``name`` into ``out``; returns the files written.

    ``progress(total_games)`` may return a callback called with the number of games each finished batch played.
    With a ``journal`` (see :mod:`sweeplab.bench.journal`), finished games are streamed to it and the games it
    already holds are not played again; a run stopped by a signal or a failed write raises
    :class:`~sweeplab.bench.runner.Stopped` whose ``report`` lists the games finished per point.
    """
    experiment, plan = plan_experiment(name, settings)
    for note in plan.notes:
        echo(f"note: {note}")
    total = sum(p.games for p in plan.points)
    echo(f"{name}: {len(plan.points)} points, {total} games")
    specs = [
        (
            BenchSpec(
                _built(p)[0],
                p.rules,
                settings.seed + p.seed_offset,
                p.first_click,
                time_limit=settings.time_limit,
                options=_built(p)[1],
                keep_guesses=experiment.keeps_guesses,
            ),
            p.games,
        )
        for p in plan.points
    ]
    import time

    on_games = progress(total) if progress else None
    start = time.perf_counter()
    try:
        results = experiment.measure(specs, executor, on_games, journal)
    except Stopped as stop:
        stop.report = [
            (f"{p.strategy} on {p.rules.spec()} ({p.rules.first_click})", len(part), p.games)
            for p, part in zip(plan.points, stop.partial, strict=True)
        ]
        raise
    wall = time.perf_counter() - start
    played = total - (journal.resumed if journal is not None else 0)
    summaries = [summarize(r, p.strategy, p.rules, settings.seed) for p, r in zip(plan.points, results, strict=True)]
    out.mkdir(parents=True, exist_ok=True)
    seen = len(plan.notes)
    files = experiment.write(settings, plan, results, summaries, out)
    for note in plan.notes[seen:]:
        echo(f"note: {note}")
    echo(f"{name}: played {played} games in {wall:.1f} s ({played / wall if wall > 0 else 0:.0f} games/s)")
    return files


__all__ = [
    "Experiment",
    "ExperimentError",
    "Plan",
    "Point",
    "Settings",
    "experiments",
    "logistic",
    "plan_experiment",
    "run_experiment",
    "run_settings",
    "total_games",
]
