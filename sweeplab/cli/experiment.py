"""``sweeplab experiment``: run one of the papers' experiments (or a study of our own) into a directory."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import click

from sweeplab.cli.app import EXECUTOR_CHOICE, RULE_CHOICE, SECONDS, executor_for, friendly_errors, main, strategy_list
from sweeplab.cli.bench import (
    FORCE_HELP,
    MAX_GAMES,
    RESUME_HELP,
    open_journal,
    report_interrupted,
    report_stopped,
    run_options,
    shell_line,
)
from sweeplab.cli.progress import game_progress
from sweeplab.core.errors import SweeplabError
from sweeplab.core.rules import make_rules

#: ``sweeplab experiment`` names, kept here so the CLI does not import the benchmark modules to build its help (a test
#: checks them against ``sweeplab.studies.papers.experiments.EXPERIMENTS``).
EXPERIMENT_NAMES = (
    "levels",
    "density",
    "size",
    "aspect",
    "outcomes",
    "calibration",
    "guesses",
    "frontier",
    "start",
    "overlap",
    "zeros",
    "cpu",
    "equation",
    "seed002",
    "seed003",
    "seed004",
)


@main.command("experiment", short_help="Run one of the papers' experiments: data, tables, plots.")
@click.argument("name", type=click.Choice(EXPERIMENT_NAMES))
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    required=True,
    help="directory for data.csv, data.json, table.md and the PNG plots (and, while the run lasts, games.jsonl: "
    "the finished games, for --resume)",
)
@click.option("--resume", is_flag=True, help=RESUME_HELP)
@click.option("--force", is_flag=True, help=FORCE_HELP)
@click.option("--quick", is_flag=True, help="a tiny size for tests (full size: 10,000 games per point, as seed 000)")
@click.option(
    "--strategy",
    "-s",
    default=None,
    help="strategies (names or NAME[key=value,...]) separated by commas  [default: the paper's strategies]",
)
@click.option(
    "--games",
    "-n",
    type=click.IntRange(1, MAX_GAMES),
    default=None,
    help="games per point (overrides --quick and the full size)",
)
@click.option(
    "--skip",
    default=None,
    help="strategies (commas) to leave out of the default sets, e.g. a slow or broken one: a name leaves out that "
    "strategy, a spec with options (dss[limited=True]) only that version, where an experiment plays versions",
)
@click.option(
    "--groups",
    default=None,
    help="play only these groups of the experiment's points (commas), e.g. ratio for seed003's mine-ratio sweep; "
    "the claims that need another group are left out",
)
@click.option("--seed", type=int, default=0, show_default=True, help="root seed shared by every point (any integer)")
@click.option("--board", "-b", default=None, help="board for outcomes, calibration and frontier  [default: expert]")
@click.option("--rule", "-r", type=RULE_CHOICE, default=None, help="first-click rule for all but levels  [default: safe]")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None, help="worker processes  [default: all cores]")
@click.option("--executor", type=EXECUTOR_CHOICE, default="local", show_default=True)
@click.option("--scheduler", default=None, metavar="tcp://HOST:PORT", help="an existing Dask scheduler (gives up after 10 s)")
@click.option(
    "--time-limit",
    type=SECONDS,
    default=None,
    metavar="SECONDS",
    help="CPU seconds per game (timeouts are counted apart)",
)
@friendly_errors
def experiment_command(
    name: str,
    out: Path,
    resume: bool,
    force: bool,
    quick: bool,
    strategy: str | None,
    games: int | None,
    skip: str | None,
    groups: str | None,
    seed: int,
    board: str | None,
    rule: str | None,
    jobs: int | None,
    executor: str,
    scheduler: str | None,
    time_limit: float | None,
) -> None:
    """Run one of the papers' experiments and write its data (CSV, JSON), a Markdown table and PNG plots.

    levels (Figures 2-5 and the other seeds' tables), density (Figure 7), size (Figures 8-9), aspect (Figure 10),
    outcomes (Figure 6), calibration (Tables 1-3), guesses (each guess against the exact chance), frontier (largest
    coupled sets); the claims never printed as numbers: start (centre or corner), overlap (step 7), zeros (a 0 at
    the first click), cpu (Figure 5), equation (EquationStrategy's variants), seed002, seed003, seed004.

    Finished games are streamed to OUT/games.jsonl; SIGINT or SIGTERM stops the workers, prints what is finished
    and the command that resumes the run (exit status 130 or 143); `--resume` plays only the missing games.
    Progress goes to stderr: a bar on a terminal, a line every 5 s elsewhere (SWEEPLAB_PROGRESS_SECONDS).
    Needs matplotlib for the plots: pip install 'sweeplab[plot]'.
    """
    from sweeplab.bench.runner import Stopped
    from sweeplab.bench.signals import Interrupted, ignore_file_size_limit, interruptible
    from sweeplab.studies import plots
    from sweeplab.studies.papers.experiments import Settings, plan_experiment, run_experiment, run_settings

    if not plots.available():
        raise SweeplabError(
            "experiment draws its plots with matplotlib, which is not installed: pip install 'sweeplab[plot]' "
            "(no game was played)"
        )
    ignore_file_size_limit()
    names = strategy_list(strategy) if strategy else None
    if board is not None:
        make_rules(board, rule or "safe")
    parts: list[object] = ["sweeplab", "experiment", name, "--out", out]
    skipped = strategy_list(skip, "--skip") if skip else []
    for flag, value in (
        ("--strategy", strategy),
        ("--skip", skip),
        ("--groups", groups),
        ("--games", games),
        ("--board", board),
        ("--rule", rule),
        ("--time-limit", time_limit),
    ):
        if value is not None:
            parts += [flag, value]
    if seed:
        parts += ["--seed", seed]
    if quick:
        parts.append("--quick")
    command = " ".join(str(p) for p in parts)
    chosen = [g.strip() for g in groups.split(",")] if groups else []
    if groups is not None and not all(chosen):
        raise click.BadParameter(f"{groups!r} names an empty group; write names separated by commas", param_hint="--groups")
    settings = Settings(quick, names, seed, games, time_limit, board, rule, command, skipped, chosen)
    _, plan = plan_experiment(name, settings)
    total = sum(p.games for p in plan.points)
    resume_command = shell_line([*parts, *run_options(jobs, executor, scheduler), "--resume"])
    journal = None
    try:
        with interruptible():
            journal = open_journal(out, run_settings(name, settings), resume, force, shell_line(parts))
            if journal.finished:
                click.echo(f"{out} already holds this run, finished; its files:")
                for f in journal.files:
                    click.echo(f"kept {f}")
                return
            stopped = None
            with executor_for(executor, jobs, scheduler) as ex, game_progress(name, total, journal.resumed) as advance:
                began = time.perf_counter()
                try:
                    files = run_experiment(name, out, settings, ex, click.echo, lambda _total: advance, journal)
                except Stopped as stop:
                    stopped = stop  # reported once the workers and the progress line have stopped
            if stopped is not None:
                for label, finished, wanted in stopped.report:
                    click.echo(f"partial: {label}: {finished:,} of {wanted:,} games finished")
                report_stopped(stopped, journal, resume_command, total)
            # an experiment that measures outside the journal (zeros) is timed here, in one session
            journal.finish(files, wall=None if journal.timed else time.perf_counter() - began)
    except Interrupted as error:
        report_interrupted(error, journal, resume_command)
    except OSError as error:
        if journal is None:
            raise
        click.echo(
            f"error: cannot write the results in {out}: {error.strerror or error}; every game is kept in {journal.path}: "
            "make room (or make the directory writable) and write the files with:",
            err=True,
        )
        click.echo(f"  {resume_command}", err=True)
        sys.exit(1)
    finally:
        if journal is not None:
            journal.close()
    for f in files:
        click.echo(f"wrote {f}")
