"""The ``sweeplab`` command: thin wrappers that parse arguments, call the library and print."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from functools import wraps
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


@main.command("bench")
@click.option("--strategy", "-s", default="single-point", show_default=True, help="strategy name")
@click.option("--board", "-b", default="expert", show_default=True, help=BOARD_HELP)
@click.option("--rule", "-r", type=RULE_CHOICE, default="safe", show_default=True, help="first-click rule")
@click.option("--games", "-n", type=click.IntRange(min=1), default=1000, show_default=True, help="number of games")
@click.option("--sets", type=click.IntRange(min=2), default=10, show_default=True, help="sets for the standard error")
@click.option("--seed", type=int, default=0, show_default=True, help="root seed (game i gets the same layout for every strategy)")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=os.cpu_count() or 1, show_default="all cores")
@friendly_errors
def bench_command(strategy: str, board: str, rule: str, games: int, sets: int, seed: int, jobs: int) -> None:
    """Play a batch of seeded games and print the win rate with its standard error."""
    from sweeplab.bench.runner import run
    from sweeplab.bench.stats import set_stats, wilson
    from sweeplab.strategies.registry import get

    get(strategy)
    rules: Rules = make_rules(board, rule)
    if games % sets:
        raise click.BadParameter(f"{games} games do not split into {sets} equal sets", param_hint="--games/--sets")
    start = time.perf_counter()
    results = run(strategy, rules, games, seed, jobs=jobs)
    wall = time.perf_counter() - start
    wins = [r.won for r in results]
    stats = set_stats(wins, sets)
    low, high = wilson(sum(wins), games)
    cpu = sum(r.cpu_seconds for r in results)
    click.echo(
        f"{strategy} on {rules.spec()} ({rule}), seed {seed}: won {sum(wins)}/{games} = "
        f"{stats.mean:.2%} ± {stats.sem:.2%} (SE over {sets} sets; 95% Wilson {low:.2%}-{high:.2%}); "
        f"{games / wall:.1f} games/s on {jobs} job(s), {cpu / games * 1000:.2f} ms CPU per game"
    )


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


if __name__ == "__main__":  # pragma: no cover
    main()
