"""The benchmark panel's runs: each browser's own :func:`sweeplab.bench.session.bench`, in a child process of the
server, a few at a time.

A child process keeps the server answering while games are played (no shared interpreter lock) and makes a run
cancellable at any moment: cancelling ends the process. Progress (games finished) and the final report come back
over a queue that a thread of the server reads. The child ends itself if the server disappears, and runs under a
memory cap (:data:`MEMORY_BYTES`, as the solver processes) and a CPU-time cap. Each browser sees and cancels only
its own run; a run whose estimated work is past the server's bound is refused before it starts
(:mod:`sweeplab.web.benchcost`).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import queue
import resource
import signal
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sweeplab.core.errors import SweeplabError

RUNNING_MAX = 2  #: benchmark runs at once, all browsers together (each browser: one)
MEMORY_BYTES = 2 << 30  #: address space a run's process may add to what it holds once started (RLIMIT_AS)
CPU_SECONDS = 600  #: CPU seconds a run's process may use (RLIMIT_CPU), past its estimate's bound
KEPT = 1000  #: browsers whose last run is remembered
OUT_OF_MEMORY = ("MemoryError", "failed to map segment", "Cannot allocate memory", "can't start new thread")


class BenchBusyError(SweeplabError):
    """This browser's benchmark is already running, or the server runs as many as it allows."""


class NoBenchError(SweeplabError):
    """No benchmark has run yet, or the last one has no report."""


def _child(  # pragma: no cover - runs in the child
    settings: dict[str, Any], out: Any, parent: int, memory: int, cpu: int, programs: dict[str, str]
) -> None:
    """Play the run and send ("games", n) after each batch, then ("done", report) or ("error", message); the outside
    programs the server was started with (``programs``, name -> ``cmd:PROGRAM ARGS``) are named here first."""
    try:
        from sweeplab.bench.session import bench
        from sweeplab.core.rules import make_rules
        from sweeplab.strategies.registry import get, parse_spec, register_program

        for name, spec in programs.items():
            register_program(name, spec)

        for spec in settings["strategies"]:  # their modules loaded before the cap, which then counts the run's own memory
            get(parse_spec(spec)[0])
        out.put(("games", 0))  # starts the queue's feeder thread before the cap (a thread needs address space)
        with open("/proc/self/statm") as statm:
            held = int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
        resource.setrlimit(resource.RLIMIT_AS, (held + memory, resource.getrlimit(resource.RLIMIT_AS)[1]))
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, resource.getrlimit(resource.RLIMIT_CPU)[1]))

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
    except MemoryError:
        out.put(("error", f"the run needed more than the server's memory cap of {memory / 2**30:g} GiB and was ended"))
    except Exception as error:  # a strategy that crashes: report it, named, instead of dying silently
        text = f"{type(error).__name__}: {error}" if not isinstance(error, SweeplabError) else str(error)
        if any(sign in text for sign in OUT_OF_MEMORY):  # its worker process hit the cap it inherits
            text = f"the run needed more than the server's memory cap of {memory / 2**30:g} GiB and was ended ({text})"
        out.put(("error", text))


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
    """Starts, watches and cancels benchmark runs: one per browser (``client``), :data:`RUNNING_MAX` at once."""

    def __init__(
        self,
        clock: Callable[[], float] = time.monotonic,
        running: int = RUNNING_MAX,
        memory: int = MEMORY_BYTES,
        programs: dict[str, str] | None = None,
    ) -> None:
        self.clock = clock
        self.programs = dict(programs or {})  # outside programs by name (sweeplab serve --player), for each run
        self.running = running
        self.memory = memory
        self._lock = threading.Lock()
        self._jobs: dict[str, BenchJob] = {}  # each browser's last run, least recently started first
        self._count = 0
        self._context = multiprocessing.get_context("spawn")  # no fork of a threaded server

    @property
    def _job(self) -> BenchJob | None:  # the last run started (the tests look at its process)
        return next(reversed(self._jobs.values()), None)

    def start(self, settings: dict[str, Any], client: str = "", cpu: int = CPU_SECONDS) -> dict[str, Any]:
        """Start a run of ``settings`` (strategies, board, rule, games, seed) for ``client``; refused while its
        previous one runs, or while the server runs :data:`RUNNING_MAX`."""
        with self._lock:
            mine = self._jobs.get(client)
            if mine is not None and mine.state == "running":
                raise BenchBusyError(
                    f"your benchmark run {mine.number} is still running ({mine.done}/{mine.total} games): "
                    "wait for it or cancel it first"
                )
            busy = sum(job.state == "running" for job in self._jobs.values())
            if busy >= self.running:
                raise BenchBusyError(
                    f"the server is running {busy} benchmarks for other browsers, as many as it runs at once: "
                    "try again when one has finished"
                )
            self._count += 1
            total = settings["games"] * len(settings["strategies"])
            job = BenchJob(self._count, dict(settings), total, self.clock, started=self.clock())
            job.messages = self._context.Queue()
            job.process = self._context.Process(
                target=_child,
                args=(settings, job.messages, os.getpid(), self.memory, cpu, self.programs),
                daemon=True,
                name=f"sweeplab-bench-{job.number}",
            )
            job.process.start()
            job.reader = threading.Thread(target=self._read, args=(job,), daemon=True, name=f"bench-reader-{job.number}")
            job.reader.start()
            self._jobs.pop(client, None)
            self._jobs[client] = job
            for old in [key for key, kept in self._jobs.items() if kept.state != "running"][: max(0, len(self._jobs) - KEPT)]:
                del self._jobs[old]
            return job.payload()

    def _ended(self, job: BenchJob) -> str:
        code = job.process.exitcode
        if code == -signal.SIGXCPU:
            return "the benchmark process ran past its CPU-time limit and was ended"
        return f"the benchmark process ended unexpectedly (exit code {code})"

    def _read(self, job: BenchJob) -> None:
        try:
            self._follow(job)
        finally:
            with contextlib.suppress(Exception):
                job.messages.close()
                job.messages.join_thread()

    def _follow(self, job: BenchJob) -> None:
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
                            job.error = self._ended(job)
                            job.finished = self.clock()
                    return
            except (EOFError, OSError):  # the queue was closed: the server is stopping
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

    def status(self, client: str = "") -> dict[str, Any]:
        with self._lock:
            job = self._jobs.get(client)
            if job is None:
                return {"run": None, "state": "idle"}
            return job.payload()

    def report(self, client: str = "") -> dict[str, Any]:
        with self._lock:
            job = self._jobs.get(client)
            if job is None or job.report is None:
                raise NoBenchError("no finished benchmark run to download yet")
            report = dict(job.report)
            report["settings"] = {**report.get("settings", {}), "strategies": job.settings["strategies"]}
            return report

    def cancel(self, client: str = "") -> dict[str, Any]:
        """End this browser's running run (its process is terminated; nothing of it is kept)."""
        with self._lock:
            job = self._jobs.get(client)
            if job is None or job.state != "running":
                raise NoBenchError("no benchmark of yours is running")
            job.state, job.finished = "cancelled", self.clock()
        self._end(job)
        with self._lock:
            return job.payload()

    def _end(self, job: BenchJob) -> None:
        job.process.terminate()
        if job.reader is not None:  # it polls the child too and ends once the child is gone: let it go first, since
            job.reader.join(timeout=5)  # two threads waiting on one process race, and the loser sees it as alive
        job.process.join(timeout=5)
        if job.process.is_alive():  # pragma: no cover - a child that ignores SIGTERM
            job.process.kill()
            job.process.join(timeout=5)

    def shutdown(self) -> None:
        """Stop every running run (the server is stopping)."""
        with self._lock:
            running = [job for job in self._jobs.values() if job.state == "running"]
            for job in running:
                job.state, job.finished = "cancelled", self.clock()
        for job in running:
            self._end(job)
