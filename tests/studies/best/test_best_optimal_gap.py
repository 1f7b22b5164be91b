"""benchmarks/best/best_optimal_gap.py: the exact split of a strategy's gap to optimal play over its guesses, and named
errors."""

from __future__ import annotations

import json
import subprocess
import sys
from functools import partial

import pytest

from sweeplab.bench.evaluate import evaluate
from sweeplab.core.rules import Rules
from sweeplab.studies.best import optimal_gap_shares, section
from tests.bench import scripts

SCRIPT = scripts.path("best_optimal_gap")
gap = scripts.load("best_optimal_gap")
run = partial(scripts.run, "best_optimal_gap")


@pytest.mark.parametrize("rule", ["safe", "unsafe", "zero"])
def test_the_regrets_add_up_to_the_gap_and_the_wins_are_evaluates(rule):
    """`exact` on 4x4x4 loses several points to the optimum; the split over guess numbers and over decisions adds up
    to it, and the strategy's wins are `sweeplab evaluate`'s exact count on the same layouts."""
    data = gap.run("4x4x4", rule, (0, 0), "exact", jobs=1, top=5, progress=False)
    checked = evaluate("exact", Rules(4, 4, 4, rule), first_click=0)
    assert (data["wins"], data["layouts"]) == (checked.wins, checked.layouts)
    assert data["optimal_wins"] > data["wins"] and data["gap_points"] > 1.0
    for part in ("by_guess_number", "by_decision"):
        assert sum(v["regret_layouts"] for v in data[part].values()) == data["optimal_wins"] - data["wins"]
    assert sum(optimal_gap_shares(data)[:3]) == pytest.approx(data["gap_points"])
    top = data["top"]
    assert top and [t["regret_layouts"] for t in top] == sorted((t["regret_layouts"] for t in top), reverse=True)
    for t in top:
        assert t["optimal_wins"] - t["wins"] == t["regret_layouts"] > 0
        assert t["cell"] != t["optimal_cell"] and t["layouts"] >= t["optimal_wins"]
        assert "S" in "".join(t["picture"]) and "O" in "".join(t["picture"])


def test_the_optimal_player_has_no_gap():
    data = gap.run("3x3x2", "safe", (1, 0), "optimal", jobs=1, top=5, progress=False)
    assert data["gap_points"] == 0 and data["top"] == [] and data["positions_with_regret"] == 0
    # docs/results.md: optimal play wins 24 of the 28 layouts dealt, opening at (1, 0)
    assert data["wins"] == data["optimal_wins"] == 24 and data["layouts"] == 28


def test_a_pool_of_two_gives_the_same_split(tmp_path):
    files = []
    for jobs in ("1", "2"):
        out = tmp_path / f"jobs{jobs}.json"
        done = run("run", "--board", "4x4x3", "--first-click", "1,1", "--strategy", "exact", "--jobs", jobs, "--out", str(out))
        assert done.returncode == 0, done.stderr
        assert "played 455/455 layouts" in done.stderr  # progress, on stderr
        files.append(json.loads(out.read_text()))
    one, two = files
    for key in ("wins", "optimal_wins", "by_guess_number", "by_decision", "top", "positions"):
        assert one[key] == two[key]


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_player_that_is_not_deterministic_is_named_not_waited_for(monkeypatch, jobs):
    """`random` with a new seed each game guesses differently in the same position: the run stops with a named
    error, also from a pool of processes (where an exit in a worker would leave the pool waiting for ever)."""
    monkeypatch.setitem(sys.modules, "best_optimal_gap", gap)  # so that the pool's workers and errors pickle
    seeds = iter(range(10**6))
    real = gap.make_spec
    monkeypatch.setattr(gap, "make_spec", lambda spec, seed: real(spec, next(seeds)))
    with pytest.raises(gap.GapError, match="random guessed two cells in one position"):
        gap.run("4x4x4", "safe", (0, 0), "random", jobs=jobs, top=1, progress=False)


def test_best_labels_its_decisions():
    """`best` says what decided each guess; on a small board its endgame search decides most of them, optimally."""
    data = gap.run("4x4x3", "safe", (0, 0), "best", jobs=1, top=3, progress=False)
    assert "endgame search" in data["by_decision"]
    assert data["by_decision"]["endgame search"]["regret_layouts"] == 0


def test_picture_marks_both_cells():
    # 2x2: cell 0 revealed showing 1, the strategy guessed 3, the optimum 1
    assert gap.picture(2, 2, 0b0001, 2, 3, 1) == ["1O", ".S"]
    assert gap.picture(2, 2, 0b0001, 2, 3, 3) == ["1.", ".*"]


def test_run_and_summarise_write_files_and_the_docs_render_them(tmp_path):
    out = tmp_path / "gap"
    done = run("run", "--board", "4x4x4", "--strategy", "exact", "--out", str(out / "4x4x4-safe.json"))
    assert done.returncode == 0, done.stderr
    assert "gap 5.128 points" in done.stdout
    done = run("summarise", str(out / "4x4x4-safe.json"), "--out", str(out))
    assert done.returncode == 0, done.stderr
    data = json.loads((out / "data.json").read_text())
    assert data["boards"][0]["settings"]["board"] == "4x4x4"
    table = (out / "table.md").read_text()
    assert "| 4x4x4 safe (0, 0) `exact` | 1,365 | 69.52 | 64.40 | 5.128 |" in table


def test_the_docs_section_shows_the_committed_split(tmp_path):
    root = tmp_path / "best"
    data = gap.run("4x4x4", "safe", (0, 0), "exact", jobs=1, top=2, progress=False)
    (root / "optimal-gap").mkdir(parents=True)
    (root / "optimal-gap" / "4x4x4-safe.json").write_text(json.dumps(data))
    gap.summarise([root / "optimal-gap" / "4x4x4-safe.json"], root / "optimal-gap")
    text = section(tmp_path)
    assert "### Against optimal play on small boards" in text
    assert "(there " not in text  # no issue-10 table to compare with
    rows = [{"player": "exact", "board": "4x4x4", "rule": "safe", "first_click": "0,0", "status": "done", "win_rate": 0.6}]
    (tmp_path / "optimal").mkdir()
    (tmp_path / "optimal" / "data.json").write_text(json.dumps({"rows": rows}))
    assert "`exact` on 4x4x4 safe 64.40% (there 60.00%)" in section(tmp_path)
    rows[0]["win_rate"] = data["win_rate"]
    (tmp_path / "optimal" / "data.json").write_text(json.dumps({"rows": rows}))
    assert "(there " not in section(tmp_path)
    assert "| 4x4x4 safe (0, 0) | `exact` | 1,365 | 69.52 | 64.40 | 5.13 |" in text
    assert "python benchmarks/best/best_optimal_gap.py run --board 4x4x4 --rule safe --first-click 0,0 --strategy 'exact'" in text


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["run", "--board", "5x5", "--out", "x.json"], "expected WIDTHxHEIGHTxMINES"),
        (["run", "--board", "8x8x6", "--out", "x.json"], "more than the 2,000,000 this plays"),
        (["run", "--board", "9x8x2", "--out", "x.json"], "at most 64 cells"),
        (["run", "--board", "3x3x9", "--out", "x.json"], "from 1 to 8 mines"),
        (["run", "--board", "3x3x2", "--first-click", "3,0", "--out", "x.json"], "off the 3x3 board"),
        (["run", "--board", "3x3x2", "--first-click", "a", "--out", "x.json"], "a first click is X,Y"),
        (["run", "--board", "3x3x2", "--rule", "xp", "--out", "x.json"], "invalid choice: 'xp'"),
        (["run", "--board", "3x3x2", "--jobs", "0", "--out", "x.json"], "must be at least 1"),
        (["run", "--board", "3x3x2", "--strategy", "nosuch", "--out", "x.json"], "nosuch"),
    ],
)
def test_bad_arguments_are_named(tmp_path, args, message):
    done = subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert done.returncode == 2
    assert message in done.stderr
    assert not (tmp_path / "x.json").exists()


def test_summarise_names_a_file_it_cannot_read(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    done = run("summarise", str(bad), "--out", str(tmp_path / "out"))
    assert done.returncode == 2 and "bad.json: not a file written by" in done.stderr
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"settings": {}}))
    done = run("summarise", str(other), "--out", str(tmp_path / "out"))
    assert done.returncode == 2 and "other.json: not a file written by" in done.stderr
