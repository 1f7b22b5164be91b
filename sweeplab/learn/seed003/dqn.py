"""Seed 003's deep Q-learning (section 4.2.3, 5.2.2): a score per cell from its probability and location, the
sub-state of scores around each candidate action, a reward for the cells the action lets the player uncover with
certainty, and the Q-network of Table 2, trained in one pass on the Manhattan player's games or iteratively on its own.
The scores and sub-states are in :mod:`sweeplab.learn.seed003.substates`, the trained Q-network as a player uses it in
:mod:`sweeplab.learn.seed003.scorers`.

Source: ``003_f5c1155f4ddfa843.txt`` sections 3.2 (MDP, sub-states), 4.2.3 (equations (8)-(11), Table 2) and 5.2.2.
Every formula was lost in extraction; the reconstruction, choice by choice:

* Score, equation (9): ``Sc = (1 - P) + alpha * score`` for a covered cell, with ``P`` DSScsp's mine probability and
  ``score`` the location score of equation (4) (:func:`sweeplab.learn.seed003.features.location_scores`); a flagged cell has
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
from functools import partial
from typing import Any

import numpy as np

from sweeplab.bench.executors import Executor
from sweeplab.learn.seed003.classifiers import environment
from sweeplab.learn.seed003.data import BoardRange, boards_manifest
from sweeplab.learn.seed003.episodes import (
    ALPHAS,
    AlphaPoint,
    Episode,
    ScorePlayer,
    alpha_wins,
    fit_alpha,
    returns,
    reward,
    simulate,
)
from sweeplab.learn.seed003.network import Network, fit, from_torch, set_deterministic, torch_model
from sweeplab.learn.seed003.players import DQNStrategy, LearnedStrategy, ManhattanPlayer
from sweeplab.learn.seed003.scorers import DQNScorer
from sweeplab.learn.seed003.shards import play_on
from sweeplab.learn.seed003.substates import SIDE
from sweeplab.learn.seed003.winrates import Evaluate, summary_line

DQN_ACTIVATIONS = ("relu", "tanh", "linear", "linear", "tanh")
EXPLORE = 0.1
EPOCHS = 20  #: passes over each episode's rows (a few thousand rows: 5 passes were some 50 Adam steps, too few to learn)


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
    executor: Executor | None = None,
    evaluate: Evaluate | None = None,
    replay: bool = False,
) -> tuple[Network, dict[str, Any]]:
    """Fit alpha (unless ``coefficients`` are given), train on ``games`` games of the Manhattan player (the single
    pass), then ``episodes`` iterative episodes of ``games`` games played by the network itself. The last
    ``validation`` share of each episode's games is held out.

    ``first`` replaces the single pass's games by rows made beforehand (``sweeplab learn data --rows substates``,
    with the same ``coefficients``); the iterative episodes then play games ``(e - 1) * games + first.games`` on,
    so they never replay the single pass's layouts. With ``executor``, the games (and alpha's fit) are played on
    it in chunks: the same rows, so the same network.

    Inputs are standardised with the first episode's training rows (saved in the network). Each episode's entry in
    the card has its learning curve: before training (epoch 0) and after every pass, the mean squared error and
    sign accuracy on the episode's training rows and on its held-out games. With ``evaluate`` (an
    :class:`~sweeplab.learn.seed003.winrates.EvalSet`), the network plays the evaluation games as its player (no exploration)
    after each episode: the episode's ``evaluation`` (its time is not counted in ``training_seconds``). With
    ``replay`` each episode trains on the training rows of every episode so far, the single pass's included, not on
    its own rows alone (a variant of ours: the paper's iterative training keeps only the weights); the curve's
    training scores are then over all of them."""
    torch = set_deterministic(seed)
    boards = boards or BoardRange()
    wall = time.perf_counter()
    cpu0 = time.process_time()
    alpha_fit = None
    if coefficients is None:
        alpha_fit = fit_alpha(alpha_games, seed, progress=progress, executor=executor)
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
    rows = trained = 0  # every row made, and those trained on (the rest are each episode's held-out games)
    worker_cpu = 0.0  # the games played on the executor's workers (this process's clock does not see them)
    evaluating = [0.0, 0.0]  # wall and CPU seconds of the evaluation games, left out of the training time
    replayed: list[tuple[np.ndarray, np.ndarray]] = []  # with replay: every episode's training rows so far
    for episode in range(episodes + 1):
        factory: Callable[[int], ManhattanPlayer | LearnedStrategy] = ManhattanPlayer
        if network is not None:
            factory = partial(DQNStrategy, scorer=DQNScorer("dqn", {}, network, coefficients), explore=explore)  # type: ignore[arg-type]
        if episode == 0 and first is not None:
            batch = first
        else:
            start = episode * games if first is None else (episode - 1) * games + first.games
            if executor is not None:
                shard = play_on(
                    executor,
                    factory,
                    games,
                    seed,
                    boards,
                    start=start,
                    rows="substates",
                    coefficients=coefficients,
                    progress=progress,
                )
                batch = Episode(shard.data.x, shard.data.y, shard.data.game, games, shard.won, shard.seconds)
                worker_cpu += shard.seconds
            else:
                batch = simulate(factory, coefficients, games, seed, boards, start=start, progress=progress)
        (xt, yt), (xv, yv) = _split(batch, validation)
        trained += len(yt)
        if replay:
            replayed.append((xt, yt))
            xt, yt = np.concatenate([x for x, _ in replayed]), np.concatenate([y for _, y in replayed])
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
        entry: dict[str, Any] = {
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
        if evaluate is not None:
            wall0, cpu1 = time.perf_counter(), time.process_time()
            entry["evaluation"] = evaluate(DQNScorer("dqn", {}, network, coefficients), episode)  # type: ignore[arg-type]
            evaluating[0] += time.perf_counter() - wall0
            evaluating[1] += time.process_time() - cpu1
        history.append(entry)
        if log is not None:
            won = f"; {summary_line(entry['evaluation'])}" if "evaluation" in entry else ""
            log(
                f"episode {episode}/{episodes}: {len(batch.y)} guesses, won {batch.won}/{batch.games}, "
                f"validation {entry['validation']}{won}"
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
            "replay": replay,
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
        "training_seconds": {
            "wall": round(time.perf_counter() - wall - evaluating[0], 2),
            "cpu": round(time.process_time() - cpu0 + worker_cpu - evaluating[1], 2),
        },
        "rows": rows,
        "train_rows": trained,
        "validation_rows": rows - trained,
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
