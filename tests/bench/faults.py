"""Helpers for the fault tests: run ``sweeplab`` as a real process, watch its journal, its children, its output."""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ENV = {**os.environ, "SWEEPLAB_PROGRESS_SECONDS": "0.5", "PYTHONUNBUFFERED": "1"}


def command(*args: object) -> list[str]:
    return [sys.executable, "-m", "sweeplab.cli", *map(str, args)]


def start(*args: object, prefix: tuple[str, ...] = (), **kwargs: object) -> subprocess.Popen[str]:
    """Start ``sweeplab ARGS`` with its stdout and stderr on pipes (text)."""
    return subprocess.Popen(
        [*prefix, *command(*args)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=ENV,
        **kwargs,  # type: ignore[call-overload]
    )


def run(*args: object, prefix: tuple[str, ...] = (), timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*prefix, *command(*args)], capture_output=True, text=True, env=ENV, timeout=timeout)


def journal_games(directory: Path) -> list[dict]:
    """The complete game lines of a journal (a torn last line is left out, as a resume does)."""
    path = directory / "games.jsonl"
    if not path.exists():
        return []
    data = path.read_bytes()
    data = data[: data.rfind(b"\n") + 1]
    games = [json.loads(line) for line in data.splitlines() if line.strip()]
    return [g for g in games if "wall" not in g]


def wait_for_games(directory: Path, count: int, process: subprocess.Popen[str], timeout: float = 60) -> None:
    """Wait until the journal holds ``count`` games (or the process ends, or the timeout passes)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end and process.poll() is None:
        path = directory / "games.jsonl"
        if count <= 0 or (path.exists() and path.read_bytes().count(b'"index"') >= count):
            return
        time.sleep(0.02)


def children(pid: int) -> set[int]:
    """Every descendant process of ``pid`` (from /proc)."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as handle:
                    fields = handle.read().rsplit(")", 1)[1].split()
                parents[int(entry)] = int(fields[1])
            except (OSError, IndexError, ValueError):
                continue
    found: set[int] = set()
    frontier = {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as handle:
            state = handle.read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def rows(directory: Path, name: str = "games.csv", drop: tuple[str, ...] = ("cpu_seconds",)) -> list[dict]:
    """A CSV's rows without its timing columns (the only ones that differ between two runs of the same games)."""
    with (directory / name).open() as handle:
        return [{k: v for k, v in row.items() if k not in drop} for row in csv.DictReader(handle)]


TIMING = ("cpu_mean", "cpu_median", "cpu_p99", "wall_seconds", "games_per_second")


def summaries(directory: Path) -> list[dict]:
    """bench.json's summaries and pairs without the timing figures."""
    data = json.loads((directory / "bench.json").read_text())
    return [{k: v for k, v in s.items() if k not in TIMING} for s in data["summaries"]] + data["paired"]


def unprivileged() -> tuple[str, ...]:
    """A command prefix that drops root (who ignores file permissions) to nobody, so that a read-only directory is one."""
    if os.geteuid() != 0:
        return ()
    return ("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups")
