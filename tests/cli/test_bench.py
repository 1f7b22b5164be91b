"""``sweeplab bench``: an empty --board refused as play refuses it, a finished run in --out kept unless --force."""

import json

from click.testing import CliRunner

from sweeplab.cli import main


def run(*args):
    return CliRunner().invoke(main, list(args))


def test_an_empty_board_is_refused_as_play_refuses_it():
    bench = run("bench", "-b", "", "-n", "1")
    play = run("play", "-b", "")
    assert bench.exit_code == play.exit_code == 2, bench.output
    assert "unknown board ''" in bench.output and "unknown board ''" in play.output


def test_a_finished_run_is_not_overwritten_without_force(tmp_path):
    out = tmp_path / "run"
    first = run("bench", "-b", "4x4x3", "-n", "2", "-j", "1", "--out", str(out))
    assert first.exit_code == 0, first.output
    before = (out / "run.json").read_text()
    again = run("bench", "-b", "4x4x3", "-n", "3", "-j", "1", "--out", str(out))
    assert again.exit_code == 2, again.output
    assert f"{out} holds a finished run" in again.output and "--force to replace it" in again.output
    assert (out / "run.json").read_text() == before
    forced = run("bench", "-b", "4x4x3", "-n", "3", "-j", "1", "--out", str(out), "--force")
    assert forced.exit_code == 0, forced.output
    assert json.loads((out / "run.json").read_text())["settings"]["--games"] == 3


def test_force_says_it_replaces_a_finished_run_too():
    help_text = " ".join(run("bench", "--help").output.split())
    assert "--force" in help_text and "unfinished or finished" in help_text
