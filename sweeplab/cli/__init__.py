"""The ``sweeplab`` command: thin wrappers that parse arguments, call the library and print.

One module per group of commands; each registers its commands on :data:`sweeplab.cli.app.main`.
"""

from sweeplab.cli import analyze, arena, bench, experiment, optimal, play, replay, serve  # noqa: F401  (importing registers the commands)
from sweeplab.cli.app import main
from sweeplab.cli.learn import commands, neural  # noqa: F401  (the same, for ``sweeplab learn``)

__all__ = ["main"]
