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

import numpy as np

from sweeplab.analysis.exact.constraints import Problem
from sweeplab.core.game import Move
from sweeplab.core.observation import Observation
from sweeplab.learn.models import shipped
from sweeplab.learn.seed003.scorers import INSTALL, Scorer, _missing, load_scorer
from sweeplab.strategies.base import Explanation, StrategyError
from sweeplab.strategies.dss.players import DSScspManhattanStrategy, DSScspStrategy, pick_guess

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

    Options: ``model`` (a model folder; empty for the shipped one), ``explore`` (the chance of a uniformly random
    candidate instead, used when the Q-network generates its own training games; 0 when playing) and ``noise`` (an
    ablation: ``noise=1`` replaces the model's output by uniform noise drawn from the player's seeded generator, one
    value per candidate, so the player is otherwise unchanged: DSScsp's certain moves first, the same candidates,
    and the guess goes to the highest value; compare ``xgboost`` with ``xgboost[noise=1]`` on the same games to see
    what the model's choice is worth). ``scorer`` sets a model object directly (from Python, during training).
    ``heuristic=manhattan`` (a sweeplab trial, not in seed 003: its learned versions follow the Manhattan version in
    Table 3, but the text does not say they keep its rule) applies section 4.2.1's rule to the model's values: among
    the candidates within ``tolerance`` (0.05) of the best value, the one nearest the border, then the best value.
    To see which feature a classifier uses most, train it again without it (``sweeplab learn train xgboost
    --without NAME``); the top feature of an XGBoost model is its card's ``top_feature`` (XGBoost's gain importance).
    """

    source = "seed 003 (003_f5c1155f4ddfa843.txt), sections 4.2.2-4.2.3, 5.2, Table 3"
    kind: ClassVar[str] = ""
    default_model: ClassVar[str] = ""

    def __init__(
        self,
        seed: int | None = None,
        *,
        model: str = "",
        explore: float = 0.0,
        noise: int = 0,
        heuristic: str = "none",
        scorer: Scorer | None = None,
    ) -> None:
        if heuristic not in ("none", "manhattan"):
            raise StrategyError(f"strategy {self.name!r}: heuristic must be none or manhattan, not {heuristic!r}")
        super().__init__(seed, heuristic=heuristic)
        if not 0.0 <= explore <= 1.0:
            raise StrategyError(f"strategy {self.name!r}: explore must be between 0 and 1, not {explore}")
        if noise not in (0, 1):
            raise StrategyError(f"strategy {self.name!r}: noise must be 0 (the model) or 1 (uniform noise instead), not {noise}")
        self.explore = explore
        self.noise = noise
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
        if self.noise:
            values = np.array([self.rng.random() for _ in cells])
        else:
            values = self.scorer.values(observation, cells, probabilities)
        if self.heuristic == "manhattan":
            board = observation.board
            cost = {c: -float(v) for c, v in zip(cells, values, strict=True)}  # pick_guess takes the least
            cell = pick_guess(cost, self.rng, {c: board.edge_distance(c) for c in cells}, self.tolerance)
        else:
            best = float(values.max())
            ties = [c for c, v in zip(cells, values, strict=True) if v >= best - TIE]
            cell = ties[0] if len(ties) == 1 else self.rng.choice(ties)
        index = cells.index(cell)
        if self.noise:
            safety = 1.0 - probabilities[cell]
        else:
            safety = float(self.scorer.safety(observation, cells, probabilities, values)[index])
        kind = "unconstrained" if cell in problem.unconstrained else "educated"
        figures = {
            "model": self.scorer.kind + (" replaced by uniform noise" if self.noise else ""),
            "score": round(float(values[index]), 6),
            "dsscsp_mine_probability": round(probabilities[cell], 6),
            "candidates": len(cells),
        }
        what = (
            "noise value (noise=1: the model is not asked)"
            if self.noise
            else "model " + ("expected reward" if self.scorer.kind == "dqn" else "safety")
        )
        text = (
            f"{self.name}: {observation.board.name(cell)} has the best {what} ({values[index]:.3f}) of {len(cells)} covered cells"
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
