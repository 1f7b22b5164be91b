"""The ``search`` player's study: its paired runs against ``best`` on expert, its budget curve and its small-board
gaps to optimal play, made into a page of docs/results.md (``section``) and a picture (``python -m sweeplab.studies.strongest``).
May import sweeplab.studies' machinery, bench, strategies, analysis and core."""

from sweeplab.studies.strongest.section import CONFIGS, plot, scores, section, section_parts

__all__ = ["CONFIGS", "plot", "scores", "section", "section_parts"]
