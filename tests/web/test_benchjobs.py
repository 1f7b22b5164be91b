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


def test_a_run_past_the_memory_cap_fails_and_says_so():
    runner = BenchRunner(memory=1 << 20)  # 1 MiB past what the child holds once started: a large board needs more
    runner.start({"strategies": ["exact"], "board": "100x100x1500", "rule": "safe", "games": 3, "seed": 0})
    status = wait(runner)
    assert status["state"] == "failed" and "needed more than the server's memory cap of 0.000976562 GiB" in status["error"]


def test_a_run_past_its_cpu_time_is_ended_and_says_so():
    runner = BenchRunner()
    runner.start({"strategies": ["cspstrategy"], "board": "expert", "rule": "safe", "games": 2000, "seed": 0}, cpu=1)
    status = wait(runner)
    assert status["state"] == "failed" and "ran past its CPU-time limit" in status["error"], status
