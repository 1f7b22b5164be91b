"""The results pages: docs/results.md (a scoreboard of every claim) and one page per paper and study under
docs/results/, written from the data under results/ by ``python -m sweeplab.studies.pages``.
May import everything else in sweeplab.studies, and bench, strategies, analysis and core."""
