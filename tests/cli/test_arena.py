"""`sweeplab arena`: built-in and outside players on the same games, the leaderboard files and the command that
reproduces them; a resumed finished run writes the same leaderboard."""

import json
import shlex
import sys
from pathlib import Path

from click.testing import CliRunner

from sweeplab.cli import main

CLIENT = Path(__file__).resolve().parents[2] / "examples" / "python" / "client.py"
SPEC = f"reference,single-point,cmd:{shlex.quote(sys.executable)} {shlex.quote(str(CLIENT))}"


def test_arena_ranks_players_and_writes_the_leaderboard(tmp_path):
    args = ["arena", "-s", SPEC, "-n", "60", "-j", "2", "--out", str(tmp_path)]
    result = CliRunner().invoke(main, args, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    data = json.loads((tmp_path / "leaderboard.json").read_text())
    assert len(data["standings"]) == 3 and len(data["pairs"]) == 3
    assert data["command"].startswith("sweeplab arena --strategy ") and "--games 60 --seed 0" in data["command"]
    twins = next(p for p in data["pairs"] if {p["a"], p["b"]} == {"reference", SPEC.split(",")[2]})
    assert (twins["a_only"], twins["b_only"], twins["mcnemar_p"]) == (0, 0, 1.0)
    page = (tmp_path / "leaderboard.md").read_text()
    assert "## Every pair, on the same games" in page and "McNemar p" in page and data["command"] in page
    assert "1. " in result.output and "wrote" in result.output
    again = CliRunner().invoke(main, [*args, "--resume"], catch_exceptions=False)
    assert again.exit_code == 0 and "already holds this run" in again.output
    assert json.loads((tmp_path / "leaderboard.json").read_text()) == data


def test_arena_needs_players_and_a_folder():
    result = CliRunner().invoke(main, ["arena", "--out", "x"])
    assert result.exit_code == 2 and "--strategy" in result.output
    result = CliRunner().invoke(main, ["arena", "-s", "exact"])
    assert result.exit_code == 2 and "--out" in result.output
