"""The ``sweeplab`` command group and what its commands share: error handling, cell and strategy parsing, progress."""

from __future__ import annotations

import sys
from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

import click

from sweeplab.core.errors import SweeplabError
from sweeplab.core.geometry import Board
from sweeplab.core.rules import FIRST_CLICK_RULES, PRESETS

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


class SweeplabGroup(click.Group):
    """The command group: `sweeplab --help` lists each command with its whole short help, never cut to "..."."""

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = []
        for name in self.list_commands(ctx):
            command = self.get_command(ctx, name)
            if command is not None and not command.hidden:
                rows.append((name, command.get_short_help_str(limit=1_000)))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


@click.group(cls=SweeplabGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="sweeplab")
def main() -> None:
    """sweeplab: Minesweeper as a constraint satisfaction problem.

    Play strategies, analyse positions and benchmark them. Cells are 0-based (x, y), x across.
    """


def progress_bar(enabled: bool, description: str) -> Any:
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


def strategy_list(text: str, param_hint: str = "--strategy", options_allowed: bool = True) -> list[str]:
    """Strategy specs separated by commas (``exact,gac[pairs=False,subsets=False]``), each checked, in canonical form."""
    from sweeplab.strategies.registry import format_spec, parse_spec, split_specs

    specs = []
    for part in split_specs(text):
        try:
            name, chosen = parse_spec(part)
        except SweeplabError as error:
            raise click.BadParameter(str(error), param_hint=param_hint) from None
        if chosen and not options_allowed:
            raise click.BadParameter(f"{part!r}: this command takes strategy names without options", param_hint=param_hint)
        specs.append(format_spec(name, chosen))
    if not specs:
        raise click.BadParameter("give at least one strategy name", param_hint=param_hint)
    if len(set(specs)) != len(specs):
        raise click.BadParameter(f"{text!r} names a strategy twice", param_hint=param_hint)
    return specs


def executor_for(kind: str, jobs: int | None, scheduler: str | None) -> Any:
    """The executor a command runs its games on (see :mod:`sweeplab.bench.executors`)."""
    from sweeplab.bench.executors import make_executor

    if scheduler is not None and kind != "dask":
        raise click.BadParameter("--scheduler needs --executor dask", param_hint="--scheduler")
    return make_executor(kind, jobs, scheduler)


EXECUTOR_CHOICE = click.Choice(["local", "dask"])
