"""The deep Q models' sign accuracy on fresh sub-state rows, beside the trivial baselines that matter.

Plays the Manhattan player (seed 003's base, whose guesses the shipped Q-networks were trained on) on the training
boards (widths 8-30, heights 8-16, mine ratios 0.10-0.21, first click safe) and records each guess's sub-state and
return as ``sweeplab learn data --rows substates`` does, with the coefficients the shipped networks were made with.
Two sets of games, both of development seeds no model was trained on (the shipped models used seeds 1, 2 and 3):
the fit rows (``--fit-seed``) fit the baselines, the fresh rows (``--seed``) score everyone. On the fresh rows:

* each shipped Q-network (``dqn``, ``dqn-single``): does it call the return's sign right (``q >= 0`` as its
  training's ``sign_accuracy``), and its mean squared error;
* the majority sign: always the sign most frequent in the fit rows;
* a linear regression on the same 25 sub-state inputs (least squares with an intercept, fitted on the fit rows);
* a coin: 0.5.

Standard errors are over games (a game's rows move together); each model's paired difference from the linear
regression is on the same rows.

    python benchmarks/learn/dqn_baselines.py --fit-games 12000 --games 6000 --out results/learn/baselines/dqn.json
"""

from __future__ import annotations

import os

for _name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_name] = "1"

import argparse  # noqa: E402
import json  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

from sweeplab.learn.models import shipped  # noqa: E402
from sweeplab.learn.seed003.data import BoardRange  # noqa: E402
from sweeplab.learn.seed003.episodes import Episode, simulate  # noqa: E402
from sweeplab.learn.seed003.network import Network  # noqa: E402
from sweeplab.learn.seed003.players import ManhattanPlayer  # noqa: E402

MODELS = ("dqn", "dqn-single")


def _clustered(correct: np.ndarray, game: np.ndarray) -> tuple[float, float]:
    """The mean of ``correct`` and its standard error over games (rows of one game are not independent)."""
    mean = float(np.mean(correct))
    _, index = np.unique(game, return_inverse=True)
    sums = np.bincount(index, weights=correct - mean)
    return mean, float(np.sqrt(np.sum(sums**2)) / len(correct))


def _score(name: str, q: np.ndarray, fresh: Episode, linear_right: np.ndarray | None) -> dict:
    right = ((q >= 0) == (fresh.y >= 0)).astype(np.float64)
    accuracy, se = _clustered(right, fresh.game)
    row = {"name": name, "sign_accuracy": round(accuracy, 6), "se": round(se, 6)}
    row["mse"] = None if name == "majority sign" else round(float(np.mean((q - fresh.y) ** 2)), 6)
    if linear_right is not None:
        difference, difference_se = _clustered(right - linear_right, fresh.game)
        row["minus_linear"] = {"difference": round(difference, 6), "se": round(difference_se, 6)}
    return row


def _rows(rows: Episode, seed: int, games: int) -> dict:
    return {"seed": seed, "games": games, "rows": len(rows.y), "non_negative_share": round(float(np.mean(rows.y >= 0)), 6)}


def measure(fit_games: int, fit_seed: int, games: int, seed: int) -> dict:
    networks = {name: Network.load(shipped(name) / "model.npz") for name in MODELS}
    coefficients = {tuple(float(c) for c in n.meta["coefficients"]) for n in networks.values()}
    if len(coefficients) != 1:
        raise SystemExit(f"the shipped Q-networks were made with different coefficients: {sorted(coefficients)}")
    (alpha,) = coefficients
    start = time.process_time()
    fit = simulate(ManhattanPlayer, alpha, fit_games, fit_seed, BoardRange())
    fresh = simulate(ManhattanPlayer, alpha, games, seed, BoardRange())
    play_cpu = time.process_time() - start
    majority = 1.0 if np.mean(fit.y >= 0) >= 0.5 else -1.0
    design = np.column_stack([fit.x.astype(np.float64), np.ones(len(fit.y))])
    weights, *_ = np.linalg.lstsq(design, fit.y.astype(np.float64), rcond=None)
    linear = np.column_stack([fresh.x.astype(np.float64), np.ones(len(fresh.y))]) @ weights
    linear_right = ((linear >= 0) == (fresh.y >= 0)).astype(np.float64)
    rows = [_score(name, np.asarray(net(fresh.x), dtype=np.float64), fresh, linear_right) for name, net in networks.items()]
    rows.append(_score("majority sign", np.full(len(fresh.y), majority), fresh, linear_right))
    rows.append(_score("linear regression", linear, fresh, None))
    return {
        "coefficients": list(alpha),
        "fit": _rows(fit, fit_seed, fit_games),
        "fresh": _rows(fresh, seed, games),
        "majority_sign": "non-negative" if majority > 0 else "negative",
        "scores": rows,
        "coin": 0.5,
        "play_cpu_seconds": round(play_cpu, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--fit-games", type=int, default=12000, help="games whose rows fit the baselines (default 12000)")
    parser.add_argument("--fit-seed", type=int, default=20, help="their root seed (default 20)")
    parser.add_argument("--games", type=int, default=6000, help="games whose fresh rows score everyone (default 6000)")
    parser.add_argument("--seed", type=int, default=21, help="their root seed (default 21)")
    parser.add_argument("--out", type=Path, required=True, help="the JSON summary to write")
    args = parser.parse_args()
    summary = {
        "command": "python benchmarks/learn/dqn_baselines.py "
        + " ".join(f"--{k.replace('_', '-')} {v}" for k, v in vars(args).items()),
        **measure(args.fit_games, args.fit_seed, args.games, args.seed),
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(summary, indent=2) + "\n")
    for row in summary["scores"]:
        print(f"{row['name']}: sign accuracy {row['sign_accuracy']:.4f} ± {row['se']:.4f}, MSE {row['mse']}")


if __name__ == "__main__":
    main()
