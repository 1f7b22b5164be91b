"""``python -m sweeplab.cli``."""

from sweeplab.cli import run

run()
