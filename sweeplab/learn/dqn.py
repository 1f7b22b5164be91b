"""Seed 003's deep Q-learning (section 4.2.3, 5.2.2): a score per cell from its probability and location, the
sub-state of scores around each candidate action, a reward for the cells the action lets the player uncover with
certainty, and the Q-network of Table 2, trained in one pass on the Manhattan player's games or iteratively on its own.
The scores and sub-states are in :mod:`sweeplab.learn.substates`, the trained Q-network as a player uses it in
:mod:`sweeplab.learn.scorers`.

Source: ``003_f5c1155f4ddfa843.txt`` sections 3.2 (MDP, sub-states), 4.2.3 (equations (8)-(11), Table 2) and 5.2.2.
Every formula was lost in extraction; the reconstruction, choice by choice:

* Score, equation (9): ``Sc = (1 - P) + alpha * score`` for a covered cell, with ``P`` DSScsp's mine probability and
  ``score`` the location score of equation (4) (:func:`sweeplab.learn.features.location_scores`); a flagged cell has
  ``P = 1``. Revealed cells get the invalid value -1 (the paper: "invalid values to represent an uncovered block"),
  cells off the board -2.
* ``alpha``, equation (10): linear in the board's width, height and mine ratio, ``alpha = c0 + c1 w + c2 h + c3 r``.
  As in 5.2.2, :func:`fit_alpha` plays the heuristic "4.2.1 on Sc instead of P" (the Manhattan rule: among cells within
  0.05 of the best score, the one nearest the border) for each alpha of a grid on each board of a grid, paired on the
  same layouts, takes the alpha with the most wins per board and fits the coefficients by least squares.
* Sub-state: the ``k x k`` window of scores centred on the action (``k = 5``), flattened row by row (``k*k`` inputs).
* Reward, equation (11): -1 when the action hits a mine; otherwise the cells uncovered with certainty because of it
  (the cells it reveals, plus the certain cells the player then reveals before its next guess), divided by ``k*k``
  and capped at 1, so rewards lie in [-1, 1] as 5.2.2 says.
* Return: 5.2.2 discounts "linearly increasing ... so as to punish actions which may lead to a loss severely". We take
  the weighted mean of the rewards from the action to the end of the game with weights ``1, 2, 3, ...`` (later rewards
  weigh more, so a final loss marks every action of a lost game); being a mean, it stays in [-1, 1], the range of the
  network's tanh output.
* Network, Table 2 (the neuron counts were lost): ``k*k`` ReLU, ``k*k`` tanh, 5 linear, 5 linear, 1 tanh, following
  Table 1's pattern; mean squared error, Adam (5.2.2's optimizer name was lost).
* Only guesses are actions of the MDP: certain moves are played first by the player and count in the reward.
* Single pass: the Manhattan player (``dsscsp-manhattan``) plays; its guesses are recorded. Iterative: each episode
  the latest network plays (with a 0.1 chance of a uniformly random candidate, so it keeps seeing other actions) and
  the network trains on the new games, keeping its weights.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np

from sweeplab.bench.executors import Executor
from sweeplab.core.game import Game, GameState, Move
from sweeplab.core.observation import COVERED, FLAGGED, Observation
from sweeplab.learn.classifiers import environment
from sweeplab.learn.data import BoardRange, boards_manifest, deals
from sweeplab.learn.network import Network, fit, from_torch, set_deterministic, torch_model
from sweeplab.learn.players import DQNStrategy, LearnedStrategy, ManhattanPlayer
from sweeplab.learn.scorers import DQNScorer
from sweeplab.learn.substates import SIDE, alpha_for, scores, substates
from sweeplab.strategies.base import play
from sweeplab.strategies.dss import MANHATTAN_TOLERANCE, DSScspStrategy, pick_guess

DQN_ACTIVATIONS = ("relu", "tanh", "linear", "linear", "tanh")
ALPHAS = (0.0, 0.1, 0.2, 0.4, 0.8)
ALPHA_BOARDS = ((9, 9), (16, 16), (30, 16))
ALPHA_DENSITIES = (0.12, 0.16, 0.20)
EXPLORE = 0.1
EPOCHS = 20  #: passes over each episode's rows (a few thousand rows: 5 passes were some 50 Adam steps, too few to learn)


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


def _split(episode: Episode, validation: float = 0.1) -> tuple[tuple[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]:
    games = np.unique(episode.game)
    cut = games[int(len(games) * (1 - validation))] if len(games) > 1 else (games[-1] + 1 if len(games) else 0)
    held = episode.game >= cut
    return (episode.x[~held], episode.y[~held]), (episode.x[held], episode.y[held])


def q_scores(network: Network, x: np.ndarray, y: np.ndarray) -> dict[str, float | None]:
    """Mean squared error and sign accuracy (does the network call the return's sign right) of ``network`` on
    (x, y); with no rows (a single game holds none out), None: not measured, rather than NaN in the card."""
    if not len(y):
        return {"rows": 0, "mse": None, "sign_accuracy": None}
    q = network(x)
    return {
        "rows": len(y),
        "mse": round(float(np.mean((q - y) ** 2)), 6),
        "sign_accuracy": round(float(np.mean((q >= 0) == (y >= 0))), 6),
    }


def standardiser(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The input scaling ``(x - mean) / std`` of :class:`Network` fitted on ``x`` (a constant column keeps std 1; no
    rows at all, as when no game of the episode needed a guess, give the identity)."""
    if not len(x):
        return np.zeros(x.shape[1], dtype=np.float64), np.ones(x.shape[1], dtype=np.float64)
    mean = x.mean(axis=0).astype(np.float64)
    std = x.std(axis=0).astype(np.float64)
    std[std < 1e-9] = 1.0
    return mean, std


def _record(
    curve: list[dict[str, Any]],
    model: Any,
    scaling: tuple[np.ndarray, np.ndarray],
    train: tuple[np.ndarray, np.ndarray],
    valid: tuple[np.ndarray, np.ndarray],
    epoch: int,
) -> None:
    """One point of an episode's learning curve: the scores after pass ``epoch`` on its training and held-out rows."""
    network = from_torch(model, DQN_ACTIVATIONS, *scaling)
    curve.append({"epoch": epoch, "train": q_scores(network, *train), "validation": q_scores(network, *valid)})


def train_dqn(
    games: int,
    episodes: int = 0,
    seed: int = 0,
    boards: BoardRange | None = None,
    alpha_games: int = 100,
    coefficients: Sequence[float] | None = None,
    epochs: int = EPOCHS,
    learning_rate: float = 1e-3,
    explore: float = EXPLORE,
    validation: float = 0.1,
    progress: Callable[[int], None] | None = None,
    log: Callable[[str], None] | None = None,
    first: Episode | None = None,
) -> tuple[Network, dict[str, Any]]:
    """Fit alpha (unless ``coefficients`` are given), train on ``games`` games of the Manhattan player (the single
    pass), then ``episodes`` iterative episodes of ``games`` games played by the network itself. The last
    ``validation`` share of each episode's games is held out.

    ``first`` replaces the single pass's games by rows made beforehand (``sweeplab learn data --rows substates``,
    with the same ``coefficients``); the iterative episodes then play games ``(e - 1) * games + first.games`` on,
    so they never replay the single pass's layouts.

    Inputs are standardised with the first episode's training rows (saved in the network). Each episode's entry in
    the card has its learning curve: before training (epoch 0) and after every pass, the mean squared error and
    sign accuracy on the episode's training rows and on its held-out games."""
    torch = set_deterministic(seed)
    boards = boards or BoardRange()
    wall = time.perf_counter()
    cpu0 = time.process_time()
    alpha_fit = None
    if coefficients is None:
        alpha_fit = fit_alpha(alpha_games, seed, progress=progress)
        coefficients = alpha_fit["coefficients"]
        if log is not None:
            log(f"alpha = {coefficients} (r^2 {alpha_fit['r_squared']})")
    coefficients = tuple(float(c) for c in coefficients)
    sizes = [SIDE * SIDE, SIDE * SIDE, SIDE * SIDE, 5, 5, 1]
    model = torch_model(sizes, DQN_ACTIVATIONS)
    optimizer = None
    network: Network | None = None
    scaling: tuple[np.ndarray, np.ndarray] | None = None
    history: list[dict[str, Any]] = []
    rows = 0
    for episode in range(episodes + 1):
        factory: Callable[[int], ManhattanPlayer | LearnedStrategy] = ManhattanPlayer
        if network is not None:
            factory = partial(DQNStrategy, scorer=DQNScorer("dqn", {}, network, coefficients), explore=explore)  # type: ignore[arg-type]
        if episode == 0 and first is not None:
            batch = first
        else:
            start = episode * games if first is None else (episode - 1) * games + first.games
            batch = simulate(factory, coefficients, games, seed, boards, start=start, progress=progress)
        (xt, yt), (xv, yv) = _split(batch, validation)
        if scaling is None:
            scaling = standardiser(xt if len(xt) else batch.x)
        mean, std = scaling
        curve: list[dict[str, Any]] = []
        _record(curve, model, scaling, (xt, yt), (xv, yv), 0)  # before this episode's training

        optimizer, cpu = fit(
            model,
            (xt - mean) / std,
            yt,
            loss="mse",
            epochs=epochs,
            learning_rate=learning_rate,
            seed=seed + episode,
            optimizer=optimizer,
            on_epoch=partial(_record, curve, model, scaling, (xt, yt), (xv, yv)),
        )
        network = from_torch(model, DQN_ACTIVATIONS, mean, std)
        rows += len(batch.y)
        entry = {
            "episode": episode,
            "player": "dsscsp-manhattan" if episode == 0 else f"dqn (explore {explore})",
            "games": batch.games,
            "won": batch.won,
            "rows": len(batch.y),
            "play_cpu_seconds": round(batch.seconds, 2),
            "train_cpu_seconds": round(cpu, 2),
            "validation": q_scores(network, xv, yv),
            "curve": curve,
        }
        history.append(entry)
        if log is not None:
            log(
                f"episode {episode}/{episodes}: {len(batch.y)} guesses, won {batch.won}/{batch.games}, "
                f"validation {entry['validation']}"
            )
    assert network is not None
    network.meta = {"coefficients": np.array(coefficients), "side": np.array(SIDE)}
    card = {
        "kind": "dqn",
        "version": (
            "+ Q-Learning using Iterative Classification (seed 003 Table 3)"
            if episodes
            else "+ Q-Learning using Single-pass Classification (seed 003 Table 3)"
        ),
        "parameters": {
            "layers": sizes,
            "activations": list(DQN_ACTIVATIONS),
            "loss": "mean squared error",
            "optimizer": "Adam",
            "learning_rate": learning_rate,
            "batch_size": 256,
            "epochs_per_episode": epochs,
            "inputs": "standardised with the first episode's training rows",
            "episodes": episodes,
            "games_per_episode": games,
            "explore": explore,
            "validation_share": validation,
            "side": SIDE,
            "seed": seed,
            "boards": boards_manifest(boards),
            "alpha_coefficients": list(coefficients),
            "threads": torch.get_num_threads(),
        },
        "alpha_fit": alpha_fit,
        "training_seconds": {"wall": round(time.perf_counter() - wall, 2), "cpu": round(time.process_time() - cpu0, 2)},
        "train_rows": rows,
        "episodes": history,
        "validation": history[-1]["validation"],
        "environment": environment(),
    }
    if first is not None:
        card["parameters"]["single_pass_games"] = first.games
    return network, card


__all__ = [
    "ALPHAS",
    "DQN_ACTIVATIONS",
    "EPOCHS",
    "AlphaPoint",
    "Episode",
    "ScorePlayer",
    "alpha_wins",
    "fit_alpha",
    "q_scores",
    "returns",
    "reward",
    "simulate",
    "standardiser",
    "train_dqn",
]
