"""Benchmark runs in a child process: progress, a failure reported in words, and nothing left running."""

import time

import pytest

from sweeplab.web.benchjobs import BenchBusyError, BenchRunner, NoBenchError


def wait(runner: BenchRunner, seconds: float = 60) -> dict:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        status = runner.status()
        if status["state"] != "running":
            return status
        time.sleep(0.05)
    raise AssertionError("the run did not finish")


def test_a_failing_run_says_why():
    runner = BenchRunner()
    runner.start({"strategies": ["exact"], "board": "nonsense", "rule": "safe", "games": 5, "seed": 0})
    status = wait(runner)
    assert status["state"] == "failed" and "unknown board 'nonsense'" in status["error"]
    with pytest.raises(NoBenchError):
        runner.report()


def test_progress_counts_every_game_and_the_child_ends():
    runner = BenchRunner()
    runner.start({"strategies": ["random", "single-point"], "board": "beginner", "rule": "safe", "games": 30, "seed": 1})
    with pytest.raises(BenchBusyError):
        runner.start({"strategies": ["random"], "board": "beginner", "rule": "safe", "games": 1, "seed": 1})
    status = wait(runner)
    assert status["state"] == "done" and status["games_done"] == status["games_total"] == 60
    assert runner.report()["summaries"][1]["strategy"] == "single-point"
    # the runner's reader thread joins the child too: let it finish first, since two threads waiting on one process
    # race (the one whose waitpid loses sees the child as still alive)
    runner._job.reader.join(60)
    runner._job.process.join(60)  # generous: on a loaded machine a spawned child can take seconds to exit
    assert not runner._job.process.is_alive()
    runner.shutdown()  # nothing running: no error
