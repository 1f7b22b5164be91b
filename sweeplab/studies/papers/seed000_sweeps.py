"""Seed 000's board sweeps: win rate and CPU time against mine density (Figure 7), the side of square boards
(Figures 8 and 9) and the shape of 900-cell boards (Figure 10)."""

from __future__ import annotations

import math
from pathlib import Path

from sweeplab.bench.journal import write_text
from sweeplab.bench.runner import GameResult
from sweeplab.bench.stats import fit_exponential, fit_logistic
from sweeplab.bench.summary import Summary
from sweeplab.core.errors import SweeplabError
from sweeplab.core.rules import PRESETS, Rules
from sweeplab.studies import plots
from sweeplab.studies.experiment import (
    Experiment,
    Plan,
    Point,
    Settings,
    header,
    markdown_table,
    pct,
    pick_strategies,
    rate_cell,
    write_csv,
)


def density_boards(settings: Settings) -> list[tuple[str, tuple[int, int]]]:
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
        for name, (w, h) in density_boards(settings):
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
