import gzip
import json
from pathlib import Path

import numpy as np
import pytest

from sweeplab.bench.stats import paired_difference
from sweeplab.learn.seed003.evaluate import clustered_mean
from sweeplab.studies import derived, derived_learn

ROOT = Path(__file__).resolve().parents[2]


def test_the_committed_derived_files_are_what_their_data_gives():
    files = derived.build(ROOT / "results")
    assert files, "no derived files: is results/ there?"
    for path, text in files.items():
        assert path.is_file(), f"{path} is not committed: run python -m sweeplab.studies.derived"
        assert path.read_text() == text, f"{path} differs from its data: run python -m sweeplab.studies.derived"


def test_calibration_figures_sum_count_and_pair_the_rows(tmp_path):
    folder = tmp_path / "calibration"
    folder.mkdir()
    bin_ = {"strategy": "a", "kind": "educated", "observations": 2000, "z": 2.5}
    groups = [
        {"strategy": "a", "group": "g", "kind": k, "guesses": n, "successes": s, "mean_estimate": e}
        | {"bin_80_84_guesses": 10 if k == "educated" else None, "bin_80_84_successes": 8, "bin_80_84_mean_estimate": 0.8}
        for k, n, s, e in [("craps", 25, 12, 0.5), ("educated", 75, 60, 0.8)]
    ]
    paper = [
        {"strategy": s, "kind": "educated", "bin": "80% to 84%", "rate": r, "se": 0.03} for s, r in [("a", 0.8), ("b", 0.75)]
    ]
    data = {"bins": [bin_, bin_ | {"observations": 10, "z": -3.0}], "groups": groups, "paper_bins": paper}
    (folder / "data.json").write_text(json.dumps(data))
    found = derived.calibration(folder)
    assert found is not None
    a = found["strategies"][0]
    assert a["guesses"] == 2010 and a["beyond_2se"] == 2 and a["expected_beyond_2se"] == pytest.approx(2 * 0.0455, abs=1e-3)
    kind = a["kinds"][0]
    assert kind["max_abs_z"] == 3.0 and kind["max_abs_z_over_1000"] == 2.5 and kind["group_max_abs_z"] == 0.0
    assert a["groups"] == [{"group": "g", "guesses": 100, "craps": 0.25, "educated": 0.75, "bin_80_84_rate": 0.8}]
    (pair,) = found["paired"]
    assert pair["strategy"] == "b" and pair["difference"] == pytest.approx(-0.05) and pair["se"] == pytest.approx(0.03 * 2**0.5)


def test_the_text_records_are_read_and_a_line_they_do_not_know_is_an_error(tmp_path):
    cpu = tmp_path / "cpu"
    cpu.mkdir()
    lines = [
        "# 20 games per board, root seed 0, safe rule; CPU per game (process time)",
        "x on 15x13x40: mean 3.01 ms, worst 1667 ms, costliest 1% of games 31.1% of the CPU, games with a capped set 2 [5, 7]",
        "x: intermediate / expert CPU ratio 0.50",
        "game 5: cap 1e6 1.71 s (1 capped set); cap 1e+07 1.72 s (0 capped)",
    ]
    (cpu / "tail-check.txt").write_text("\n".join(lines) + "\n")
    found = derived.cpu(cpu)
    assert found is not None and found["games"] == 20
    assert found["runs"][0] | {} == {
        "spec": "x",
        "board": "15x13x40",
        "mean_seconds": 0.00301,
        "worst_seconds": 1.667,
        "top_1pct_share": 0.311,
        "capped_games": [5, 7],
    }
    assert found["ratios"] == [{"spec": "x", "ratio": 0.5}]
    assert found["replays"] == [
        {"game": 5, "caps": [{"cap": 1e6, "seconds": 1.71, "capped": 1}, {"cap": 1e7, "seconds": 1.72, "capped": 0}]}
    ]
    (cpu / "tail-check.txt").write_text("\n".join([*lines, "x on 9x9x10: mean fast"]) + "\n")
    with pytest.raises(ValueError, match=r"tail-check.txt:5: a line this reader does not know"):
        derived.cpu(cpu)


def test_the_uncapped_replay_is_read_beside_the_frontier_games(tmp_path):
    folder = tmp_path / "frontier"
    folder.mkdir()
    (folder / "data.json").write_text(json.dumps({"points": [{"games": 3}, {"games": 4}]}))
    assert derived.frontier(folder) == {"source": "results/frontier/data.json", "games": 7}
    (folder / "uncapped.txt").write_text(
        "# games of results/frontier whose largest set had 100,000 or more solutions, replayed with node_cap=1,000\n"
        "# board, game: recorded (variables, constraints, dof, solutions) -> uncapped most-solutions set; capped sets\n"
        "15x13x40 game 2455 (2,000 nodes): recorded (69, 29, 40, 249,658) -> (69, 29, 40, 24,897,537); capped sets 1\n"
        "# stopped by hand after these 1 of the 3 games (largest recorded first)\n"
    )
    found = derived.frontier(folder)
    assert found is not None
    uncapped = found["uncapped"]
    assert (uncapped["threshold"], uncapped["node_cap"], uncapped["replayed"], uncapped["planned"]) == (100_000, 1000, 1, 3)
    assert uncapped["games"] == [
        {"board": "15x13x40", "game": 2455, "nodes": 2000}
        | {"recorded_variables": 69, "recorded_constraints": 29, "recorded_dof": 40, "recorded_solutions": 249_658}
        | {"variables": 69, "constraints": 29, "dof": 40, "solutions": 24_897_537, "capped": 1}
    ]


def test_a_paper_zero_gets_the_chance_of_a_sample_with_no_win(tmp_path):
    folder = tmp_path / "levels"
    folder.mkdir()
    point = {"group": "seed 002", "strategy": "s", "board": "b", "rule": "safe", "win_rate": 0.01}
    (folder / "data.json").write_text(
        json.dumps({"points": [point | {"published_percent": 0}, point | {"published_percent": 5}]})
    )
    found = derived.levels(folder)
    assert found is not None
    (row,) = found["no_win"]
    assert row["sample"] == derived.NO_WIN_SAMPLE and row["chance"] == pytest.approx(0.99**derived.NO_WIN_SAMPLE)


def _run(folder: Path, wins: dict[str, list[int]], seed: int = 0) -> None:
    """A bench run of ``folder``: its ``bench.json`` (settings and summaries) and ``games.csv.gz`` (who won each game)."""
    folder.mkdir(parents=True)
    settings = {"board": "9x9x10", "rule": "safe", "seed": seed}
    (folder / "bench.json").write_text(json.dumps({"settings": settings, "summaries": [{"strategy": s} for s in wins]}))
    lines = ["strategy,game,won"] + [f"{s},{g},{w}" for s, won in wins.items() for g, w in enumerate(won)]
    with gzip.open(folder / "games.csv.gz", "wt") as handle:
        handle.write("\n".join(lines) + "\n")


def test_learn_choice_costs_are_per_board_with_the_se_over_games(tmp_path):
    path = tmp_path / "positions.csv"
    rows = [("beginner", 0, 0.0), ("beginner", 0, 0.02), ("beginner", 1, 0.04), ("expert", 2, 0.1)]
    path.write_text(
        "board,game,covered,exact_min,a_differs,a_cost\n" + "".join(f"{b},{g},10,0.1,{int(c > 0)},{c}\n" for b, g, c in rows)
    )
    beginner, expert = derived_learn.choice_costs(path)
    mean, se = clustered_mean(np.array([0.0, 0.02, 0.04]), np.array([0, 0, 1]))
    assert (beginner["board"], beginner["player"], beginner["positions"], beginner["games"]) == ("beginner", "a", 3, 2)
    assert beginner["mean_cost"] == pytest.approx(0.02) and beginner["mean_cost_se"] == se and beginner["mean_cost"] == mean
    assert beginner["differs"] == pytest.approx(2 / 3)
    assert expert["mean_cost"] == pytest.approx(0.1) and expert["mean_cost_se"] == 0.0


def test_learn_pairs_noise_and_split_runs_on_the_same_layouts(tmp_path):
    learn = tmp_path / "learn"
    _run(learn / "winrates" / "beginner", {"dsscsp-manhattan": [1, 0, 1, 0], "xgboost": [1, 1, 1, 0]})
    _run(learn / "winrates" / "beginner" / "dqn", {"dqn": [1, 1, 0, 0]})
    _run(learn / "winrates" / "beginner" / "dqn-single", {"dqn-single": [1, 1, 1, 1]})
    _run(learn / "ablations" / "beginner", {"xgboost[noise=1]": [0, 0, 1, 0]})
    _run(learn / "scale" / "old" / "beginner", {"dqn": [0, 0, 0, 0]})
    found = derived.build(tmp_path)[learn / derived.NAME]
    data = json.loads(found)
    noise = {(n["player"], n["noise"]): (n["difference"], n["se"]) for n in data["noise"]}
    assert noise[("xgboost", "xgboost[noise=1]")] == paired_difference([0, 0, 1, 0], [1, 1, 1, 0])
    assert noise[("dqn", "xgboost[noise=1]")][0] == pytest.approx(-0.25) and ("nn", "xgboost[noise=1]") not in noise
    ranges = {r["player"]: r for r in data["noise_range"]}
    assert ranges["dqn-single"] == {"player": "dqn-single", "boards": 1, "cost_low": 0.75, "cost_high": 0.75}
    pairs = {(d["a"], d["b"]): d["difference"] for d in data["development"]}
    assert pairs[("dqn", "dsscsp-manhattan")] == 0.0 and pairs[("dqn", "dqn-single")] == -0.5
    assert pairs[("scale/old", "dqn-single")] == -1.0 and pairs[("scale/old", "dqn")] == -0.5
    assert ("dqn-single", "dqn-single") not in pairs and "choice_costs" not in data and "seed003_ratio" not in data


def test_a_scale_run_of_other_layouts_is_refused(tmp_path):
    _run(tmp_path / "winrates" / "beginner", {"dsscsp-manhattan": [1, 0], "dqn": [1, 1]})
    _run(tmp_path / "scale" / "old" / "beginner", {"dqn": [0, 0]}, seed=1)
    with pytest.raises(ValueError, match="do not pair"):
        derived_learn.paired_development(tmp_path)


def test_the_sweep_gain_sums_the_wins_over_the_band(tmp_path):
    path = tmp_path / "data.json"
    point = {"group": "ratio", "games": 100}
    points = [
        point | {"strategy": s, "x": x, "wins": w}
        for s, x, w in [
            ("dsscsp-manhattan", 0.05, 99),
            ("dqn-single", 0.05, 90),
            ("dsscsp-manhattan", 0.1, 80),
            ("dqn-single", 0.1, 85),
            ("dsscsp-manhattan", 0.2, 40),
            ("dqn-single", 0.2, 42),
            ("dqn-single", 0.15, 60),  # the Manhattan version did not play it
        ]
    ] + [{"group": "versions", "strategy": "dqn-single", "x": None, "games": 10, "wins": 9}]
    path.write_text(json.dumps({"points": points}))
    (gain,) = derived_learn.sweep_gain(path) or []
    assert gain == {
        "strategy": "dqn-single",
        "against": "dsscsp-manhattan",
        "low": 0.1,
        "high": 0.2,
        "densities": 2,
        "games": 200,
        "against_games": 200,
        "more_wins": 7,
    }
    assert derived_learn.sweep_gain(tmp_path / "missing.json") is None
