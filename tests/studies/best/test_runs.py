"""The best study's runs as data: paired benches summarised and pooled, cost on one core, the first-click table."""

import gzip
import json

import pytest
from click.testing import CliRunner

from sweeplab.cli import main as cli
from sweeplab.studies.best import cost, main, section, summarise
from sweeplab.studies.pages.build import build


def test_a_paired_bench_run_becomes_a_row_beside_the_anchors(tmp_path):
    run = tmp_path / "best" / "paired" / "beginner-safe-0-0"
    result = CliRunner().invoke(
        cli,
        [
            "bench",
            "-s",
            "best,exact",
            "-b",
            "9x9x10",
            "-r",
            "safe",
            "--first-click",
            "0,0",
            "-n",
            "6",
            "-j",
            "1",
            "--out",
            str(run),
        ],
        catch_exceptions=False,
    )
    assert result.exit_code == 0, result.output
    data = summarise(run, "sweeplab bench -s best,exact ...")
    assert not (run / "games.csv").exists()
    rows = gzip.decompress((run / "games.csv.gz").read_bytes()).decode().splitlines()
    assert len(rows) == 1 + 12
    by = {s["strategy"]: s for s in data["strategies"]}
    bench = {s["strategy"]: s for s in json.loads((run / "bench.json").read_text())["summaries"]}
    for name in ("best", "exact"):
        assert by[name]["games"] == 6 and by[name]["wins"] == bench[name]["wins"]
        cpu = by[name]["cpu_ms"]
        assert 0 < cpu["median"] <= cpu["p99"] <= cpu["worst"] and cpu["mean"] <= cpu["worst"]
    pair = data["paired"][0]
    assert (pair["a"], pair["b"], pair["games"]) == ("best", "exact", 6)
    assert pair["difference"] == pytest.approx((by["best"]["wins"] - by["exact"]["wins"]) / 6)
    text = section(tmp_path)
    row = next(line for line in text.splitlines() if line.startswith("| 9x9x10 safe (0, 0) | 6 |"))
    assert "| 91.87 ± 0.27 |" in row and "target 92.3" in row and "at n=6" in row
    assert "| 30x16x99 safe (0, 0) | not run |" in text
    assert "sweeplab bench -s best,exact ..." in text
    assert "## The best strategy" in build(tmp_path, {})[0]


def test_cost_counts_games_and_endgame_searches(tmp_path, capsys):
    point = cost("9x9x10", "safe", (0, 0), 5)
    assert point["games"] == 5 and 0 <= point["wins"] <= 5
    assert 0 <= point["budget_share"] <= point["searched_share"] <= 1
    out = tmp_path / "best" / "cost"
    assert main(["cost", "--board", "9x9x10", "--games", "3", "--out", str(out)]) == 0
    assert main(["cost", "--board", "9x9x10", "--games", "2", "--out", str(out)]) == 0
    assert main(["cost", "--board", "9x9x10", "--rule", "zero", "--first-click", "2,2", "--games", "2", "--out", str(out)]) == 0
    points = json.loads((out / "data.json").read_text())["points"]
    assert [(p["rule"], p["games"]) for p in points] == [("safe", 2), ("zero", 2)]  # a repeated point is replaced
    assert points[0]["command"] == f"python -m sweeplab.studies.best cost --board 9x9x10 --games 2 --out {out}"
    text = section(tmp_path)
    assert "### Cost of best" in text and "| 9x9x10 zero (2, 2) | 2 |" in text


def test_cost_rejects_a_bad_first_click(tmp_path, capsys):
    with pytest.raises(SystemExit) as stop:
        main(["cost", "--first-click", "3", "--out", str(tmp_path)])
    assert stop.value.code == 2
    assert "a first click is X,Y" in capsys.readouterr().err


def test_runs_on_other_seeds_are_pooled_game_by_game(tmp_path):
    dirs = []
    for seed in (0, 1):
        run = tmp_path / f"seed{seed}"
        args = ["bench", "-s", "best,exact", "-b", "6x6x5", "-n", "3", "--seed", str(seed), "-j", "1", "--out", str(run)]
        assert CliRunner().invoke(cli, args, catch_exceptions=False).exit_code == 0
        dirs.append(run)
    data = summarise(dirs[0], "first", [(dirs[1], "second")])
    assert data["settings"]["games"] == 6 and [r["seed"] for r in data["runs"]] == [0, 1]
    assert all(s["games"] == 6 for s in data["strategies"]) and data["paired"][0]["games"] == 6
    assert not (dirs[1] / "games.csv").exists() and (dirs[1] / "games.csv.gz").exists()
    other = tmp_path / "other"
    args = ["bench", "-s", "exact", "-b", "6x6x5", "-n", "2", "-j", "1", "--out", str(other)]
    assert CliRunner().invoke(cli, args, catch_exceptions=False).exit_code == 0
    with pytest.raises(ValueError, match="strategies differ"):
        summarise(dirs[0], "first", [(other, "x")])


def test_first_click_runs_become_the_opening_table(tmp_path, capsys):
    runs = []
    for cell, games in (("0,0", 8), ("2,2", 6)):
        run = tmp_path / f"9x9x10-safe-{cell.replace(',', '-')}"
        args = ["bench", "-s", "best", "-b", "9x9x10", "-r", "safe", "--first-click", cell, "-n", str(games)]
        result = CliRunner().invoke(cli, [*args, "-j", "1", "--seed", "3", "--out", str(run)], catch_exceptions=False)
        assert result.exit_code == 0, result.output
        runs.append(run)
    out = tmp_path / "best" / "openings"
    assert main(["openings", *map(str, runs), "--out", str(out)]) == 0
    data = json.loads((out / "data.json").read_text())
    points = {tuple(p["cell"]): p for p in data["points"]}
    assert set(points) == {(0, 0), (2, 2)} and {p["games"] for p in points.values()} == {8, 6}
    bench = json.loads((runs[0] / "bench.json").read_text())["summaries"][0]
    assert points[(0, 0)]["wins"] == bench["wins"] and "--first-click 0,0 --games 8 --seed 3" in points[(0, 0)]["command"]
    chosen = [p for p in data["points"] if p.get("chosen")]
    assert len(chosen) == 1 and chosen[0]["rate"] == max(p["rate"] for p in data["points"])
    assert chosen[0]["margin"] == pytest.approx(abs(points[(0, 0)]["rate"] - points[(2, 2)]["rate"]))
    assert "### First clicks" in section(tmp_path) and "chosen" in section(tmp_path)
    assert "Measured with an earlier version" in section(tmp_path)
    assert main(["openings", *map(str, runs), "--out", str(out), "--tree", "abc1234"]) == 0
    assert "Measured with `best` at abc1234." in section(tmp_path)
    assert json.loads((out / "data.json").read_text())["command"].endswith("--tree abc1234")
    paired = tmp_path / "paired"
    assert (
        CliRunner()
        .invoke(cli, ["bench", "-s", "best,exact", "-b", "9x9x10", "-n", "2", "-j", "1", "--out", str(paired)])
        .exit_code
        == 0
    )
    with pytest.raises(SystemExit):
        main(["openings", str(paired), "--out", str(out)])
    assert "not a run of best alone" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["openings", str(tmp_path / "nowhere"), "--out", str(out)])
    assert "no bench.json" in capsys.readouterr().err
