"""``python -m sweeplab.cli``."""

from sweeplab.cli import main

main()
