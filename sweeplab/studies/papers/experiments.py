"""Every experiment by name (the registry) and how one runs: ``sweeplab experiment NAME --out DIR`` writes CSV/JSON
data, a Markdown table and PNG plots.

An experiment *plans* a list of points (strategy x rules x games), plays them all on one executor (every point
from the same root seed, so strategies meet the same layouts), summarises each point and writes its files. The
numbers in docs/results.md come only from these files. ``--quick`` sizes are for tests; full sizes follow the papers
(10,000 games per point, seed 000's "100 sets of 100 games").
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from sweeplab.bench.journal import Journal
from sweeplab.bench.runner import BenchSpec, Stopped
from sweeplab.bench.summary import summarize
from sweeplab.strategies.registry import format_spec
from sweeplab.studies.claim import ClaimExperiment
from sweeplab.studies.experiment import Experiment, ExperimentError, Plan, Point, Settings
from sweeplab.studies.papers.audit import GuessAudit
from sweeplab.studies.papers.levels import Levels
from sweeplab.studies.papers.seed000_claims import CpuClaim, EquationClaim, OverlapClaim, StartClaim, ZerosClaim
from sweeplab.studies.papers.seed000_guesses import Calibration, Frontier, Outcomes
from sweeplab.studies.papers.seed000_sweeps import Aspect, Density, Size
from sweeplab.studies.papers.seed002_claims import Seed002Claim
from sweeplab.studies.papers.seed003_claims import Seed003Claim
from sweeplab.studies.papers.seed004_claims import Seed004Claim

#: The papers' claims that were never numbers, each an experiment with a verdict (:mod:`sweeplab.studies.claim`).
CLAIM_EXPERIMENTS: tuple[ClaimExperiment, ...] = (
    StartClaim(),
    OverlapClaim(),
    ZerosClaim(),
    CpuClaim(),
    EquationClaim(),
    Seed002Claim(),
    Seed003Claim(),
    Seed004Claim(),
)

#: Every experiment by name: seed 000's and the levels tables, :mod:`sweeplab.studies.papers.audit`'s (each guess against the
#: exact chance) and the papers' claims turned into numbers.
EXPERIMENTS: dict[str, Experiment] = {
    e.name: e
    for e in (Levels(), Density(), Size(), Aspect(), Outcomes(), Calibration(), Frontier(), GuessAudit(), *CLAIM_EXPERIMENTS)
}


def experiments() -> dict[str, Experiment]:
    """Every experiment by name (:data:`EXPERIMENTS`)."""
    return EXPERIMENTS


def plan_experiment(name: str, settings: Settings) -> tuple[Experiment, Plan]:
    """The experiment called ``name`` and its plan under ``settings`` (an ``ExperimentError`` if there is nothing to play)."""
    try:
        experiment = experiments()[name]
    except KeyError:
        raise ExperimentError(f"unknown experiment {name!r}: choose one of {', '.join(experiments())}") from None
    plan = experiment.plan(settings)
    if settings.groups:
        known = list(dict.fromkeys(p.group for p in plan.points))
        unknown = [g for g in settings.groups if g not in known]
        if unknown:
            raise ExperimentError(
                f"--groups: experiment {name!r} has no group {', '.join(map(repr, unknown))}; "
                f"its groups: {', '.join(known) or 'none'}"
            )
        plan.points = [p for p in plan.points if p.group in settings.groups]
        plan.notes.append(f"only the groups asked for (--groups): {', '.join(settings.groups)}")
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
        **({"--groups": ",".join(settings.groups)} if settings.groups else {}),  # absent from runs made before it
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
    "CLAIM_EXPERIMENTS",
    "EXPERIMENTS",
    "Experiment",
    "ExperimentError",
    "Plan",
    "Point",
    "Settings",
    "experiments",
    "plan_experiment",
    "run_experiment",
    "run_settings",
    "total_games",
]
