"""Hostile programs through `sweeplab bench`: one that exits, crashes mid-game, hangs, writes garbage, floods its
output, writes unasked lines or makes illegal moves loses those games; the run finishes within its time limits with
every game accounted for, and says how many were lost by forfeit."""

import csv
import time

import pytest
from click.testing import CliRunner

from sweeplab.cli import main

from .conftest import hostile

GAMES = 10
LIMIT = 0.3  # --move-time-limit


def bench(*args):
    return CliRunner().invoke(main, ["bench", *args], catch_exceptions=False)


@pytest.mark.parametrize(
    ("mode", "reason"),
    [
        ("exit", "forfeit: the program exited"),
        ("crash", "forfeit: the program exited"),
        ("hang", "forfeit: over the move time limit"),
        ("garbage", "forfeit: not the protocol"),
        ("flood", "forfeit: not the protocol"),
        ("lines", "forfeit: not the protocol"),
        ("illegal", "forfeit: an illegal move"),
    ],
)
def test_a_hostile_program_loses_its_games_and_the_run_finishes(tmp_path, mode, reason):
    start = time.monotonic()
    result = bench(
        "-s", hostile(mode), "-b", "beginner", "-n", str(GAMES), "-j", "2", "--move-time-limit", str(LIMIT),
        "--out", str(tmp_path),
    )  # fmt: skip
    elapsed = time.monotonic() - start
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader((tmp_path / "games.csv").open()))
    assert sorted(int(r["game"]) for r in rows) == list(range(GAMES))  # every game accounted for
    outcomes = [r["outcome"] for r in rows]
    assert reason in outcomes and outcomes[0].startswith(("won", "lost"))  # each copy plays its first game well
    forfeits = sum(o.startswith("forfeit") for o in outcomes)
    assert f"{forfeits} lost by forfeit" in result.output
    assert all(r["won"] == "0" for r in rows if r["outcome"].startswith("forfeit"))
    # each game waits at most one move time limit (and a copy's start-up) before it is given up
    assert elapsed < 20 + GAMES * LIMIT, elapsed
    assert list((tmp_path / "stderr").glob("*.log"))


def test_a_program_whose_stderr_is_busy_plays_on_and_its_stderr_is_kept(tmp_path):
    result = bench("-s", hostile("stderr"), "-b", "beginner", "-n", "6", "-j", "1", "--out", str(tmp_path))
    assert result.exit_code == 0 and "forfeit" not in result.output
    (log,) = (tmp_path / "stderr").glob("*.log")
    assert "stderr: turn 0" in log.read_text()


def test_a_program_that_fails_its_first_game_fails_the_run_with_exit_2_and_its_stderr(tmp_path):
    result = CliRunner().invoke(main, ["bench", "-s", hostile("never"), "-b", "beginner", "-n", "5", "--out", str(tmp_path)])
    assert result.exit_code == 2
    assert "failed the first game" in result.output and "never: giving up before the first answer" in result.output
    assert "Traceback" not in result.output


def test_a_program_that_is_not_there_is_bad_input_naming_the_argument():
    result = CliRunner().invoke(main, ["bench", "-s", "exact,cmd:no-such-program-sweeplab", "-n", "5"])
    assert result.exit_code == 2 and "--strategy" in result.output and "no program 'no-such-program-sweeplab'" in result.output
    result = CliRunner().invoke(main, ["bench", "-s", "cmd:python3 x", "--move-time-limit", "0", "-n", "5"])
    assert result.exit_code == 2 and "--move-time-limit" in result.output
