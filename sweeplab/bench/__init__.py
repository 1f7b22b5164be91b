"""sweeplab.bench: seeded game runs, statistics, experiments."""
