"""The shared CLI machinery: one exit status per meaning in every command, one line per error, no tracebacks."""

import click
import pytest
from click.testing import CliRunner

from sweeplab.cli import main
from sweeplab.cli.app import (
    EXIT_BAD_INPUT,
    EXIT_FAILURE,
    EXIT_INCONSISTENT,
    EXIT_SIGINT,
    EXIT_UNDECIDED,
    exit_status,
    friendly_errors,
)
from sweeplab.core.errors import InconsistentPositionError, PositionFormatError, UndecidedError


def _command(error: BaseException) -> click.Command:
    @click.command("boom")
    @friendly_errors
    def boom() -> None:
        raise error

    return boom


def _run(error: BaseException, **env: str):
    return CliRunner().invoke(_command(error), [], env=env)


@pytest.mark.parametrize(
    ("error", "status"),
    [
        (PositionFormatError("p.txt, line 2: bad"), EXIT_BAD_INPUT),
        (InconsistentPositionError("the 2 at (0, 0) cannot hold"), EXIT_INCONSISTENT),
        (UndecidedError("undecided within the budget"), EXIT_UNDECIDED),
        (KeyboardInterrupt(), EXIT_SIGINT),
    ],
)
def test_each_kind_of_error_has_its_own_status(error, status):
    result = _run(error)
    assert result.exit_code == status == exit_status(error)
    assert "Traceback" not in result.output and len(result.output.strip().splitlines()) == 1


def test_an_unexpected_exception_is_reported_as_a_bug_in_one_line():
    result = _run(ZeroDivisionError("division by zero"))
    assert result.exit_code == EXIT_FAILURE
    line = result.output.strip()
    assert len(line.splitlines()) == 1 and "Traceback" not in line
    assert "boom failed" in line and "ZeroDivisionError: division by zero" in line
    assert "this is a bug" in line and "SWEEPLAB_DEBUG=1" in line


def test_debug_shows_the_traceback():
    result = _run(ZeroDivisionError("division by zero"), SWEEPLAB_DEBUG="1")
    assert isinstance(result.exception, ZeroDivisionError)


def test_an_os_error_is_a_failed_run_not_a_bug():
    result = _run(OSError(28, "No space left on device"))
    assert result.exit_code == EXIT_FAILURE
    assert "No space left on device" in result.output and "bug" not in result.output


def test_click_usage_errors_pass_through():
    result = _run(click.BadParameter("nope", param_hint="--x"))
    assert result.exit_code == 2 and "Invalid value for --x" in result.output


def test_top_level_help_lists_the_exit_statuses():
    result = CliRunner().invoke(main, ["--help"])
    assert result.exit_code == 0
    text = result.output
    lines = [line.split() for line in text.splitlines() if line.strip()]
    listed = {words[0] for words in lines if words[0].isdigit()}
    assert {"0", "1", "2", "3", "4", "130"} <= listed, listed
    assert "proved inconsistent" in text and "undecided" in text and "SWEEPLAB_DEBUG" in text


@pytest.mark.parametrize(
    "args", [["strategies"], ["play", "-s", "exact", "-b", "expert", "--steps"]], ids=["strategies", "play-steps"]
)
def test_a_reader_that_goes_away_ends_the_command_quietly_with_141(args):
    """``sweeplab strategies | head -1``: the pipe's reader is gone before anything is written (closed here at once),
    so every write fails; the command stops with 141 (as a program killed by SIGPIPE) and says nothing."""
    import subprocess
    import sys

    child = subprocess.Popen([sys.executable, "-m", "sweeplab.cli", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert child.stdout is not None and child.stderr is not None
    child.stdout.close()
    stderr = child.stderr.read().decode()
    assert child.wait(timeout=120) == 141, stderr
    assert stderr == ""
