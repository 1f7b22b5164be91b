"""``sweeplab replay``: show a game logged by ``sweeplab play --log`` again, move by move."""

from __future__ import annotations

import click

from sweeplab.cli.app import friendly_errors, main
from sweeplab.cli.play import describe, explanation_lines


@main.command("replay", short_help="Show a game logged by `sweeplab play --log` again.")
@click.argument("file", type=click.Path(dir_okay=False, path_type=str))
@click.option("--steps", is_flag=True, help="print every move (certain or a guess, with its safety) and the board after it")
@click.option("--explain", is_flag=True, help="print why each guess was made, as logged")
@friendly_errors
def replay_command(file: str, steps: bool, explain: bool) -> None:
    """Show a game logged by `sweeplab play --log FILE` again: the final board, and each move with --steps.

    The game is rebuilt from the logged board, rule and seed and every move is replayed and checked against the
    log; a malformed log, or one whose moves do not replay as logged, is refused with the line and the reason
    (exit status 2).
    """
    from sweeplab.formats.movelog import load_move_log, replay
    from sweeplab.formats.render import LEGEND, render_game

    log = load_move_log(file)
    record = log.game
    game = record.new_game()
    if steps and game.hint is not None:
        click.echo(f"the game opened its hint {game.board.name(game.hint)} (the hint rule)")
        click.echo(render_game(game))
        click.echo()
    for game, move in replay(log, file):
        if steps or (explain and not move.certain):
            click.echo(describe(move))
        if explain:
            for line in explanation_lines(move):
                click.echo(line)
        if steps and not game.over:
            click.echo(render_game(game))
            click.echo()
    click.echo(render_game(game))
    click.echo(LEGEND)
    guesses = sum(not m.certain for m in log.moves)
    who = record.strategy or "a player"
    outcome = game.state.value.upper() if game.over else "NOT FINISHED (the log ends before the game did)"
    seed = record.play_seed if record.play_seed is not None else record.seed
    click.echo(
        f"{who} on {record.board} ({record.rule}), seed {seed}: {outcome} after {len(log.moves)} moves, "
        f"{guesses} guess{'es' if guesses != 1 else ''}"
    )
    if not game.rule_kept:
        click.echo(f"the {record.rule} rule could not be met: {game.rule_failure}")
