"""The search player's page: paired figures recomputed from games.csv, the verdict rule, the small-board goals."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sweeplab.core.heldout import VERDICT_SEED
from sweeplab.studies.strongest.section import paired_run, scores, section, small_table, verdict, verdict_run


def write_run(folder: Path, a: list[int], b: list[int], seed: int = VERDICT_SEED) -> None:
    folder.mkdir(parents=True)
    (folder / "bench.json").write_text(json.dumps({"settings": {"seed": seed}}))
    lines = ["strategy,game,won,timed_out,outcome,moves,cpu_seconds,three_bv,revealed,guesses"]
    for name, outcomes, cpu in (("search", a, 0.1), ("best", b, 0.01)):
        lines += [f"{name},{i},{w},0,{'won' if w else 'lost'},10,{cpu},5,5,1" for i, w in enumerate(outcomes)]
    (folder / "games.csv").write_text("\n".join(lines) + "\n")


def test_a_paired_run_is_recomputed_from_its_games(tmp_path):
    write_run(tmp_path / "run", [1, 1, 0, 1], [1, 0, 0, 0])
    r = paired_run(tmp_path / "run")
    assert r is not None and r["games"] == 4 and (r["only_a"], r["only_b"]) == (2, 0)
    assert r["gain"] == pytest.approx(50.0) and r["se"] == pytest.approx(100 * 0.288675134595)
    assert r["cpu_a"][0] == pytest.approx(100.0) and r["cpu_b"][1] == pytest.approx(10.0)
    assert paired_run(tmp_path / "missing") is None


@pytest.mark.parametrize(
    ("gain", "se", "expected"), [(1.2, 0.3, "met"), (0.9, 0.3, "undecided"), (-0.2, 0.3, "not met"), (0.5, 0.0, "met")]
)
def test_the_verdict_rule(gain, se, expected):
    assert verdict(gain, se, 0.5) == expected


def optimal_rows(tmp_path: Path, rows: list[tuple[str, str, str, float]]) -> Path:
    (tmp_path / "optimal").mkdir()
    data = {"rows": [{"board": b, "rule": r, "player": p, "status": "done", "win_rate": w} for b, r, p, w in rows]}
    (tmp_path / "optimal" / "data.json").write_text(json.dumps(data))
    return tmp_path


def test_small_board_goals(tmp_path):
    results = optimal_rows(tmp_path, [
        ("4x4x5", "unsafe", "optimal", 0.3345), ("4x4x5", "unsafe", "best", 0.3168), ("4x4x5", "unsafe", "search", 0.3290),
        ("3x3x5", "safe", "optimal", 0.2857), ("3x3x5", "safe", "best", 0.2500), ("3x3x5", "safe", "search", 0.2600),
        ("3x3x3", "safe", "optimal", 0.5893), ("3x3x3", "safe", "best", 0.5893), ("3x3x3", "safe", "search", 0.5893),
    ])  # fmt: skip
    table, missed = small_table(results)
    # 4x4x5 unsafe: 0.55 points below optimal (the bar is 0.5); 3x3x5 safe: 2.57 below, more than half of best's 3.57
    assert missed == ["4x4x5 unsafe", "3x3x5 safe"]
    assert "3x3x3" not in table  # both optimal: left out


def test_the_page_is_empty_without_runs(tmp_path):
    assert section(tmp_path) == ""


def test_a_scoreboard_row_differs_unless_the_goal_is_met(tmp_path):
    write_run(tmp_path / "strongest" / "expert-safe", [1, 1, 0, 1] * 50, [1, 0, 0, 1] * 50)  # +25 points
    write_run(tmp_path / "strongest" / "expert-zero", [1, 0] * 100, [1, 0] * 100)  # +0
    rows = {claim.split(",")[1].strip(): (z, differs) for claim, _, _, _, z, differs in scores(tmp_path)}
    assert rows["safe (0"][1] is False and rows["safe (0"][0] > 2
    assert rows == {"safe (0": rows["safe (0"]}  # a run with no difference at all has no SE to score: left out


def test_a_verdict_is_measured_only_on_a_held_out_seed(tmp_path):
    write_run(tmp_path / "strongest" / "expert-safe", [1, 0] * 100, [0, 1] * 100, seed=0)
    with pytest.raises(ValueError, match=r"expert-safe/bench.json: seed 0 is not held out"):
        scores(tmp_path)
    with pytest.raises(ValueError, match="development"):
        verdict_run(tmp_path / "strongest" / "expert-safe")


def test_the_development_runs_are_shown_beside_without_a_verdict(tmp_path):
    optimal_rows(tmp_path, [("3x3x3", "safe", "optimal", 0.5893)])
    write_run(tmp_path / "strongest" / "expert-safe", [1, 1, 0, 1] * 50, [1, 0, 0, 1] * 50)
    write_run(tmp_path / "strongest" / "development" / "expert-safe", [1, 0] * 100, [0, 0] * 100, seed=0)
    page = section(tmp_path)
    held_out, _, development = page.partition("On the development layouts (root seed 0")
    assert f"held-out root seed {VERDICT_SEED:,}" in held_out and "| met (" in held_out
    assert "+25.00 ± " in held_out and "+50.00" not in held_out
    assert "+50.00 ± " in development and "no verdict (" in development and "| met (" not in development


def test_the_earlier_defaults_held_out_runs_are_shown_with_the_rule_against_best(tmp_path):
    optimal_rows(tmp_path, [("3x3x3", "safe", "optimal", 0.5893)])
    write_run(tmp_path / "strongest" / "expert-safe", [1, 0] * 100, [1, 0] * 100, seed=VERDICT_SEED + 1)
    write_run(tmp_path / "strongest" / "rollouts-40" / "expert-zero", [0, 0] * 100, [1, 0] * 100)  # -50 points
    page = section(tmp_path)
    assert "held-out root seed 1,000,001" in page
    _, _, earlier = page.partition("The earlier default, 40 rollouts a decision, on the held-out seed 1,000,000")
    assert "-50.00 ± " in earlier and "worse on expert-zero" in earlier
