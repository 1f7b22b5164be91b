"""The ``best`` strategy: the exact engine plus look-ahead, dead cells, forced guesses, endgame search and openings;
its hot paths in C are ``_best.c`` here (built into sweeplab.strategies._players).
May import core, formats, analysis and sweeplab.strategies (base, loops)."""

from sweeplab.strategies.best.strategy import BestStrategy

__all__ = ["BestStrategy"]
