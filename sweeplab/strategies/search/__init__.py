"""``search``: ``best``'s guesses weighed again by playing them out on layouts drawn exactly from the posterior.
Its parts: the rollouts (exact draws, ``exact``'s C game loop, sequential halving) and the player.
May import strategies' base, best and loops, analysis and core."""

from sweeplab.strategies.search.strategy import SearchStrategy

__all__ = ["SearchStrategy"]
