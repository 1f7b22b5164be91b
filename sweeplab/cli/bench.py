"""``sweeplab bench``, ``deal`` and ``bench-engine``: measure strategies and the engine."""

from __future__ import annotations

import json
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click

from sweeplab.cli.app import (
    BOARD_HELP,
    EXECUTOR_CHOICE,
    RULE_CHOICE,
    SECONDS,
    executor_for,
    friendly_errors,
    main,
    parse_cell,
    strategy_list,
)
from sweeplab.cli.progress import game_progress
from sweeplab.core.errors import SweeplabError
from sweeplab.core.rules import FIRST_CLICK_RULES, Rules, make_rules

#: The most games one command may ask for: a trillion (years of CPU); larger numbers are refused, not attempted.
MAX_GAMES = 10**12

SEED_HELP = (
    "root seed, any integer (negative too: see `sweeplab.core.seeds.seed_entropy`, different seeds always give different games)"
)


RESUME_HELP = "continue the run interrupted in --out (same settings; finished games are kept, the rest are played)"
FORCE_HELP = "replace a run found in --out, unfinished or finished (without it, either is refused), and start afresh"


def shell_line(parts: Sequence[object]) -> str:
    """A command line as the shell would take it back (each part quoted where it needs to be)."""
    return " ".join(shlex.quote(str(p)) for p in parts)


def run_options(jobs: int | None, executor: str, scheduler: str | None, batch: int | None = None) -> list[object]:
    """The options that do not change a run's result but that its resume command should repeat."""
    parts: list[object] = []
    for flag, value in (("--jobs", jobs), ("--scheduler", scheduler), ("--batch", batch)):
        if value is not None:
            parts += [flag, value]
    if executor != "local":
        parts += ["--executor", executor]
    return parts


def open_journal(out: Path | None, settings: dict[str, Any], resume: bool, force: bool, command: str) -> Any:
    """The run's journal in ``out`` (None without --out): writability checked and the directory locked first."""
    if out is None:
        if resume or force:
            raise click.BadParameter("needs --out: the directory of the run", param_hint="--resume" if resume else "--force")
        return None
    from sweeplab.bench.journal import Journal

    journal = Journal(out, settings, resume=resume, force=force, command=command)
    for note in journal.notes:
        click.echo(f"note: {note}", err=True)
    return journal


def report_stopped(stop: Any, journal: Any, resume_command: str, played_total: int) -> None:
    """Say why the run stopped, what was kept and how to continue; exit 130 (SIGINT), 143 (SIGTERM) or 1."""
    from sweeplab.bench.signals import Interrupted

    cause = stop.cause
    finished = sum(len(part) for part in stop.partial)
    if isinstance(cause, Interrupted):
        click.echo(f"stopped by {cause.name}: {finished:,} of {played_total:,} games finished", err=True)
    elif isinstance(cause, OSError):
        where = cause.filename or (journal.path if journal is not None else "the output")
        click.echo(
            f"error: cannot write {where}: {cause.strerror or cause}; stopped after {finished:,} of {played_total:,} games",
            err=True,
        )
    else:
        click.echo(f"error: {cause}; stopped after {finished:,} of {played_total:,} games", err=True)
    if journal is not None:
        click.echo(f"the finished games are kept in {journal.path}; to continue the run:", err=True)
        click.echo(f"  {resume_command}", err=True)
    else:
        click.echo("nothing was saved (no --out): give --out DIR to keep finished games and be able to resume", err=True)
    sys.exit(stop.exit_status)


def report_interrupted(error: Any, journal: Any, resume_command: str) -> None:
    """Say which signal stopped the run and how to continue it; exit 130 (SIGINT) or 143 (SIGTERM)."""
    click.echo(f"stopped by {error.name}", err=True)
    if journal is not None:
        click.echo("to continue the run:", err=True)
        click.echo(f"  {resume_command}", err=True)
    sys.exit(error.exit_status)


@main.command("bench-engine", short_help="Time the exact engine on positions from expert games.")
@click.option(
    "--positions", type=click.IntRange(1, 10**7), default=2000, show_default=True, help="positions to time (up to 10,000,000)"
)
@click.option("--games", type=click.IntRange(1, MAX_GAMES), default=200, show_default=True, help="games for the games/s figure")
@click.option("--seed", type=int, default=0, show_default=True, help="root seed of the games (any integer)")
@click.option(
    "--engine",
    type=click.Choice(["kernel", "python", "both"]),
    default="kernel",
    show_default=True,
    help="time the C kernel, the pure-Python engine, or both on the same positions in one run",
)
@friendly_errors
def bench_engine_command(positions: int, games: int, seed: int, engine: str) -> None:
    """Time the exact engine on positions from expert games (30x16/99, safe) played by the exact strategy.

    Each position is analysed from scratch (no reuse between positions); then the exact strategy plays --games games
    on one core. Wall-clock times per position; games per CPU second.
    """
    from sweeplab.analysis import KERNEL
    from sweeplab.bench.engine import collect_positions, games_per_second, time_positions

    engines = {"kernel": [True], "python": [False], "both": [True, False]}[engine]
    if True in engines and KERNEL is None:
        raise SweeplabError("the C kernel is not built (no C compiler when sweeplab was installed); use --engine python")
    rules = make_rules("expert", "safe")
    found, played = collect_positions(rules, positions, seed)
    for use_kernel in engines:
        label = "C kernel" if use_kernel else "pure Python"
        times = time_positions(found, use_kernel=use_kernel)
        click.echo(
            f"engine ({label}) on {times.positions} positions from {played} expert games (seed {seed}): "
            f"mean {times.mean_ms:.3f} ms, median {times.median_ms:.3f} ms, p99 {times.p99_ms:.3f} ms, "
            f"worst {times.worst_ms:.3f} ms; exact {times.exact}/{times.positions}"
        )
    for use_kernel in engines:
        label = "C kernel" if use_kernel else "pure Python"
        rate, wins = games_per_second(rules, games, seed, use_kernel=use_kernel)
        click.echo(f"exact strategy ({label}): {rate:.1f} expert games per CPU second on one core ({wins}/{games} won)")


@main.command("bench", short_help="Play seeded games and compare strategies' win rates.")
@click.option(
    "--strategy",
    "-s",
    default="single-point",
    show_default=True,
    help="strategy name, or names separated by commas (played on the same games and compared pairwise); "
    "options in brackets: equation[guess=pgms] (see `sweeplab strategies --options NAME`)",
)
@click.option("--board", "-b", default=None, help=BOARD_HELP + "  [default: expert; with --layouts, the files' board]")
@click.option(
    "--rule",
    "-r",
    type=RULE_CHOICE,
    default="safe",
    show_default=True,
    help="first-click rule (ignored with --layouts: the dealer applied it)",
)
@click.option(
    "--games",
    "-n",
    type=click.IntRange(1, MAX_GAMES),
    default=None,
    help="number of games, up to 10^12  [default: 1000; with --layouts, every file]",
)
@click.option(
    "--sets",
    type=click.IntRange(min=2),
    default=None,
    help="equal sets for seed 000's standard error  [default: 10, or the largest divisor of --games up to 10]",
)
@click.option(
    "--first-click",
    default="auto",
    show_default=True,
    metavar="X,Y|auto",
    help="reveal this cell before the strategy plays; auto: the strategy chooses "
    "(with --layouts: the click the layouts were dealt around, if their deal.json names one)",
)
@click.option(
    "--seed",
    type=int,
    default=None,
    help="root seed, any integer: game i gets the same layout for every strategy and job count; it also seeds the "
    "strategies  [default: 0; with --layouts, the seed in their deal.json]",
)
@click.option(
    "--jobs",
    "-j",
    type=click.IntRange(min=1),
    default=None,
    help="worker processes (or LocalCluster workers), never more than there are batches  [default: all cores]",
)
@click.option("--json", "as_json", is_flag=True, help="print the results as JSON (no progress on stderr)")
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="stream finished games to DIR/games.jsonl as they finish (so an interrupted run can be resumed), and write "
    "bench.json and games.csv (one row per game) there at the end",
)
@click.option("--resume", is_flag=True, help=RESUME_HELP)
@click.option("--force", is_flag=True, help=FORCE_HELP)
@click.option(
    "--layouts",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="play the MBF files of this directory (sorted by name; game i is the i-th) instead of dealing",
)
@click.option(
    "--executor", type=EXECUTOR_CHOICE, default="local", show_default=True, help="local processes, or Dask (needs sweeplab[dask])"
)
@click.option(
    "--scheduler",
    default=None,
    metavar="tcp://HOST:PORT",
    help="an existing Dask scheduler (gives up after 10 s, or $SWEEPLAB_DASK_TIMEOUT s, if it cannot be reached)  "
    "[default with --executor dask: a new LocalCluster]",
)
@click.option(
    "--time-limit",
    type=SECONDS,
    default=None,
    metavar="SECONDS",
    help="CPU seconds per game; a game that runs over is counted as timed out (not won) and reported apart. "
    "It stops at the first move that ends past the limit; on Unix a timer also interrupts a long move (a quarter "
    "of the limit later), which under Dask (worker threads) is not possible",
)
@click.option(
    "--move-time-limit",
    type=SECONDS,
    default=None,
    metavar="SECONDS",
    help="wall-clock seconds an outside program (cmd:PROGRAM) may take over one answer; a program over it loses "
    "the game  [default: 5]",
)
@click.option("--batch", type=click.IntRange(min=1), default=None, help="games per task sent to a worker  [default: automatic]")
@friendly_errors
def bench_command(
    strategy: str,
    board: str | None,
    rule: str,
    games: int | None,
    sets: int | None,
    first_click: str,
    seed: int | None,
    jobs: int | None,
    as_json: bool,
    out: Path | None,
    resume: bool,
    force: bool,
    layouts: Path | None,
    executor: str,
    scheduler: str | None,
    time_limit: float | None,
    move_time_limit: float | None,
    batch: int | None,
) -> None:
    """Play seeded games with one or more strategies and report win rates, errors and CPU time.

    Per strategy: wins/games, win rate ± seed 000's standard error (equal sets of games), a 95% Wilson interval,
    CPU seconds per game (mean, median, p99), games per second and timeouts; for several strategies, each one's
    difference from the first over the same games, with its standard error.

    With --out, every finished game is appended to DIR/games.jsonl at once. SIGINT (Ctrl-C) or SIGTERM stops the
    workers, prints the summary of the finished games and the command that resumes the run (exit status 130 or
    143); `--resume` then plays only the missing games and gives the same result as an uninterrupted run.
    Progress goes to stderr: a bar on a terminal, a line every 5 s elsewhere (SWEEPLAB_PROGRESS_SECONDS).
    """
    from sweeplab.bench.layouts import load_layouts
    from sweeplab.bench.runner import Stopped
    from sweeplab.bench.session import bench, run_settings
    from sweeplab.bench.signals import Interrupted, ignore_file_size_limit, interruptible

    ignore_file_size_limit()
    names = strategy_list(strategy)
    layout_set = None
    root = seed
    if layouts is not None:
        if not layouts.is_dir():
            raise click.BadParameter(f"{layouts} is not a directory", param_hint="--layouts")
        layout_set = load_layouts(layouts)
        width, height, mines = layout_set.board
        if board is not None and make_rules(board, "unsafe").spec() != f"{width}x{height}x{mines}":
            raise click.BadParameter(f"the layouts are {width}x{height}x{mines}, not {board}", param_hint="--board")
        rules = Rules(width, height, mines, layout_set.rule if layout_set.rule in FIRST_CLICK_RULES else "unsafe")
        available = len(layout_set.layouts)
        if games is not None and games > available:
            raise click.BadParameter(f"{games} games asked for but {layouts} holds {available} layouts", param_hint="--games")
        games = games or available
        if root is None:
            root = layout_set.seed or 0
    else:
        rules = make_rules("expert" if board is None else board, rule)
        games = games or 1000
    if sets is not None and games % sets:
        raise click.BadParameter(f"{games} games do not split into {sets} equal sets", param_hint="--games/--sets")
    click_cell = None if first_click == "auto" else parse_cell(first_click, rules.board)
    root = root or 0
    settings = run_settings(
        names,
        rules,
        games,
        root,
        sets=sets,
        first_click=click_cell,
        time_limit=time_limit,
        layouts=layout_set,
        move_time_limit=move_time_limit,
    )
    parts: list[object] = ["sweeplab", "bench", "--strategy", ",".join(names)]
    if layout_set is not None:
        parts += ["--layouts", layouts, "--games", games]
    else:
        parts += ["--board", rules.spec(), "--rule", rules.first_click, "--games", games]
    parts += ["--seed", root]
    limits = (("--time-limit", time_limit), ("--move-time-limit", move_time_limit))
    for flag, value in (("--sets", sets), ("--first-click", settings["--first-click"]), *limits):
        if value is not None:
            parts += [flag, value]
    parts += run_options(jobs, executor, scheduler, batch)
    if as_json:
        parts.append("--json")
    parts += ["--out", out]
    resume_command = shell_line([*parts, "--resume"])
    journal = None
    try:
        with interruptible():
            journal = open_journal(out, settings, resume, force, shell_line(parts))
            if journal is not None and journal.finished:
                _print_finished(journal, as_json)
                return
            total = games * len(names)
            done = journal.resumed if journal is not None else 0
            stopped = None
            with executor_for(executor, jobs, scheduler) as ex, game_progress("bench", total, done, quiet=as_json) as advance:
                try:
                    report = bench(
                        names,
                        rules,
                        games,
                        root,
                        sets=sets,
                        first_click=click_cell,
                        time_limit=time_limit,
                        layouts=layout_set,
                        executor=ex,
                        batch=batch,
                        on_games=advance,
                        journal=journal,
                        move_time_limit=move_time_limit,
                    )
                except Stopped as stop:
                    stopped = stop  # reported once the workers and the progress line have stopped
                workers = ex.describe()  # after the run: the processes really used
            if stopped is not None:
                stopped.report.settings["executor"] = workers
                _print_report(stopped.report, workers, layout_set, games, as_json)
                report_stopped(stopped, journal, resume_command, total)
            report.settings["executor"] = workers
            _print_report(report, workers, layout_set, games, as_json)
            if out is not None:
                _save(report, out, journal, resume_command, quiet=as_json)
    except Interrupted as error:
        report_interrupted(error, journal, resume_command)
    finally:
        if journal is not None:
            journal.close()


def _print_report(report: Any, workers: str, layout_set: Any, games: int, as_json: bool) -> None:
    if as_json:
        data = report.to_dict()
        if not report.complete:
            data["partial"] = True
        click.echo(json.dumps(data, indent=1))
        return
    if layout_set is not None:
        unmet = sum(1 for i in layout_set.rule_unmet if i < games)
        click.echo(
            f"layouts: {games} games from {layout_set.directory}"
            + (f" (dealt under '{layout_set.rule}')" if layout_set.rule else "")
            + (f"; in {unmet} of them the '{layout_set.rule}' rule could not be met (deal.json: rule_unmet)" if unmet else "")
        )
    for s in report.summaries:
        if not report.complete:
            click.echo(f"partial: {s.games:,} of {games:,} games finished")
        click.echo(s.line(workers))
        click.echo(
            f"  CPU per game: mean {s.cpu_mean * 1000:.2f} ms, median {s.cpu_median * 1000:.2f} ms, "
            f"p99 {s.cpu_p99 * 1000:.2f} ms; "
            f"{s.guesses_per_game:.2f} guesses per game; {s.timeouts} timed out"
            + (f"; {s.forfeits} lost by forfeit" if s.forfeits else "")
        )
    for p in report.pairs:
        click.echo(p.line())


def _save(report: Any, out: Path, journal: Any, resume_command: str, quiet: bool = False) -> None:
    """Write bench.json and games.csv whole; if the disk refuses, say so (exit 1): the journal still holds every game."""
    try:
        files = report.save(out)
        journal.finish(files)
    except OSError as error:
        click.echo(
            f"error: cannot write the results in {out}: {error.strerror or error}; every game is kept in {journal.path}: "
            "make room (or make the directory writable) and write the files with:",
            err=True,
        )
        click.echo(f"  {resume_command}", err=True)
        sys.exit(1)
    if not quiet:
        for f in files:
            click.echo(f"wrote {f}")


def _print_finished(journal: Any, as_json: bool) -> None:
    """A resumed run that had already finished: print its saved summary again."""
    from sweeplab.bench.summary import Summary

    summary_path = journal.directory / "bench.json"
    try:
        data = json.loads(summary_path.read_text())
        summaries = [Summary(**{k: v for k, v in d.items() if k != "games_per_second"}) for d in data["summaries"]]
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise SweeplabError(
            f"{journal.directory} holds this run, finished, but {summary_path} cannot be read ({error}): "
            "run it again with --force"
        ) from None
    if as_json:
        click.echo(json.dumps(data, indent=1))
        return
    click.echo(f"{journal.directory} already holds this run, finished; its summary:")
    for s in summaries:
        click.echo(s.line(data.get("settings", {}).get("executor")))
    for f in journal.files:
        click.echo(f"kept {f}")


@main.command("deal", short_help="Write the harness's games as MBF layout files.")
@click.option("--board", "-b", default="expert", show_default=True, help=BOARD_HELP)
@click.option("--rule", "-r", type=RULE_CHOICE, default="safe", show_default=True, help="first-click rule the layouts obey")
@click.option(
    "--first-click",
    default="auto",
    show_default=True,
    metavar="X,Y|auto",
    help="the click each layout is dealt around; auto: none for unsafe and hint (the hint cell is recorded "
    "per game), the top-left corner 0,0 for safe, xp and zero",
)
@click.option(
    "--count", "-n", type=click.IntRange(1, 1_000_000), default=1000, show_default=True, help="number of layouts (up to 10^6)"
)
@click.option(
    "--seed",
    type=int,
    default=0,
    show_default=True,
    help="root seed, any integer: file i is `sweeplab bench`'s game i of this seed",
)
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    required=True,
    help="an empty directory for game-000000.mbf, ... and deal.json",
)
@click.option("--force", is_flag=True, help="replace the deal already in --out (its files and manifest are removed first)")
@friendly_errors
def deal_command(board: str, rule: str, first_click: str, count: int, seed: int, out: Path, force: bool) -> None:
    """Write the harness's games as MBF layout files, so the same boards can be played by another program.

    Each layout is dealt with its first click revealed, so it already obeys the rule (safe, xp, zero); deal.json
    records the board, rule, seed, that click (or, for hint, every game's hint cell) and the files it covers.
    Replay the files with `sweeplab bench --layouts DIR`; it reveals the recorded click first unless told otherwise.
    --out must be empty, or hold an earlier deal and --force be given.
    """
    from sweeplab.bench.layouts import deal_layouts

    rules = make_rules(board, rule)
    cell = None if first_click == "auto" else parse_cell(first_click, rules.board)
    command = shell_line(
        [
            "sweeplab",
            "deal",
            "--board",
            board,
            "--rule",
            rule,
            "--first-click",
            first_click,
            "--count",
            count,
            "--seed",
            seed,
            "--out",
            out,
        ]
    )
    files = deal_layouts(rules, count, seed, out, cell, command, force=force)
    click.echo(f"wrote {len(files) - 1} layouts of {rules.spec()} ({rule}) and {files[-1].name} to {out}")
    unmet = json.loads(files[-1].read_text())["rule_unmet"]
    if unmet:
        click.echo(
            f"note: in {len(unmet)} of {count} layouts the '{rule}' rule could not be met (the board is too dense for an "
            "opening around the click: it was only kept safe); deal.json lists them under rule_unmet"
        )
