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


if __name__ == "__main__":  # pragma: no cover
    main()
