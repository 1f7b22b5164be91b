"""``sweeplab strategies`` and ``sweeplab play``: list the players, play one game (and log or save what it saw)."""

from __future__ import annotations

import contextlib
import json
import os
import time
from pathlib import Path
from typing import Any

import click

from sweeplab.analysis.dealing.noguess import NoGuessReport
from sweeplab.cli.app import (
    BOARD_HELP,
    EXIT_UNDECIDED,
    RULE_CHOICE,
    SECONDS,
    friendly_errors,
    main,
    parse_cell,
    strategy_list,
)
from sweeplab.cli.outputs import check_writable, open_output, write_output
from sweeplab.core.game import Game, Move
from sweeplab.core.rules import Rules, make_rules
from sweeplab.formats.movelog import LoggedMove

#: In a --save-position name, replaced by the move number: one file per guess, the position before it.
MOVE_FIELD = "{move}"
#: CPU seconds a game of ``play`` may take unless --time-limit says otherwise (no strategy may hang the command).
PLAY_TIME_LIMIT = 300.0


@main.command("strategies", short_help="List the strategies, or one strategy's options.")
@click.option(
    "--options", "options_of", default=None, metavar="NAME", help="list the options of strategy NAME and their defaults"
)
@friendly_errors
def strategies_command(options_of: str | None) -> None:
    """List every strategy with its source, or one strategy's options.

    Options are given in brackets wherever a strategy is named: `sweeplab bench --strategy 'gac[pairs=False]'`.
    """
    from sweeplab.strategies.registry import get, in_spec, names, options

    if options_of is not None:
        found = options(options_of)
        if not found:
            click.echo(f"{options_of} takes no options")
        for key, parameter in found.items():
            note = "" if in_spec(parameter) else "  (set from Python only, not in a spec)"
            click.echo(f"{key} = {parameter.default!r}{note}")
        return
    width = max(len(n) for n in names())
    for name in names():
        cls = get(name)
        click.echo(f"{name:<{width}}  {cls.summary}  [{cls.source}]")
    click.echo(f"{'cmd:PROGRAM':<{width}}  an outside program, any language, over a JSON-lines protocol  [docs/arena.md]")


def describe(move: LoggedMove) -> str:
    """One move as ``play --steps`` and ``replay --steps`` print it: the cell, certain or a guess, and the outcome.

    >>> describe(LoggedMove(3, "reveal", 4, 1, False, "educated", 0.8333, state="lost"))
    'move 3: reveal (4, 1), a guess (educated, 83.3% safe): a mine, LOST'
    """
    text = f"move {move.number}: {move.kind} ({move.x}, {move.y})"
    if move.certain:
        text += ", certain"
    else:
        safety = "safety unknown" if move.safety is None else f"{move.safety:.1%} safe"
        text += f", a guess ({move.guess}, {safety})"
    if move.state == "lost":
        text += ": a mine, LOST"
    elif move.state == "won":
        text += ": WON"
    return text


def explanation_lines(move: LoggedMove) -> list[str]:
    """Why a guess was made, as ``--explain`` prints it: the strategy's explanation, or else its kind and safety."""
    if move.certain:
        return []
    if move.explanation is None:
        safety = "no safety estimate" if move.safety is None else f"{move.safety:.1%} safe"
        return [f"    why: the strategy gives no explanation ({move.guess} guess, {safety})"]
    lines = [f"    why: {move.explanation['text']}"]
    figures = move.explanation.get("figures")
    if figures:
        lines.append(f"    figures: {json.dumps(figures, default=str)}")
    return lines


def first_click_guess(rules: Rules) -> tuple[float | None, str]:
    """The safety and the reason of a first click the user chose (``--first-click``) under a rule that does not
    keep it mine-free (unsafe, hint); under safe, xp and zero it is certain, no guess."""
    if rules.first_click == "unsafe":
        return 1 - rules.mines / (rules.width * rules.height), "chosen with --first-click; the unsafe rule promises nothing"
    return None, "chosen with --first-click, after the game opened its hint"


@main.command("play", short_help="Play one game with a strategy and show the board.")
@click.option(
    "--strategy",
    "-s",
    default="single-point",
    show_default=True,
    help="NAME or NAME[key=value,...] (see `sweeplab strategies`)",
)
@click.option("--board", "-b", default="expert", show_default=True, help=BOARD_HELP)
@click.option("--rule", "-r", type=RULE_CHOICE, default="safe", show_default=True, help="first-click rule")
@click.option(
    "--seed",
    type=int,
    default=None,
    help="seed of the game: the same game as game 0 of `sweeplab bench --seed SEED` (random if omitted)",
)
@click.option("--first-click", default=None, metavar="X,Y", help="reveal this cell first instead of letting the strategy choose")
@click.option("--steps", is_flag=True, help="print every move (certain or a guess, with its safety) and the board after it")
@click.option(
    "--explain", is_flag=True, help="print why each guess was made (the strategy's explanation, or its kind and safety)"
)
@click.option(
    "--log",
    "log_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    metavar="FILE",
    help="write the moves as JSON lines (see `sweeplab replay`)",
)
@click.option(
    "--save-position",
    "save_position",
    default=None,
    metavar="FILE",
    help="write the position the game ended in (for a loss, the one the fatal guess was made in) in JSMinesweeper "
    "text; with {move} in FILE, the position before each guess instead, one file per guess",
)
@click.option(
    "--time-limit",
    type=SECONDS,
    default=PLAY_TIME_LIMIT,
    show_default=True,
    metavar="SECONDS",
    help="CPU seconds the game may take; past it the game stops where it is (exit status 4), even in a long move",
)
@friendly_errors
def play_command(
    strategy: str,
    board: str,
    rule: str,
    seed: int | None,
    first_click: str | None,
    steps: bool,
    explain: bool,
    log_path: Path | None,
    save_position: str | None,
    time_limit: float,
) -> None:
    """Play one game with a strategy and print the final board.

    With --steps, each move says whether it was certain or a guess, and a guess's estimated chance to be safe.
    --log FILE keeps the moves for `sweeplab replay FILE`; --save-position FILE keeps a position for
    `sweeplab analyze FILE`. A game that runs past --time-limit CPU seconds (a strategy too slow for the board,
    such as optimal on a board whose search is too big) stops there: the board so far is printed, with exit status 4.
    """
    from sweeplab.bench.runner import GameTimeout, GameTimer, game_seeds
    from sweeplab.formats.movelog import GameRecord, MoveLogWriter
    from sweeplab.formats.position import format_position
    from sweeplab.formats.render import LEGEND, render_game
    from sweeplab.strategies.base import play
    from sweeplab.strategies.registry import make_spec

    rules = make_rules(board, rule)
    if seed is None:
        seed = int.from_bytes(os.urandom(4), "big")
    specs = strategy_list(strategy)
    if len(specs) > 1:
        raise click.BadParameter(
            f"play takes one strategy, not {len(specs)} (compare several with `sweeplab bench`)", param_hint="--strategy"
        )
    try:
        layout_seed, strategy_seed = game_seeds(seed, 0)  # game 0 of `sweeplab bench --seed SEED`
    except ValueError as error:
        raise click.BadParameter(f"{seed}: {error}", param_hint="--seed") from None
    game = Game(rules, layout_seed)
    player = make_spec(specs[0], seed=strategy_seed, outside=True)
    _follow_search(player, rules)
    first = parse_cell(first_click, game.board) if first_click is not None else None
    per_guess = save_position is not None and MOVE_FIELD in save_position
    if save_position is not None:
        check_writable(Path(save_position.replace(MOVE_FIELD, "0001")), f"--save-position {save_position}")
    if log_path is not None:
        check_writable(log_path, f"--log {log_path}")
    log_stream = open_output(log_path, "--log") if log_path is not None else None
    record_of_game = GameRecord(rules.spec(), rule, layout_seed, specs[0], seed)
    writer = None
    saved: list[str] = []
    before = game.observation()

    def record(g: Game, move: Move, guess: Any, safety: float | None = None, why: str | None = None) -> None:
        nonlocal before
        x, y = g.board.xy(move.cell)
        if guess is not None:
            explanation = guess.explanation.to_dict() if guess.explanation is not None else None
            logged = LoggedMove(g.moves, move.kind, x, y, False, guess.kind, guess.safety, explanation, g.state.value)
        elif why is not None:
            logged = LoggedMove(g.moves, move.kind, x, y, False, "first", safety, {"text": why, "figures": {}}, g.state.value)
        else:
            logged = LoggedMove(g.moves, move.kind, x, y, True, state=g.state.value)
        if writer is not None:
            writer.move(logged)
        if per_guess and not logged.certain:
            assert save_position is not None
            name = save_position.replace(MOVE_FIELD, f"{logged.number:04d}")
            write_output(Path(name), format_position(before), "--save-position")
            saved.append(name)
        if steps or (explain and not logged.certain):
            click.echo(describe(logged))
        if explain:
            for line in explanation_lines(logged):
                click.echo(line)
        if steps and not g.over:
            click.echo(render_game(g))
            click.echo()
        if per_guess:
            before = g.observation()

    def on_move(g: Game, move: Move) -> None:
        last = player.guesses[-1] if player.guesses else None
        made_now = last is not None and last.move == g.moves - 1 and last.cell == move.cell and not last.protected
        record(g, move, last if made_now else None)

    def on_move_timed(g: Game, move: Move) -> None:
        on_move(g, move)
        timer.check(g, move)  # where no timer signal can interrupt a move, the limit is checked after each

    chosen_guess = first is not None and not game.first_reveal_protected  # under safe, xp, zero: certain
    start = time.process_time()
    timer = GameTimer(time_limit)
    timed_out = False
    try:
        if log_stream is not None:
            writer = MoveLogWriter(log_stream, record_of_game, f"--log {log_path}")
        if steps and game.hint is not None:
            click.echo(f"the game opened its hint {game.board.name(game.hint)} (the hint rule)")
            click.echo(render_game(game))
            click.echo()
            before = game.observation()
        if first is not None:
            game.reveal(first)
            if chosen_guess:
                safety, why = first_click_guess(rules)
                record(game, Move.reveal(first), None, safety, why)
            else:
                record(game, Move.reveal(first), None)
        try:
            with timer:
                play(player, game, on_move=on_move_timed)
        except GameTimeout:
            timed_out = not game.over
        if writer is not None and game.over:
            writer.end(game)
    finally:
        if log_stream is not None:
            with contextlib.suppress(OSError):  # a failed write was reported already; close must not hide it
                log_stream.close()
    cpu = time.process_time() - start
    click.echo(render_game(game))
    click.echo(LEGEND)
    guesses = sum(1 for g in player.guesses if not g.protected) + chosen_guess  # a chosen unsafe click is a guess too
    chosen = " (one the first click chosen with --first-click)" if chosen_guess else ""
    click.echo(
        f"{specs[0]} on {rules.spec()} ({rule}), seed {seed}: {game.state.value.upper()} after {game.moves} moves, "
        f"{guesses} guess{'es' if guesses != 1 else ''}{chosen}, 3BV {game.three_bv() if game.dealt else '-'}, "
        f"{cpu * 1000:.1f} ms CPU"
    )
    if not game.rule_kept:
        click.echo(f"the {rule} rule could not be met: {game.rule_failure}")
    if isinstance(game.deal_report, NoGuessReport):
        click.echo(game.deal_report.describe())
    if timed_out:
        click.echo(
            f"stopped: the game ran past --time-limit {time_limit:g} s of CPU after {game.moves} moves, unfinished "
            "(give a larger --time-limit, or a smaller board)",
            err=True,
        )
    if save_position is not None and not per_guess:
        write_output(Path(save_position), format_position(game.observation()), "--save-position")
        which = "the fatal guess was made in it" if game.state.value == "lost" else "the end of the game"
        click.echo(f"position saved to {save_position} ({which})")
    elif per_guess:
        if not saved:
            click.echo(f"saved no position: the game made no guess (--save-position {save_position})")
        elif len(saved) == 1:
            click.echo(f"saved the position before the one guess to {saved[0]}")
        else:
            click.echo(f"saved {len(saved)} positions, the one before each guess: {saved[0]} to {saved[-1]}")
    if log_path is not None:
        click.echo(f"moves logged to {log_path} (show them again with `sweeplab replay {log_path} --steps`)")
    if timed_out:
        raise SystemExit(EXIT_UNDECIDED)


def _follow_search(player: Any, rules: Rules) -> None:
    """For the optimal player, progress lines while its first move searches every layout (on 5x5x5, half a minute)."""
    from sweeplab.cli.progress import search_progress
    from sweeplab.strategies.optimal import OptimalStrategy

    if isinstance(player, OptimalStrategy):
        search = player.board_search(rules.width, rules.height, rules.mines)
        search.progress = search_progress(search, "the optimal player searches every layout before its first move")
