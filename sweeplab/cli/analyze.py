"""``sweeplab analyze``, ``consistent`` and ``consistency-report``: what a position allows."""

from __future__ import annotations

import math
import sys
import time
from fractions import Fraction
from typing import TYPE_CHECKING

import click

from sweeplab.analysis import OVERHEAD_SECONDS, ROUNDING
from sweeplab.cli.app import EXIT_INCONSISTENT, EXIT_UNDECIDED, SECONDS, friendly_errors, main
from sweeplab.core.errors import UndecidedError
from sweeplab.core.numbers import count_json, count_text
from sweeplab.core.observation import FLAGGED

if TYPE_CHECKING:
    from sweeplab.analysis import Probabilities

WIDE = 0.02  # an estimate's error above this says how more time narrows it (as one over the root of the time:
# results/large/dense-budgets/)


def _finite_seconds(context: click.Context, parameter: click.Parameter, value: float) -> float:
    if not math.isfinite(value):
        raise click.BadParameter(f"{value} is not a number of seconds: give a finite number above 0")
    return value


@main.command("analyze", short_help="Mine probability of every covered cell of a position.")
@click.argument("file", type=click.Path(dir_okay=False, path_type=str))
@click.option(
    "--json", "as_json", is_flag=True, help="print JSON: probabilities per cell (null for revealed), safe, mines, the move"
)
@click.option(
    "--exact", "as_fraction", is_flag=True, help="exact fractions p/q: in the JSON, or listed under the grid by probability"
)
@click.option(
    "--seconds",
    type=click.FloatRange(min=0.01),
    default=2.0,
    show_default=True,
    callback=_finite_seconds,
    help=f"time budget: the answer comes within it plus about {OVERHEAD_SECONDS:g} s (past it, an estimate: exact false)",
)
@friendly_errors
def analyze_command(file: str, as_json: bool, as_fraction: bool, seconds: float) -> None:
    """Mine probabilities of every covered cell of a position (JSMinesweeper text: WxHxM header, rows of H, F, 0-8).

    Prints a grid of percentages with column (x) and row (y) labels: a number or . for a revealed cell, F for a
    flag, 0% and 100% only for certain cells (<1% and >99% for nearly certain ones); then the certain safes and
    mines, the number of layouts, any craps shoot, and the recommended move (the exact strategy's choice, with its
    chance of being safe). With --exact, every distinct exact probability p/q and its cells are listed too.
    With --json: width, height, total_mines (the header's count), exact, error, layouts (a string: every digit
    up to 30 digits, else scientific notation such as "1.2345e+4512"), probabilities (rows of numbers, or "p/q"
    strings with --exact; null for revealed cells, 1 for flags), safe and mines (lists of [x, y] certainly safe /
    certainly mines), craps_shoots and recommended ({"cell": [x, y], "safety", "kind"}; null when every covered
    cell is a certain mine or none is left: the position is solved). A UTF-8 byte-order mark
    at the start of the file is ignored.

    A frontier too wide to count in exact integers in time is counted in floating point (exact: false, error
    1e-12: rounding only, no certain cell claimed beyond those proved first); past that too, the answer is an
    estimate (exact: false, with its error; above 0.02 the text says that more --seconds narrow it, four times as
    many roughly halving it); exit status 4 when not even an estimate could be had in time (undecided), 3 when the
    position is proved inconsistent (naming a number). The estimate of a frontier wide in both directions runs two
    chains at once on a machine with two cores or more.
    """
    import json

    from sweeplab.analysis import Budget, analyze
    from sweeplab.formats.position import read_position
    from sweeplab.strategies.exact import recommend

    observation = read_position(file)
    result = analyze(observation, Budget(seconds=seconds))
    if as_fraction and not result.exact:
        had = (
            "only an answer in floating point, exact up to rounding (too wide to count or weigh in exact integers in time)"
            if result.error <= ROUNDING
            else f"only an estimate (within about {result.error:.2g})"
        )
        raise UndecidedError(f"{file}: no exact answer within {seconds:g} s, {had}; give more --seconds, or drop --exact")
    board = observation.board
    covered = observation.covered()
    solved = len(result.mines) == len(covered)  # every covered cell a certain mine: nothing is left to reveal
    move, safety, kind = recommend(observation, result) if not solved else (None, 0.0, "")

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
            "layouts": count_json(result.layouts),
            "probabilities": [[value(y * board.width + x) for x in range(board.width)] for y in range(board.height)],
            "safe": [list(board.xy(c)) for c in result.safe],
            "mines": [list(board.xy(c)) for c in result.mines],
            "craps_shoots": [
                {"cells": [list(board.xy(c)) for c in s.cells], "best": list(board.xy(s.best)), "safety": s.safety}
                for s in result.craps
            ],
            "recommended": None if move is None else {"cell": list(board.xy(move)), "safety": safety, "kind": kind},
        }
        click.echo(json.dumps(payload))
        return
    click.echo(render_probabilities(result))
    names = ", ".join
    click.echo(f"certain safe: {names(board.name(c) for c in result.safe) or 'none'}")
    click.echo(f"certain mines: {names(board.name(c) for c in result.mines) or 'none'}")
    if result.unconstrained_probability is not None:
        click.echo(
            f"cells no number touches: {len(result.unconstrained)}, each a mine with p = {result.unconstrained_probability:.4f}"
        )
    layouts = "about " if not result.exact else ""
    click.echo(f"layouts consistent with the position: {layouts}{count_text(result.layouts)}")
    for shoot in result.craps:
        click.echo(
            f"craps shoot (no other move can inform it): {names(board.name(c) for c in shoot.cells)}; "
            f"best {board.name(shoot.best)}, safe with p = {shoot.safety:.4f}"
        )
    if as_fraction:
        groups: dict[Fraction, list[int]] = {}
        for cell in observation.covered():
            groups.setdefault(result.fraction(cell), []).append(cell)
        click.echo("exact mine probabilities:")
        for p in sorted(groups):
            click.echo(f"  {p}: {names(board.name(c) for c in groups[p])}")
    if not result.exact and result.error <= ROUNDING:
        click.echo(
            "counted or weighed in floating point (exact: false): probabilities within about "
            f"±{result.error:g} (rounding); more --seconds may give exact fractions"
        )
    elif not result.exact:
        more = "; more --seconds narrow it: four times as many roughly halve it" if result.error > WIDE else ""
        click.echo(f"estimated (exact: false): probabilities within about ±{result.error:.4f} (two standard errors{more})")
    if move is None and covered:
        click.echo("recommended: none (every covered cell is a mine: the position is solved)")
    elif move is None:
        click.echo("recommended: none (no covered cell left)")
    elif kind == "certain":
        click.echo(f"recommended: reveal {board.name(move)} (certainly safe)")
    else:
        click.echo(f"recommended: reveal {board.name(move)} ({kind} guess, safe with p = {safety:.4f})")


def render_probabilities(result: Probabilities) -> str:
    """The grid of percentages with column and row labels (cells five characters wide)."""
    observation = result.observation
    board, view = observation.board, observation.view
    safe, mines = set(result.safe), set(result.mines)
    pad = len(str(board.height - 1))
    lines = [" " * pad + "".join(f"{x:>5}" for x in range(board.width))]
    for y in range(board.height):
        cells = []
        for x in range(board.width):
            cell = y * board.width + x
            v = view[cell]
            if v >= 0:
                text = "." if v == 0 else str(v)
            elif v == FLAGGED:
                text = "F"
            elif cell in safe:
                text = "0%"
            elif cell in mines:
                text = "100%"
            else:
                percent = result.probability(cell) * 100
                text = "<1%" if percent < 1 else ">99%" if percent > 99 else f"{percent:.0f}%"
            cells.append(f"{text:>5}")
        lines.append(f"{y:>{pad}}" + "".join(cells))
    return "\n".join(lines)


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
@click.option(
    "--seconds",
    type=click.FloatRange(min=0, min_open=True),
    default=30.0,
    show_default=True,
    callback=_finite_seconds,
    help="time cap (the exact method keeps it within a few tenths of a second)",
)
@click.option("--seed", type=int, default=0, show_default=True, help="seed for the local search")
@friendly_errors
def consistent_command(file: str, method: str, budget: int, seconds: float, seed: int) -> None:
    """Look for a mine layout consistent with the position in FILE (JSMinesweeper text).

    Exit status 0 when one is found (it is printed, * for a mine); 3 when the position is proved inconsistent
    (the exact method proves it; a local search only when the mines cannot even be placed); 4 when none is found
    within the budget (a local search that finds nothing proves nothing; the exact method past --seconds);
    2 on bad input.
    """
    import random

    from sweeplab.analysis.search.local_search import format_layout, penalty, search
    from sweeplab.formats.position import read_position

    observation = read_position(file)
    reason = None
    if method == "exact":
        from sweeplab.analysis import Budget, check_consistency

        start = time.perf_counter()
        outcome = check_consistency(observation, Budget(seconds=seconds))
        elapsed = time.perf_counter() - start
        found, reason = outcome.consistent, outcome.reason
        layout = frozenset(outcome.witness or ()) | frozenset(observation.flagged())
        score: int | None = penalty(observation, layout) if found else None
        iterations: int | None = None
    else:
        result = search(observation, method, random.Random(seed), budget=budget, seconds=seconds)
        found, layout, score, iterations, elapsed = result.found, result.layout, result.penalty, result.iterations, result.seconds
    spent = f"{iterations} iterations, " if iterations is not None else ""
    shown = f"penalty {score}, " if score is not None else ""
    if found:
        verdict = "consistent layout found"
    elif method == "exact":
        verdict = f"the position is inconsistent: {reason}"
    else:
        verdict = "no consistent layout found within the budget (a local search cannot prove that none exists)"
    click.echo(f"{method}: {verdict}; {shown}{spent}{elapsed:.3f} s")
    if not found:
        sys.exit(EXIT_INCONSISTENT if method == "exact" else EXIT_UNDECIDED)
    click.echo(format_layout(observation, layout))


@main.command("consistency-report", short_help="Compare seed 004's local searches with the exact engine.")
@click.option(
    "--count", type=click.IntRange(1, 100_000), default=25, show_default=True, help="positions per board (at most 100,000)"
)
@click.option("--budget", type=click.IntRange(min=1), default=20_000, show_default=True, help="iterations per search")
@click.option("--seconds", type=SECONDS, default=5.0, show_default=True, help="time cap")
@click.option("--seed", type=int, default=0, show_default=True, help="root seed of the games and the searches")
@click.option("--out", type=click.Path(dir_okay=False), default=None, help="also write the Markdown table to this file")
@friendly_errors
def consistency_report_command(count: int, budget: int, seconds: float, seed: int, out: str | None) -> None:
    """Seed 004's local searches against the exact engine on positions where single-point must guess.

    For beginner, intermediate and expert (safe rule), how often each method finds a consistent layout and its median time.
    """
    from pathlib import Path

    from sweeplab.cli.outputs import prepare_output, write_output
    from sweeplab.studies.papers.consistency import comparison_report

    if out:
        prepare_output(Path(out), "--out")  # before the minutes of work, not after
    table = comparison_report(count=count, seed=seed, budget=budget, seconds=seconds)
    click.echo(table)
    if out:
        command = f"sweeplab consistency-report --count {count} --budget {budget} --seconds {seconds} --seed {seed}"
        write_output(Path(out), f"<!-- produced by: {command} -->\n{table}\n", "--out")
