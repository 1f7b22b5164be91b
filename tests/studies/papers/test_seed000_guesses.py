"""Seed 000's outcomes, guess log and largest coupled sets, on the boards the paper pooled."""

import csv
import json
import math

from sweeplab.studies.experiment import Settings
from sweeplab.studies.papers.experiments import run_experiment


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


def test_the_paper_pool_is_every_board_of_figures_2_to_10_with_independent_layouts():
    from sweeplab.studies.papers.seed000_guesses import paper_pool

    points = paper_pool(["a", "b"], 7)
    boards = {(p.group, p.rules.spec(), p.rules.first_click) for p in points}
    assert len(boards) == 9 + 48 + 13 + 14 and len(points) == 2 * len(boards)
    assert ("levels:hint", "30x16x99", "hint") in boards and ("size", "10x10x20", "safe") in boards
    assert ("aspect", "900x1x180", "safe") in boards
    offsets = {p.rules.spec() + p.group: p.seed_offset for p in points}
    assert len(set(offsets.values())) == len(boards)  # each board its own layouts, shared by the two strategies
    assert all(p.games == 7 for p in points)


def test_paper_bins_truncate_like_the_papers_log_and_give_a_finite_z():
    from sweeplab.studies.papers.seed000_guesses import paper_bin, paper_bin_table

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
    from sweeplab.studies.papers.seed000_guesses import loss_decomposition

    settings = Settings(strategies=["cspstrategy"], games=40, board="16x16x40", rule="safe")
    run_experiment("outcomes", tmp_path, settings, echo=lambda s: None)
    data = json.loads((tmp_path / "data.json").read_text())
    rows = {r["kind"]: r for r in data["decomposition"]}
    table = {r["outcome"]: r["games"] for r in data["outcomes"]}
    assert round(rows["educated"]["losses_per_game"] * 40) == table["lost on an educated guess"]
    assert round(rows["craps"]["losses_per_game"] * 40) == table["lost on a craps shoot"]
    assert round(rows["unconstrained"]["losses_per_game"] * 40) == table["lost on another guess"]
    assert loss_decomposition("x", []) == []  # no games: nothing to divide
