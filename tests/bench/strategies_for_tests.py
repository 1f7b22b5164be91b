"""Strategies used only by the bench tests (registered with monkeypatch, never in the real registry)."""

from __future__ import annotations

import time

from sweeplab.core.game import Move
from sweeplab.core.observation import Observation
from sweeplab.strategies.base import Strategy


class CoinStrategy(Strategy):
    """Reveals a uniformly random covered cell and states its true average chance of safety, 1 - mines / covered.

    With no flags, the mines left are all among the covered cells, so a uniformly chosen covered cell is a mine
    with probability exactly mines_left / covered: this strategy is perfectly calibrated by construction.
    It also exposes a ``largest_set`` for the frontier experiment.
    """

    name = "test-coin"
    bias = 0.0

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.largest_set = (0, 0, 0, 0)

    def choose(self, observation: Observation) -> Move:
        covered = observation.covered()
        safety = min(1.0, 1 - observation.mines_left / len(covered) + self.bias)
        n = len(covered)
        if n > self.largest_set[0]:
            self.largest_set = (n, n // 2, n - n // 2, 2 ** min(n, 20))
        return self.guess(observation, self.rng.choice(covered), "unconstrained", safety)


class OverconfidentStrategy(CoinStrategy):
    """The same guesses, but it claims 20 points more chance of safety than there is."""

    name = "test-overconfident"
    bias = 0.2


class SlowStrategy(Strategy):
    """Burns ``burn`` CPU seconds on every move, then reveals a random cell."""

    name = "test-slow"
    burn = 0.02

    def choose(self, observation: Observation) -> Move:
        end = time.thread_time() + self.burn
        while time.thread_time() < end:
            pass
        return self.guess(observation, self.random_covered(observation), "random")


class CrashStrategy(Strategy):
    """Flags a cell, then crashes with a bug on its second move."""

    name = "test-crash"

    def choose(self, observation: Observation) -> Move:
        if observation.moves >= 1:
            raise ZeroDivisionError("a bug")
        return Move.flag(observation.covered()[0])
