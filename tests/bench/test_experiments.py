import csv
import json
import math

import pytest

from sweeplab.bench.experiments import EXPERIMENTS, ExperimentError, Settings, run_experiment
from sweeplab.core.errors import UnknownStrategyError

EXPECTED_FILES = {
    "levels": {"data.csv", "data.json", "table.md", "pairs.csv", "levels-seed000.png", "cpu-seed000-safe.png"},
    "density": {"data.csv", "data.json", "table.md", "fits.csv", "density.png"},
    "size": {"data.csv", "data.json", "table.md", "size.png", "size-cpu.png"},
    "aspect": {"data.csv", "data.json", "table.md", "aspect.png"},
    "outcomes": {"data.csv", "data.json", "table.md", "outcomes.csv", "outcomes.png"},
    "calibration": {"data.csv", "data.json", "table.md", "bins.csv", "paper-bins.csv", "groups.csv", "reliability.png"},
    "guesses": {"data.csv", "data.json", "table.md", "audit.csv", "guesses.csv.gz"},
    "frontier": {"data.csv", "data.json", "table.md", "games.csv.gz", "extremes.csv", "frontier.png"},
}


def test_every_experiment_is_offered_by_the_cli():
    from sweeplab.cli.bench import EXPERIMENT_NAMES

    assert set(EXPERIMENT_NAMES) == set(EXPERIMENTS)


@pytest.mark.parametrize("name", list(EXPECTED_FILES))
def test_quick_run_writes_its_files(name, tmp_path):
    settings = Settings(quick=True, strategies=["single-point"], games=4, command=f"sweeplab experiment {name} --quick")
    lines: list[str] = []
    files = run_experiment(name, tmp_path, settings, echo=lines.append)
    names = {f.name for f in files}
    assert EXPECTED_FILES[name] <= names
    for f in files:
        assert f.exists() and f.stat().st_size > 0
        if f.suffix == ".png":
            assert f.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    data = json.loads((tmp_path / "data.json").read_text())
    assert data["experiment"] == name and data["command"] == settings.command
    assert data["points"] and all(p["games"] == 4 and p["strategy"] == "single-point" for p in data["points"])
    assert "Produced by `sweeplab experiment" in (tmp_path / "table.md").read_text()


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


def test_density_fits_a_falling_logistic(tmp_path):
    settings = Settings(quick=True, strategies=["single-point"], games=30)
    run_experiment("density", tmp_path, settings, echo=lambda s: None)
    fits = list(csv.DictReader((tmp_path / "fits.csv").open()))
    assert len(fits) == 3 and all(float(f["slope"]) > 0 and 0 < float(f["midpoint"]) < 0.4 for f in fits)


def test_aspect_plays_every_shape_from_900x1_to_30x30(tmp_path):
    plan = EXPERIMENTS["aspect"].plan(Settings(strategies=["single-point"]))
    assert [p.rules.height for p in plan.points] == [1, 2, 3, 4, 5, 6, 9, 10, 12, 15, 18, 20, 25, 30]
    assert all(p.rules.width * p.rules.height == 900 and p.rules.mines == 180 for p in plan.points)
    assert plan.notes == []


def test_calibration_separates_a_calibrated_from_an_overconfident_strategy(tmp_path, test_strategies):
    settings = Settings(strategies=["test-coin", "test-overconfident"], games=60, board="9x9x10", rule="unsafe")
    run_experiment("calibration", tmp_path, settings, echo=lambda s: None)
    bins = list(csv.DictReader((tmp_path / "bins.csv").open()))

    def pooled_z(strategy: str) -> float:
        rows = [b for b in bins if b["strategy"] == strategy]
        n = sum(int(b["observations"]) for b in rows)
        successes = sum(int(b["successes"]) for b in rows)
        estimate = sum(float(b["mean_estimate"]) * int(b["observations"]) for b in rows) / n
        rate = successes / n
        return (rate - estimate) / math.sqrt(rate * (1 - rate) / n)

    assert abs(pooled_z("test-coin")) < 3
    assert pooled_z("test-overconfident") < -5
    assert "test-coin: unconstrained guesses" in (tmp_path / "table.md").read_text()


def test_frontier_reports_the_largest_sets(tmp_path, test_strategies):
    settings = Settings(strategies=["test-coin", "single-point"], games=5, board="9x9x10", rule="safe")
    notes: list[str] = []
    run_experiment("frontier", tmp_path, settings, echo=notes.append)
    extremes = list(csv.DictReader((tmp_path / "extremes.csv").open()))
    most_dof = next(e for e in extremes if e["what"] == "most degrees of freedom")
    assert most_dof["strategy"] == "test-coin" and int(most_dof["variables"]) == 81  # all 81 cells covered at the first move
    assert any("single-point does not expose `largest_set`" in n for n in notes)


def test_outcomes_of_a_guessing_strategy(tmp_path):
    settings = Settings(strategies=["random"], games=10, board="9x9x10", rule="unsafe")
    run_experiment("outcomes", tmp_path, settings, echo=lambda s: None)
    rows = list(csv.DictReader((tmp_path / "outcomes.csv").open()))
    assert sum(int(r["games"]) for r in rows) == 10
    assert int(next(r for r in rows if r["outcome"] == "lost on another guess")["games"]) == 10


def test_unknown_names_are_errors(tmp_path):
    with pytest.raises(ExperimentError, match="unknown experiment"):
        run_experiment("nope", tmp_path, Settings())
    with pytest.raises(UnknownStrategyError):
        run_experiment("levels", tmp_path, Settings(strategies=["no-such-strategy"]))


def test_seed_001_columns_are_gac_with_options():
    plan = EXPERIMENTS["levels"].plan(Settings(quick=True))
    seed001 = {(p.paper, p.strategy, p.build_name, p.options) for p in plan.points if p.group == "seed 001"}
    if any(p.build_name == "gac" for p in plan.points):
        assert ("c1", "gac[pairs=False,subsets=False]", "gac", (("pairs", False), ("subsets", False))) in seed001
        assert ("c1 + c2", "gac[pairs=False]", "gac", (("pairs", False),)) in seed001


def test_defaults_use_only_registered_strategies():
    plan = EXPERIMENTS["levels"].plan(Settings(quick=True))
    from sweeplab.strategies.registry import names

    assert plan.points and {p.build_name for p in plan.points} <= set(names())


def test_experiments_take_strategy_specs(tmp_path):
    settings = Settings(strategies=["cspstrategy[start=centre]"], games=3, board="8x8x10", rule="unsafe")
    run_experiment("outcomes", tmp_path, settings, echo=lambda s: None)
    data = json.loads((tmp_path / "data.json").read_text())
    assert [p["strategy"] for p in data["points"]] == ["cspstrategy[start=centre]"]
    with pytest.raises(Exception, match="no option 'nope'"):
        run_experiment("outcomes", tmp_path / "x", Settings(strategies=["cspstrategy[nope=1]"], games=1), echo=lambda s: None)


def test_the_paper_pool_is_every_board_of_figures_2_to_10_with_independent_layouts():
    from sweeplab.bench.experiments import paper_pool

    points = paper_pool(["a", "b"], 7)
    boards = {(p.group, p.rules.spec(), p.rules.first_click) for p in points}
    assert len(boards) == 9 + 48 + 13 + 14 and len(points) == 2 * len(boards)
    assert ("levels:hint", "30x16x99", "hint") in boards and ("size", "10x10x20", "safe") in boards
    assert ("aspect", "900x1x180", "safe") in boards
    offsets = {p.rules.spec() + p.group: p.seed_offset for p in points}
    assert len(set(offsets.values())) == len(boards)  # each board its own layouts, shared by the two strategies
    assert all(p.games == 7 for p in points)


def test_paper_bins_truncate_like_the_papers_log_and_give_a_finite_z():
    from sweeplab.bench.experiments import paper_bin, paper_bin_table

    assert [paper_bin(x) for x in (2 / 3, 0.5, 0.8, 0.99999)] == [66, 50, 80, 99]
    triples = [("educated", 0.82, True)] * 3 + [("educated", 2 / 3, False), ("craps", 0.45, True)]
    rows = {(r["kind"], r["bin"]): r for r in paper_bin_table("s", triples)}
    head = rows[("educated", "80% to 84%")]
    assert head["observations"] == 3 and head["rate"] == 1.0 and head["paper_rate"] == 82253 / 111689
    assert math.isfinite(head["z_paper"]) and head["z_paper"] > 0
    assert rows[("educated", "66%")]["successes"] == 0
    assert rows[("craps", "other")]["observations"] == 1  # 45% is in none of Table 1's rows
    assert rows[("unconstrained", "80%")]["observations"] == 0 and rows[("unconstrained", "80%")]["z_paper"] is None


def test_loss_decomposition_counts_the_games_lost_on_each_kind(tmp_path):
    from sweeplab.bench.experiments import loss_decomposition

    settings = Settings(strategies=["cspstrategy"], games=40, board="16x16x40", rule="safe")
    run_experiment("outcomes", tmp_path, settings, echo=lambda s: None)
    data = json.loads((tmp_path / "data.json").read_text())
    rows = {r["kind"]: r for r in data["decomposition"]}
    table = {r["outcome"]: r["games"] for r in data["outcomes"]}
    assert round(rows["educated"]["losses_per_game"] * 40) == table["lost on an educated guess"]
    assert round(rows["craps"]["losses_per_game"] * 40) == table["lost on a craps shoot"]
    assert round(rows["unconstrained"]["losses_per_game"] * 40) == table["lost on another guess"]
    assert loss_decomposition("x", []) == []  # no games: nothing to divide
