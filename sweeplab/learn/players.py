"""Seed 003's learned players (versions "+ Supervised Learning" and "+ Q-Learning"): DSScsp's certain moves first,
otherwise the cell a trained model prefers.

Source: ``003_f5c1155f4ddfa843.txt`` sections 4.2.2-4.2.3, 5.2 and Table 3. Each player is seed 003's DSScsp
version (``dsscsp``: DSS backbones, then the DSScsp enumeration; its certain safes are revealed and certain mines
flagged before any guess, and its first move is a corner). When no move is certain, every covered cell is a
candidate and the model scores each: the classifiers (``xgboost``, ``nn``) give a mine probability and the player
reveals the least; the Q-network (``dqn``, ``dqn-single``) gives the expected discounted reward of the cell's
sub-state and the player reveals the greatest. Ties (equal scores) go to the seeded generator, so a seed fixes the
game. Models load from the package (``sweeplab/learn/models/NAME``) or from ``model=FOLDER`` (a folder written by
``sweeplab learn train``); NumPy plays the networks, XGBoost (the ``learn`` extra) its trees.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import ClassVar

from sweeplab.analysis.constraints import Problem
from sweeplab.core.game import Move
from sweeplab.core.observation import Observation
from sweeplab.learn.models import shipped
from sweeplab.learn.scorers import INSTALL, Scorer, _missing, load_scorer
from sweeplab.strategies.base import Explanation, StrategyError
from sweeplab.strategies.dss import DSScspManhattanStrategy, DSScspStrategy

TIE = 1e-9

Watcher = Callable[[Observation, dict[int, float]], None]


class ManhattanPlayer(DSScspManhattanStrategy):
    """Seed 003's base player for data (``dsscsp-manhattan``) with a ``watcher`` called at every guess."""

    name = "dsscsp-manhattan"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.watcher: Watcher | None = None

    def choose_guess(self, observation: Observation, problem: Problem, probabilities: dict[int, float]) -> Move:
        if self.watcher is not None:
            self.watcher(observation, probabilities)
        return super().choose_guess(observation, problem, probabilities)


class LearnedStrategy(DSScspStrategy):
    """DSScsp's certain moves, else the candidate the model scores best (see the module docstring).

    Options: ``model`` (a model folder; empty for the shipped one) and ``explore`` (the chance of a uniformly random
    candidate instead, used when the Q-network generates its own training games; 0 when playing). ``scorer`` sets
    a model object directly (from Python, during training).
    """

    source = "seed 003 (003_f5c1155f4ddfa843.txt), sections 4.2.2-4.2.3, 5.2, Table 3"
    kind: ClassVar[str] = ""
    default_model: ClassVar[str] = ""

    def __init__(self, seed: int | None = None, *, model: str = "", explore: float = 0.0, scorer: Scorer | None = None) -> None:
        super().__init__(seed)
        if not 0.0 <= explore <= 1.0:
            raise StrategyError(f"strategy {self.name!r}: explore must be between 0 and 1, not {explore}")
        self.explore = explore
        if scorer is not None and not callable(getattr(scorer, "values", None)):
            raise StrategyError(f"strategy {self.name!r}: scorer must be a model object (set it from Python), not {scorer!r}")
        self.scorer: Scorer = (
            scorer if scorer is not None else load_scorer(self.kind, Path(model) if model else shipped(self.default_model))
        )
        self.watcher: Watcher | None = None

    def choose_guess(self, observation: Observation, problem: Problem, probabilities: dict[int, float]) -> Move:
        if self.watcher is not None:
            self.watcher(observation, probabilities)
        cells = sorted(probabilities)
        if self.explore and self.rng.random() < self.explore:
            cell = self.rng.choice(cells)
            return self.guess(observation, cell, "random", 1.0 - probabilities[cell])
        values = self.scorer.values(observation, cells, probabilities)
        best = float(values.max())
        ties = [c for c, v in zip(cells, values, strict=True) if v >= best - TIE]
        cell = ties[0] if len(ties) == 1 else self.rng.choice(ties)
        index = cells.index(cell)
        safety = float(self.scorer.safety(observation, cells, probabilities, values)[index])
        kind = "unconstrained" if cell in problem.unconstrained else "educated"
        figures = {
            "model": self.scorer.kind,
            "score": round(float(values[index]), 6),
            "dsscsp_mine_probability": round(probabilities[cell], 6),
            "candidates": len(cells),
        }
        what = "expected reward" if self.scorer.kind == "dqn" else "safety"
        text = (
            f"{self.name}: {observation.board.name(cell)} has the best model {what} ({values[index]:.3f}) "
            f"of {len(cells)} covered cells"
        )
        return self.guess(observation, cell, kind, safety, Explanation(text, figures))


_NOTE = "" if not _missing("xgboost") else f" [needs: {INSTALL}]"


class XGBoostStrategy(LearnedStrategy):
    """Seed 003's "+ Supervised Learning using Single-pass Classification": an XGBoost classifier on section 4.2.2's
    features, trained once on games of the Manhattan version."""

    name = "xgboost"
    summary = "dsscsp certain moves, else the cell an XGBoost classifier on CSP features rates safest (seed 003 4.2.2)" + _NOTE
    kind = "xgboost"
    default_model = "xgboost"


class NNStrategy(LearnedStrategy):
    """Seed 003's "+ Supervised Learning using Iterative Approach": the network of Table 1 trained by Algorithm 4."""

    name = "nn"
    summary = "dsscsp certain moves, else the cell the iteratively trained network of Table 1 rates safest (seed 003 4.2.2)"
    kind = "nn"
    default_model = "nn"


class DQNStrategy(LearnedStrategy):
    """Seed 003's "+ Q-Learning using Iterative Classification": the Q-network of Table 2 on sub-states of scores."""

    name = "dqn"
    summary = (
        "dsscsp certain moves, else the cell whose sub-state the iteratively trained Q-network of Table 2 values most "
        "(seed 003 4.2.3)"
    )
    kind = "dqn"
    default_model = "dqn"


class DQNSingleStrategy(LearnedStrategy):
    """Seed 003's "+ Q-Learning using Single-pass Classification": the same Q-network trained once on the base
    heuristic's games."""

    name = "dqn-single"
    summary = "dqn with the Q-network trained in one pass on the Manhattan player's games (seed 003 4.2.3)"
    kind = "dqn"
    default_model = "dqn-single"


WatchedStrategy = ManhattanPlayer | LearnedStrategy

__all__ = [
    "INSTALL",
    "DQNSingleStrategy",
    "DQNStrategy",
    "LearnedStrategy",
    "ManhattanPlayer",
    "NNStrategy",
    "Scorer",
    "WatchedStrategy",
    "XGBoostStrategy",
    "load_scorer",
]
