"""The ``best`` strategy: the exact engine plus look-ahead, dead cells, forced guesses, endgame search and openings."""

from sweeplab.strategies.best.strategy import BestStrategy

__all__ = ["BestStrategy"]
