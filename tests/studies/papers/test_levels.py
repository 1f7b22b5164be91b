"""The levels experiment: every paper's table by level and first-click rule."""

import csv

from sweeplab.studies.experiment import Settings
from sweeplab.studies.papers.experiments import EXPERIMENTS, run_experiment


def test_levels_pairs_strategies_on_the_same_games(tmp_path):
    settings = Settings(strategies=["single-point", "random"], games=10)
    run_experiment("levels", tmp_path, settings, echo=lambda s: None)
    rows = list(csv.DictReader((tmp_path / "data.csv").open()))
    seed001 = [r for r in rows if r["group"] == "seed 001" and r["strategy"] == "single-point"]
    assert {r["board"] for r in seed001} == {"9x9x10", "16x16x40", "30x16x99"} and {r["rule"] for r in seed001} == {"zero"}
    seed002 = [r for r in rows if r["group"] == "seed 002" and r["strategy"] == "single-point"]
    assert len(seed002) == 4 and all(r["paper_label"] == "Lvl 1" and r["published_percent"] for r in seed002)
    pairs = list(csv.DictReader((tmp_path / "pairs.csv").open()))
    assert pairs and all(p["a"] == "single-point" and p["b"] == "random" for p in pairs)


def test_seed_001_columns_are_gac_with_options():
    plan = EXPERIMENTS["levels"].plan(Settings(quick=True))
    seed001 = {(p.paper, p.strategy, p.build_name, p.options) for p in plan.points if p.group == "seed 001"}
    if any(p.build_name == "gac" for p in plan.points):
        assert ("c1", "gac[pairs=False,subsets=False]", "gac", (("pairs", False), ("subsets", False))) in seed001
        assert ("c1 + c2", "gac[pairs=False]", "gac", (("pairs", False),)) in seed001
