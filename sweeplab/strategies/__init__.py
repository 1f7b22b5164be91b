"""sweeplab.strategies: players that turn an Observation into a Move, and a registry of them by name.

Importing it imports :mod:`sweeplab.analysis`, which registers the ``noguess`` rule's dealer, so every game a player
plays (the harness's, the web helper's, a learner's) can be dealt under that rule."""

import sweeplab.analysis  # noqa: F401  (registers the noguess dealer with core)
from sweeplab.strategies.base import Guess, Strategy, StrategyError, play
from sweeplab.strategies.registry import get, make, names, register

__all__ = ["Guess", "Strategy", "StrategyError", "get", "make", "names", "play", "register"]
