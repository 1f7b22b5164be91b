"""Players over seed 004's local search: estimate mine probabilities from sampled consistent layouts (SA or GA).

Seed 004 (/work/shared/seeds/004_a8e7fd761db7071b.txt, "Minesweeper", American University of Armenia), section 3
"Literature Review" names random search, hill climbing, simulated annealing and a genetic algorithm as the known ways
to *solve* a Minesweeper board, i.e. to find one mine layout consistent with the numbers (the solvers are in
``sweeplab.analysis.search.local_search``). The paper does not say how to *play* with them; we do this:

1. The trivial rules first (a number whose flags equal it: its other covered neighbours are safe; whose flags plus
   covered neighbours equal it: they are mines, flagged). Every certain move found in one scan is queued and played
   before the board is scanned again.
2. With nothing certain, run the solver ``runs`` times (default 8), each from a fresh generator drawn from
   ``self.rng`` and with at most ``budget`` iterations (default 20,000 for SA, whose iteration moves one mine and
   costs a few microseconds; 3,000 for GA, whose iteration builds and scores a whole child layout, about ten times
   dearer even computed a generation at a time with numpy). Each run stops at its first consistent layout; the
   distinct consistent layouts found are the sample.
3. A covered cell's mine probability is estimated as its frequency among the distinct layouts; the agent reveals a
   cell of lowest estimate (ties broken with ``self.rng``). Even a cell that was never a mine in the sample is only a
   guess (kind "educated", safety = 1 - estimate): the samples are few and not uniform over layouts. The very first
   move is recorded as kind "first". If no run finds a consistent layout, a uniformly random covered cell is revealed
   (kind "random").

Work per move is bounded by ``runs * budget`` solver iterations (measured on expert positions: at most about 0.3 s for SA
and 0.5 s for GA; most moves stop far sooner because runs end at their first consistent layout); there is
no wall-clock limit, so the same seed always plays the same moves.
This is meant to be a weak and slow player: a handful of layouts found by local search is a poor estimate of the
probabilities (it is biased towards layouts that are easy to reach), which is what the comparison with the exact
engine is for.
"""

from __future__ import annotations

import random

from sweeplab.analysis.search.local_search import SOLVERS, landscape
from sweeplab.core.errors import InconsistentPositionError
from sweeplab.core.game import Move
from sweeplab.core.observation import Observation
from sweeplab.strategies.base import StrategyError
from sweeplab.strategies.simple import SinglePointStrategy

DEFAULT_RUNS = 8
DEFAULT_BUDGET = {"sa": 20_000, "ga": 3000}  #: iterations per run, by method
MAX_RUNS = 10_000  #: solver runs per stuck position at most (each may take up to the solver's 30 s wall-clock cap)
MAX_BUDGET = 10**8  #: iterations per run at most


class LocalSearchStrategy(SinglePointStrategy):
    """Trivial rules, then the lowest mine frequency among layouts sampled by a local-search solver."""

    method = "sa"

    def __init__(self, seed: int | None = None, runs: int = DEFAULT_RUNS, budget: int | None = None) -> None:
        super().__init__(seed)
        if budget is None:
            budget = DEFAULT_BUDGET[self.method]
        for label, value, top in (("runs", runs, MAX_RUNS), ("budget", budget, MAX_BUDGET)):
            if not 1 <= value <= top:
                raise StrategyError(f"strategy {self.name!r}: {label} must be between 1 and {top:,}, not {value}")
        self.runs = runs
        self.budget = budget
        self.searches = 0  #: how many times the solver was called (for the docs)

    def when_stuck(self, observation: Observation) -> Move:
        return self._sampled_guess(observation)

    def sample_layouts(self, observation: Observation) -> set[frozenset[int]]:
        """The distinct consistent layouts found by ``runs`` solver runs (each from a generator drawn from self.rng)."""
        self.searches += 1
        try:
            land = landscape(observation)
        except InconsistentPositionError:
            return set()
        solver = SOLVERS[self.method]
        layouts: set[frozenset[int]] = set()
        for _ in range(self.runs):
            result = solver(land, random.Random(self.rng.getrandbits(64)), self.budget, float("inf"))
            if result.found:
                layouts.add(result.layout)
        return layouts

    def estimates(self, observation: Observation) -> dict[int, float]:
        """Each covered cell's mine frequency among the sampled layouts (empty when none was found)."""
        layouts = self.sample_layouts(observation)
        if not layouts:
            return {}
        covered = observation.covered()
        counts = dict.fromkeys(covered, 0)
        for layout in layouts:
            for cell in layout:
                if cell in counts:
                    counts[cell] += 1
        return {cell: counts[cell] / len(layouts) for cell in covered}

    def _sampled_guess(self, observation: Observation) -> Move:
        kind = "first" if observation.is_start() else "educated"
        estimate = self.estimates(observation)
        if not estimate:
            return self.guess(observation, self.random_covered(observation), "first" if kind == "first" else "random")
        low = min(estimate.values())
        cell = self.rng.choice([c for c, p in estimate.items() if p == low])
        return self.guess(observation, cell, kind, 1.0 - low)


class SimulatedAnnealingStrategy(LocalSearchStrategy):
    __doc__ = LocalSearchStrategy.__doc__
    name = "sa"
    source = "seed 004, section 3 (simulated annealing, after [FM])"
    summary = "trivial rules, else reveal the cell least often a mine among layouts found by simulated annealing"
    method = "sa"


class GeneticAlgorithmStrategy(LocalSearchStrategy):
    __doc__ = LocalSearchStrategy.__doc__
    name = "ga"
    source = "seed 004, section 3 (genetic algorithm, after [FM])"
    summary = "trivial rules, else reveal the cell least often a mine among layouts found by a genetic algorithm"
    method = "ga"
