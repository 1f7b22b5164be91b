"""Seed 003's two classifiers of a candidate cell (section 4.2.2): single-pass XGBoost, and the network of Table 1
trained iteratively as Algorithm 4 describes: their training (the trained models as players use them, and their
loading, are in :mod:`sweeplab.learn.seed003.scorers`).

Source: ``003_f5c1155f4ddfa843.txt`` section 4.2.2 (equations (5)-(7), Table 1, Algorithm 4) and 5.2.1.

XGBoost (version "+ Supervised Learning using Single-pass Classification"): one training run on a data set made by
the Manhattan version, logistic objective, L2 regularisation (``reg_lambda``), as the paper says. Its other
parameters were not given; ours (:data:`XGBOOST_PARAMS`) are XGBoost's usual ones with 200 rounds of depth-6 trees.
``nthread=1`` and a fixed seed make training repeatable.

Network (version "+ Supervised Learning using Iterative Approach"), Table 1: dense layers of ``sizeof(x)``,
``sizeof(x)``, 5, 5 and 1 neurons, ReLU everywhere but the sigmoid output, binary cross-entropy, Adam. Algorithm 4
(its text was lost; section 5.2.1 describes it): episode 1 trains on a batch of games of the Manhattan version,
and each later episode plays a new batch with the latest network and trains on it, keeping the weights. Choices:
the inputs are standardised with the mean and spread of the first batch (kept with the model); each episode trains
``epochs`` (2) passes over its batch with mini-batches of 256, learning rate 1e-3 and an L2 penalty (Adam's weight
decay 1e-3: without it the network overfits after two or three passes and its held-out log loss rises above the
constant mine rate's); 10% of each batch's games are held out for the episode's validation scores.
"""

from __future__ import annotations

import contextlib
import fnmatch
import platform
import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from sweeplab.bench.executors import Executor
from sweeplab.core.errors import whole_number
from sweeplab.learn.models import ModelError, write_card
from sweeplab.learn.seed003.data import BoardRange, Collected, DataError, Dataset, boards_manifest, collect
from sweeplab.learn.seed003.features import FEATURE_NAMES
from sweeplab.learn.seed003.network import Network, fit, from_torch, set_deterministic, torch_model
from sweeplab.learn.seed003.players import LearnedStrategy, ManhattanPlayer, NNStrategy
from sweeplab.learn.seed003.scorers import ClassifierScorer
from sweeplab.learn.seed003.shards import play_on
from sweeplab.learn.seed003.winrates import Evaluate, eval_rounds, summary_line

XGBOOST_PARAMS: dict[str, Any] = {
    "objective": "binary:logistic",
    "eval_metric": "logloss",
    "reg_lambda": 1.0,
    "max_depth": 6,
    "eta": 0.1,
    "tree_method": "hist",
    "nthread": 1,
}
XGBOOST_ROUNDS = 200
NN_ACTIVATIONS = ("relu", "relu", "relu", "relu", "sigmoid")


def scores(p_mine: np.ndarray, y: np.ndarray) -> dict[str, float | None]:
    """Accuracy (threshold 0.5) and log loss of predicted mine probabilities against labels (1 = mine).

    >>> scores(np.array([0.1, 0.8]), np.array([0, 1]))["accuracy"]
    1.0
    """
    p = np.clip(np.asarray(p_mine, dtype=np.float64), 1e-7, 1 - 1e-7)
    y = np.asarray(y, dtype=np.float64)
    if len(y) == 0:
        return {"rows": 0, "accuracy": None, "log_loss": None, "mine_rate": None}  # not measured (no NaN in the card)
    return {
        "rows": len(y),
        "accuracy": round(float(np.mean((p >= 0.5) == (y == 1))), 6),
        "log_loss": round(float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p))), 6),
        "mine_rate": round(float(np.mean(y)), 6),
    }


def environment() -> dict[str, str]:
    """Library versions, for the card."""
    import numpy

    out = {"python": platform.python_version(), "numpy": numpy.__version__, "machine": platform.machine()}
    for module in ("torch", "xgboost"):
        with contextlib.suppress(ImportError):
            out[module] = __import__(module).__version__
    return out


#: The name that stands for every column of the local window in ``--without``.
WINDOW_COLUMNS = "window"


def kept_columns(without: Sequence[str] = ()) -> tuple[np.ndarray, tuple[str, ...]]:
    """The feature columns a model keeps when trained ``without`` some (names; shell-style patterns such as
    ``*_flagged``; ``window`` for the whole local window): their indices in :data:`FEATURE_NAMES` and their names.
    Unknown names and dropping every column are refused (:class:`ModelError`).

    >>> kept_columns(["probability", "window"])[1][-3:]
    ('above_min', 'location_score', 'covered_neighbours')
    """
    dropped: set[str] = set()
    for pattern in without:
        if pattern == WINDOW_COLUMNS:
            pattern = "w[-+]*"
        found = fnmatch.filter(FEATURE_NAMES, pattern)
        if not found:
            examples = ", ".join(FEATURE_NAMES[:16])
            raise ModelError(
                f"--without {pattern!r}: no such feature; the features are {examples} and the window's w{{dx}}{{dy}}_"
                "{revealed,number,flagged,outside} ('window' for all of them; patterns such as '*_flagged' match several)"
            )
        dropped.update(found)
    keep = [i for i, name in enumerate(FEATURE_NAMES) if name not in dropped]
    if not keep:
        raise ModelError("--without drops every feature: keep at least one")
    return np.array(keep, dtype=np.intp), tuple(FEATURE_NAMES[i] for i in keep)


def _without_card(names: tuple[str, ...]) -> dict[str, Any]:
    return {"features": list(names), "without": [n for n in FEATURE_NAMES if n not in names]}


def gain_importance(booster: Any) -> list[list[Any]]:
    """XGBoost's gain importance of each feature the trees split on, best first: ``[[name, gain], ...]``."""
    gains = booster.get_score(importance_type="gain")
    return [[name, round(float(gain), 6)] for name, gain in sorted(gains.items(), key=lambda kv: (-kv[1], kv[0]))]


# ----- XGBoost -----
def train_xgboost(
    data: Dataset,
    seed: int = 0,
    rounds: int = XGBOOST_ROUNDS,
    params: dict[str, Any] | None = None,
    without: Sequence[str] = (),
    evaluate: Evaluate | None = None,
    log: Callable[[str], None] | None = None,
) -> tuple[Any, dict[str, Any]]:
    """Train the single-pass XGBoost classifier on ``data`` (the last 10% of its games held out for validation),
    on every feature but those ``without`` names (see :func:`kept_columns`).

    The card's ``curve`` has the accuracy and log loss on the training and held-out rows after the rounds of
    :func:`curve_rounds` (the first ``k`` trees of the trained model); ``importance`` is XGBoost's gain per feature,
    best first, and ``top_feature`` the first of them. With ``evaluate`` (an
    :class:`~sweeplab.learn.seed003.winrates.EvalSet`), the model of the first ``k`` trees (the booster sliced to them,
    the trees ``iteration_range=(0, k)`` predicts with) plays as its player at the rounds of
    :func:`~sweeplab.learn.seed003.winrates.eval_rounds`: the card's ``evaluation["rounds"]``."""
    import xgboost

    if tuple(data.names) != FEATURE_NAMES:
        raise ModelError(
            "the data set's columns are not this sweeplab's features (sub-state rows are for dqn); make it with "
            "`sweeplab learn data --rows features`"
        )
    columns, names = kept_columns(without)
    train, valid = data.split(0.1)
    if not len(train) or not len(valid):
        raise ModelError(
            f"too little data to train on ({len(data)} rows from {len(np.unique(data.game))} games): play more games"
        )
    if len(names) < len(FEATURE_NAMES):
        train, valid = train.columns(columns), valid.columns(columns)
    params = dict(XGBOOST_PARAMS, seed=seed, **(params or {}))
    start = time.perf_counter()
    cpu = time.process_time()
    dtrain = xgboost.DMatrix(train.x, label=train.y, feature_names=list(names))
    booster = xgboost.train(params, dtrain, num_boost_round=rounds)
    seconds = {"wall": round(time.perf_counter() - start, 2), "cpu": round(time.process_time() - cpu, 2)}
    p = booster.inplace_predict(valid.x)
    curve = [
        {
            "round": k,
            "train": scores(booster.inplace_predict(train.x, iteration_range=(0, k)), train.y),
            "validation": scores(booster.inplace_predict(valid.x, iteration_range=(0, k)), valid.y),
        }
        for k in curve_rounds(rounds)
    ]
    card = {
        "kind": "xgboost",
        "version": "+ Supervised Learning using Single-pass Classification (seed 003 Table 3)",
        "parameters": dict(params, rounds=rounds),
        "training_seconds": seconds,
        "rows": len(train) + len(valid),
        "train_rows": len(train),
        "validation_rows": len(valid),
        "validation": scores(p, valid.y),
        "curve": curve,
        **_without_card(names),
        "probability": "dsscsp",
        "environment": environment(),
    }
    importance = gain_importance(booster)
    card["importance"] = {"type": "gain", "features": importance}
    card["top_feature"] = importance[0][0] if importance else None
    if evaluate is not None:
        points = []
        subset = columns if len(names) < len(FEATURE_NAMES) else None
        for k in eval_rounds(rounds):
            part = booster[:k]  # the first k trees: what iteration_range=(0, k) predicts with
            part.set_param({"nthread": 1})
            scorer = ClassifierScorer("xgboost", {}, part.inplace_predict, columns=subset)
            points.append({"round": k, **evaluate(scorer, k)})
            if log is not None:
                log(f"round {k}/{rounds}: {summary_line(points[-1])}")
        card["evaluation"] = {
            "rounds": points,
            "round_model": "round k: the first k trees of the model (the booster sliced to them, as iteration_range=(0, k))",
        }
    return booster, card


def curve_rounds(rounds: int, points: int = 20) -> list[int]:
    """The boosting rounds at which the learning curve is measured: the first, about ``points`` evenly spaced, the last.

    >>> curve_rounds(200)[:3], curve_rounds(200)[-1], curve_rounds(3)
    ([1, 10, 20], 200, [1, 2, 3])
    """
    step = max(1, rounds // points)
    return sorted({1, *range(step, rounds + 1, step), rounds})


def save_xgboost(booster: Any, card: dict[str, Any], folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    booster.save_model(str(folder / "model.ubj"))
    write_card(folder, card)


# ----- the network of Table 1, Algorithm 4 -----
def nn_sizes(inputs: int) -> list[int]:
    """Table 1: sizeof(x) -> sizeof(x) -> sizeof(x) -> 5 -> 5 -> 1 (the input layer has sizeof(x) neurons)."""
    return [inputs, inputs, inputs, 5, 5, 1]


def _record_nn(
    curve: list[dict[str, Any]],
    model: Any,
    scaling: tuple[np.ndarray, np.ndarray],
    train: Dataset,
    valid: Dataset,
    epoch: int,
) -> None:
    """One point of an episode's learning curve: the scores after pass ``epoch`` on its training and held-out rows."""
    network = from_torch(model, NN_ACTIVATIONS, *scaling)
    curve.append({"epoch": epoch, "train": scores(network(train.x), train.y), "validation": scores(network(valid.x), valid.y)})


def train_nn(
    episodes: int,
    games: int,
    seed: int = 0,
    boards: BoardRange | None = None,
    epochs: int = 2,
    learning_rate: float = 1e-3,
    weight_decay: float = 1e-3,
    first: Dataset | None = None,
    progress: Callable[[int], None] | None = None,
    log: Callable[[str], None] | None = None,
    without: Sequence[str] = (),
    executor: Executor | None = None,
    evaluate: Evaluate | None = None,
) -> tuple[Network, dict[str, Any]]:
    """Algorithm 4: ``episodes`` rounds of (play ``games`` games with the latest model, train on them).

    Episode 1's games are the Manhattan version's (or ``first``, a data set from ``sweeplab learn data``).
    Episode ``e`` plays games ``(e-1)*games`` to ``e*games-1`` of root seed ``seed``, so no two episodes share a layout.
    ``episodes`` must be at least 1 (:class:`~sweeplab.core.errors.ArgumentError` otherwise).
    Each episode's entry in the card has its learning curve: before training (epoch 0) and after every pass, the
    accuracy and log loss on the episode's training rows and on its held-out games. ``without`` names features the
    network does not see (see :func:`kept_columns`). With ``executor``, each episode's games are played on it in
    chunks (the same rows, so the same network). With ``evaluate`` (an :class:`~sweeplab.learn.seed003.winrates.EvalSet`),
    the network plays the evaluation games as its player after each episode: the episode's ``evaluation`` (its
    time is not counted in ``training_seconds``).
    """
    whole_number(episodes, "episodes", minimum=1)
    columns, names = kept_columns(without)
    subset = columns if len(names) < len(FEATURE_NAMES) else None
    if first is not None and tuple(first.names) != FEATURE_NAMES:
        raise ModelError("the data set's columns are not this sweeplab's features; make it with `sweeplab learn data`")
    torch = set_deterministic(seed)
    boards = boards or BoardRange()
    model = torch_model(nn_sizes(len(names)), NN_ACTIVATIONS)
    optimizer = None
    history: list[dict[str, Any]] = []
    mean = std = None
    network: Network | None = None
    total_cpu = 0.0
    wall = time.perf_counter()
    evaluating = 0.0  # wall seconds spent on the evaluation games, left out of the training time
    rows = trained = 0  # every row made, and those trained on (the rest are each episode's held-out games)
    for episode in range(episodes):
        played: Collected | None = None
        if episode == 0 and first is not None:
            batch = first
        else:
            factory: Callable[[int], ManhattanPlayer | LearnedStrategy] = ManhattanPlayer
            if network is not None:
                factory = partial(NNStrategy, scorer=ClassifierScorer("nn", {}, network, columns=subset))
            if executor is not None:
                shard = play_on(executor, factory, games, seed, boards, start=episode * games, progress=progress)
                played = Collected(shard.data, games, shard.won, shard.positions, shard.seconds)
            else:
                played = collect(factory, games, seed, boards, start=episode * games, progress=progress)
            batch = played.data
            total_cpu += played.seconds
        if subset is not None:
            batch = batch.columns(subset)
        if not len(batch):
            raise DataError("no candidate cells were recorded (the games needed no guess): play more games, or a denser board")
        if mean is None or std is None:
            mean = batch.x.mean(axis=0).astype(np.float64)
            std = batch.x.std(axis=0).astype(np.float64)
            std[std < 1e-9] = 1.0
        train, valid = batch.split(0.1)
        trained += len(train)
        xs = (train.x - mean) / std
        curve: list[dict[str, Any]] = []
        _record_nn(curve, model, (mean, std), train, valid, 0)  # before this episode's training
        optimizer, cpu = fit(
            model,
            xs,
            train.y,
            loss="bce",
            epochs=epochs,
            learning_rate=learning_rate,
            seed=seed + episode,
            optimizer=optimizer,
            weight_decay=weight_decay,
            on_epoch=partial(_record_nn, curve, model, (mean, std), train, valid),
        )
        total_cpu += cpu
        rows += len(batch)
        network = from_torch(model, NN_ACTIVATIONS, mean, std)
        entry: dict[str, Any] = {
            "episode": episode + 1,
            "rows": len(batch),
            "train_cpu_seconds": round(cpu, 2),
            "validation": scores(network(valid.x), valid.y),
            "curve": curve,
        }
        if played is not None:
            entry.update(
                games=played.games, won=played.won, positions=played.positions, play_cpu_seconds=round(played.seconds, 2)
            )
        if evaluate is not None:
            start = time.perf_counter()
            entry["evaluation"] = evaluate(ClassifierScorer("nn", {}, network, columns=subset), episode + 1)
            evaluating += time.perf_counter() - start
        history.append(entry)
        if log is not None:
            won = f"; {summary_line(entry['evaluation'])}" if "evaluation" in entry else ""
            log(f"episode {episode + 1}/{episodes}: {len(batch)} rows, validation {entry['validation']}{won}")
    assert network is not None
    card = {
        "kind": "nn",
        "version": "+ Supervised Learning using Iterative Approach (seed 003 Table 3, Table 1, Algorithm 4)",
        "parameters": {
            "layers": nn_sizes(len(names)),
            "activations": list(NN_ACTIVATIONS),
            "loss": "binary cross-entropy",
            "optimizer": "Adam",
            "learning_rate": learning_rate,
            "weight_decay": weight_decay,
            "batch_size": 256,
            "epochs_per_episode": epochs,
            "episodes": episodes,
            "games_per_episode": games,
            "seed": seed,
            "boards": boards_manifest(boards),
            "threads": torch.get_num_threads(),
        },
        "training_seconds": {"wall": round(time.perf_counter() - wall - evaluating, 2), "cpu": round(total_cpu, 2)},
        "rows": rows,
        "train_rows": trained,
        "validation_rows": rows - trained,
        "episodes": history,
        "validation": history[-1]["validation"],
        **_without_card(names),
        "probability": "dsscsp",
        "environment": environment(),
    }
    return network, card


__all__ = [
    "NN_ACTIVATIONS",
    "WINDOW_COLUMNS",
    "XGBOOST_PARAMS",
    "XGBOOST_ROUNDS",
    "curve_rounds",
    "gain_importance",
    "kept_columns",
    "nn_sizes",
    "save_xgboost",
    "scores",
    "train_nn",
    "train_xgboost",
]
