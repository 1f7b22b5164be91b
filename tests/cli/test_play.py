"""``sweeplab play``: its time limit, certain first clicks under safe rules, and the exact strategy's explanations."""

import json
import time

from click.testing import CliRunner

from sweeplab.cli import main


def run(*args):
    return CliRunner().invoke(main, list(args))


def test_a_game_past_the_time_limit_stops_with_exit_4_naming_the_limit():
    start = time.perf_counter()
    result = run("play", "-s", "optimal", "-b", "5x5x5", "--seed", "1", "--time-limit", "0.5")  # a search of minutes
    assert time.perf_counter() - start < 20
    assert result.exit_code == 4, result.output
    assert "stopped: the game ran past --time-limit 0.5 s of CPU" in result.output


def test_play_has_a_time_limit_by_default():
    help_text = run("play", "--help").output
    assert "--time-limit" in help_text and "default: 300" in help_text


def test_a_game_within_the_time_limit_is_unchanged():
    result = run("play", "-s", "exact", "-b", "beginner", "--seed", "4", "--time-limit", "60")
    assert result.exit_code == 0 and "stopped" not in result.output


def test_the_first_click_under_a_safe_rule_is_certain(tmp_path):
    for board, rule in (("expert", "safe"), ("beginner", "safe"), ("beginner", "zero"), ("beginner", "xp")):
        log = tmp_path / f"{board}-{rule}.jsonl"
        result = run("play", "-s", "exact", "-b", board, "-r", rule, "--seed", "1", "--steps", "--log", str(log))
        assert result.exit_code == 0, result.output
        assert "move 1: reveal (0, 0), certain" in result.output, (board, rule)
        first = json.loads(log.read_text().splitlines()[1])
        assert first["move"] == 1 and first["certain"] is True, first
    unsafe = run("play", "-s", "exact", "-b", "beginner", "-r", "unsafe", "--seed", "1", "--steps")
    assert "move 1: reveal (0, 0), a guess (first, 87.7% safe)" in unsafe.output  # 71/81: nothing is promised


def test_exact_explains_each_guess():
    result = run("play", "-s", "exact", "--seed", "3", "--explain")
    assert result.exit_code == 0, result.output
    assert "the strategy gives no explanation" not in result.output
    whys = [line for line in result.output.splitlines() if line.startswith("    why:")]
    assert whys and all("the safest covered cell" in w and "safe" in w for w in whys)
    assert any("tie-break: " in w and "runner-up" in w for w in whys)


def test_the_optimal_player_shows_progress_while_its_first_move_searches(monkeypatch):
    """The first move of `play -s optimal` searches every layout (half a minute on 5x5x5): plain progress lines on
    stderr say so, every SWEEPLAB_PROGRESS_SECONDS."""
    monkeypatch.setenv("SWEEPLAB_PROGRESS_SECONDS", "0.01")
    result = CliRunner().invoke(main, ["play", "-s", "optimal", "-b", "4x4x5", "-r", "unsafe", "--seed", "1"])
    assert result.exit_code == 0, result.output
    lines = [line for line in result.stderr.splitlines() if line.startswith("optimal: ")]
    assert lines and all("states searched" in line and "before its first move" in line for line in lines)
    assert "4x4x5 (unsafe), seed 1:" in result.stdout
