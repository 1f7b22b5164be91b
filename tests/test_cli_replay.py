"""``play --log`` / ``--save-position`` and ``sweeplab replay``: what a game saw is kept and shown again."""

import json

from click.testing import CliRunner

from sweeplab.cli import main
from sweeplab.formats.position import read_position


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_replay_shows_the_logged_game_as_play_did(tmp_path):
    log = tmp_path / "game.jsonl"
    played = run("play", "-s", "exact", "-b", "beginner", "--seed", 7, "--steps", "--explain", "--log", log)
    assert played.exit_code == 0, played.output
    assert f"moves logged to {log}" in played.output
    replayed = run("replay", log, "--steps", "--explain")
    assert replayed.exit_code == 0, replayed.output
    # the same steps, explanations and final board; the summary names the same game
    play_lines, replay_lines = played.output.splitlines(), replayed.output.splitlines()
    end = play_lines.index(replay_lines[-2])  # the summary line follows the legend in both
    assert replay_lines[:-1] == play_lines[: end + 1]
    assert replay_lines[-1].startswith("exact on 9x9x10 (safe), seed 7: ")
    outcome = play_lines[end + 1].split(": ")[1].split(" after")[0]
    assert replay_lines[-1].split(": ")[1].startswith(outcome)
    records = [json.loads(line) for line in log.read_text().splitlines()]
    assert records[0]["log"] == "sweeplab-moves" and records[0]["play_seed"] == 7
    assert records[-1]["end"] == outcome.lower()
    moves = records[1:-1]
    assert all(set(m) >= {"move", "kind", "x", "y", "certain", "guess", "safety", "explanation", "state"} for m in moves)
    assert any(m["certain"] for m in moves) and any(not m["certain"] and 0 < m["safety"] <= 1 for m in moves)
    # without --steps: only the final board and the summary
    short = run("replay", log)
    assert short.exit_code == 0 and "move 1:" not in short.output
    assert short.output.splitlines()[-1] == replay_lines[-1]


def test_replay_refuses_a_malformed_log_naming_the_line(tmp_path):
    log = tmp_path / "game.jsonl"
    run("play", "-b", "beginner", "--seed", 3, "--log", log)
    lines = log.read_text().splitlines()
    lines[2] = lines[2].replace('"kind": "reveal"', '"kind": "explode"').replace('"kind": "flag"', '"kind": "explode"')
    log.write_text("\n".join(lines) + "\n")
    result = run("replay", log)
    assert result.exit_code == 2
    assert f"error: {log}, line 3: unknown move kind 'explode'" in result.output
    assert "Traceback" not in result.output
    log.write_text("not a log\n")
    result = run("replay", log)
    assert result.exit_code == 2 and f"{log}, line 1: not JSON" in result.output
    for path in (tmp_path, tmp_path / "missing.jsonl"):
        result = run("replay", path)
        assert result.exit_code == 2 and "Traceback" not in result.output


def test_save_position_at_the_end_is_the_position_of_the_fatal_guess(tmp_path):
    path = tmp_path / "end.txt"
    log = tmp_path / "game.jsonl"
    for seed in range(20):  # find a lost game
        result = run("play", "-s", "single-point", "-b", "beginner", "--seed", seed, "--save-position", path, "--log", log)
        if "LOST" in result.output:
            break
    assert result.exit_code == 0 and "LOST" in result.output
    assert f"position saved to {path} (the fatal guess was made in it)" in result.output
    position = read_position(path)
    fatal = json.loads(log.read_text().splitlines()[-2])
    assert fatal["state"] == "lost" and position.at(fatal["x"], fatal["y"]) == -1  # still covered in the saved position
    assert run("analyze", path).exit_code == 0  # what analyze reads


def test_save_position_before_each_guess(tmp_path):
    template = tmp_path / "pos-{move}.txt"
    log = tmp_path / "game.jsonl"
    result = run(
        "play", "-s", "exact", "-b", "beginner", "-r", "unsafe", "--seed", 2, "--save-position", template, "--log", log
    )  # unsafe: the first click is a guess too (under safe it is certain)
    assert result.exit_code == 0, result.output
    guesses = [json.loads(line) for line in log.read_text().splitlines()[1:-1]]
    guesses = [g for g in guesses if not g["certain"]]
    files = sorted(tmp_path.glob("pos-*.txt"))
    assert [f.name for f in files] == [f"pos-{g['move']:04d}.txt" for g in guesses]
    assert len(files) > 1, "this seed makes more than one guess"
    assert f"saved {len(files)} positions, the one before each guess: {files[0]} to {files[-1]}" in result.output
    assert "{move}" not in result.output  # the files' real names, not the template's
    first = read_position(files[0])
    assert first.is_start()  # before the first click nothing is revealed
    for file, guess in zip(files, guesses, strict=True):
        assert read_position(file).at(guess["x"], guess["y"]) == -1  # the guessed cell was covered before it


def test_outputs_that_cannot_be_written_are_refused_before_the_game(tmp_path):
    for option, path in [
        ("--log", tmp_path),
        ("--log", tmp_path / "missing" / "game.jsonl"),
        ("--save-position", tmp_path),
        ("--save-position", tmp_path / "missing" / "end.txt"),
        ("--save-position", tmp_path / "missing" / "p-{move}.txt"),
    ]:
        result = run("play", "-b", "beginner", "--seed", 1, option, path)
        assert result.exit_code == 2, (option, path, result.output)
        assert "Traceback" not in result.output and "move 1" not in result.output
        assert str(path).split("/")[-1] in result.output
    result = run("play", "-b", "beginner", "--seed", 1, "--log", "/dev/null", "--save-position", "/dev/null")
    assert result.exit_code == 0, result.output
