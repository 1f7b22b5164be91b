"""The ``sweeplab`` command: thin wrappers that parse arguments, call the library and print.

One module per group of commands; each registers its commands on :data:`sweeplab.cli.app.main`.
"""

from sweeplab.cli import analyze, bench, experiment, learn, learn_neural, optimal, play, replay, serve  # noqa: F401  (importing registers the commands)
from sweeplab.cli.app import main

__all__ = ["main"]
