"""The ``sweeplab`` command: thin wrappers that parse arguments, call the library and print.

One module per group of commands; each registers its commands on :data:`sweeplab.cli.app.main` when it is imported,
which happens the first time one of its commands is asked for (:data:`sweeplab.cli.app.COMMAND_MODULES`).
"""

from sweeplab.cli.app import main, run

__all__ = ["main", "run"]
