"""The seed papers' reproductions: each paper's experiments (the levels tables, seed 000's sweeps, guess logs and
audits) and its claims that were never numbers, tested with verdicts.
May import sweeplab.studies' machinery (experiment, claim, published, plots), bench, strategies, analysis and core."""
