"""``python -m sweeplab.studies.best``: the ``best`` strategy's data commands (summarise, cost, openings)."""

from sweeplab.studies.best.cli import main

if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
