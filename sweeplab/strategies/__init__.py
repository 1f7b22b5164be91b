"""sweeplab.strategies: players that turn an Observation into a Move, and a registry of them by name."""

from sweeplab.strategies.base import Guess, Strategy, StrategyError, play
from sweeplab.strategies.registry import get, make, names, register

__all__ = ["Guess", "Strategy", "StrategyError", "get", "make", "names", "play", "register"]
