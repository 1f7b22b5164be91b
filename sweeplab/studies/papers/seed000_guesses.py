"""Seed 000's experiments on how games go: why they are won or lost (Figure 6), the guess log (Tables 1-3) and the
largest coupled sets, played on the boards the paper pooled (``paper_pool``)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from sweeplab.bench.journal import write_text
from sweeplab.bench.runner import GameResult
from sweeplab.bench.stats import calibration
from sweeplab.bench.summary import OUTCOMES, Summary, outcome_counts
from sweeplab.core.errors import SweeplabError
from sweeplab.core.rules import Rules, make_rules
from sweeplab.studies import plots
from sweeplab.studies.experiment import (
    Experiment,
    Plan,
    Point,
    Settings,
    header,
    markdown_table,
    pick_strategies,
    write_csv,
)
from sweeplab.studies.papers.seed000_sweeps import Aspect, Density, Size, density_boards
from sweeplab.studies.published import (
    SEED_000_FIGURE_6,
    SEED_000_FRONTIER,
    SEED_000_FRONTIER_GAMES,
    SEED_000_TABLES,
)


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
    for _, (w, h) in density_boards(Settings()):
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
            z = paper_z(rate, se, prate, pse) if n else None
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


def paper_z(rate: float | None, se: float | None, paper_rate: float | None, paper_se: float | None) -> float | None:
    """Our bin's rate against the paper's in the two (binomial) standard errors combined, as the pages' header
    states; None without both rates or when both errors are 0."""
    if rate is None or se is None or paper_rate is None or paper_se is None:
        return None
    total = math.hypot(se, paper_se)
    return (rate - paper_rate) / total if total else None


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
