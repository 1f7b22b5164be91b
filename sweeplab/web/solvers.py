"""Steps, hints and analyses off the server's event loop: a few worker processes, each task under a time limit and a
memory cap, answered 503 naming the limit; a game's auto-solver lives in the process that made it.

Tasks wait in a fair queue: one line per client, served round robin, and no client holds more than all workers but
one while others wait, so one client's backlog waits behind its own requests only. A task that waited too long, or
found its line or the whole queue full, is refused before it runs (503 with ``Retry-After``); a task's time limit
counts from when its worker starts it."""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import resource
import signal
import threading
import time
import weakref
from collections import Counter, OrderedDict, deque
from collections.abc import Callable
from typing import Any

from sweeplab.core.errors import SweeplabError
from sweeplab.core.game import Game, Move
from sweeplab.strategies.base import Guess, Strategy, play_move
from sweeplab.strategies.registry import get, register_program

WORKERS = 2  #: solver processes: a long task holds one, the other keeps hints and analyses answering
TASK_SECONDS = 5.0  #: the longest one step, hint or analysis may run; then its process is killed
MEMORY_BYTES = 2 << 30  #: address space one worker may add to what it holds once started (RLIMIT_AS)
PLAYERS_KEPT = 64  #: auto-solvers a worker keeps (least recently used dropped: that game's solver starts afresh)
QUEUE_SECONDS = 10.0  #: the longest a task waits for a worker before it is refused (503, try again)
QUEUED_PER_CLIENT = 4  #: tasks one client may have waiting (the page has at most two in flight)
QUEUED_MAX = 32  #: tasks waiting in all
START_SECONDS = 60.0  #: the longest a solver process may take to start
SERVED_KEPT = 1000  #: clients whose last turn is remembered (one forgotten counts as served longest ago)


class SolverLimitError(SweeplabError):
    """A task ran past the time limit or the memory cap, or no worker was free in time, or the server is shutting down.
    ``retry_after`` (seconds) is set when the task was not run at all and may succeed later."""

    def __init__(self, message: str, retry_after: int | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class _Ticket:
    """A task waiting in the queue: the worker it needs (None: any) and, once dispatched, the worker it got."""

    __slots__ = ("index", "wanted")

    def __init__(self, wanted: int | None) -> None:
        self.wanted = wanted
        self.index: int | None = None


# ----- the worker side -----
_players: OrderedDict[str, Strategy] = OrderedDict()


def play_step(
    key: str, strategy: type[Strategy] | str, options: dict[str, Any], seed: int, game: Game
) -> tuple[Game, Move, Guess | None]:
    """One move of the auto-solver ``key`` (made here on first use, as ``registry.make`` makes it, and told the
    rules as :func:`~sweeplab.strategies.base.play` tells them); runs in a worker, which keeps the solver.
    ``strategy`` is the player's class, or the name of an outside program the worker was given (its class is made
    here: it cannot be pickled)."""
    player = _players.pop(key, None)
    if player is None:
        if isinstance(strategy, str):
            strategy = get(strategy)
        player = strategy(seed=seed, **options)
        player.begin(game.rules)
    move, guess = play_move(player, game)  # a failing player is not kept: the next step makes it afresh
    _players[key] = player
    while len(_players) > PLAYERS_KEPT:
        _players.popitem(last=False)
    return game, move, guess


def _watch_parent(parent: int) -> None:  # pragma: no cover - runs in the worker
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(1)


def _serve(conn: Any, parent: int, memory: int, programs: dict[str, str]) -> None:  # pragma: no cover - the worker
    """The worker's loop: ``(fn, args)`` in, ``("ok", result)``, ``("error", exception)`` or ``("memory", None)`` out.
    ``programs`` (name -> ``cmd:PROGRAM ARGS``) are the outside programs the server was started with, named here
    as there (a spawned process inherits no registration)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the server ends its workers itself
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    # the server is gone: go too. (Not bench.signals.worker_setup's PR_SET_PDEATHSIG: that fires when the *thread*
    # that started the process ends, and the server starts workers from its short-lived request threads.)
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()
    import sweeplab.web.payloads  # noqa: F401 - the usual imports, before the cap counts from here

    for name, spec in programs.items():
        register_program(name, spec)

    with open("/proc/self/statm") as statm:
        held = int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    resource.setrlimit(resource.RLIMIT_AS, (held + memory, resource.getrlimit(resource.RLIMIT_AS)[1]))
    conn.send(("ready", None))  # started: a task's time counts from here
    while True:
        try:
            fn, args = conn.recv()
        except (EOFError, OSError):
            return
        try:
            reply: tuple[str, Any] = ("ok", fn(*args))
        except MemoryError:
            reply = ("memory", None)
        except Exception as error:
            reply = ("error", error)
        try:
            conn.send(reply)
        except MemoryError:
            conn.send(("memory", None))
        except Exception as error:  # an answer or exception that cannot be pickled: say what it was
            conn.send(("error", RuntimeError(f"{type(error).__name__}: {error}")))
        if reply[0] == "memory":
            return  # a fresh process rather than one whose heap hit the cap


# ----- the server side -----
class _Worker:
    """One process and the server's end of its pipe; ``generation`` counts the processes started in this slot."""

    def __init__(self) -> None:
        self.process: Any = None
        self.conn: Any = None
        self.generation = 0

    def kill(self) -> None:
        process, conn, self.process, self.conn = self.process, self.conn, None, None
        if process is not None:
            with contextlib.suppress(Exception):
                process.kill()
                process.join(2)
        if conn is not None:
            with contextlib.suppress(Exception):
                conn.close()


def _kill_all(workers: list[_Worker]) -> None:
    for worker in workers:
        worker.kill()


class SolverPool:
    """``workers`` solver processes (spawned on first use, or all at once by :meth:`start`), one task each at a time,
    ``seconds`` and ``memory`` the limits of one task. :meth:`run` runs a function there and returns its result or
    raises its exception; a task may ask for the worker that ran an earlier one (a game's auto-solver lives there:
    :func:`play_step`, so the server's steps play as :func:`~sweeplab.strategies.base.play`). A task past its time
    has its process killed (a new one starts on next use); one past the memory cap fails there with ``MemoryError``;
    both raise :class:`SolverLimitError`. Tasks wait in the fair queue the module's docstring describes (``wait``,
    ``per_client`` and ``queued`` its limits). ``programs`` (name -> ``cmd:PROGRAM ARGS``, ``sweeplab serve
    --player``) are named in every worker as it starts. :meth:`close` kills every worker at once (``sweeplab serve``
    calls it on the first SIGINT or SIGTERM); an outside program a worker started dies with it."""

    def __init__(
        self,
        workers: int = WORKERS,
        seconds: float = TASK_SECONDS,
        memory: int = MEMORY_BYTES,
        wait: float = QUEUE_SECONDS,
        per_client: int = QUEUED_PER_CLIENT,
        queued: int = QUEUED_MAX,
        programs: dict[str, str] | None = None,
    ) -> None:
        self.seconds = seconds
        self.programs = dict(programs or {})
        self.memory = memory
        self.wait = wait
        self.per_client = per_client
        self.queued = queued
        self._context = multiprocessing.get_context("spawn")  # no fork of a threaded server
        self._workers = [_Worker() for _ in range(workers)]
        self._busy: set[int] = set()
        self._lines: OrderedDict[str, deque[_Ticket]] = OrderedDict()  # each client's waiting tasks, next served first
        self._running: Counter[str] = Counter()
        self._served: OrderedDict[str, int] = OrderedDict()  # when each client was last given a worker (a count)
        self._turn = 0
        self._free = threading.Condition()
        self._closed = False
        weakref.finalize(self, _kill_all, self._workers)

    @property
    def size(self) -> int:
        return len(self._workers)

    @property
    def share(self) -> int:
        """The most workers one client's tasks hold at once: all but one, so another client always finds one."""
        return max(1, self.size - 1)

    def full(self, client: str) -> bool:
        """Would a task in ``client``'s line be refused at once (its line, or the whole queue, is full)?"""
        with self._free:
            line = self._lines.get(client)
            return (line is not None and len(line) >= self.per_client) or sum(map(len, self._lines.values())) >= self.queued

    def waiting(self) -> int:
        with self._free:
            return sum(len(line) for line in self._lines.values())

    def _dispatch(self) -> None:
        """Give each free worker the first task it can run of the client served least recently (called with the lock
        held): clients take turns, whoever sent more."""
        for index in range(self.size):
            if index in self._busy:
                continue
            for client in sorted(self._lines, key=lambda c: self._served.get(c, -1)):
                line = self._lines[client]
                if self._running[client] >= self.share:
                    continue
                ticket = next((t for t in line if t.wanted is None or t.wanted == index), None)
                if ticket is None:
                    continue
                line.remove(ticket)
                if not line:
                    del self._lines[client]
                ticket.index = index
                self._busy.add(index)
                self._running[client] += 1
                self._turn += 1
                self._served.pop(client, None)
                self._served[client] = self._turn
                while len(self._served) > SERVED_KEPT:
                    self._served.popitem(last=False)
                self._free.notify_all()
                break

    def _refuse(self, what: str, why: str) -> SolverLimitError:
        return SolverLimitError(f"{what} was not run: {why}; try again in a moment", retry_after=max(1, round(self.seconds)))

    def _acquire(self, wanted: int | None, what: str, client: str) -> int:
        with self._free:
            if self._closed:
                raise SolverLimitError(f"{what} was not run: the server is shutting down")
            line = self._lines.get(client)
            if line is not None and len(line) >= self.per_client:
                raise self._refuse(what, f"this browser already has {len(line)} requests waiting for a solver process")
            if sum(len(waiting) for waiting in self._lines.values()) >= self.queued:
                raise self._refuse(what, f"{self.queued} requests are waiting for the server's {self.size} solver processes")
            ticket = _Ticket(wanted)
            self._lines.setdefault(client, deque()).append(ticket)
            self._dispatch()
            deadline = time.monotonic() + self.wait
            while ticket.index is None:
                left = deadline - time.monotonic()
                if self._closed or left <= 0:
                    line = self._lines.get(client)
                    if line is not None and ticket in line:
                        line.remove(ticket)
                        if not line:
                            del self._lines[client]
                    if self._closed:
                        raise SolverLimitError(f"{what} was not run: the server is shutting down")
                    raise self._refuse(
                        what, f"it waited {self.wait:g} s for a free solver process (the server has {self.size}, all busy)"
                    )
                self._free.wait(left)
            return ticket.index

    def _release(self, index: int, client: str) -> None:
        with self._free:
            self._busy.discard(index)
            self._running[client] -= 1
            if self._running[client] <= 0:
                del self._running[client]
            self._dispatch()
            self._free.notify_all()

    def run(
        self, fn: Callable[..., Any], *args: Any, what: str = "the request", worker: int | None = None, client: str = ""
    ) -> tuple[Any, int]:
        """``fn(*args)`` in a worker (``worker``, that one), queued in ``client``'s line: (its result, the worker's
        number). ``what`` names the task in the messages. Raises what ``fn`` raised, or :class:`SolverLimitError`."""
        index = self._acquire(worker, what, client)
        try:
            return self._call(self._workers[index], fn, args, what), index
        finally:
            self._release(index, client)

    def generation(self, index: int) -> int:
        """How many processes worker ``index`` has started: a change means what it kept is gone."""
        return self._workers[index].generation

    def _spawn(self, worker: _Worker) -> None:
        if worker.process is None or not worker.process.is_alive():
            worker.kill()
            ours, theirs = self._context.Pipe()
            worker.process = self._context.Process(
                target=_serve,
                args=(theirs, os.getpid(), self.memory, self.programs),
                daemon=True,
                name="sweeplab-solver",
            )
            worker.process.start()
            theirs.close()
            worker.conn, worker.generation = ours, worker.generation + 1
            # wait for it to start (imports take seconds on a busy machine): that is not the task's time
            try:
                started = ours.poll(START_SECONDS) and ours.recv()[0] == "ready"
            except (EOFError, OSError):
                started = False
            if not started:
                worker.kill()
                if self._closed:
                    raise SolverLimitError("not run: the server is shutting down")
                raise SolverLimitError(f"a solver process did not start within {START_SECONDS:g} s", retry_after=5)

    def start(self) -> None:
        """Start every idle worker's process now (the server calls it on start-up), so that the first request to
        reach a worker does not wait for a process to start (seconds, on a busy machine)."""
        with self._free:
            idle = [index for index in range(self.size) if index not in self._busy]
            self._busy.update(idle)
        try:
            for index in idle:
                self._spawn(self._workers[index])
        finally:
            with self._free:
                self._busy.difference_update(idle)
                self._dispatch()
                self._free.notify_all()

    def _call(self, worker: _Worker, fn: Callable[..., Any], args: tuple[Any, ...], what: str) -> Any:
        self._spawn(worker)
        conn = worker.conn
        try:
            conn.send((fn, args))
            ready = conn.poll(self.seconds)
            reply = conn.recv() if ready else None
        except (EOFError, OSError):
            code = worker.process.exitcode if worker.process is not None else None
            worker.kill()
            if self._closed:
                raise SolverLimitError(f"{what} was cut short: the server is shutting down") from None
            raise RuntimeError(f"the solver process ended while running {what} (exit code {code})") from None
        if reply is None:
            worker.kill()
            raise SolverLimitError(
                f"{what} ran past the server's limit of {self.seconds:g} s for one request and was ended "
                "(a smaller board or a faster strategy answers in time)"
            )
        kind, value = reply
        if kind == "memory":
            worker.kill()
            raise SolverLimitError(
                f"{what} needed more than the server's memory cap of {self.memory / 2**30:g} GiB for one request "
                "and was ended (a smaller board or a leaner strategy fits)"
            )
        if kind == "error":
            raise value
        return value

    def close(self) -> None:
        """End every worker now (their tasks are answered as cut short); later tasks are refused."""
        with self._free:
            self._closed = True
            self._free.notify_all()
        _kill_all(self._workers)


__all__ = ["MEMORY_BYTES", "QUEUE_SECONDS", "TASK_SECONDS", "WORKERS", "SolverLimitError", "SolverPool", "play_step"]
