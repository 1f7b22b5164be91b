"""The ``sweeplab`` command group and what its commands share: error handling, cell and strategy parsing, progress."""

from __future__ import annotations

import contextlib
import math
import os
import sys
from collections.abc import Callable, Iterable
from functools import wraps
from typing import Any, NoReturn, TypeVar

import click

from sweeplab.core.errors import InconsistentPositionError, SweeplabError, UndecidedError
from sweeplab.core.geometry import Board
from sweeplab.core.rules import FIRST_CLICK_RULES, PRESETS

F = TypeVar("F", bound=Callable[..., Any])

BOARD_HELP = f"a preset ({', '.join(PRESETS)}) or WIDTHxHEIGHTxMINES"
RULE_CHOICE = click.Choice(list(FIRST_CLICK_RULES))


# Exit statuses: one meaning each, the same in every command (listed in ``sweeplab --help``).
EXIT_OK = 0
EXIT_FAILURE = 1  # an unexpected internal error, or a run that failed (e.g. a strategy crashed)
EXIT_BAD_INPUT = 2  # usage, argument, unreadable or malformed file (click uses 2 for usage errors too)
EXIT_INCONSISTENT = 3  # the position is proved inconsistent: no mine layout can produce it
EXIT_UNDECIDED = 4  # the budget ran out before the question was answered (not even estimated)
EXIT_SIGINT = 130  # interrupted by SIGINT (Ctrl-C); finished work kept
EXIT_SIGTERM = 143  # stopped by SIGTERM; finished work kept
EXIT_BROKEN_PIPE = 141  # the output's reader went away (``| head``): 128 + SIGPIPE, as a program killed by it

EXIT_STATUS_HELP = """\b
Exit statuses (every command):
  0    success
  1    an unexpected internal error (a bug), or a failed run (e.g. a strategy crashed)
  2    bad input: usage, an argument, an unreadable or malformed file
  3    the position is proved inconsistent (no mine layout can produce it)
  4    undecided: the time budget ran out before an answer (raise --seconds)
  130  interrupted by Ctrl-C (SIGINT); 143 stopped by SIGTERM
  141  the output's reader stopped reading (e.g. `sweeplab strategies | head -1`)
Set SWEEPLAB_DEBUG=1 to see the traceback of an internal error."""


class Seconds(click.ParamType):
    """A finite number of seconds above 0 (``nan``, ``inf``, 0 and negative numbers are refused)."""

    name = "SECONDS"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> float:
        try:
            seconds = float(value)
        except (TypeError, ValueError):
            self.fail(f"{value!r} is not a number of seconds", param, ctx)
        if not (0 < seconds < math.inf):
            self.fail(f"{value!r} is not a finite number of seconds above 0", param, ctx)
        return seconds


SECONDS = Seconds()


def exit_status(error: BaseException) -> int:
    """The exit status for an error a command let through (see :data:`EXIT_STATUS_HELP`)."""
    if isinstance(error, InconsistentPositionError):
        return EXIT_INCONSISTENT
    if isinstance(error, UndecidedError):
        return EXIT_UNDECIDED
    if isinstance(error, SweeplabError):
        return EXIT_BAD_INPUT
    if isinstance(error, KeyboardInterrupt):
        return EXIT_SIGINT
    return EXIT_FAILURE


def friendly_errors(fn: F) -> F:
    """Turn what a command raises into one line on stderr and the exit status for it, never a traceback.

    A :class:`SweeplabError` is bad input (2), a proved inconsistency (3) or an undecided question (4); Ctrl-C is
    130; an ``OSError`` (a file that cannot be written, a full disk) is a failed run (1); any other exception is a
    bug (1), reported with the command's name and, when ``SWEEPLAB_DEBUG=1``, re-raised for its traceback. Click's
    own exceptions (usage errors, ``--help``) and ``sys.exit`` pass through untouched.
    """

    @wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except (click.exceptions.ClickException, click.exceptions.Abort, click.exceptions.Exit):
            raise
        except SweeplabError as error:
            click.echo(f"error: {error}", err=True)
            sys.exit(exit_status(error))
        except KeyboardInterrupt:
            click.echo(f"{_command_name()}: interrupted", err=True)
            sys.exit(EXIT_SIGINT)
        except BrokenPipeError:
            output_closed()
        except Exception as error:
            if os.environ.get("SWEEPLAB_DEBUG", "") not in ("", "0"):
                raise
            what = f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
            if isinstance(error, OSError):
                click.echo(f"error: {_command_name()} failed: {what}", err=True)
            else:
                click.echo(
                    f"error: {_command_name()} failed with an internal error ({what}); this is a bug: please report it "
                    "with the command line (set SWEEPLAB_DEBUG=1 to see the traceback)",
                    err=True,
                )
            sys.exit(EXIT_FAILURE)

    return wrapper  # type: ignore[return-value]


def output_closed() -> NoReturn:
    """Stop quietly because standard output's reader went away (``| head``), exiting 141 as ``head``'s writers do.

    Standard output is pointed at ``/dev/null`` first, so that flushing it at exit cannot fail a second time.
    """
    with contextlib.suppress(OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    sys.exit(EXIT_BROKEN_PIPE)


def run() -> None:
    """The ``sweeplab`` program: :data:`main`, then standard output flushed (a closed pipe there exits 141 too)."""
    try:
        main()
    finally:
        try:
            sys.stdout.flush()
        except BrokenPipeError:
            output_closed()


def _command_name() -> str:
    context = click.get_current_context(silent=True)
    return context.command_path if context is not None else "sweeplab"


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


#: The module (or modules) that registers each command, imported only when that command runs or help lists them
#: all: a command pays for its own imports alone (``sweeplab bench`` never loads the web server or the learners).
COMMAND_MODULES: dict[str, tuple[str, ...]] = {
    "analyze": ("sweeplab.cli.analyze",),
    "arena": ("sweeplab.cli.arena",),
    "consistent": ("sweeplab.cli.analyze",),
    "consistency-report": ("sweeplab.cli.analyze",),
    "bench": ("sweeplab.cli.bench",),
    "bench-engine": ("sweeplab.cli.bench",),
    "deal": ("sweeplab.cli.bench",),
    "experiment": ("sweeplab.cli.experiment",),
    "evaluate": ("sweeplab.cli.optimal",),
    "optimal": ("sweeplab.cli.optimal",),
    "optimal-table": ("sweeplab.cli.optimal",),
    "strategies": ("sweeplab.cli.play",),
    "play": ("sweeplab.cli.play",),
    "replay": ("sweeplab.cli.replay",),
    "serve": ("sweeplab.cli.serve",),
    "learn": ("sweeplab.cli.learn.commands", "sweeplab.cli.learn.neural"),
}


def load_commands(names: Iterable[str] | None = None) -> None:
    """Import the modules that register ``names`` (every command when None) on :data:`main`."""
    import importlib

    for name in COMMAND_MODULES if names is None else names:
        for module in COMMAND_MODULES.get(name, ()):
            importlib.import_module(module)


class SweeplabGroup(click.Group):
    """The command group: `sweeplab --help` lists each command with its whole short help, never cut to "...".

    Commands are loaded lazily (:data:`COMMAND_MODULES`): a command's module is imported when it is asked for."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(COMMAND_MODULES) | set(self.commands))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands:
            load_commands([cmd_name])
        return super().get_command(ctx, cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = []
        for name in self.list_commands(ctx):
            command = self.get_command(ctx, name)
            if command is not None and not command.hidden:
                rows.append((name, command.get_short_help_str(limit=1_000)))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


@click.group(cls=SweeplabGroup, context_settings={"help_option_names": ["-h", "--help"]}, epilog=EXIT_STATUS_HELP)
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


def strategy_list(text: str, param_hint: str = "--strategy") -> list[str]:
    """Strategy specs separated by commas (``exact,gac[pairs=False,subsets=False]``), each checked (and built once, so
    that an option out of its range is refused before any game starts), in canonical form."""
    from sweeplab.strategies.registry import checked_spec, split_specs

    specs = []
    for part in split_specs(text):
        try:
            spec = checked_spec(part, outside=True)  # the command line may name an outside program
        except SweeplabError as error:
            raise click.BadParameter(str(error), param_hint=param_hint) from None
        specs.append(spec)
    if not specs:
        raise click.BadParameter("give at least one strategy name", param_hint=param_hint)
    if len(set(specs)) != len(specs):
        raise click.BadParameter(f"{text!r} names a strategy twice", param_hint=param_hint)
    return specs


def executor_for(kind: str, jobs: int | None, scheduler: str | None, start: str = "fork") -> Any:
    """The executor a command runs its games on (see :mod:`sweeplab.bench.executors`; ``start``: how local workers
    start, ``forkserver`` where this process runs OpenMP code before it hands work out)."""
    from sweeplab.bench.executors import make_executor

    if scheduler is not None and kind != "dask":
        raise click.BadParameter("--scheduler needs --executor dask", param_hint="--scheduler")
    return make_executor(kind, jobs, scheduler, start)


EXECUTOR_CHOICE = click.Choice(["local", "dask"])
