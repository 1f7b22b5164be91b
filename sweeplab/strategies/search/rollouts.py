"""Rollouts: a guess's chance of winning, estimated by playing the game out on layouts drawn from the posterior.

A layout is drawn exactly (:class:`~sweeplab.analysis.exact.listing.LayoutSampler`: every layout that fits the
position equally likely); a candidate cell is revealed on it and ``exact``'s C game loop (``play_exact``, the
players' C module) plays on to the end. The same layouts serve every candidate (common random numbers), so the
difference between two candidates is measured on the same games, and its standard error is the paired one.
:func:`halve` spends a number of rollouts over the candidates by sequential halving (Karnin et al. 2013): in each
round every candidate still in plays the same new layouts, and the worse half leaves, except the incumbent (the
cell ``best`` would play), which stays to the end so that the final comparison is always with it.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field

import numpy as np

from sweeplab.analysis.exact.budget import Budget
from sweeplab.analysis.exact.listing import LayoutSampler
from sweeplab.core.observation import Observation
from sweeplab.strategies.loops import LOOPS

#: exact's C game loop, or None where the players' C module is not built (then no rollouts: ``search`` plays ``best``)
PLAY_EXACT = getattr(LOOPS, "play_exact", None)


@dataclass
class Arm:
    """One candidate cell and its rollouts' outcomes (1 won, 0 lost, 0.5 unfinished), in layout order."""

    cell: int
    outcomes: list[float] = field(default_factory=list)

    @property
    def mean(self) -> float:
        return sum(self.outcomes) / len(self.outcomes) if self.outcomes else 0.0


class Rollouts:
    """Plays candidates of one position out on layouts drawn from its posterior (see the module docstring)."""

    def __init__(self, observation: Observation, sampler: LayoutSampler, mines: frozenset[int], rng: random.Random,
                 budget: Budget, horizon: int = 0) -> None:  # fmt: skip
        board = observation.board
        self.width, self.height, self.cells, self.mines = board.width, board.height, board.cells, observation.mines
        self.view = list(observation.view)
        self.proved = bytearray(self.cells)
        for c in mines:
            self.proved[c] = 1
        self.sampler, self.rng, self.budget, self.horizon = sampler, rng, budget, horizon
        self.layouts: list[tuple[list[int], list[int]]] = []  # (mine flags, numbers) per drawn layout
        self.unfinished = 0  # rollouts the loop left unfinished (it could not vouch for a move; counted as 0.5)
        self.played = 0

    def draw(self, n: int) -> None:
        """Draw ``n`` more layouts (with their numbers) for every candidate to play."""
        w, h = self.width, self.height
        for _ in range(n):
            drawn = self.sampler.draw(self.rng)
            grid = np.zeros((h + 2, w + 2), dtype=np.int8)
            grid[1:-1, 1:-1] = np.frombuffer(drawn, dtype=np.int8).reshape(h, w)
            around = sum(grid[1 + dy : h + 1 + dy, 1 + dx : w + 1 + dx] for dy in (-1, 0, 1) for dx in (-1, 0, 1))
            number = (around - grid[1:-1, 1:-1]).ravel().tolist()
            self.layouts.append((list(drawn), number))

    def play(self, cell: int, k: int) -> float:
        """The outcome of revealing ``cell`` on layout ``k`` and playing ``exact`` after it: 1 won, 0 lost; with a
        ``horizon`` of n guesses, a game still on after n guesses scores the safety of the guess after them (the
        chance to survive it, an unbiased value of surviving n + 1 guesses on this layout's path)."""
        mine, number = self.layouts[k]
        self.played += 1
        if mine[cell]:
            return 0.0
        assert PLAY_EXACT is not None
        b = self.budget
        done, cells, guesses, _ = PLAY_EXACT(
            mine, number, list(self.view), bytearray(self.proved), self.width, self.height, self.mines, 0,
            10 * self.cells + 10, b.max_states, b.max_bytes, b.seconds, cell, 0.0, self.horizon,
        )  # fmt: skip
        if not done and guesses and guesses[-1][3] == -1:  # stopped at the horizon, before a guess
            return float(guesses[-1][2])
        if not done:
            self.unfinished += 1
            return 0.5
        return 0.0 if mine[cells[-1]] else 1.0


def halve(rollouts: Rollouts, cells: list[int], incumbent: int, total: int, deadline: float | None = None) -> list[Arm]:
    """Spend about ``total`` rollouts on ``cells`` by sequential halving, ``incumbent`` kept in to the end; the arms
    still in at the end (the incumbent among them), each played on the same layouts. ``deadline`` (a reading of
    :func:`time.thread_time`) ends the rounds early."""
    arms = {c: Arm(c) for c in cells}
    alive = list(cells)
    rounds = max(1, math.ceil(math.log2(len(cells))))
    spent = 0
    for r in range(rounds):
        share = total // rounds if r < rounds - 1 else total - spent  # the last round gets what is left
        per = max(1, share // len(alive))
        spent += per * len(alive)
        start = len(rollouts.layouts)
        rollouts.draw(per)
        for k in range(start, len(rollouts.layouts)):
            for c in alive:
                arms[c].outcomes.append(rollouts.play(c, k))
            if deadline is not None and time.thread_time() > deadline:
                break
        if r == rounds - 1 or len(alive) <= 2 or (deadline is not None and time.thread_time() > deadline):
            break
        ranked = sorted(alive, key=lambda c: (c != incumbent, -arms[c].mean))
        keep = max(2, math.ceil(len(alive) / 2))
        alive = [c for c in alive if c in ranked[:keep]]
    if any(len(arms[c].outcomes) != len(arms[incumbent].outcomes) for c in alive):  # a deadline mid-round: even out
        n = min(len(arms[c].outcomes) for c in alive)
        for c in alive:
            del arms[c].outcomes[n:]
    return [arms[c] for c in alive]


def paired(a: Arm, b: Arm) -> tuple[float, float]:
    """The mean difference of ``a`` over ``b`` on their common layouts, and its standard error."""
    n = min(len(a.outcomes), len(b.outcomes))
    if n < 2:
        return 0.0, math.inf
    d = [x - y for x, y in zip(a.outcomes[:n], b.outcomes[:n], strict=True)]
    mean = sum(d) / n
    var = sum((x - mean) ** 2 for x in d) / (n - 1)
    return mean, math.sqrt(var / n)
