"""The claims experiments: their statistics, their plans and the verdicts they write."""

import json
import math
from itertools import combinations

import pytest

from sweeplab.bench.claims import (
    CLAIM_EXPERIMENTS,
    REPRODUCED,
    chi_square_homogeneity,
    chi_square_sf,
    ratio_se,
    verdict,
    zero_probability,
    zscore,
)
from sweeplab.bench.experiments import EXPERIMENTS, Settings, run_experiment
from sweeplab.core.rules import Rules


@pytest.mark.parametrize(
    ("x", "k", "p"), [(3.841458820694124, 1, 0.05), (5.991464547107979, 2, 0.05), (23.209251, 10, 0.01), (1.0, 3, 0.8012519569)]
)
def test_chi_square_tail_matches_known_quantiles(x, k, p):
    assert chi_square_sf(x, k) == pytest.approx(p, abs=1e-6)


def test_homogeneity_test_tells_equal_from_different_rates():
    assert chi_square_homogeneity([500, 500, 500], [1000, 1000, 1000])[2] == pytest.approx(1.0)
    stat, df, p = chi_square_homogeneity([500, 560], [1000, 1000])
    assert df == 1 and stat == pytest.approx(7.2, rel=0.01) and p < 0.01


def test_verdicts_and_ratios():
    assert verdict(1.99) == REPRODUCED and verdict(-2.01) != REPRODUCED and verdict(None) != REPRODUCED
    assert zscore(0.3, 0.1, 0.1) == pytest.approx(2.0)
    r, se = ratio_se(2.0, 0.2, 1.0, 0.1)
    assert r == 2.0 and se == pytest.approx(2.0 * math.hypot(0.1, 0.1))


def test_zero_probability_is_the_exact_count_of_clear_neighbourhoods():
    # 3x3 board, 2 mines: a corner is 0 when none of its 4 cells (itself and 3 neighbours) holds a mine
    rules = Rules(3, 3, 2, "unsafe")
    layouts = list(combinations(range(9), 2))
    board = rules.board
    for cell in (0, 1, 4):
        area = {cell, *board.neighbours[cell]}
        clear = sum(1 for mines in layouts if not area & set(mines))
        assert zero_probability(rules, cell) == pytest.approx(clear / len(layouts))
        safe = [m for m in layouts if cell not in m]  # the safe rule: the cell itself is never a mine
        assert zero_probability(Rules(3, 3, 2, "safe"), cell) == pytest.approx(
            sum(1 for m in safe if not area & set(m)) / len(safe)
        )
    # the paper's arithmetic at d = 0.2
    assert pytest.approx((0.134, 0.262, 0.410), abs=0.0005) == (0.8**9, 0.8**6, 0.8**4)


def test_zeros_measures_the_first_click_without_a_strategy(tmp_path):
    settings = Settings(games=400, board="10x10x20", rule="unsafe")
    run_experiment("zeros", tmp_path, settings, echo=lambda s: None)
    data = json.loads((tmp_path / "data.json").read_text())
    by_place = {p["group"]: p for p in data["points"]}
    assert set(by_place) == {"middle", "edge", "corner"}
    for place, k in (("middle", 9), ("edge", 6), ("corner", 4)):
        exact = math.comb(100 - k, 20) / math.comb(100, 20)
        assert abs(by_place[place]["win_rate"] - exact) < 4 * math.sqrt(exact * (1 - exact) / 400)
    assert by_place["corner"]["win_rate"] > by_place["middle"]["win_rate"]


@pytest.mark.parametrize("name", [e.name for e in CLAIM_EXPERIMENTS])
def test_quick_claims_run_writes_verdicts(name, tmp_path):
    assert EXPERIMENTS[name] is next(e for e in CLAIM_EXPERIMENTS if e.name == name)
    settings = Settings(quick=True, games=6, command=f"sweeplab experiment {name} --quick --games 6")
    files = run_experiment(name, tmp_path, settings, echo=lambda s: None)
    assert {"data.json", "data.csv", "table.md"} <= {f.name for f in files}
    data = json.loads((tmp_path / "data.json").read_text())
    assert data["claims"], "every claims experiment tests at least one claim"
    for claim in data["claims"]:
        assert claim["verdict"] in ("reproduced", "not reproduced") and claim["sentence"] and claim["key"]
        assert claim["z"] is None or math.isfinite(claim["z"])
    assert len(data["cpu_se"]) == len(data["points"])
    assert "## Claims" in (tmp_path / "table.md").read_text()


def test_start_compares_the_corner_and_the_centre_on_the_same_layouts(tmp_path):
    run_experiment("start", tmp_path, Settings(games=30, board="8x8x10", rule="unsafe"), echo=lambda s: None)
    data = json.loads((tmp_path / "data.json").read_text())
    assert [p["strategy"] for p in data["points"]] == ["cspstrategy", "cspstrategy[start=centre]"]
    (claim,) = data["claims"]
    assert "corner - centre" in claim["key"] and "+4 to +5" in claim["published"]


def test_an_experiment_measured_outside_the_journal_still_records_its_wall_time(tmp_path):
    """zeros plays its deals without the journal; run.json must still carry the run's wall time (not 0)."""
    from click.testing import CliRunner

    from sweeplab.cli import main

    out = tmp_path / "zeros"
    result = CliRunner().invoke(main, ["experiment", "zeros", "--quick", "--out", str(out), "-j", "1"])
    assert result.exit_code == 0, result.output
    run = json.loads((out / "run.json").read_text())
    assert run["finished"] and run["wall_seconds"] > 0
