"""The optimal-play table: rows per board, rule and player, gaps to optimal, caps, time limits and resuming."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from click.testing import CliRunner

from sweeplab.analysis.optimal.search import OptimalSearch
from sweeplab.bench.evaluate import evaluate
from sweeplab.cli import main
from sweeplab.core.rules import Rules
from sweeplab.studies import optimal_table as table
from sweeplab.studies.optimal_table import runner
from sweeplab.studies.pages.build import build


def settings(boards: str, **kw) -> table.Settings:
    return table.Settings(boards=table.parse_boards(boards), command="sweeplab optimal-table (test)", **kw)


def by(data, board, rule, player):
    [row] = [r for r in data["rows"] if (r["board"], r["rule"], r["player"]) == (board, rule, player)]
    return row


def test_parse_boards_and_its_errors():
    assert [b.spec for b in table.parse_boards("3x3x1-3,4x4x2,3x3x2")] == ["3x3x1", "3x3x2", "3x3x3", "4x4x2"]
    for bad, reason in [("3x3", "expected WxHxM"), ("3x3x3-1", "is empty"), ("3x3x10", "3x3x10"), ("9x9x2", "64 cells")]:
        with pytest.raises(table.TableError, match=reason):
            table.parse_boards(bad)


def test_table_values_and_gaps_match_the_search_and_evaluate(tmp_path):
    data = table.run_table(settings("3x3x2,4x4x4", strategies=["exact"]), tmp_path)
    opt = by(data, "4x4x4", "unsafe", "optimal")
    assert (opt["wins"], opt["dealt"], opt["win_probability"]) == (961, 1820, "961/1820")
    for board, (w, h, m) in [("3x3x2", (3, 3, 2)), ("4x4x4", (4, 4, 4))]:
        for rule in ("unsafe", "safe", "zero"):
            value = OptimalSearch(w, h, m).solve(rule).value
            strategy = evaluate("exact", Rules(w, h, m, rule)).value
            assert Fraction(by(data, board, rule, "optimal")["win_probability"]) == value
            row = by(data, board, rule, "exact")
            assert Fraction(row["win_probability"]) == strategy
            assert Fraction(row["gap"]) == value - strategy >= 0
    # under zero each strategy is also played from the optimal player's first click, revealed by the harness
    click = OptimalSearch(4, 4, 4).solve("zero").best[0]
    row = by(data, "4x4x4", "zero", "exact@best-click")
    assert Fraction(row["win_probability"]) == evaluate("exact", Rules(4, 4, 4, "zero"), first_click=click).value
    assert row["first_click"] == f"{click % 4},{click // 4}" and row["first_click"] != "0,0"
    assert {p.name for p in tmp_path.iterdir()} >= {"data.json", "data.csv", "table.md", "win-density.png", "cost.png"}
    text = (tmp_path / "table.md").read_text()
    assert "| 4x4x4 | 0.250 | 1,820 | 52.80 (961/1820) | (1,0) (2,0) +6 | 48.30 (-4.51) |" in text
    assert table.largest_finished(data) == ("4x4x4", 1820)


def test_caps_time_limits_and_impossible_rules_are_rows_or_notes(tmp_path):
    s = settings("3x3x6,4x5x6", strategies=["exact", "cspstrategy"], caps={"cspstrategy": 100}, time_limit=0.05)
    data = table.run_table(s, tmp_path, jobs=2)
    assert by(data, "4x5x6", "unsafe", "optimal")["status"] == "not finished"  # ~4 s of search
    assert by(data, "4x5x6", "zero", "optimal")["note"] == "not finished within 0.05 s"
    assert by(data, "3x3x6", "safe", "cspstrategy")["status"] == "done"
    assert by(data, "4x5x6", "safe", "cspstrategy")["note"] == "not evaluated: 38,760 layouts, cap 100"
    assert by(data, "4x5x6", "safe", "exact")["gap"] is None  # no optimal value to compare with
    assert not [r for r in data["rows"] if r["rule"] == "zero" and r["board"] == "3x3x6"]
    notes = " ".join(table.notes(data))
    assert "3x3x6 zero" in notes and "did not finish within 0.05 s on 4x5x6" in notes
    assert table.largest_finished(data) == ("3x3x6", 84)


def test_resume_runs_only_what_is_missing(tmp_path, monkeypatch):
    table.run_table(settings("3x3x1-2", strategies=["exact"]), tmp_path)
    with pytest.raises(table.TableError, match="pass --resume"):
        table.run_table(settings("3x3x1-2", strategies=["exact"]), tmp_path)
    ran = []
    real = table.run_task

    def counting(task):
        ran.append((task.board.spec, task.player, task.rules))
        return real(task)

    monkeypatch.setattr(runner, "run_task", counting)
    data = table.run_table(settings("3x3x1-3", strategies=["exact"]), tmp_path, resume=True)
    assert sorted(ran) == [("3x3x3", "exact", ("unsafe", "safe", "zero")), ("3x3x3", "optimal", ("unsafe", "safe", "zero"))]
    rows = 3 * (3 + 3 + 1)  # per board: optimal and exact under each rule, exact@best-click under zero
    assert len(data["rows"]) == rows and len(json.loads((tmp_path / "data.json").read_text())["rows"]) == rows


def test_command_and_results_section(tmp_path):
    out = tmp_path / "optimal"
    args = ["optimal-table", "--out", str(out), "--boards", "3x3x1-2", "-s", "exact", "--cap", "exact=10", "-j", "1"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert "largest board finished: 3x3x2 (36 layouts)" in result.output
    assert "3x3x2 exact: not evaluated" not in result.output
    data = json.loads((out / "data.json").read_text())
    assert by(data, "3x3x2", "unsafe", "exact")["status"] == "skipped" and by(data, "3x3x1", "unsafe", "exact")["gap"] == "0"
    text, _ = build(tmp_path, {})
    assert "## The limit of the game: optimal play on small boards" in text
    assert "| 3x3x2 | 0.222 | 36 | 66.67 (24/36) | (1,0) (0,1) +2 | not evaluated |" in text
    bad = CliRunner().invoke(main, ["optimal-table", "--out", str(out), "--cap", "exact", "--resume"])
    assert bad.exit_code == 2 and "expected STRATEGY=N" in bad.output


def test_cost_growth_per_added_mine():
    def row(board, rule, seconds, states, status="done"):
        return {"board": board, "rule": rule, "player": "optimal", "status": status, "seconds": seconds,
                "states": states, "layouts": 1000 * int(board[-1])}  # fmt: skip

    data = {"rows": [
        row("5x5x4", "unsafe", 1.0, 10), row("5x5x4", "safe", 0.5, 0), row("5x5x5", "unsafe", 15.0, 200),
        row("5x5x5", "safe", 0.0, 0), row("5x5x6", "unsafe", 60.0, 900, "not finished"), row("4x4x3", "unsafe", 0.01, 5),
        row("4x4x4", "unsafe", 0.02, 9),
    ]}  # fmt: skip
    assert table.search_cost(data)["5x5x4"] == (4000, 10, 1.5, True)
    assert table.growth(data) == ["5x5: 5x5x4 to 5x5x5 x10, 5x5x5 to 5x5x6 x4 (at least: not finished)"]
    assert table.largest_finished(data) == ("5x5x5", 5000)
