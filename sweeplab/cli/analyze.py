"""``sweeplab analyze``, ``consistent`` and ``consistency-report``: what a position allows."""

from __future__ import annotations

import sys
import time

import click

from sweeplab.cli.app import friendly_errors, main
from sweeplab.core.errors import SweeplabError


@main.command("analyze", short_help="Mine probability of every covered cell of a position.")
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


@main.command("consistent", short_help="Look for a mine layout consistent with a position.")
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


@main.command("consistency-report", short_help="Compare seed 004's local searches with the exact engine.")
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
