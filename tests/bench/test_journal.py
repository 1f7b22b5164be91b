import json
import os
from dataclasses import replace

import pytest

from sweeplab.bench.journal import Journal, JournalError, OutputError, check_writable, replacing, write_text
from sweeplab.bench.runner import BenchSpec, play_one, run_many
from sweeplab.core.rules import Rules

SETTINGS = {"command": "bench", "--games": 10, "--seed": 1}
RULES = Rules(9, 9, 10, "safe")


def games(n: int, seed: int = 1):
    return [play_one("single-point", RULES, seed, i) for i in range(n)]


def timeless(results):
    return [replace(r, cpu_seconds=0.0) for r in results]


def test_a_run_is_recorded_and_resumed(tmp_path):
    played = games(5)
    with Journal(tmp_path, SETTINGS, command="cmd") as journal:
        journal.record("a", played[:3], 0.5)
        journal.record("a", played[3:], 0.25)
    assert json.loads((tmp_path / "run.json").read_text())["finished"] is False
    with Journal(tmp_path, SETTINGS, resume=True) as journal:
        assert journal.resumed == 5 and journal.wall("a") == 0.75
        assert list(journal.done("a").values()) == played  # results read back equal, floats included
        assert journal.done("b") == {}


def test_a_torn_last_line_is_dropped_and_cut_from_the_file(tmp_path):
    with Journal(tmp_path, SETTINGS) as journal:
        journal.record("a", games(4), 0.1)
    path = tmp_path / "games.jsonl"
    whole = path.read_bytes()
    line = json.dumps({"k": "a", **games(5)[4].to_json()}).encode()
    for cut in (1, len(line) // 2, len(line)):  # torn anywhere, even just before its newline
        path.write_bytes(whole + line[:cut])
        with Journal(tmp_path, SETTINGS, resume=True) as journal:
            assert journal.resumed == 4
            assert any("dropped a torn last line" in note for note in journal.notes)
        assert path.read_bytes() == whole


@pytest.mark.parametrize("bad", [b"{}\n", b'{"k": "a", "index": "1"}\n', b"not json\n", b'{"k": "a"}\n'])
def test_a_complete_line_that_does_not_read_back_is_named_never_guessed(tmp_path, bad):
    with Journal(tmp_path, SETTINGS) as journal:
        journal.record("a", games(2), 0.1)
    with (tmp_path / "games.jsonl").open("ab") as handle:
        handle.write(bad)
    with pytest.raises(JournalError, match=r"games.jsonl, line 4: not a finished game"):
        Journal(tmp_path, SETTINGS, resume=True)


def test_other_settings_are_refused_with_the_difference_named(tmp_path):
    Journal(tmp_path, SETTINGS).close()
    with pytest.raises(OutputError, match=r"--games was 10, now 20; --seed was 1, now -4"):
        Journal(tmp_path, {**SETTINGS, "--games": 20, "--seed": -4}, resume=True)


def test_an_unfinished_run_needs_resume_or_force(tmp_path):
    with Journal(tmp_path, SETTINGS, command="sweeplab bench X") as journal:
        journal.record("a", games(2), 0.1)
    with pytest.raises(OutputError, match=r"holds an unfinished run \(sweeplab bench X\): continue it with --resume"):
        Journal(tmp_path, SETTINGS)
    with Journal(tmp_path, {**SETTINGS, "--games": 3}, force=True) as journal:
        assert journal.resumed == 0 and journal.done("a") == {}
    assert (tmp_path / "games.jsonl").read_bytes() == b""


def test_a_finished_run_is_not_played_again(tmp_path):
    with Journal(tmp_path, SETTINGS) as journal:
        journal.record("a", games(2), 0.1)
        journal.finish([write_text(tmp_path / "bench.json", "{}")])
    assert not (tmp_path / "games.jsonl").exists()
    record = json.loads((tmp_path / "run.json").read_text())
    assert record["finished"] and record["files"] == ["bench.json"] and record["wall_seconds"] == 0.1
    with Journal(tmp_path, SETTINGS, resume=True) as journal:
        assert journal.finished and journal.files == [tmp_path / "bench.json"]
    with pytest.raises(OutputError, match=r"holds a finished run .*--force to replace it"):
        Journal(tmp_path, SETTINGS)  # without --resume or --force: never overwritten unasked
    assert json.loads((tmp_path / "run.json").read_text())["finished"]
    with Journal(tmp_path, SETTINGS, force=True) as journal:  # --force: a new run in its place
        assert not journal.finished


def test_a_second_journal_on_a_locked_directory_is_refused(tmp_path):
    busy = rf"another sweeplab run is writing to {tmp_path} \(pid {os.getpid()}"
    with Journal(tmp_path, SETTINGS, command="sweeplab bench first"), pytest.raises(OutputError, match=busy):
        Journal(tmp_path, SETTINGS)
    Journal(tmp_path, SETTINGS, resume=True).close()  # the lock goes with the run


def test_a_resumed_run_plays_only_the_missing_games(tmp_path):
    spec = BenchSpec("single-point", RULES, 1)
    with Journal(tmp_path, SETTINGS) as journal:
        journal.record("0", games(10)[2:7], 0.1)
    played = []
    with Journal(tmp_path, SETTINGS, resume=True) as journal:
        results = run_many([(spec, 10)], journal=journal, on_games=played.append, batch=2)[0]
    assert timeless(results) == timeless(games(10)) and sum(played) == 5


def test_replacing_writes_whole_or_not_at_all(tmp_path):
    path = write_text(tmp_path / "a.txt", "old")
    with pytest.raises(RuntimeError), replacing(path) as temp:
        temp.write_text("half")
        raise RuntimeError
    assert path.read_text() == "old" and [p.name for p in tmp_path.iterdir()] == ["a.txt"]


def test_check_writable_names_the_problem(tmp_path):
    assert check_writable(tmp_path / "new" / "deeper").is_dir()
    (tmp_path / "file").write_text("x")
    with pytest.raises(OutputError, match="it is a file, not a directory"):
        check_writable(tmp_path / "file")
    with pytest.raises(OutputError, match="below as the output directory: Not a directory"):
        check_writable(tmp_path / "file" / "below")
