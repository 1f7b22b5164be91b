"""``sweeplab strategies`` and ``sweeplab play``: list the players, play one game."""

from __future__ import annotations

import os
import time
from typing import Any

import click

from sweeplab.cli.app import BOARD_HELP, RULE_CHOICE, friendly_errors, main, parse_cell, strategy_list
from sweeplab.core.game import Game
from sweeplab.core.rules import make_rules


@main.command("strategies")
@click.option(
    "--options", "options_of", default=None, metavar="NAME", help="list the options of strategy NAME and their defaults"
)
@friendly_errors
def strategies_command(options_of: str | None) -> None:
    """List every strategy with its source, or one strategy's options.

    Options are given in brackets wherever a strategy is named: `sweeplab bench --strategy 'gac[pairs=False]'`.
    """
    from sweeplab.strategies.registry import get, names, options

    if options_of is not None:
        found = options(options_of)
        if not found:
            click.echo(f"{options_of} takes no options")
        for key, parameter in found.items():
            click.echo(f"{key} = {parameter.default!r}")
        return
    width = max(len(n) for n in names())
    for name in names():
        cls = get(name)
        click.echo(f"{name:<{width}}  {cls.summary}  [{cls.source}]")


@main.command("play")
@click.option(
    "--strategy",
    "-s",
    default="single-point",
    show_default=True,
    help="NAME or NAME[key=value,...] (see `sweeplab strategies`)",
)
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
    from sweeplab.strategies.registry import make_spec

    rules = make_rules(board, rule)
    if seed is None:
        seed = int.from_bytes(os.urandom(4), "big")
    game = Game(rules, seed)
    player = make_spec(strategy_list(strategy)[0], seed=seed)
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
    if not game.rule_kept:
        click.echo(f"the {rule} rule could not be met: {game.rule_failure}")
