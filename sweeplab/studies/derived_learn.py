"""The derived figures of the learned players (``results/learn/derived.json``, written by
:mod:`sweeplab.studies.derived`): figures the explanations quote that no committed file of ``results/learn/`` holds as
one value.

- Each board's choice costs on the Manhattan player's guess positions (``probabilities/positions.csv``): the extra
  exact mine probability of each chooser's cell, its mean and SE over the games the positions come from, computed as
  ``sweeplab learn compare`` computes the same over all boards for ``probabilities/table.md``.
- The noise ablations (``ablations/BOARD/``) paired with each learned player of ``winrates/BOARD/``, as the learned
  players' page pairs them, and the range of each player's cost over the boards.
- Paired differences on the development layouts between players split across runs of one board: the ``dqn`` and
  ``dqn-single`` runs of ``winrates/BOARD/`` and the models kept in ``scale/NAME/BOARD/`` (named ``scale/NAME``, as their
  runs name them ``dqn`` or ``dqn-single`` too), against the Manhattan player and the two Q-learning players.
- The games the learned players win beyond the Manhattan player in seed 003's density sweep (``results/seed003``, its
  ``ratio`` group) over the band of densities the explanations name. ``results/seed003`` holds only what its experiment
  writes, so the figure is kept here.

Rates and differences are fractions, as in the run files.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import numpy as np

from sweeplab.learn.seed003.evaluate import clustered_mean
from sweeplab.studies.bench_runs import _board_runs, _learn_paired, _runs_outcomes, _same_layouts, ablation_runs, spec_options

BOARDS = ("beginner", "intermediate", "expert")
#: The players of ``winrates/BOARD/`` a noise player is paired with (with noise in place of the model they are one
#: player, so one noise run stands for each), and the Manhattan version they build on.
NOISE_PAIRED = ("xgboost", "nn", "dqn", "dqn-single", "dsscsp-manhattan")
#: The players of ``winrates/BOARD/`` whose paired differences are derived (the ``scale/`` models join them) ...
PLAYERS = ("dqn", "dqn-single")
#: ... and the players each is paired with.
AGAINST = ("dsscsp-manhattan", "dqn-single", "dqn")
#: The learned players of seed 003's density sweep, each against the Manhattan version.
SWEEP_PLAYERS = ("xgboost", "nn", "dqn", "dqn-single")
SWEEP_AGAINST = "dsscsp-manhattan"
#: The band of mine densities (both ends in) where the explanations place the sweep's gain.
SWEEP_BAND = (0.10, 0.20)


def learn(folder: Path) -> dict[str, Any] | None:
    """The derived figures of ``folder`` (``results/learn``), the parts whose data is there (None without any)."""
    if not folder.is_dir():
        return None
    found: dict[str, Any] = {"source": f"results/{folder.name}"}
    positions = folder / "probabilities" / "positions.csv"
    if positions.is_file():
        found["choice_costs"] = choice_costs(positions)
    noise = noise_ablations(folder)
    if noise:
        found["noise"] = noise
        found["noise_range"] = noise_range(noise)
    development = paired_development(folder)
    if development:
        found["development"] = development
    sweep = sweep_gain(folder.parent / "seed003" / "data.json")
    if sweep is not None:
        found["seed003_ratio"] = sweep
    return found if len(found) > 1 else None


def choice_costs(path: Path) -> list[dict[str, Any]]:
    """Per board and chooser of ``positions.csv``: its positions and games, how often its cell is less safe than the
    exact-safest and the mean extra exact mine probability, each with its SE over games (``clustered_mean``)."""
    with path.open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    choosers = [name.removesuffix("_cost") for name in (rows[0] if rows else {}) if name.endswith("_cost")]
    found = []
    for board in dict.fromkeys(r["board"] for r in rows):
        mine = [r for r in rows if r["board"] == board]
        games = np.array([int(r["game"]) for r in mine])
        for name in choosers:
            differs, differs_se = clustered_mean(np.array([float(r[f"{name}_differs"]) for r in mine]), games)
            cost, cost_se = clustered_mean(np.array([float(r[f"{name}_cost"]) for r in mine]), games)
            found.append(
                {
                    "board": board,
                    "player": name,
                    "positions": len(mine),
                    "games": len(set(games.tolist())),
                    "differs": differs,
                    "differs_se": differs_se,
                    "mean_cost": cost,
                    "mean_cost_se": cost_se,
                }
            )
    return found


def noise_ablations(folder: Path) -> list[dict[str, Any]]:
    """Each board's noise player (``ablations/BOARD/``) minus each player of ``NOISE_PAIRED`` in ``winrates/BOARD/``,
    paired on the games both played, as the learned players' page pairs them."""
    found = []
    for board in BOARDS:
        runs = ablation_runs(folder, board)
        if runs is None:
            continue
        ablated, outcomes = runs
        for spec in (s["strategy"] for _, bench in ablated for s in bench["summaries"]):
            if spec_options(spec).get("noise") != "1":
                continue
            for player in NOISE_PAIRED:
                d = _learn_paired(outcomes, spec, player)
                if d is not None:
                    found.append({"board": board, "noise": spec, "player": player, "difference": d[0], "se": d[1]})
    return found


def noise_range(noise: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per player, the least and the largest cost of noise in its place over the boards (cost: the player's win rate
    less the noise player's)."""
    found = []
    for player in dict.fromkeys(n["player"] for n in noise):
        costs = [-n["difference"] for n in noise if n["player"] == player]
        found.append({"player": player, "boards": len(costs), "cost_low": min(costs), "cost_high": max(costs)})
    return found


def paired_development(folder: Path) -> list[dict[str, Any]]:
    """Per board, each of ``PLAYERS`` and of the ``scale/`` models minus each of ``AGAINST``, paired on the
    development layouts of ``winrates/BOARD/`` (a ``scale/NAME/BOARD/`` run must share their board, rule and seed)."""
    found = []
    for board in BOARDS:
        full = _board_runs(folder / "winrates" / board)
        if not full:
            continue
        outcomes = _runs_outcomes(full)
        players = [p for p in PLAYERS if p in outcomes]
        scale = folder / "scale"
        for model in sorted(p for p in scale.iterdir() if p.is_dir()) if scale.is_dir() else []:
            runs = _board_runs(model / board)
            if not runs:
                continue
            _same_layouts([full[0], runs[0]])
            played = _runs_outcomes(runs)
            if len(played) != 1:
                raise ValueError(f"{model / board}: expected the runs of one player, found {sorted(played)}")
            name = f"scale/{model.name}"
            outcomes[name] = next(iter(played.values()))
            players.append(name)
        for a in players:
            for b in AGAINST:
                d = _learn_paired(outcomes, a, b)
                if d is not None:
                    found.append({"board": board, "a": a, "b": b, "difference": d[0], "se": d[1]})
    return found


def sweep_gain(path: Path) -> list[dict[str, Any]] | None:
    """Each of ``SWEEP_PLAYERS`` in the ``ratio`` group of seed 003's sweep: over the densities of ``SWEEP_BAND``
    that both it and ``SWEEP_AGAINST`` played, the games of each, and its wins less the Manhattan version's."""
    if not path.is_file():
        return None
    points = [p for p in json.loads(path.read_text())["points"] if p["group"] == "ratio"]
    low, high = SWEEP_BAND
    band = [p for p in points if p["x"] is not None and low - 1e-9 <= p["x"] <= high + 1e-9]
    base = {p["x"]: p for p in band if p["strategy"] == SWEEP_AGAINST}
    found = []
    for player in SWEEP_PLAYERS:
        mine = [p for p in band if p["strategy"] == player and p["x"] in base]
        if not mine:
            continue
        found.append(
            {
                "strategy": player,
                "against": SWEEP_AGAINST,
                "low": low,
                "high": high,
                "densities": len(mine),
                "games": sum(p["games"] for p in mine),
                "against_games": sum(base[p["x"]]["games"] for p in mine),
                "more_wins": sum(p["wins"] - base[p["x"]]["wins"] for p in mine),
            }
        )
    return found or None
