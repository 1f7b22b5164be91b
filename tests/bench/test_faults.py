"""Fault injection: runs killed by signals at random points, a full disk, a read-only directory, two runs at once.

Every test runs the real ``sweeplab`` command in a process of its own and checks that no finished game is lost,
that no worker process survives, and that ``--resume`` ends with exactly the result of an uninterrupted run.
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from tests.bench.faults import alive, children, journal_games, rows, run, start, summaries, unprivileged, wait_for_games

BENCH = ("bench", "-s", "single-point,random", "-b", "beginner", "-n", "400", "--seed", "3", "-j", "2", "--batch", "10")
GAMES = 2 * 400


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The uninterrupted run every interrupted one must end up equal to."""
    out = tmp_path_factory.mktemp("reference")
    result = run(*BENCH, "--out", out)
    assert result.returncode == 0, result.stderr
    return out


def assert_same_run(out: Path, reference: Path) -> None:
    assert rows(out) == rows(reference)
    assert summaries(out) == summaries(reference)
    assert not (out / "games.jsonl").exists()
    assert json.loads((out / "run.json").read_text())["finished"] is True


def interrupt(out: Path, signum: int, after: int, group: bool = False) -> tuple[subprocess.CompletedProcess[str], set[int]]:
    """Start the bench, send ``signum`` once ``after`` games are in its journal; the finished process and the
    worker processes it had."""
    process = start(*BENCH, "--out", out, start_new_session=group)
    wait_for_games(out, after, process)
    workers = children(process.pid)
    if group:
        os.killpg(process.pid, signum)
    else:
        process.send_signal(signum)
    stdout, stderr = process.communicate(timeout=60)  # returns only once nothing holds the pipes any more
    return subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr), workers


SIGNAL_CASES = [(signal.SIGINT, seed) for seed in range(3)] + [(signal.SIGTERM, seed) for seed in range(3)]


@pytest.mark.parametrize(("signum", "case"), SIGNAL_CASES, ids=lambda v: getattr(v, "name", str(v)))
def test_a_signal_at_a_random_point_loses_nothing_and_resume_gives_the_same_result(signum, case, reference, tmp_path):
    after = random.Random(f"{signum}-{case}").randrange(1, GAMES - 100)
    out = tmp_path / "run"
    result, workers = interrupt(out, signum, after)
    if result.returncode == 0:  # the run ended before the signal: nothing to resume, and it must be whole
        assert_same_run(out, reference)
        return
    assert result.returncode == {signal.SIGINT: 130, signal.SIGTERM: 143}[signum], result.stderr
    assert f"stopped by {signum.name}" in result.stderr
    assert "Traceback" not in result.stderr
    kept = journal_games(out)
    if "partial:" in result.stdout:
        lines = result.stdout.splitlines()
        finished = sum(int(line.split()[1].replace(",", "")) for line in lines if line.startswith("partial:"))
        assert finished == len(kept)  # every game the summary counted is on disk
    else:  # stopped after the last game: all of them are on disk (or already in the result files)
        assert len(kept) == GAMES or json.loads((out / "run.json").read_text())["finished"]
    assert len({(g["k"], g["index"]) for g in kept}) == len(kept)
    assert not [pid for pid in workers if alive(pid)]  # no worker survives
    resume = result.stderr.splitlines()[-1].strip()
    assert resume.startswith("sweeplab bench") and resume.endswith("--resume")
    again = run(*resume.split()[1:])
    assert again.returncode == 0, again.stderr
    assert_same_run(out, reference)


def test_ctrl_c_to_the_whole_process_group_stops_cleanly(reference, tmp_path):
    out = tmp_path / "run"
    result, workers = interrupt(out, signal.SIGINT, 300, group=True)
    assert result.returncode == 130 and "Traceback" not in result.stderr, result.stderr
    assert not [pid for pid in workers if alive(pid)]
    again = run(*BENCH, "--out", out, "--resume")
    assert again.returncode == 0, again.stderr
    assert_same_run(out, reference)


def test_a_full_disk_keeps_the_finished_games_and_prints_the_summary(reference, tmp_path):
    out = tmp_path / "run"
    out.mkdir()
    limited = run(*BENCH, "--out", out, prefix=("bash", "-c", 'ulimit -f 96; exec "$@"', "-"))  # 96 KiB per file
    assert limited.returncode == 1, limited.stderr
    assert "File too large" in limited.stderr and "Traceback" not in limited.stderr
    assert "partial:" in limited.stdout and "won" in limited.stdout  # the summary of what finished
    kept = journal_games(out)
    assert 0 < len(kept) < GAMES
    assert not (out / "bench.json").exists() and not (out / "games.csv").exists()
    again = run(*BENCH, "--out", out, "--resume")
    assert again.returncode == 0, again.stderr
    assert_same_run(out, reference)


@pytest.fixture
def shared_dir():
    """A directory the unprivileged user of :func:`unprivileged` may enter (pytest's tmp_path is root-only)."""
    path = Path(tempfile.mkdtemp(prefix="sweeplab-faults-"))
    path.chmod(0o777)
    yield path
    path.chmod(0o755)
    for sub in path.rglob("*"):
        if sub.is_dir():
            sub.chmod(0o755)
    shutil.rmtree(path)


def test_a_read_only_directory_is_refused_before_the_first_game(shared_dir):
    out = shared_dir / "ro"
    out.mkdir()
    out.chmod(0o555)
    result = run(*BENCH, "--out", out, prefix=unprivileged())
    assert result.returncode == 2
    assert f"error: cannot write in the output directory {out}: Permission denied" in result.stderr
    assert "won" not in result.stdout and list(out.iterdir()) == []


def test_a_directory_made_read_only_during_the_run_loses_nothing(reference, shared_dir):
    out = shared_dir / "run"
    out.mkdir()
    out.chmod(0o777)
    process = start(*BENCH, "--out", out, prefix=unprivileged())
    wait_for_games(out, 100, process)
    out.chmod(0o555)  # the journal is open already; the result files cannot be created
    stdout, stderr = process.communicate(timeout=120)
    assert process.returncode == 1, stderr
    assert "cannot write the results" in stderr and "Permission denied" in stderr and "Traceback" not in stderr
    assert "single-point on 9x9x10" in stdout and "paired" in stdout  # the whole summary was printed
    assert len(journal_games(out)) == GAMES
    out.chmod(0o777)
    again = run(*BENCH, "--out", out, "--resume", prefix=unprivileged())
    assert again.returncode == 0, again.stderr
    assert_same_run(out, reference)


@pytest.mark.parametrize(
    ("out", "message"),
    [
        ("/dev/null", "cannot use /dev/null as the output directory: it is a device or special file, not a directory"),
        ("/proc/sweeplab-out", "cannot create the output directory /proc/sweeplab-out"),
        ("/proc", "cannot write in the output directory /proc"),
    ],
)
def test_unusable_output_paths_are_refused_before_any_game(out, message):
    result = run(*BENCH, "--out", out)
    assert result.returncode == 2 and message in result.stderr, result.stderr
    assert "Traceback" not in result.stderr and "won" not in result.stdout


def test_two_runs_on_one_directory_are_refused_by_the_lock(tmp_path):
    out = tmp_path / "run"
    long = ("bench", "-s", "random", "-b", "beginner", "-n", "10000000", "-j", "1")
    first = start(*long, "--out", out)
    wait_for_games(out, 1, first)
    second = run(*long, "--out", out, "--resume")
    first.send_signal(signal.SIGTERM)
    first.communicate(timeout=60)
    assert first.returncode == 143
    assert second.returncode == 2
    assert f"another sweeplab run is writing to {out}" in second.stderr and "Traceback" not in second.stderr


def test_a_huge_game_count_starts_at_once_with_flat_memory(tmp_path):
    out = tmp_path / "run"
    process = start("bench", "-s", "random", "-b", "beginner", "-n", "100000000", "-j", "1", "--out", out)
    wait_for_games(out, 500, process, timeout=30)
    with open(f"/proc/{process.pid}/status") as handle:
        rss_kb = next(int(line.split()[1]) for line in handle if line.startswith("VmRSS:"))
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=60)
    assert process.returncode == 130, stderr
    assert len(journal_games(out)) >= 500
    assert rss_kb < 300_000  # the 10^8 games are not built up front (that took 3 GB)
    assert "of 100,000,000 games finished" in stderr


def test_an_experiment_resumes_to_the_same_files(tmp_path):
    args = ("experiment", "outcomes", "-b", "beginner", "-s", "single-point,random", "-n", "100", "-j", "1")
    whole = tmp_path / "whole"
    assert run(*args, "--out", whole).returncode == 0
    out = tmp_path / "cut"
    process = start(*args, "--out", out)
    wait_for_games(out, 60, process)
    process.send_signal(signal.SIGTERM)
    _, stderr = process.communicate(timeout=60)
    if process.returncode != 0:
        assert process.returncode == 143 and "--resume" in stderr, stderr
        assert run(*args, "--out", out, "--resume").returncode == 0
    timing = ("cpu_mean", "cpu_median", "cpu_p99")
    assert rows(out, "data.csv", timing) == rows(whole, "data.csv", timing)
    assert rows(out, "outcomes.csv") == rows(whole, "outcomes.csv")


def test_a_killed_worker_process_stops_the_run_cleanly_and_resume_completes_it(reference, tmp_path):
    out = tmp_path / "run"
    process = start(*BENCH, "--out", out)
    wait_for_games(out, 200, process)
    workers = sorted(children(process.pid))
    if workers:
        os.kill(workers[-1], signal.SIGKILL)  # as the out-of-memory killer would
    stdout, stderr = process.communicate(timeout=60)
    if process.returncode != 0:
        assert process.returncode == 1, stderr
        assert "error: the workers failed (BrokenProcessPool" in stderr and "Traceback" not in stderr
        assert "partial:" in stdout
    assert not [pid for pid in workers if alive(pid)]
    again = run(*BENCH, "--out", out, "--resume")
    assert again.returncode == 0, again.stderr
    assert_same_run(out, reference)


def test_an_interrupted_run_without_out_prints_what_finished_and_that_nothing_was_saved():
    process = start("bench", "-s", "random", "-b", "beginner", "-n", "10000000", "-j", "2")
    deadline = time.monotonic() + 60
    while not re.match(r"bench: [1-9]", process.stderr.readline()) and time.monotonic() < deadline:
        pass  # a progress line with games finished
    process.send_signal(signal.SIGINT)
    stdout, stderr = process.communicate(timeout=60)
    assert process.returncode == 130
    assert "partial:" in stdout and "stopped by SIGINT" in stderr
    assert "nothing was saved (no --out)" in stderr and "Traceback" not in stderr


@pytest.mark.parametrize("case", range(2))
def test_a_crash_of_the_main_process_leaves_no_worker_and_resume_completes_the_run(case, reference, tmp_path):
    """SIGKILL cannot be caught: the journal may end in a torn line, and the workers must die with their parent."""
    out = tmp_path / "run"
    process = start(*BENCH, "--out", out)
    wait_for_games(out, random.Random(f"kill-{case}").randrange(50, GAMES - 100), process)
    workers = children(process.pid)
    process.kill()
    process.communicate(timeout=60)  # returns only once no worker holds the pipes
    deadline = time.monotonic() + 10
    while [pid for pid in workers if alive(pid)] and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not [pid for pid in workers if alive(pid)]
    assert 0 < len(journal_games(out)) < GAMES
    again = run(*BENCH, "--out", out, "--resume")
    assert again.returncode == 0, again.stderr
    assert_same_run(out, reference)
