"""``python -m sweeplab.studies.strongest [--results results]``: draw results/strongest/budget.png from the runs."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from sweeplab.studies.strongest.section import plot


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m sweeplab.studies.strongest", description=__doc__)
    parser.add_argument("--results", type=Path, default=Path("results"), help="the results folder (default: results)")
    args = parser.parse_args(argv)
    try:
        path = plot(args.results)
    except (FileNotFoundError, ValueError) as error:
        print(f"python -m sweeplab.studies.strongest: {error}", file=sys.stderr)
        return 1
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
