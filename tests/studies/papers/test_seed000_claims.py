"""Seed 000's claims experiments: the chance of a 0 at the first click, the start, and their runs."""

import json
import math
from itertools import combinations

import pytest

from sweeplab.core.rules import Rules
from sweeplab.studies.experiment import Settings
from sweeplab.studies.papers.experiments import run_experiment
from sweeplab.studies.papers.seed000_claims import zero_probability


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


def _game(index, won, cells, kind="unconstrained"):
    from sweeplab.bench.runner import GameResult, GuessRecord

    guesses = tuple(GuessRecord(c, kind, 0.5, True, move + 1) for move, c in enumerate(cells))
    return GameResult(index, won, len(cells) + 1, 0.001, None, 10, guesses)


def test_overlap_names_the_games_the_two_arms_play_differently():
    from sweeplab.studies.papers.seed000_claims import OverlapClaim

    rules = Rules(10, 10, 10, "safe")
    interior, edge, other_edge = 55, 0, 9  # (5, 5) is interior; (0, 0) and (9, 0) are on the border
    most = [_game(0, True, [edge]), _game(1, True, [interior]), _game(2, False, [edge])]
    fewest = [_game(0, True, [edge]), _game(1, False, [interior, edge]), _game(2, False, [other_edge])]
    text = OverlapClaim().differences(rules, most, fewest)
    assert "1 of 3 games reach an interior unconstrained guess" in text
    assert "play 2 games differently" in text and "1 won by the maximum only and 0 by the minimum only" in text
    assert "1 of those 2 never reach an interior guess" in text and "(first: game 2)" in text
    alike = OverlapClaim().differences(rules, most[:2], most[:2])
    assert alike.endswith(
        "play 0 games differently (outcome, moves or a guessed cell), 0 won by the maximum only and 0 by the minimum only."
    )


def test_seed004_holds_the_density_fixed_as_a_control(tmp_path):
    run_experiment("seed004", tmp_path, Settings(games=20), echo=lambda _: None)
    data = json.loads((tmp_path / "data.json").read_text())
    control = [p for p in data["points"] if p["group"] == "density 1/8"]
    assert [p["board"] for p in control] == ["16x16x32", "20x20x50"]
    claim = next(c for c in data["claims"] if c["key"].startswith("seed 004 | n/k = 1"))
    assert "Control, 8x8/8's density (1/8) held fixed on larger boards:" in claim["sentence"]
    assert "on 16x16x32" in claim["sentence"] and "on 20x20x50" in claim["sentence"]


def test_overlap_reads_every_games_guesses(tmp_path, monkeypatch):
    from sweeplab.bench.runner import play_one
    from sweeplab.core.rules import make_rules
    from sweeplab.studies.papers.seed000_claims import OverlapClaim

    seen = []
    original = OverlapClaim.differences
    monkeypatch.setattr(OverlapClaim, "differences", lambda self, rules, rx, rn: seen.append(rx) or original(self, rules, rx, rn))
    run_experiment("overlap", tmp_path, Settings(games=5, board="expert"), echo=lambda _: None)
    assert seen and all(r.guesses for r in seen[0])  # the records reach the claims with their guesses
    # game 715 of seed 0 on expert: its last guess is step 7's interior guess, where the two rules part
    rules = make_rules("expert", "safe")
    most, fewest = play_one("cspstrategy", rules, 0, 715), play_one("cspstrategy", rules, 0, 715, options={"overlap": "min"})
    assert OverlapClaim.interior_games(rules, [most]) == {715} and most.won != fewest.won
    text = OverlapClaim().differences(rules, [most], [fewest])
    assert "1 of 1 games reach" in text and "each of them one of the games with an interior guess" in text
