"""``sweeplab bench``, ``deal``, ``experiment`` and ``bench-engine``: measure strategies and the engine."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import click

from sweeplab.cli.app import (
    BOARD_HELP,
    EXECUTOR_CHOICE,
    RULE_CHOICE,
    executor_for,
    friendly_errors,
    main,
    parse_cell,
    progress_bar,
    strategy_list,
)
from sweeplab.core.errors import SweeplabError
from sweeplab.core.rules import FIRST_CLICK_RULES, Rules, make_rules


@main.command("bench-engine")
@click.option("--positions", type=click.IntRange(min=1), default=2000, show_default=True, help="positions to time")
@click.option("--games", type=click.IntRange(min=1), default=200, show_default=True, help="games for the games/s figure")
@click.option("--seed", type=int, default=0, show_default=True, help="root seed of the games")
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
    from sweeplab.analysis.exact import KERNEL
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


@main.command("bench")
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
    "--games", "-n", type=click.IntRange(min=1), default=None, help="number of games  [default: 1000; with --layouts, every file]"
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
    help="root seed: game i gets the same layout for every strategy and job count; it also seeds the strategies  "
    "[default: 0; with --layouts, the seed in their deal.json]",
)
@click.option(
    "--jobs",
    "-j",
    type=click.IntRange(min=1),
    default=None,
    help="worker processes (or LocalCluster workers)  [default: all cores]",
)
@click.option("--json", "as_json", is_flag=True, help="print the results as JSON (no progress bar)")
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="also write bench.json and games.csv (one row per game) here",
)
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
    help="an existing Dask scheduler  [default with --executor dask: a new LocalCluster]",
)
@click.option(
    "--time-limit",
    type=click.FloatRange(min=0, min_open=True),
    default=None,
    metavar="SECONDS",
    help="CPU seconds per game; a game that runs over is counted as timed out (not won) and reported apart. "
    "On Unix a timer interrupts even a long move; under Dask (worker threads) it is checked after each move",
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
    layouts: Path | None,
    executor: str,
    scheduler: str | None,
    time_limit: float | None,
    batch: int | None,
) -> None:
    """Play seeded games with one or more strategies and report win rates, errors and CPU time.

    Per strategy: wins/games, win rate ± seed 000's standard error (equal sets of games), a 95% Wilson interval,
    CPU seconds per game (mean, median, p99), games per second and timeouts; for several strategies, each one's
    difference from the first over the same games, with its standard error.
    """
    import json

    from sweeplab.bench.layouts import load_layouts
    from sweeplab.bench.session import bench

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
        rules = make_rules(board or "expert", rule)
        games = games or 1000
    if sets is not None and games % sets:
        raise click.BadParameter(f"{games} games do not split into {sets} equal sets", param_hint="--games/--sets")
    click_cell = None if first_click == "auto" else parse_cell(first_click, rules.board)
    root = root or 0
    show_progress = not as_json and sys.stderr.isatty()
    with executor_for(executor, jobs, scheduler) as ex, progress_bar(show_progress, "games") as bar:
        task = bar.add_task("games", total=games * len(names)) if bar else None
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
            on_games=(lambda n: bar.advance(task, n)) if bar else None,
        )
        workers = ex.describe()
    report.settings["executor"] = workers
    files = report.save(out) if out is not None else []
    if as_json:
        click.echo(json.dumps(report.to_dict(), indent=1))
        return
    if layout_set is not None:
        click.echo(
            f"layouts: {games} games from {layout_set.directory}"
            + (f" (dealt under '{layout_set.rule}')" if layout_set.rule else "")
        )
    for s in report.summaries:
        click.echo(s.line(workers))
        click.echo(
            f"  CPU per game: mean {s.cpu_mean * 1000:.2f} ms, median {s.cpu_median * 1000:.2f} ms, "
            f"p99 {s.cpu_p99 * 1000:.2f} ms; "
            f"{s.guesses_per_game:.2f} guesses per game; {s.timeouts} timed out"
        )
    for p in report.pairs:
        click.echo(p.line())
    for f in files:
        click.echo(f"wrote {f}")


@main.command("deal")
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
@click.option("--count", "-n", type=click.IntRange(min=1), default=1000, show_default=True, help="number of layouts")
@click.option(
    "--seed", type=int, default=0, show_default=True, help="root seed: file i is `sweeplab bench`'s game i of this seed"
)
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    required=True,
    help="directory for game-000000.mbf, ... and deal.json",
)
@friendly_errors
def deal_command(board: str, rule: str, first_click: str, count: int, seed: int, out: Path) -> None:
    """Write the harness's games as MBF layout files, so the same boards can be played by another program.

    Each layout is dealt with its first click revealed, so it already obeys the rule (safe, xp, zero); deal.json
    records the board, rule, seed and that click (or, for hint, every game's hint cell). Replay the files with
    `sweeplab bench --layouts DIR`; it reveals the recorded click first unless told otherwise.
    """
    from sweeplab.bench.layouts import deal_layouts

    rules = make_rules(board, rule)
    cell = None if first_click == "auto" else parse_cell(first_click, rules.board)
    command = f"sweeplab deal --board {board} --rule {rule} --first-click {first_click} --count {count} --seed {seed} --out {out}"
    files = deal_layouts(rules, count, seed, out, cell, command)
    click.echo(f"wrote {len(files) - 1} layouts of {rules.spec()} ({rule}) and {files[-1].name} to {out}")


@main.command("experiment")
@click.argument("name", type=click.Choice(["levels", "density", "size", "aspect", "outcomes", "calibration", "frontier"]))
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    required=True,
    help="directory for data.csv, data.json, table.md and the PNG plots",
)
@click.option("--quick", is_flag=True, help="a tiny size for tests (full size: 10,000 games per point, as seed 000)")
@click.option(
    "--strategy",
    "-s",
    default=None,
    help="strategy names separated by commas  [default: the paper's strategies that are registered]",
)
@click.option(
    "--games", "-n", type=click.IntRange(min=1), default=None, help="games per point (overrides --quick and the full size)"
)
@click.option("--skip", default=None, help="strategy names (commas) to leave out of the default sets, e.g. a slow or broken one")
@click.option("--seed", type=int, default=0, show_default=True, help="root seed shared by every point")
@click.option("--board", "-b", default=None, help="board for outcomes, calibration and frontier  [default: expert]")
@click.option("--rule", "-r", type=RULE_CHOICE, default=None, help="first-click rule for all but levels  [default: safe]")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None, help="worker processes  [default: all cores]")
@click.option("--executor", type=EXECUTOR_CHOICE, default="local", show_default=True)
@click.option("--scheduler", default=None, metavar="tcp://HOST:PORT", help="an existing Dask scheduler")
@click.option(
    "--time-limit",
    type=click.FloatRange(min=0, min_open=True),
    default=None,
    metavar="SECONDS",
    help="CPU seconds per game (timeouts are counted apart)",
)
@friendly_errors
def experiment_command(
    name: str,
    out: Path,
    quick: bool,
    strategy: str | None,
    games: int | None,
    skip: str | None,
    seed: int,
    board: str | None,
    rule: str | None,
    jobs: int | None,
    executor: str,
    scheduler: str | None,
    time_limit: float | None,
) -> None:
    """Run one of seed 000's experiments and write its data (CSV, JSON), a Markdown table and PNG plots.

    levels (Figures 2-5 and the other seeds' tables), density (Figure 7), size (Figures 8-9), aspect (Figure 10),
    outcomes (Figure 6), calibration (Tables 1-3), frontier (largest coupled sets).
    """
    from sweeplab.bench.experiments import Settings, run_experiment

    names = strategy_list(strategy, options_allowed=False) if strategy else None
    if board is not None:
        make_rules(board, rule or "safe")
    parts = ["sweeplab experiment", name, "--out", str(out)]
    skipped = strategy_list(skip, "--skip", options_allowed=False) if skip else []
    for flag, value in (
        ("--strategy", strategy),
        ("--skip", skip),
        ("--games", games),
        ("--board", board),
        ("--rule", rule),
        ("--time-limit", time_limit),
    ):
        if value is not None:
            parts += [flag, str(value)]
    if seed:
        parts += ["--seed", str(seed)]
    if quick:
        parts.append("--quick")
    settings = Settings(quick, names, seed, games, time_limit, board, rule, " ".join(parts), skipped)
    show_progress = sys.stderr.isatty()
    with executor_for(executor, jobs, scheduler) as ex, progress_bar(show_progress, name) as bar:

        def progress(total: int) -> Callable[[int], None] | None:
            if bar is None:
                return None
            task = bar.add_task(name, total=total)
            return lambda n: bar.advance(task, n)

        files = run_experiment(name, out, settings, ex, click.echo, progress)
    for f in files:
        click.echo(f"wrote {f}")
