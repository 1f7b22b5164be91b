"""Options shared by the ``sweeplab learn`` commands: the range of boards games are dealt on, the workers that play
them, equation (10)'s coefficients, and the evaluation games a training plays after each episode."""

from __future__ import annotations

from typing import Any

import click

from sweeplab.cli.app import BOARD_HELP, EXECUTOR_CHOICE, RULE_CHOICE

#: Upper bound on the games one command is asked for (a count with 23 digits is a typo, not a plan).
MAX_GAMES = 10_000_000
#: The evaluation games a training plays by default: enough for a standard error of about 1.5 points on a win rate
#: (the paired differences between points are tighter), a few seconds a point on one core.
EVAL_GAMES = 1000
EVAL_BOARD = "intermediate"


def parse_span(text: str, kind: type, option: str) -> tuple[Any, Any]:
    """``LOW-HIGH`` or one value, as a (low, high) pair."""
    low, dash, high = text.partition("-") if not text.startswith("-") else (text, "", "")
    try:
        a = kind(low)
        b = kind(high) if dash else a
    except ValueError:
        raise click.BadParameter(f"{text!r} is not a number or a LOW-HIGH range", param_hint=option) from None
    if b < a:
        raise click.BadParameter(f"{text!r}: the high end is below the low end", param_hint=option)
    return a, b


def board_range(widths: str, heights: str, densities: str, board: str | None, rule: str) -> Any:
    """The :class:`~sweeplab.learn.seed003.data.BoardRange` the board options ask for (``--board``: that board alone)."""
    from sweeplab.core.rules import make_rules
    from sweeplab.learn.seed003.data import BoardRange

    if board is not None:
        return BoardRange.fixed(make_rules(board, rule))
    w = parse_span(widths, int, "--widths")
    h = parse_span(heights, int, "--heights")
    d = parse_span(densities, float, "--densities")
    if w[0] < 1 or h[0] < 1:
        raise click.BadParameter("board sides must be at least 1", param_hint="--widths/--heights")
    if not 0 < d[0] <= d[1] < 1:
        raise click.BadParameter(f"{densities!r}: mine ratios must lie between 0 and 1", param_hint="--densities")
    return BoardRange(w, h, d, rule)


_board_options = [
    click.option("--widths", default="8-30", show_default=True, help="board widths, LOW-HIGH (seed 003 varied them)"),
    click.option("--heights", default="8-16", show_default=True, help="board heights, LOW-HIGH"),
    click.option("--densities", default="0.10-0.21", show_default=True, help="mine ratios, LOW-HIGH"),
    click.option("--board", "-b", default=None, help=f"play every game on this one board instead: {BOARD_HELP}"),
    click.option("--rule", "-r", type=RULE_CHOICE, default="safe", show_default=True, help="first-click rule"),
]


def board_options(fn: Any) -> Any:
    """Add ``--widths``, ``--heights``, ``--densities``, ``--board`` and ``--rule`` to a command."""
    for option in reversed(_board_options):
        fn = option(fn)
    return fn


def parse_coefficients(text: str | None) -> tuple[float, ...] | None:
    """``--alpha C0,C1,C2,C3`` as four numbers (None when not given)."""
    if text is None:
        return None
    try:
        values = tuple(float(v) for v in text.split(","))
    except ValueError:
        values = ()
    if len(values) != 4:
        raise click.BadParameter(f"{text!r} is not four numbers C0,C1,C2,C3", param_hint="--alpha")
    return values


_executor_options = [
    click.option(
        "--jobs",
        "-j",
        "--workers",
        "jobs",
        type=click.IntRange(min=1),
        default=None,
        help="worker processes (or LocalCluster workers) playing the games; the rows do not depend on it  [default: all cores]",
    ),
    click.option(
        "--executor",
        type=EXECUTOR_CHOICE,
        default="local",
        show_default=True,
        help="local processes, or Dask (needs sweeplab[dask])",
    ),
    click.option(
        "--scheduler", default=None, metavar="tcp://HOST:PORT", help="an existing Dask scheduler (with --executor dask)"
    ),
]


def executor_options(fn: Any) -> Any:
    """Add ``--jobs``, ``--executor`` and ``--scheduler`` to a command."""
    for option in reversed(_executor_options):
        fn = option(fn)
    return fn


_EVAL_HELP = (
    "evaluation games: after each episode (xgboost: at boosting rounds 25, 50, 100, ... and the last) the model "
    "plays games 0 to N-1 of root seed 0 (a development seed) on --eval-board, the games `sweeplab bench --seed 0` "
    "deals, and "
    "dsscsp-manhattan plays them once as the reference; the win rates go to the card and curve.png. 0: none"
)

_eval_options = [
    click.option("--eval-games", type=click.IntRange(0, MAX_GAMES), default=EVAL_GAMES, show_default=True, help=_EVAL_HELP),
    click.option("--eval-board", default=EVAL_BOARD, show_default=True, help=f"the evaluation games' board: {BOARD_HELP}"),
    click.option(
        "--eval-rule", type=RULE_CHOICE, default="safe", show_default=True, help="the evaluation games' first-click rule"
    ),
]


def eval_options(fn: Any) -> Any:
    """Add ``--eval-games``, ``--eval-board`` and ``--eval-rule`` to a command."""
    for option in reversed(_eval_options):
        fn = option(fn)
    return fn


def eval_set(games: int, board: str, rule: str) -> Any:
    """The :class:`~sweeplab.learn.seed003.winrates.EvalSet` the evaluation options ask for; None for ``--eval-games 0``.
    A board that cannot be read is refused naming ``--eval-board``."""
    from sweeplab.core.rules import make_rules
    from sweeplab.learn.seed003.winrates import EvalSet

    if not games:
        return None
    try:
        rules = make_rules(board, rule)
    except ValueError as error:
        raise click.BadParameter(str(error), param_hint="--eval-board") from None
    return EvalSet(rules, games)


__all__ = [
    "EVAL_BOARD",
    "EVAL_GAMES",
    "MAX_GAMES",
    "board_options",
    "board_range",
    "eval_options",
    "eval_set",
    "executor_options",
    "parse_coefficients",
    "parse_span",
]
