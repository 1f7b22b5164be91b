"""The bench runs of one board's layouts, paired game by game: the learned players' page reads them, and the derived
figures of the explanations (:mod:`sweeplab.studies.derived_learn`) pair them the same way."""

from __future__ import annotations

import csv
import gzip
import json
from pathlib import Path
from typing import Any

from sweeplab.bench.stats import paired_difference


def _learn_outcomes(path: Path) -> dict[str, dict[int, bool]]:
    """Per strategy, game index -> won, from a bench ``games.csv.gz``."""
    outcomes: dict[str, dict[int, bool]] = {}
    if path.exists():
        with gzip.open(path, "rt", newline="") as handle:
            for r in csv.DictReader(handle):
                outcomes.setdefault(r["strategy"], {})[int(r["game"])] = r["won"] == "1"
    return outcomes


def _board_runs(folder: Path) -> list[tuple[Path, dict[str, Any]]]:
    """The bench runs of one board: ``folder`` and its subfolders that hold a ``bench.json``, each with that file
    read. They must share board, rule and seed (so game ``i`` is one layout in all of them); players may be split
    between them (a run per model, as models finish training)."""
    found = (
        [f for f in (folder, *sorted(p for p in folder.iterdir() if p.is_dir())) if (f / "bench.json").exists()]
        if folder.exists()
        else []
    )
    runs = [(f, json.loads((f / "bench.json").read_text())) for f in found]
    _same_layouts(runs)
    return runs


def _runs_outcomes(runs: list[tuple[Path, dict[str, Any]]]) -> dict[str, dict[int, bool]]:
    """Per strategy, game index -> won, over several runs of one board's layouts (:func:`_learn_outcomes` of each)."""
    outcomes: dict[str, dict[int, bool]] = {}
    for folder, _ in runs:
        outcomes |= _learn_outcomes(folder / "games.csv.gz")
    return outcomes


def _same_layouts(runs: list[tuple[Path, dict[str, Any]]]) -> None:
    """Refuse runs whose game ``i`` is not one layout in all of them (board, rule or seed differ)."""
    keys = ("board", "rule", "seed")
    for f, bench in runs[1:]:
        if any(bench["settings"].get(k) != runs[0][1]["settings"].get(k) for k in keys):
            raise ValueError(
                f"{f / 'bench.json'}: its board, rule and seed differ from {runs[0][0] / 'bench.json'}'s, so its games "
                "do not pair"
            )


def _learn_paired(outcomes: dict[str, dict[int, bool]], a: str, b: str) -> tuple[float, float] | None:
    """a minus b over the games both played (paired on the layout), or None without both."""
    if a == b or a not in outcomes or b not in outcomes:
        return None
    games = sorted(set(outcomes[a]) & set(outcomes[b]))
    if len(games) < 2:
        return None
    return paired_difference([outcomes[a][g] for g in games], [outcomes[b][g] for g in games])


def spec_options(spec: str) -> dict[str, str]:
    """A spec's options as written, ``xgboost[noise=1]`` -> ``{"noise": "1"}`` (unchecked: the runs already played
    them; the registry's ``parse_spec`` would load every player to check them)."""
    if "[" not in spec:
        return {}
    return dict(o.split("=", 1) for o in spec[spec.index("[") + 1 : -1].split(","))


def ablation_runs(root: Path, board: str) -> tuple[list[tuple[Path, dict[str, Any]]], dict[str, dict[int, bool]]] | None:
    """One board's ablation runs (``root/ablations/BOARD/``) and the outcomes of every player of them and of the
    full players (``root/winrates/BOARD/``), refused unless both play the same layouts; None without either."""
    ablated = _board_runs(root / "ablations" / board)
    full = _board_runs(root / "winrates" / board)
    if not ablated or not full:
        return None
    _same_layouts([full[0], ablated[0]])
    return ablated, _runs_outcomes(full + ablated)
