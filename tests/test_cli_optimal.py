"""``sweeplab evaluate`` and ``sweeplab optimal``: output, JSON, the policy file, budgets and bad input."""

from __future__ import annotations

import json

from click.testing import CliRunner

from sweeplab.cli import main


def run(*args):
    return CliRunner().invoke(main, list(args))


def test_optimal_reproduces_the_published_value():
    result = run("optimal", "--board", "4x4x4", "--rule", "unsafe")
    assert result.exit_code == 0, result.output
    assert "961/1820 = 0.528022" in result.output
    assert "best first click(s): (1, 0)" in result.output and "states searched" in result.output


def test_optimal_json_and_policy(tmp_path):
    policy = tmp_path / "policy.json"
    result = run("optimal", "-b", "3x3x2", "-r", "unsafe", "--json", "--policy", str(policy), "--depth", "2")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["win_probability"] == "2/3" and data["wins"] == 24 and data["layouts"] == 36
    written = json.loads(policy.read_text())
    assert {c["cell"] for c in written["first_clicks"]} == {f"{x},{y}" for x in range(3) for y in range(3)}
    assert all(node["layouts"] > 0 for node in written["policy"])
    assert sum(node["layouts"] for node in written["policy"]) == 28  # the layouts in which the best first click is safe


def test_optimal_budget_exits_4():
    result = run("optimal", "-b", "5x5x6", "-r", "safe", "--time-limit", "0.01")
    assert result.exit_code == 4 and "undecided" in result.output


def test_optimal_bad_input():
    result = run("optimal", "-b", "3x3x2", "-r", "hint")
    assert result.exit_code == 2 and "hint" in result.output
    result = run("optimal", "-b", "30x16x99")
    assert result.exit_code == 2 and "layouts, more than the" in result.output


def test_evaluate_prints_the_fraction():
    result = run("evaluate", "-s", "exact", "-b", "3x3x2", "-r", "unsafe", "-j", "1")
    assert result.exit_code == 0, result.output
    assert "exact on 3x3x2 (unsafe), strategy seed 0: wins" in result.output and "/36" in result.output
    assert "its first click (0, 0)" in result.output
    assert "wins 23/36 = 0.638889 (63.8889%)" in result.output  # in lowest terms already: said once
    halves = run("evaluate", "-s", "exact", "-b", "3x2x1", "-r", "unsafe", "-j", "1")
    assert "wins 3/6 = 1/2 = 0.500000 (50.0000%)" in halves.output  # and reduced when that is another fraction


def test_evaluate_json_and_first_click():
    result = run("evaluate", "-s", "optimal[rule=safe]", "-b", "3x3x2", "--first-click", "1,1", "--json", "-j", "1")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["harness_click"] and data["first_click"] == [1, 1] and data["layouts"] == 28


def test_evaluate_bad_input():
    result = run("evaluate", "-s", "exact,cspstrategy", "-b", "3x3x2")
    assert result.exit_code == 2 and "give one strategy" in result.output
    result = run("evaluate", "-s", "exact", "-b", "9x9x10")
    assert result.exit_code == 2 and "raise --max-layouts" in result.output
    result = run("evaluate", "-s", "exact", "-b", "3x3x2", "--first-click", "5,5")
    assert result.exit_code == 2 and "off the 3x3 board" in result.output
