"""How good are the learned mine probabilities? The classifiers' (and DSScsp's) probabilities against the exact
engine's on the guess positions of the Manhattan player: log loss, calibration, and how often a player's choice
differs from the exact-safest cell and what that costs in exact mine probability.
"""

from __future__ import annotations

import csv
import json
import random
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from sweeplab.analysis.analyzer import Analyzer
from sweeplab.core.game import Game
from sweeplab.core.observation import Observation
from sweeplab.core.rules import make_rules
from sweeplab.learn.models import shipped
from sweeplab.learn.seed003.data import BoardRange, DataError, deals
from sweeplab.learn.seed003.players import ManhattanPlayer
from sweeplab.learn.seed003.scorers import ClassifierScorer, DQNScorer, load_scorer
from sweeplab.strategies.base import play
from sweeplab.strategies.dss.players import MANHATTAN_TOLERANCE, pick_guess

BINS = 20
PROBABILISTIC = ("dsscsp", "xgboost", "nn")
CHOOSERS = ("dsscsp-manhattan", "xgboost", "nn", "dqn")
_EPS = 1e-7


def _xent_cells(target: np.ndarray, p: np.ndarray) -> np.ndarray:
    """Each cell's cross-entropy of ``p`` against the target probability (or 0/1 truth)."""
    p = np.clip(p, _EPS, 1 - _EPS)
    return -(target * np.log(p) + (1 - target) * np.log(1 - p))


def clustered_mean(values: np.ndarray, clusters: np.ndarray) -> tuple[float, float]:
    """The mean of ``values`` and its standard error with the clusters (games) as the independent units: cells and
    positions of one game are not independent, so the SE is the cluster-robust one of a ratio estimate,
    ``sqrt(k / (k - 1) * sum_g (S_g - mean * n_g)^2) / N`` over the k clusters (0 with fewer than two)."""
    n = len(values)
    if n == 0:
        return 0.0, 0.0
    mean = float(values.mean())
    ids, index = np.unique(clusters, return_inverse=True)
    k = len(ids)
    if k < 2:
        return mean, 0.0
    sums = np.bincount(index, weights=values, minlength=k)
    counts = np.bincount(index, minlength=k)
    resid = sums - mean * counts
    return mean, float(np.sqrt(k / (k - 1) * np.sum(resid**2)) / n)


def _scores(p: np.ndarray, exact: np.ndarray, mine: np.ndarray, games: np.ndarray) -> dict[str, float]:
    """Log loss against the exact probabilities and against the true layout, and the mean absolute difference from
    the exact probabilities, each with its SE over games."""
    out: dict[str, float] = {}
    for key, values in (
        ("log_loss_vs_exact", _xent_cells(exact, p)),
        ("log_loss_vs_truth", _xent_cells(mine, p)),
        ("mean_abs_diff_vs_exact", np.abs(p - exact)),
    ):
        mean, se = clustered_mean(values, games)
        out[key], out[f"{key}_se"] = round(mean, 5), round(se, 5)
    return out


def compare_probabilities(
    positions: int,
    boards: Sequence[str],
    rule: str,
    seed: int,
    out: Path,
    progress: Callable[[int], None] | None = None,
    command: str = "",
    models: dict[str, Path] | None = None,
) -> str:
    """Collect ``positions`` guess positions (split evenly over ``boards``), score every covered cell with each
    model, and write ``positions.csv``, ``calibration.csv``, ``summary.json``, ``table.md`` and ``calibration.png``
    under ``out``. Returns the Markdown table."""
    models = models or {}
    xgb = load_scorer("xgboost", models.get("xgboost", shipped("xgboost")))
    nn = load_scorer("nn", models.get("nn", shipped("nn")))
    dqn = load_scorer("dqn", models.get("dqn", shipped("dqn")))
    assert isinstance(xgb, ClassifierScorer) and isinstance(nn, ClassifierScorer) and isinstance(dqn, DQNScorer)
    analyzer = Analyzer()
    ties = random.Random(seed)
    per_board = [positions // len(boards) + (i < positions % len(boards)) for i in range(len(boards))]
    rows: list[dict[str, Any]] = []
    cells_p: dict[str, list[np.ndarray]] = {k: [] for k in (*PROBABILISTIC, "exact", "mine", "frontier", "game")}
    games_played = 0
    start = time.process_time()
    for board, wanted in zip(boards, per_board, strict=True):
        rules = make_rules(board, rule)
        found: list[tuple[Observation, dict[int, float], frozenset[int], int]] = []
        limit = max(1_000, 50 * wanted)  # a board where the player never guesses must not make this loop forever
        for deal in deals(seed, limit, BoardRange.fixed(rules)):
            if len(found) >= wanted:
                break
            game = Game(deal.rules, deal.game_seed)
            player = ManhattanPlayer(deal.player_seed)
            seen: list[tuple[Observation, dict[int, float]]] = []
            player.watcher = lambda o, p, seen=seen: seen.append((o, p))  # type: ignore[misc]
            play(player, game)
            mines = game.mine_cells()
            found.extend((o, p, mines, games_played) for o, p in seen[: wanted - len(found)])
            games_played += 1
        if len(found) < wanted:
            raise DataError(
                f"--board {board}: {limit:,} games gave only {len(found):,} of the {wanted:,} positions asked where the "
                "player had to guess; choose a board with more mines, or fewer --positions"
            )
        for observation, probabilities, mines, game_id in found:
            cells = sorted(probabilities)
            view = observation.view
            neighbours = observation.board.neighbours
            cells_p["frontier"].append(np.array([any(view[n] >= 0 for n in neighbours[c]) for c in cells]))
            cells_p["game"].append(np.full(len(cells), game_id))
            exact = analyzer.analyze(observation)
            q = np.array([exact.probability(c) for c in cells])
            p_dss = np.array([probabilities[c] for c in cells])
            p_xgb = xgb.mine_probability(observation, cells, probabilities)
            p_nn = nn.mine_probability(observation, cells, probabilities)
            q_dqn = dqn.values(observation, cells, probabilities)
            truth = np.array([c in mines for c in cells], dtype=np.float64)
            for key, value in (("dsscsp", p_dss), ("xgboost", p_xgb), ("nn", p_nn), ("exact", q), ("mine", truth)):
                cells_p[key].append(value)
            best = float(q.min())
            board_obj = observation.board
            choice = {
                "dsscsp-manhattan": pick_guess(
                    dict(zip(cells, p_dss.tolist(), strict=True)),
                    ties,
                    {c: board_obj.edge_distance(c) for c in cells},
                    MANHATTAN_TOLERANCE,
                ),
                "xgboost": cells[int(np.argmin(p_xgb))],
                "nn": cells[int(np.argmin(p_nn))],
                "dqn": cells[int(np.argmax(q_dqn))],
            }
            row: dict[str, Any] = {"board": board, "game": game_id, "covered": len(cells), "exact_min": round(best, 6)}
            for name, cell in choice.items():
                cost = float(q[cells.index(cell)]) - best
                row[f"{name}_differs"] = int(cost > 1e-9)
                row[f"{name}_cost"] = round(cost, 6)
            rows.append(row)
            if progress is not None:
                progress(1)
    cpu = time.process_time() - start
    flat = {k: np.concatenate(v) if v else np.zeros(0) for k, v in cells_p.items()}
    summary: dict[str, Any] = {
        "command": command,
        "positions": len(rows),
        "cells": len(flat["exact"]),
        "seed": seed,
        "rule": rule,
        "boards": list(boards),
        "cpu_seconds": round(cpu, 1),
    }
    summary["games"] = games_played
    frontier = flat["frontier"].astype(bool)
    summary["frontier_cells"] = int(frontier.sum())
    games = flat["game"]
    summary["probability"] = {}
    for name in PROBABILISTIC:
        summary["probability"][name] = {
            **_scores(flat[name], flat["exact"], flat["mine"], games),
            "exact_entropy": round(float(_xent_cells(flat["exact"], flat["exact"]).mean()), 5),
            "frontier": {
                **_scores(flat[name][frontier], flat["exact"][frontier], flat["mine"][frontier], games[frontier]),
                "exact_entropy": round(float(_xent_cells(flat["exact"][frontier], flat["exact"][frontier]).mean()), 5),
            },
        }
    summary["probability"]["exact"] = {
        "log_loss_vs_truth": round(float(_xent_cells(flat["mine"], flat["exact"]).mean()), 5),
        "frontier": {"log_loss_vs_truth": round(float(_xent_cells(flat["mine"][frontier], flat["exact"][frontier]).mean()), 5)},
    }
    summary["choice"] = {}
    position_games = np.array([r["game"] for r in rows])
    for name in CHOOSERS:
        differs = np.array([r[f"{name}_differs"] for r in rows], dtype=np.float64)
        costs = np.array([r[f"{name}_cost"] for r in rows], dtype=np.float64)
        rate, rate_se = clustered_mean(differs, position_games)
        cost, cost_se = clustered_mean(costs, position_games)
        summary["choice"][name] = {
            "differs": round(rate, 5),
            "differs_se": round(rate_se, 5),
            "mean_cost": round(cost, 5),
            "mean_cost_se": round(cost_se, 5),
            "mean_cost_when_differs": round(float(costs[differs == 1].mean()) if differs.any() else 0.0, 5),
        }
    edges = np.linspace(0, 1, BINS + 1)
    calibration = []
    for name in PROBABILISTIC:
        p = flat[name]
        which = np.clip(np.digitize(p, edges) - 1, 0, BINS - 1)
        for b in range(BINS):
            mask = which == b
            if mask.any():
                calibration.append(
                    {
                        "model": name,
                        "bin": b,
                        "low": round(edges[b], 3),
                        "high": round(edges[b + 1], 3),
                        "cells": int(mask.sum()),
                        "mean_predicted": round(float(p[mask].mean()), 5),
                        "mean_exact": round(float(flat["exact"][mask].mean()), 5),
                        "mine_rate": round(float(flat["mine"][mask].mean()), 5),
                    }
                )
    out.mkdir(parents=True, exist_ok=True)
    _write_csv(out / "positions.csv", rows)
    _write_csv(out / "calibration.csv", calibration)
    (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    table = markdown(summary)
    (out / "table.md").write_text(table)
    _plot(calibration, out / "calibration.png")
    return table


def markdown(summary: dict[str, Any]) -> str:
    """The comparison as Markdown tables (± the SE over the games the positions come from)."""

    def pm(score: dict[str, float], key: str) -> str:
        se = score.get(f"{key}_se")
        return f"{score[key]:.4f}" + ("" if se is None else f" ± {se:.4f}")

    frontier_cells = summary.get("frontier_cells")
    lines = [
        f"{summary['positions']:,} guess positions of dsscsp-manhattan ({', '.join(summary['boards'])}, rule "
        f"{summary['rule']}, seed {summary['seed']}"
        + (f", from {summary['games']:,} games" if "games" in summary else "")
        + f"), {summary['cells']:,} covered cells"
        + ("" if frontier_cells is None else f", {frontier_cells:,} of them on the frontier (next to a number)")
        + f"; {summary['cpu_seconds']:.0f} CPU s.",
        "",
        "| probability | cells | log loss vs exact | exact's own entropy | log loss vs the true layout "
        "| mean abs. diff. from exact |",
        "|---|---|---|---|---|---|",
    ]
    scopes = [("all covered", None)] + ([("frontier", "frontier")] if frontier_cells is not None else [])
    for label, key in scopes:
        for name in PROBABILISTIC:
            s = summary["probability"][name]
            s = s[key] if key else s
            lines.append(
                f"| {name} | {label} | {pm(s, 'log_loss_vs_exact')} | {s['exact_entropy']:.4f} "
                f"| {pm(s, 'log_loss_vs_truth')} | {pm(s, 'mean_abs_diff_vs_exact')} |"
            )
        e = summary["probability"]["exact"]
        e = e[key] if key else e
        lines.append(f"| exact | {label} | - | - | {e['log_loss_vs_truth']:.4f} | 0 |")
    lines += [
        "",
        "| player's choice | picks a cell less safe than the exact-safest | extra exact mine probability per guess "
        "| per guess where it differs |",
        "|---|---|---|---|",
    ]
    for name in CHOOSERS:
        c = summary["choice"][name]
        lines.append(
            f"| {name} | {100 * c['differs']:.1f}% ± {100 * c['differs_se']:.1f} "
            f"| {100 * c['mean_cost']:.2f} ± {100 * c['mean_cost_se']:.2f} pts | "
            f"{100 * c['mean_cost_when_differs']:.2f} pts |"
        )
    return "\n".join(lines) + "\n"


def _write_csv(path: Path, rows: list[dict[str, Any]]) -> None:
    with path.open("w", newline="") as handle:
        if not rows:
            return
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


def _plot(calibration: list[dict[str, Any]], path: Path) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return
    fig, ax = plt.subplots(figsize=(5.5, 5))
    ax.plot([0, 1], [0, 1], color="grey", lw=0.8, ls="--")
    for index, name in enumerate(PROBABILISTIC):
        pts = [r for r in calibration if r["model"] == name and r["cells"] >= 20]
        colour = f"C{index}"  # a model's two lines share its colour; the marker and dash tell them apart
        x = [r["mean_predicted"] for r in pts]
        ax.plot(x, [r["mean_exact"] for r in pts], color=colour, marker="o", ms=3, label=f"{name} vs exact")
        ax.plot(x, [r["mine_rate"] for r in pts], color=colour, marker="x", ms=3, ls=":", label=f"{name} vs mines")
    ax.set_xlabel("predicted mine probability (bin mean)")
    ax.set_ylabel("exact probability / observed mine rate")
    ax.set_title("Calibration of learned mine probabilities")
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


__all__ = ["clustered_mean", "compare_probabilities", "markdown"]
