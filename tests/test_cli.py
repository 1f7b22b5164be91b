from click.testing import CliRunner

from sweeplab.cli import main


def run(*args):
    return CliRunner().invoke(main, list(args))


def test_play_prints_a_whole_game():
    result = run("play", "--strategy", "single-point", "--board", "expert", "--rule", "zero", "--seed", "1")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert len(lines) == 2 + 16 + 2  # tens and units column numbers, 16 rows, legend, summary
    assert "single-point on 30x16x99 (zero), seed 1:" in lines[-1]
    assert ("WON" in lines[-1]) or ("LOST" in lines[-1])


def test_play_steps_prints_every_move():
    result = run("play", "-s", "single-point", "-b", "beginner", "--seed", "2", "--steps")
    assert result.exit_code == 0
    assert result.output.count("move 1:") == 1


def test_play_with_first_click():
    result = run("play", "-b", "beginner", "--seed", "2", "--first-click", "0,0")
    assert result.exit_code == 0
    result = run("play", "-b", "beginner", "--seed", "2", "--first-click", "9,0")
    assert result.exit_code == 2 and "(9, 0) is off the 9x9 board" in result.output


def test_bad_board_and_rule_exit_2():
    result = run("play", "--board", "huge")
    assert result.exit_code == 2 and "unknown board 'huge'" in result.output
    result = run("play", "--rule", "lucky")
    assert result.exit_code == 2 and "lucky" in result.output
    result = run("play", "--board", "3x3x9", "--rule", "safe")
    assert result.exit_code == 2 and "needs a mine-free cell" in result.output
    result = run("play", "--strategy", "nope")
    assert result.exit_code == 2 and "unknown strategy 'nope'" in result.output


def test_strategies_listing():
    result = run("strategies")
    assert result.exit_code == 0
    assert "single-point" in result.output and "seed 000" in result.output


def test_bench_prints_rate_and_speed():
    result = run("bench", "-s", "single-point", "-b", "beginner", "-n", "40", "--sets", "4", "-j", "1")
    assert result.exit_code == 0, result.output
    assert "won " in result.output and "games/s" in result.output and "SE over 4 sets" in result.output
    result = run("bench", "-n", "0")
    assert result.exit_code == 2


def test_play_says_when_the_zero_rule_could_not_be_met():
    result = run("play", "-b", "3x3x4", "-r", "zero", "--seed", "1", "--first-click", "1,1")
    assert result.exit_code == 0, result.output
    assert "the zero rule could not be met:" in result.output and "(1, 1)" in result.output
    result = run("play", "-b", "3x3x4", "-r", "zero", "--seed", "1", "--first-click", "0,0")
    assert "could not be met" not in result.output
