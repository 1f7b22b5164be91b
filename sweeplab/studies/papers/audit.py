"""Audited play: every guess a strategy makes, with the exact engine's chance for the guessed cell beside the
strategy's own estimate, so a miscalibrated estimate can be traced to how it counts (seed 000, Tables 1-3).

``sweeplab experiment guesses`` plays the boards seed 000 pooled (:func:`sweeplab.studies.papers.seed000_guesses.paper_pool`,
the same layouts as ``calibration``) and tabulates, bin by bin in the paper's bins, the observed success rate, the
strategy's mean estimate and the exact engine's mean chance for the same cells. The exact chance assumes every
layout consistent with the position is equally likely, which holds for the ``unsafe`` and ``safe`` rules but not
for ``hint`` games (the hint is placed where the mines are sparsest), so the hinted games are shown apart.
"""

from __future__ import annotations

import gzip
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from sweeplab.analysis import analyze
from sweeplab.bench.journal import Journal
from sweeplab.bench.runner import SAFE_FIRST_RULES, Batch, BenchSpec, GameResult, GuessRecord, game_seeds
from sweeplab.bench.summary import Summary
from sweeplab.core.errors import SweeplabError
from sweeplab.core.game import Game, GameState, Move
from sweeplab.core.observation import Observation
from sweeplab.strategies.base import Explanation, Strategy, play
from sweeplab.strategies.registry import format_spec, make
from sweeplab.studies.experiment import (
    Experiment,
    Plan,
    Settings,
    header,
    markdown_table,
    pick_strategies,
    run_grouped,
    write_csv,
)
from sweeplab.studies.papers.seed000_guesses import paper_bin, paper_pool, paper_rows


@dataclass(frozen=True)
class AuditedGuess:
    """One guess: where, its kind, the strategy's estimate, the exact chance (None when the engine had to estimate
    or for a first move), the outcome, and the position's unconstrained squares and mines left."""

    strategy: str
    board: str
    rule: str
    game: int
    move: int
    kind: str
    estimate: float | None
    exact: float | None
    outcome: bool
    unconstrained: int
    mines_left: int


class Audited(Strategy):
    """Plays ``inner`` unchanged and, at each of its guesses, asks the exact engine for the guessed cell's chance."""

    name = "audited"

    def __init__(self, inner: Strategy) -> None:
        super().__init__(0)
        self.inner = inner

    def choose(self, observation: Observation) -> Move:
        move = self.inner.choose(observation)
        pending = self.inner.pending_guess
        self.inner.pending_guess = None
        if pending is not None:
            figures: dict[str, Any] = {"exact": None, "unconstrained": 0, "mines_left": observation.mines_left}
            if not observation.is_start():
                result = analyze(observation)
                if result.exact:
                    figures["exact"] = 1 - result.probability(pending.cell)
                figures["unconstrained"] = len(result.unconstrained)
            pending.explanation = Explanation("audit", figures)
            self.pending_guess = pending
        return move


def audit_batch(batch: Batch) -> tuple[list[GameResult], list[AuditedGuess]]:
    """Play a batch's games as the harness deals them (same layouts and strategy seeds), auditing every guess."""
    spec = batch.spec
    results: list[GameResult] = []
    rows: list[AuditedGuess] = []
    for i in batch.indices:
        game_seed, strategy_seed = game_seeds(spec.seed, i)
        start = time.thread_time()
        game = Game(spec.rules, game_seed)
        player = Audited(make(spec.strategy, seed=strategy_seed, **dict(spec.options)))
        try:
            play(player, game)
        except SweeplabError as error:
            raise SweeplabError(
                f"{spec.strategy} failed in game {i} of seed {spec.seed} on {spec.rules.spec()}: {error}"
            ) from None
        protected = spec.rules.first_click in SAFE_FIRST_RULES
        guesses = tuple(GuessRecord.of(g) for g in player.guesses)
        view = game.observation().view
        results.append(
            GameResult(
                i,
                game.state is GameState.WON,
                game.moves,
                time.thread_time() - start,
                None,
                sum(1 for v in view if v >= 0),
                guesses,
                protected_first=protected,
            )
        )
        label = format_spec(spec.strategy, dict(spec.options))
        for g in player.guesses:
            if g.kind == "first" or (protected and g.move == 0) or g.outcome is None:
                continue
            figures = g.explanation.figures if g.explanation else {}
            rows.append(
                AuditedGuess(
                    label,
                    spec.rules.spec(),
                    spec.rules.first_click,
                    i,
                    g.move,
                    g.kind,
                    g.safety,
                    figures.get("exact"),
                    g.outcome,
                    figures.get("unconstrained", 0),
                    figures.get("mines_left", 0),
                )
            )
    return results, rows


def audit_bins(rows: Sequence[AuditedGuess]) -> list[dict[str, Any]]:
    """Guesses in seed 000's bins (by the strategy's estimate): observed rate, mean estimate, mean exact chance."""
    out = []
    for kind in ("craps", "educated", "unconstrained"):
        table = paper_rows(kind)
        for label, low, high, _, _ in table:
            items = [r for r in rows if r.kind == kind and r.estimate is not None and low <= paper_bin(r.estimate) <= high]
            out.append(bin_row(kind, label, items))
    return [r for r in out if r["observations"]]


def bin_row(kind: str, label: str, items: Sequence[AuditedGuess]) -> dict[str, Any]:
    """Observed success with its SE, mean estimate and mean exact chance of some guesses; z = (observed - exact) /
    the binomial SE the exact chance implies."""
    n = len(items)
    wins = sum(1 for r in items if r.outcome)
    exact = [r.exact for r in items if r.exact is not None]
    rate = wins / n if n else math.nan
    mean_exact = sum(exact) / len(exact) if exact else None
    z = None
    if mean_exact is not None and 0 < mean_exact < 1:
        z = (rate - mean_exact) / math.sqrt(mean_exact * (1 - mean_exact) / n)
    return {
        "kind": kind,
        "bin": label,
        "observations": n,
        "successes": wins,
        "rate": rate if n else None,
        "se": math.sqrt(rate * (1 - rate) / n) if n else None,
        "mean_estimate": sum(r.estimate or 0.0 for r in items) / n if n else None,
        "mean_exact": mean_exact,
        "z_exact": z,
    }


def audit_markdown(rows: Sequence[dict[str, Any]], first: str = "kind") -> str:
    """Audit rows as a Markdown table."""
    return markdown_table(
        [
            first,
            "estimated success",
            "guesses",
            "observed % ± SE",
            "mean estimate %",
            "mean exact chance %",
            "z (observed - exact)",
        ],
        [
            [
                r[first],
                r["bin"],
                r["observations"],
                f"{100 * r['rate']:.1f} ± {100 * r['se']:.1f}",
                f"{100 * r['mean_estimate']:.1f}",
                "-" if r["mean_exact"] is None else f"{100 * r['mean_exact']:.1f}",
                "-" if r["z_exact"] is None else f"{r['z_exact']:+.1f}",
            ]
            for r in rows
        ],
    )


class GuessAudit(Experiment):
    name = "guesses"
    title = "Each guess against the exact chance of the guessed cell (seed 000, Tables 1-3: why the estimates miss)"
    source = "seed 000 Tables 1-3 and step 6"
    FULL_PER_POINT = 200  # x 84 boards: 16,800 games per strategy
    DEFAULTS = ("cspstrategy", "cspstrategy[prune=upper]", "cspstrategy[prune=none]")

    def __init__(self) -> None:
        self._rows: list[AuditedGuess] = []

    def plan(self, settings: Settings) -> Plan:
        notes: list[str] = []
        strategies = pick_strategies(settings, [], notes) if settings.strategies else list(self.DEFAULTS)
        points = paper_pool(strategies, settings.size(self.FULL_PER_POINT), settings.quick)
        notes.append(
            f"the boards seed 000 pooled ({len(points) // len(strategies)} boards, {points[0].games:,} games each, the "
            "calibration experiment's layouts); CPU times include the exact analysis of every guess"
        )
        return Plan(points, notes)

    def measure(
        self,
        specs: Sequence[tuple[BenchSpec, int]],
        executor: object | None,
        on_games: Callable[[int], None] | None,
        journal: Journal | None = None,
    ) -> list[list[GameResult]]:
        grouped = run_grouped(audit_batch, specs, 25, executor, (lambda part: on_games(len(part[0]))) if on_games else None)
        out: list[list[GameResult]] = []
        self._rows = []
        for parts in grouped:
            out.append([])
            for results, rows in parts:
                out[-1].extend(results)
                self._rows.extend(rows)
        return out

    def write(
        self, settings: Settings, plan: Plan, results: list[list[GameResult]], summaries: list[Summary], out: Path
    ) -> list[Path]:
        groups = {(p.rules.spec(), p.rules.first_click): p.group for p in plan.points}
        tables: list[dict[str, Any]] = []
        by_group: list[dict[str, Any]] = []
        for strategy in dict.fromkeys(r.strategy for r in self._rows):
            mine = [r for r in self._rows if r.strategy == strategy]
            fair = [r for r in mine if r.rule != "hint"]
            for scope, chosen in (("all boards but hinted", fair), ("hinted games", [r for r in mine if r.rule == "hint"])):
                for row in audit_bins(chosen):
                    tables.append({"strategy": strategy, "scope": scope, **row})
            for group in dict.fromkeys(groups.values()):
                head = [
                    r
                    for r in mine
                    if groups.get((r.board, r.rule)) == group
                    and r.kind == "educated"
                    and r.estimate is not None
                    and 80 <= paper_bin(r.estimate) <= 84
                ]
                if head:
                    by_group.append({"strategy": strategy, "group": group, **bin_row("educated", "80% to 84%", head)})
        files = self.write_summaries(plan, summaries, out, settings, {"audit": tables, "groups": by_group})
        files.append(write_csv(out / "audit.csv", tables, list(tables[0]) if tables else ["strategy"]))
        path = out / "guesses.csv.gz"
        columns = list(AuditedGuess.__dataclass_fields__)
        with gzip.open(path, "wt") as handle:
            handle.write(",".join(columns) + "\n")
            for r in self._rows:
                handle.write(
                    ",".join("" if v is None else f"{v:.6g}" if isinstance(v, float) else str(v) for v in asdict(r).values())
                    + "\n"
                )
        files.append(path)
        text = header(self.title, settings, plan.notes)
        for strategy in dict.fromkeys(t["strategy"] for t in tables):
            for scope in ("all boards but hinted", "hinted games"):
                rows = [t for t in tables if t["strategy"] == strategy and t["scope"] == scope]
                if rows:
                    text += f"## {strategy}: {scope}\n\n" + audit_markdown(rows) + "\n\n"
            rows = [t for t in by_group if t["strategy"] == strategy]
            if rows:
                text += (
                    f"## {strategy}: educated guesses estimated 80-84%, by board group\n\n"
                    + audit_markdown(rows, "group")
                    + "\n\n"
                )
        (out / "table.md").write_text(text)
        files.append(out / "table.md")
        return files


__all__ = ["Audited", "AuditedGuess", "GuessAudit", "audit_batch", "audit_bins"]
