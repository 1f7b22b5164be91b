"""A real Dask cluster: a scheduler and a worker started as processes (`dask scheduler`, `dask worker`) on loopback,
as a user with a cluster would start them, and `sweeplab bench --executor dask --scheduler tcp://...` run against it:
the same games as the local executor, and an interrupted run resumed through the cluster to the same result."""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.bench.faults import ENV, journal_games, rows, run, start, summaries, wait_for_games

pytest.importorskip("distributed")

BENCH = ("bench", "-s", "single-point,random", "-b", "beginner", "-n", "200", "--seed", "5", "--batch", "10")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def scheduler(tmp_path_factory: pytest.TempPathFactory):
    dask = str(Path(sys.executable).parent / "dask")
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    logs = tmp_path_factory.mktemp("dask")
    processes = [
        subprocess.Popen(
            [dask, "scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"],
            stdout=subprocess.DEVNULL,
            stderr=(logs / "scheduler.log").open("w"),
        )
    ]
    processes.append(
        subprocess.Popen(
            [dask, "worker", address, "--nworkers", "1", "--nthreads", "1", "--no-dashboard"],
            stdout=subprocess.DEVNULL,
            stderr=(logs / "worker.log").open("w"),
        )
    )
    from distributed import Client

    try:
        with Client(address, timeout="60s") as client:
            client.wait_for_workers(1, timeout=60)
        yield address
    finally:
        for process in reversed(processes):
            process.terminate()
        for process in processes:
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


@pytest.fixture(scope="module")
def local(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The same bench on the local executor."""
    out = tmp_path_factory.mktemp("local") / "out"
    result = run(*BENCH, "-j", "1", "--out", out)
    assert result.returncode == 0, result.stderr
    return out


def scheduler_tasks(address: str) -> int:
    """How many tasks the scheduler still holds (0 once every future was released or cancelled)."""
    from distributed import Client

    with Client(address, timeout="20s") as client:
        return int(client.run_on_scheduler(lambda dask_scheduler: len(dask_scheduler.tasks)))


def test_a_bench_through_a_scheduler_and_worker_processes_equals_the_local_run(scheduler, local, tmp_path):
    remote = run(*BENCH, "--executor", "dask", "--scheduler", scheduler, "--out", tmp_path / "dask")
    assert remote.returncode == 0, remote.stderr
    assert f"on Dask ({scheduler}, 1 worker thread(s))" in remote.stdout
    assert rows(tmp_path / "dask") == rows(local)
    assert summaries(tmp_path / "dask") == summaries(local)


def test_an_outside_program_plays_on_the_dask_worker_as_it_does_locally(scheduler, tmp_path):
    client = Path(__file__).resolve().parents[2] / "examples" / "python" / "client.py"
    spec = ("-s", f"reference,cmd:{sys.executable} {client}", "-b", "beginner", "-n", "60", "--batch", "10")
    here = run("bench", *spec, "-j", "2", "--out", tmp_path / "local")
    there = run("bench", *spec, "--executor", "dask", "--scheduler", scheduler, "--out", tmp_path / "dask")
    assert here.returncode == 0 and there.returncode == 0, there.stderr
    assert rows(tmp_path / "dask") == rows(tmp_path / "local") and "only reference won 0" in there.stdout
    assert list((tmp_path / "dask" / "stderr").glob("*.log"))  # kept by the worker, in the run's folder


def test_an_interrupted_dask_run_cancels_its_tasks_and_resumes_to_the_same_result(scheduler, local, tmp_path):
    reference = local
    out = tmp_path / "dask"
    process = start(*BENCH, "--executor", "dask", "--scheduler", scheduler, "--out", out)
    wait_for_games(out, 100, process)
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=60)
    assert process.returncode == 130, stderr
    assert "Traceback" not in stderr and stderr.strip().endswith("--resume")
    assert 100 <= len(journal_games(out)) < 400
    deadline = time.monotonic() + 20
    while scheduler_tasks(scheduler) and time.monotonic() < deadline:  # the futures were cancelled, the client closed
        time.sleep(0.2)
    assert scheduler_tasks(scheduler) == 0
    resume = stderr.strip().splitlines()[-1].split()
    assert resume[:2] == ["sweeplab", "bench"] and "--scheduler" in resume
    again = run(*resume[1:])
    assert again.returncode == 0, again.stderr
    assert rows(out) == rows(reference)
    assert summaries(out) == summaries(reference)


def test_an_unreachable_scheduler_is_refused_within_the_connect_timeout(tmp_path, monkeypatch):
    monkeypatch.setitem(ENV, "SWEEPLAB_DASK_TIMEOUT", "2")
    started = time.monotonic()
    result = run(*BENCH, "--executor", "dask", "--scheduler", f"tcp://127.0.0.1:{free_port()}")
    assert result.returncode == 2
    assert "error: cannot reach the Dask scheduler tcp://127.0.0.1:" in result.stderr and "after 2 s" in result.stderr
    assert "Traceback" not in result.stderr
    assert time.monotonic() - started < 30
