"""The ``sweeplab`` command: thin wrappers that parse arguments, call the library and print."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import Any, TypeVar

import click

from sweeplab.core.errors import SweeplabError
from sweeplab.core.game import Game
from sweeplab.core.geometry import Board
from sweeplab.core.rules import FIRST_CLICK_RULES, PRESETS, Rules, make_rules

F = TypeVar("F", bound=Callable[..., Any])

BOARD_HELP = f"a preset ({', '.join(PRESETS)}) or WIDTHxHEIGHTxMINES"
RULE_CHOICE = click.Choice(list(FIRST_CLICK_RULES))


def friendly_errors(fn: F) -> F:
    """Print a sweeplab error as one line on stderr and exit with status 2, never a traceback."""

    @wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except SweeplabError as error:
            click.echo(f"error: {error}", err=True)
            sys.exit(2)

    return wrapper  # type: ignore[return-value]


def parse_cell(text: str, board: Board) -> int:
    """A cell given as ``x,y`` (0-based); errors name the argument."""
    try:
        x_text, y_text = text.split(",")
        x, y = int(x_text), int(y_text)
    except ValueError:
        raise click.BadParameter(f"{text!r} is not a cell: write it as x,y (0-based), e.g. 0,0") from None
    try:
        return board.index(x, y)
    except SweeplabError as error:
        raise click.BadParameter(str(error)) from None


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="sweeplab")
def main() -> None:
    """sweeplab: Minesweeper as a constraint satisfaction problem.

    Play strategies, analyse positions and benchmark them. Cells are 0-based (x, y), x across.
    """


@main.command("strategies")
def strategies_command() -> None:
    """List every strategy with its source."""
    from sweeplab.strategies.registry import get, names

    width = max(len(n) for n in names())
    for name in names():
        cls = get(name)
        click.echo(f"{name:<{width}}  {cls.summary}  [{cls.source}]")


@main.command("play")
@click.option("--strategy", "-s", default="single-point", show_default=True, help="strategy name (see `sweeplab strategies`)")
@click.option("--board", "-b", default="expert", show_default=True, help=BOARD_HELP)
@click.option("--rule", "-r", type=RULE_CHOICE, default="safe", show_default=True, help="first-click rule")
@click.option("--seed", type=int, default=None, help="seed for the layout and the strategy (random if omitted)")
@click.option("--first-click", default=None, metavar="X,Y", help="reveal this cell first instead of letting the strategy choose")
@click.option("--steps", is_flag=True, help="print the board after every move")
@friendly_errors
def play_command(strategy: str, board: str, rule: str, seed: int | None, first_click: str | None, steps: bool) -> None:
    """Play one game with a strategy and print the final board."""
    from sweeplab.formats.render import LEGEND, render_game
    from sweeplab.strategies.base import play
    from sweeplab.strategies.registry import make

    rules = make_rules(board, rule)
    if seed is None:
        seed = int.from_bytes(os.urandom(4), "big")
    game = Game(rules, seed)
    player = make(strategy, seed=seed)
    if first_click is not None:
        game.reveal(parse_cell(first_click, game.board))

    def show(g: Game, move: Any) -> None:
        click.echo(f"move {g.moves}: {move.kind} {g.board.name(move.cell)}")
        click.echo(render_game(g))
        click.echo()

    start = time.process_time()
    play(player, game, on_move=show if steps else None)
    cpu = time.process_time() - start
    click.echo(render_game(game))
    click.echo(LEGEND)
    guesses = len(player.guesses)
    click.echo(
        f"{strategy} on {rules.spec()} ({rule}), seed {seed}: {game.state.value.upper()} after {game.moves} moves, "
        f"{guesses} guess{'es' if guesses != 1 else ''}, 3BV {game.three_bv() if game.dealt else '-'}, "
        f"{cpu * 1000:.1f} ms CPU"
    )


@main.command("analyze")
@click.argument("file", type=click.Path(dir_okay=False, path_type=str))
@click.option("--json", "as_json", is_flag=True, help="print JSON: probabilities per cell (null for revealed), safe, mines")
@click.option("--exact", "as_fraction", is_flag=True, help="print each probability as an exact fraction p/q")
@click.option("--seconds", type=click.FloatRange(min=0.01), default=2.0, show_default=True, help="time budget before estimating")
@friendly_errors
def analyze_command(file: str, as_json: bool, as_fraction: bool, seconds: float) -> None:
    """Mine probabilities of every covered cell of a position (JSMinesweeper text: WxHxM header, rows of H, F, 0-8).

    Prints a grid of percentages, the certain safes and mines, the number of layouts and any craps shoot.
    With --json: width, height, total_mines (the header's count), exact, error, layouts (a decimal string),
    probabilities (rows of numbers, null for revealed cells, 1 for flags), safe and mines (lists of [x, y]
    certainly safe / certainly mines) and craps_shoots. Exits with status 2 when no layout can produce the
    position, naming a number that fails.
    """
    import json

    from sweeplab.analysis.exact import Budget, analyze
    from sweeplab.formats.position import read_position

    observation = read_position(file)
    result = analyze(observation, Budget(seconds=seconds))
    if as_fraction and not result.exact:
        raise SweeplabError(f"{file}: the position was too large to count within {seconds}s; only estimates exist")
    board = observation.board

    def value(cell: int) -> float | str | None:
        if observation.view[cell] >= 0:
            return None
        return str(result.fraction(cell)) if as_fraction else result.probability(cell)

    if as_json:
        payload = {
            "width": board.width,
            "height": board.height,
            "total_mines": observation.mines,
            "exact": result.exact,
            "error": result.error,
            "layouts": str(result.layouts),
            "probabilities": [[value(y * board.width + x) for x in range(board.width)] for y in range(board.height)],
            "safe": [list(board.xy(c)) for c in result.safe],
            "mines": [list(board.xy(c)) for c in result.mines],
            "craps_shoots": [
                {"cells": [list(board.xy(c)) for c in s.cells], "best": list(board.xy(s.best)), "safety": s.safety}
                for s in result.craps
            ],
        }
        click.echo(json.dumps(payload))
        return
    for y in range(board.height):
        cells = []
        for x in range(board.width):
            cell = y * board.width + x
            v = observation.view[cell]
            if v >= 0:
                cells.append(f"{'.' if v == 0 else v:>4}")
            elif v == -2:
                cells.append("   F")
            else:
                cells.append(f"{result.probability(cell) * 100:3.0f}%")
        click.echo("".join(cells))
    names = ", ".join
    click.echo(f"certain safe: {names(board.name(c) for c in result.safe) or 'none'}")
    click.echo(f"certain mines: {names(board.name(c) for c in result.mines) or 'none'}")
    if result.unconstrained_probability is not None:
        click.echo(
            f"cells no number touches: {len(result.unconstrained)}, each a mine with p = {result.unconstrained_probability:.4f}"
        )
    click.echo(f"layouts consistent with the position: {result.layouts}")
    for shoot in result.craps:
        click.echo(
            f"craps shoot (no other move can inform it): {names(board.name(c) for c in shoot.cells)}; "
            f"best {board.name(shoot.best)}, safe with p = {shoot.safety:.4f}"
        )
    if not result.exact:
        click.echo(f"estimated (exact: false): probabilities within about ±{result.error:.4f} (two standard errors)")


def _progress(enabled: bool, description: str) -> Any:
    """A rich progress bar on stderr when ``enabled`` (a terminal, not --json); returns (context, factory)."""
    import contextlib

    if not enabled:
        return contextlib.nullcontext(None)
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    return Progress(
        TextColumn(description),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
    )


def _strategy_list(text: str) -> list[str]:
    from sweeplab.strategies.registry import get

    names = [n.strip() for n in text.split(",") if n.strip()]
    if not names:
        raise click.BadParameter("give at least one strategy name", param_hint="--strategy")
    if len(set(names)) != len(names):
        raise click.BadParameter(f"{text!r} names a strategy twice", param_hint="--strategy")
    for name in names:
        get(name)  # an unknown name is a SweeplabError naming the choices
    return names


def _executor(kind: str, jobs: int | None, scheduler: str | None) -> Any:
    from sweeplab.bench.executors import make_executor

    if scheduler is not None and kind != "dask":
        raise click.BadParameter("--scheduler needs --executor dask", param_hint="--scheduler")
    return make_executor(kind, jobs, scheduler)


EXECUTOR_CHOICE = click.Choice(["local", "dask"])


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
    help="strategy name, or names separated by commas (played on the same games and compared pairwise)",
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

    names = _strategy_list(strategy)
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
    with _executor(executor, jobs, scheduler) as ex, _progress(show_progress, "games") as bar:
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

    names = _strategy_list(strategy) if strategy else None
    if board is not None:
        make_rules(board, rule or "safe")
    parts = ["sweeplab experiment", name, "--out", str(out)]
    skipped = _strategy_list(skip) if skip else []
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
    with _executor(executor, jobs, scheduler) as ex, _progress(show_progress, name) as bar:

        def progress(total: int) -> Callable[[int], None] | None:
            if bar is None:
                return None
            task = bar.add_task(name, total=total)
            return lambda n: bar.advance(task, n)

        files = run_experiment(name, out, settings, ex, click.echo, progress)
    for f in files:
        click.echo(f"wrote {f}")


@main.command("consistent")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option(
    "--method",
    "-m",
    type=click.Choice(["rs", "hc", "sa", "ga", "exact"]),
    default="sa",
    show_default=True,
    help="local search (seed 004, section 3: random search, hill climbing, annealing, genetic) or the exact engine",
)
@click.option("--budget", type=click.IntRange(min=1), default=100_000, show_default=True, help="iterations for local search")
@click.option("--seconds", type=click.FloatRange(min=0, min_open=True), default=30.0, show_default=True, help="time cap")
@click.option("--seed", type=int, default=0, show_default=True, help="seed for the local search")
@friendly_errors
def consistent_command(file: str, method: str, budget: int, seconds: float, seed: int) -> None:
    """Look for a mine layout consistent with the position in FILE (JSMinesweeper text).

    Exit status 0 when one is found (it is printed, * for a mine), 1 when none is found within the budget, 2 on bad input.
    """
    import random

    from sweeplab.analysis.local_search import format_layout, penalty, search
    from sweeplab.formats.position import read_position

    observation = read_position(file)
    if method == "exact":
        from sweeplab.analysis.exact import is_consistent

        start = time.perf_counter()
        found, witness = is_consistent(observation)
        elapsed = time.perf_counter() - start
        layout = frozenset(witness or ()) | frozenset(observation.flagged())
        score: int | None = penalty(observation, layout) if found else None
        iterations: int | None = None
    else:
        result = search(observation, method, random.Random(seed), budget=budget, seconds=seconds)
        found, layout, score, iterations, elapsed = result.found, result.layout, result.penalty, result.iterations, result.seconds
    spent = f"{iterations} iterations, " if iterations is not None else ""
    shown = f"penalty {score}, " if score is not None else ""
    verdict = "consistent layout found" if found else "no consistent layout found"
    click.echo(f"{method}: {verdict}; {shown}{spent}{elapsed:.3f} s")
    if not found:
        sys.exit(1)
    click.echo(format_layout(observation, layout))


@main.command("consistency-report")
@click.option("--count", type=click.IntRange(min=1), default=25, show_default=True, help="positions per board")
@click.option("--budget", type=click.IntRange(min=1), default=20_000, show_default=True, help="iterations per search")
@click.option("--seconds", type=click.FloatRange(min=0, min_open=True), default=5.0, show_default=True, help="time cap")
@click.option("--seed", type=int, default=0, show_default=True, help="root seed of the games and the searches")
@click.option("--out", type=click.Path(dir_okay=False), default=None, help="also write the Markdown table to this file")
@friendly_errors
def consistency_report_command(count: int, budget: int, seconds: float, seed: int, out: str | None) -> None:
    """Seed 004's local searches against the exact engine on positions where single-point must guess.

    For beginner, intermediate and expert (safe rule), how often each method finds a consistent layout and its median time.
    """
    from pathlib import Path

    from sweeplab.bench.consistency import comparison_report

    table = comparison_report(count=count, seed=seed, budget=budget, seconds=seconds)
    click.echo(table)
    if out:
        command = f"sweeplab consistency-report --count {count} --budget {budget} --seconds {seconds} --seed {seed}"
        Path(out).parent.mkdir(parents=True, exist_ok=True)
        Path(out).write_text(f"<!-- produced by: {command} -->\n{table}\n")


if __name__ == "__main__":  # pragma: no cover
    main()
