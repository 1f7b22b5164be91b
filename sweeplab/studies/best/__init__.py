"""The ``best`` strategy's study: its runs made into committed data (``runs``; ``python -m sweeplab.studies.best``) and
its section of docs/results.md (``section``, with its surveys' parts in ``surveys``).
May import sweeplab.studies' machinery, bench, strategies, analysis and core."""

from sweeplab.studies.best.cli import main
from sweeplab.studies.best.runs import cost, first_click_arg, openings, read_games, summarise
from sweeplab.studies.best.section import section, verdict
from sweeplab.studies.best.surveys import optimal_gap_shares

__all__ = ["cost", "first_click_arg", "main", "openings", "optimal_gap_shares", "read_games", "section", "summarise", "verdict"]
