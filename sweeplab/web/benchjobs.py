"""The benchmark panel's runs: one :func:`sweeplab.bench.session.bench` at a time, in a child process of the server.

A child process keeps the server answering while games are played (no shared interpreter lock) and makes a run
cancellable at any moment: cancelling ends the process. Progress (games finished) and the final report come back
over a queue that a thread of the server reads. The child ends itself if the server disappears.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sweeplab.core.errors import SweeplabError


class BenchBusyError(SweeplabError):
    """A benchmark is already running (one at a time)."""


class NoBenchError(SweeplabError):
    """No benchmark has run yet, or the last one has no report."""


def _child(settings: dict[str, Any], out: Any, parent: int) -> None:  # pragma: no cover - runs in the child process
    """Play the run and send ("games", n) after each batch, then ("done", report) or ("error", message)."""
    try:
        from sweeplab.bench.session import bench
        from sweeplab.core.rules import make_rules

        def progress(games: int) -> None:
            if os.getppid() != parent:  # the server is gone: stop rather than run on unseen
                os._exit(1)
            out.put(("games", games))

        rules = make_rules(settings["board"], settings["rule"])
        games = settings["games"]
        report = bench(
            settings["strategies"], rules, games, settings["seed"], on_games=progress, batch=max(1, min(25, games // 20))
        )
        out.put(("done", report.to_dict()))
    except Exception as error:  # a strategy that crashes: report it, named, instead of dying silently
        out.put(("error", f"{type(error).__name__}: {error}" if not isinstance(error, SweeplabError) else str(error)))


@dataclass
class BenchJob:
    """One run: its settings, progress and result."""

    number: int
    settings: dict[str, Any]
    total: int
    clock: Callable[[], float]
    started: float = 0.0
    finished: float | None = None
    done: int = 0
    state: str = "running"  # running, done, failed, cancelled
    error: str | None = None
    report: dict[str, Any] | None = None
    process: Any = None
    messages: Any = None
    reader: threading.Thread | None = field(default=None, repr=False)

    def payload(self) -> dict[str, Any]:
        end = self.finished if self.finished is not None else self.clock()
        return {
            "run": self.number,
            "state": self.state,
            "settings": self.settings,
            "games_done": self.done,
            "games_total": self.total,
            "seconds": round(end - self.started, 2),
            "error": self.error,
            "report": self.report,
        }


class BenchRunner:
    """Starts, watches and cancels benchmark runs, one at a time."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._lock = threading.Lock()
        self._job: BenchJob | None = None
        self._count = 0
        self._context = multiprocessing.get_context("spawn")  # no fork of a threaded server

    def start(self, settings: dict[str, Any]) -> dict[str, Any]:
        """Start a run of ``settings`` (strategies, board, rule, games, seed); refused while another runs."""
        with self._lock:
            if self._job is not None and self._job.state == "running":
                raise BenchBusyError(
                    f"benchmark run {self._job.number} is still running ({self._job.done}/{self._job.total} games): "
                    "wait for it or cancel it first"
                )
            self._count += 1
            total = settings["games"] * len(settings["strategies"])
            job = BenchJob(self._count, dict(settings), total, self.clock, started=self.clock())
            job.messages = self._context.Queue()
            job.process = self._context.Process(
                target=_child, args=(settings, job.messages, os.getpid()), daemon=True, name=f"sweeplab-bench-{job.number}"
            )
            job.process.start()
            job.reader = threading.Thread(target=self._read, args=(job,), daemon=True, name=f"bench-reader-{job.number}")
            job.reader.start()
            self._job = job
            return job.payload()

    def _read(self, job: BenchJob) -> None:
        while True:
            try:
                kind, value = job.messages.get(timeout=0.2)
            except queue.Empty:
                if job.process.is_alive():
                    continue
                try:  # the last messages may arrive just after the process ends
                    kind, value = job.messages.get(timeout=0.5)
                except queue.Empty:
                    with self._lock:
                        if job.state == "running":
                            job.state = "failed"
                            job.error = f"the benchmark process ended unexpectedly (exit code {job.process.exitcode})"
                            job.finished = self.clock()
                    return
            with self._lock:
                if job.state != "running":
                    return
                if kind == "games":
                    job.done += value
                elif kind == "done":
                    job.report, job.state, job.done, job.finished = value, "done", job.total, self.clock()
                elif kind == "error":
                    job.error, job.state, job.finished = value, "failed", self.clock()
            if kind in ("done", "error"):
                job.process.join(timeout=5)
                return

    def status(self) -> dict[str, Any]:
        with self._lock:
            if self._job is None:
                return {"run": None, "state": "idle"}
            return self._job.payload()

    def report(self) -> dict[str, Any]:
        with self._lock:
            if self._job is None or self._job.report is None:
                raise NoBenchError("no finished benchmark run to download yet")
            report = dict(self._job.report)
            report["settings"] = {**report.get("settings", {}), "strategies": self._job.settings["strategies"]}
            return report

    def cancel(self) -> dict[str, Any]:
        """End the running run (its process is terminated; nothing of it is kept)."""
        with self._lock:
            job = self._job
            if job is None or job.state != "running":
                raise NoBenchError("no benchmark is running")
            job.state, job.finished = "cancelled", self.clock()
        job.process.terminate()
        if job.reader is not None:  # it polls the child too and ends once the child is gone: let it go first, since
            job.reader.join(timeout=5)  # two threads waiting on one process race, and the loser sees it as alive
        job.process.join(timeout=5)
        if job.process.is_alive():  # pragma: no cover - a child that ignores SIGTERM
            job.process.kill()
        with self._lock:
            return job.payload()

    def shutdown(self) -> None:
        """Stop a running run (the server is stopping)."""
        with contextlib.suppress(NoBenchError):
            self.cancel()
