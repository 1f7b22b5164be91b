"""Strategies that only the web tests register (one that explains its guesses, one that crashes), and a broken helper."""

from sweeplab.core.game import Move
from sweeplab.core.observation import Observation
from sweeplab.strategies.base import Explanation, Strategy


class ExplainingStrategy(Strategy):
    """Reveals the first covered cell as a guess and says why, as ``best`` does."""

    name = "test-explainer"
    source = "tests"
    summary = "first covered cell, explained"

    def choose(self, observation: Observation) -> Move:
        cell = observation.covered()[0]
        return self.guess(observation, cell, "educated", 0.5, Explanation("the first covered cell", {"cell": cell, "p": 0.5}))


class CrashingStrategy(Strategy):
    name = "test-crasher"
    source = "tests"
    summary = "raises"

    def choose(self, observation: Observation) -> Move:
        raise ZeroDivisionError("boom")


def broken_hint(observation: Observation, level: int) -> dict:
    """A helper with a bug, run in a solver process like the real one."""
    raise RuntimeError("something broke")
