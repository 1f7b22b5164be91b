"""Deep Q-learning's games (seed 003, 5.2.2): the Manhattan player's (or a Q-network's) guesses recorded as
(sub-state, discounted return) rows, and the fit of equation (10)'s alpha. The reconstruction of the lost formulas
(score, alpha, sub-state, reward, discount) is listed in :mod:`sweeplab.learn.seed003.dqn`, which trains on these rows.

Source: ``003_f5c1155f4ddfa843.txt`` sections 3.2, 4.2.3 (equations (8)-(11)) and 5.2.2.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from sweeplab.bench.executors import Executor
from sweeplab.core.game import Game, GameState, Move
from sweeplab.core.observation import COVERED, FLAGGED, Observation
from sweeplab.learn.seed003.data import BoardRange, deals
from sweeplab.learn.seed003.players import LearnedStrategy, ManhattanPlayer
from sweeplab.learn.seed003.substates import SIDE, alpha_for, scores, substates
from sweeplab.strategies.base import play
from sweeplab.strategies.dss.players import MANHATTAN_TOLERANCE, DSScspStrategy, pick_guess

ALPHAS = (0.0, 0.1, 0.2, 0.4, 0.8)
ALPHA_BOARDS = ((9, 9), (16, 16), (30, 16))
ALPHA_DENSITIES = (0.12, 0.16, 0.20)


def returns(rewards: Sequence[float]) -> list[float]:
    """For each step, the weighted mean of the rewards from it to the end, weights 1, 2, 3, ... (linear discount).

    >>> returns([0.2, -1.0])  # (1*0.2 + 2*(-1)) / 3, then -1
    [-0.6, -1.0]
    """
    out = []
    n = len(rewards)
    for t in range(n):
        weights = np.arange(1, n - t + 1, dtype=np.float64)
        out.append(round(float(np.dot(weights, rewards[t:]) / weights.sum()), 12))
    return out


def reward(uncovered: int, lost: bool, side: int = SIDE) -> float:
    """Equation (11) as reconstructed: -1 for a mine, else the cells uncovered with certainty over ``side**2``, at most 1."""
    return -1.0 if lost else min(1.0, uncovered / (side * side))


class ScorePlayer(DSScspStrategy):
    """The heuristic of 4.2.1 on ``Sc`` instead of ``P`` (for fitting alpha): DSScsp's certain moves, then among the
    cells within the tolerance of the best score the one nearest the border."""

    name = "dsscsp-score"

    def __init__(self, seed: int | None = None, *, alpha: float = 0.0) -> None:
        super().__init__(seed)
        self.alpha = alpha

    def choose_guess(self, observation: Observation, problem: Any, probabilities: dict[int, float]) -> Move:
        grid = scores(observation, probabilities, self.alpha).reshape(-1)
        negative = {c: -float(grid[c]) for c in probabilities}
        board = observation.board
        cell = pick_guess(negative, self.rng, {c: board.edge_distance(c) for c in probabilities}, MANHATTAN_TOLERANCE)
        return self.guess(observation, cell, "educated", 1.0 - probabilities[cell])


@dataclass(frozen=True)
class AlphaPoint:
    """One point of :func:`fit_alpha`'s grid: ``games`` paired games of :class:`ScorePlayer` with ``alpha`` on a board."""

    seed: int
    games: int
    width: int
    height: int
    density: float
    alpha: float


def alpha_wins(point: AlphaPoint) -> int:
    """The games :class:`ScorePlayer` wins at one point of the grid (a worker's task)."""
    fixed = BoardRange((point.width, point.width), (point.height, point.height), (point.density, point.density))
    won = 0
    for deal in deals(point.seed, point.games, fixed):
        game = play(ScorePlayer(deal.player_seed, alpha=point.alpha), Game(deal.rules, deal.game_seed))
        won += game.state is GameState.WON
    return won


def alpha_fit_games(games: int) -> int:
    """The games :func:`fit_alpha` plays with ``games`` per point of its grid (for a progress bar's total)."""
    return games * len(ALPHAS) * len(ALPHA_BOARDS) * len(ALPHA_DENSITIES)


def fit_alpha(
    games: int,
    seed: int = 0,
    alphas: Sequence[float] = ALPHAS,
    boards: Sequence[tuple[int, int]] = ALPHA_BOARDS,
    densities: Sequence[float] = ALPHA_DENSITIES,
    progress: Callable[[int], None] | None = None,
    executor: Executor | None = None,
) -> dict[str, Any]:
    """Section 5.2.2: the best alpha per board (most wins in ``games`` paired games) and equation (10)'s least squares.

    The grid's points play on ``executor`` when one is given (the result is the same: each point's games depend
    only on the seed); ``progress(games)`` is called after each point."""
    grid = [AlphaPoint(seed, games, w, h, d, a) for w, h in boards for d in densities for a in alphas]
    done = None if progress is None else (lambda _wins: progress(games))
    if executor is not None:
        counts = executor.run(alpha_wins, grid, done)
    else:
        counts = []
        for point in grid:
            counts.append(alpha_wins(point))
            if done is not None:
                done(counts[-1])
    rows = []
    for k, point in enumerate(grid[:: len(alphas)]):
        wins = counts[k * len(alphas) : (k + 1) * len(alphas)]
        best = alphas[int(np.argmax(wins))]
        rows.append({"width": point.width, "height": point.height, "density": point.density, "wins": wins, "best_alpha": best})
    a = np.array([[1.0, r["width"], r["height"], r["density"]] for r in rows])
    b = np.array([r["best_alpha"] for r in rows])
    coefficients, *_ = np.linalg.lstsq(a, b, rcond=None)
    fitted = a @ coefficients
    total = float(np.sum((b - b.mean()) ** 2))
    r2 = 1.0 - float(np.sum((b - fitted) ** 2)) / total if total > 0 else 1.0
    return {
        "coefficients": [round(float(c), 9) for c in coefficients],
        "r_squared": round(r2, 6),
        "games_per_point": games,
        "alphas": list(alphas),
        "boards": rows,
    }


@dataclass
class Episode:
    """Sub-states of the guesses of a batch of games and their returns."""

    x: np.ndarray
    y: np.ndarray
    game: np.ndarray
    games: int
    won: int
    seconds: float


def simulate(
    player: Callable[[int], ManhattanPlayer | LearnedStrategy],
    coefficients: Sequence[float],
    games: int,
    seed: int,
    boards: BoardRange,
    start: int = 0,
    progress: Callable[[int], None] | None = None,
) -> Episode:
    """Play ``games`` games with ``player`` and record, for each guess, its sub-state and its return."""
    xs: list[np.ndarray] = []
    ys: list[float] = []
    gs: list[int] = []
    won = 0
    t0 = time.process_time()
    for deal in deals(seed, games, boards, start):
        game = Game(deal.rules, deal.game_seed)
        strategy = player(deal.player_seed)
        alpha = alpha_for(deal.rules.width, deal.rules.height, deal.rules.density, coefficients)
        grids: dict[int, np.ndarray] = {}  # move number -> the score grid at that guess

        def watch(
            observation: Observation, probabilities: dict[int, float], grids: dict[int, np.ndarray] = grids, alpha: float = alpha
        ) -> None:
            grids[observation.moves] = scores(observation, probabilities, alpha)

        strategy.watcher = watch
        counts: list[int] = []  # cells revealed after each move

        def count(g: Game, move: Move, counts: list[int] = counts) -> None:
            view = g.observation().view  # revealed cells: neither covered nor flagged
            counts.append(len(view) - view.count(COVERED) - view.count(FLAGGED))

        play(strategy, game, on_move=count)
        won += game.state is GameState.WON
        guesses = [gu for gu in strategy.guesses if gu.move in grids]
        states = [substates(grids[gu.move], [gu.cell])[0] for gu in guesses]
        rewards = []
        for i, gu in enumerate(guesses):
            before = counts[gu.move - 1] if gu.move > 0 else 0
            after = counts[guesses[i + 1].move - 1] if i + 1 < len(guesses) else counts[-1]
            rewards.append(reward(after - before, gu.outcome is False))
        for state, value in zip(states, returns(rewards), strict=True):
            xs.append(state)
            ys.append(value)
            gs.append(deal.index)
        if progress is not None:
            progress(1)
    return Episode(
        np.array(xs, dtype=np.float32).reshape(-1, SIDE * SIDE),
        np.array(ys, dtype=np.float32),
        np.array(gs, dtype=np.int32),
        games,
        won,
        time.process_time() - t0,
    )


__all__ = [
    "ALPHAS",
    "ALPHA_BOARDS",
    "ALPHA_DENSITIES",
    "AlphaPoint",
    "Episode",
    "ScorePlayer",
    "alpha_wins",
    "fit_alpha",
    "returns",
    "reward",
    "simulate",
]
