"""Seed 000's claims experiments: the chance of a 0 at the first click, the start, and their runs."""

import json
import math
from itertools import combinations

import pytest

from sweeplab.core.rules import Rules
from sweeplab.studies.experiment import Settings
from sweeplab.studies.experiments import run_experiment
from sweeplab.studies.seed000_claims import zero_probability


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
