"""``sweeplab arena``: built-in and outside players on the same games, and their leaderboard."""

from __future__ import annotations

from pathlib import Path

import click

from sweeplab.cli.app import BOARD_HELP, EXECUTOR_CHOICE, RULE_CHOICE, SECONDS, friendly_errors, main
from sweeplab.cli.bench import FORCE_HELP, MAX_GAMES, RESUME_HELP, bench_command, shell_line


@main.command("arena", short_help="Rank built-in and outside players on the same games.")
@click.option(
    "--strategy",
    "-s",
    required=True,
    help="the players, separated by commas: built-in names (with options in brackets) and outside programs as "
    "'cmd:PROGRAM ARGS' (docs/arena.md)",
)
@click.option("--board", "-b", default="beginner", show_default=True, help=BOARD_HELP)
@click.option("--rule", "-r", type=RULE_CHOICE, default="safe", show_default=True, help="first-click rule")
@click.option("--games", "-n", type=click.IntRange(1, MAX_GAMES), default=1000, show_default=True, help="games per player")
@click.option("--seed", type=int, default=0, show_default=True, help="root seed, any integer: game i is alike for all")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None, help="worker processes  [default: all cores]")
@click.option("--executor", type=EXECUTOR_CHOICE, default="local", show_default=True, help="local processes, or Dask")
@click.option("--scheduler", default=None, metavar="tcp://HOST:PORT", help="an existing Dask scheduler (with --executor dask)")
@click.option("--time-limit", type=SECONDS, default=None, metavar="SECONDS", help="seconds per game (`sweeplab bench --help`)")
@click.option(
    "--move-time-limit",
    type=SECONDS,
    default=None,
    metavar="SECONDS",
    help="wall-clock seconds an outside program may take over one answer  [default: 5]",
)
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    required=True,
    help="the run's folder: the games (resumable), bench.json, games.csv, the programs' stderr/ and leaderboard.md, "
    ".json and .png",
)
@click.option("--resume", is_flag=True, help=RESUME_HELP)
@click.option("--force", is_flag=True, help=FORCE_HELP)
@click.pass_context
@friendly_errors
def arena_command(
    ctx: click.Context,
    strategy: str,
    board: str,
    rule: str,
    games: int,
    seed: int,
    jobs: int | None,
    executor: str,
    scheduler: str | None,
    time_limit: float | None,
    move_time_limit: float | None,
    out: Path,
    resume: bool,
    force: bool,
) -> None:
    """Play several players, built-in and outside programs, on the same seeded games, then rank them.

    The games are those of `sweeplab bench` with the same options (and resume the same way). The leaderboard gives
    each player's win % ± its standard error, CPU per game and per move (an outside program's own CPU included)
    and losses by reason; and for every pair, the difference of win rates over the same games with its standard
    error and McNemar's p. It is written to --out as leaderboard.md, leaderboard.json and leaderboard.png (the PNG
    needs matplotlib), with the command that reproduces it.
    """
    from sweeplab.bench.arena import leaderboard, read_games, write
    from sweeplab.core.rules import make_rules

    rules = make_rules(board, rule)
    ctx.invoke(
        bench_command, strategy=strategy, board=board, rule=rule, games=games, sets=None, first_click="auto", seed=seed,
        jobs=jobs, as_json=False, out=out, resume=resume, force=force, layouts=None, executor=executor,
        scheduler=scheduler, time_limit=time_limit, move_time_limit=move_time_limit, batch=None,
    )  # fmt: skip
    parts: list[object] = ["sweeplab", "arena", "--strategy", strategy, "--board", rules.spec(), "--rule", rule]
    parts += ["--games", games, "--seed", seed]
    for flag, value in (("--time-limit", time_limit), ("--move-time-limit", move_time_limit)):
        if value is not None:
            parts += [flag, value]
    parts += ["--out", out]
    board_ = leaderboard(read_games(out / "games.csv"), rules.spec(), rule, seed, shell_line(parts))
    for path in write(board_, out):
        click.echo(f"wrote {path}")
    click.echo("")
    for rank, s in enumerate(board_.standings, 1):
        click.echo(f"{rank}. {s.player}: {s.win_rate:.2%} ± {s.se:.2%} ({s.wins:,}/{s.games:,})")
