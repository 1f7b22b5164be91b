"""Where batches of games are played: this process, a local process pool, or a Dask cluster.

Every executor has the same small contract: ``imap_unordered(fn, tasks)`` yields ``fn(task)`` for each task as it
finishes, taking tasks from their iterator only as workers free up; ``run(fn, tasks, on_done)`` returns
``[fn(task) for task in tasks]`` in task order; ``workers`` says how many run at once (for sizing batches),
``abort()`` stops the work in flight at once and ``close()`` releases the workers.
Because each game's randomness comes only from its index and the root seed, the executor never changes a result.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import re
from collections.abc import Callable, Generator, Iterable, Sequence
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from sweeplab.bench.signals import worker_setup
from sweeplab.core.errors import SweeplabError

if TYPE_CHECKING:
    from concurrent.futures import Future, ProcessPoolExecutor

T = TypeVar("T")
R = TypeVar("R")


class ExecutorError(SweeplabError):
    """The executor could not be started (e.g. Dask is not installed or the scheduler cannot be reached)."""


class Executor(Protocol):
    workers: int

    def imap_unordered(self, fn: Callable[[T], R], tasks: Iterable[T], count: int | None = None) -> Generator[R, None, None]: ...

    def run(self, fn: Callable[[T], R], tasks: Sequence[T], on_done: Callable[[R], None] | None = None) -> list[R]: ...

    def abort(self) -> None: ...

    def close(self) -> None: ...


class _Base:
    """What both executors share: ``run`` (all results in task order) on top of ``imap_unordered``."""

    workers: int

    def imap_unordered(self, fn: Callable[[T], R], tasks: Iterable[T], count: int | None = None) -> Generator[R, None, None]:
        raise NotImplementedError

    def run(self, fn: Callable[[T], R], tasks: Sequence[T], on_done: Callable[[R], None] | None = None) -> list[R]:
        """``[fn(task) for task in tasks]`` played on the workers; ``on_done`` sees each result as it finishes."""
        out: dict[int, R] = {}
        numbered = _Numbered(fn)
        stream = self.imap_unordered(numbered, enumerate(tasks), len(tasks))
        with contextlib.closing(stream):
            for k, result in stream:
                out[k] = result
                if on_done:
                    on_done(result)
        return [out[k] for k in range(len(tasks))]


class _Numbered:
    """``fn`` applied to the task of a (number, task) pair, the number passed through (picklable, unlike a lambda)."""

    def __init__(self, fn: Callable[[Any], Any]) -> None:
        self.fn = fn

    def __call__(self, pair: tuple[int, Any]) -> tuple[int, Any]:
        return pair[0], self.fn(pair[1])


#: How local workers may start (see :class:`LocalExecutor`).
START_METHODS = ("fork", "forkserver")


class LocalExecutor(_Base):
    """``jobs`` local worker processes (a ``ProcessPoolExecutor``, reused across runs); with one job, this process.

    Tasks are taken from their iterator only as workers free up (a few per worker in flight), so a run of any
    length starts at once and holds only the tasks in flight. The pool never has more processes than the first run
    that starts it has tasks. :meth:`abort` terminates the workers (a run stopped by a signal or an error leaves
    none behind); the workers ignore SIGINT and, on Linux, die with this process (see :mod:`sweeplab.bench.signals`).

    ``start`` is how the workers start: ``fork`` (the default: quick, and they inherit what this process imported)
    or ``forkserver`` (clean processes, each importing what its tasks need). A process that has run OpenMP code
    (an XGBoost model trained or loaded here) must use ``forkserver``: a forked child inherits OpenMP's thread
    pool half-made and waits forever in its barrier the first time it runs OpenMP code itself.
    """

    def __init__(self, jobs: int | None = None, start: str = "fork") -> None:
        if start not in START_METHODS:
            raise ExecutorError(f"unknown start method {start!r}: use {' or '.join(START_METHODS)}")
        self.workers = jobs if jobs is not None else (os.cpu_count() or 1)
        self.start = start
        self._pool: ProcessPoolExecutor | None = None
        self._pool_size = 0
        self._used = 0  # processes the last run really used (-j is capped by the number of batches)

    def imap_unordered(self, fn: Callable[[T], R], tasks: Iterable[T], count: int | None = None) -> Generator[R, None, None]:
        """Each ``fn(task)`` as it finishes (in any order); ``count`` (how many tasks, if known) caps the pool size."""
        if self.workers <= 1 or (count is not None and count <= 1):
            self._used = 1
            for task in tasks:
                yield fn(task)
            return
        import multiprocessing  # a pool's imports, paid only by a run that starts one
        from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

        if self._pool is None:
            size = self.workers if count is None else max(1, min(self.workers, count))
            context = multiprocessing.get_context(self.start)
            self._pool = ProcessPoolExecutor(max_workers=size, initializer=worker_setup, mp_context=context)
            self._pool_size = size
        self._used = self._pool_size
        pool = self._pool
        window = 2 * self._pool_size  # the pool's real size: -j may ask for far more workers than there are tasks
        source = iter(tasks)
        pending: set[Future[R]] = set()
        finished = False
        try:
            for task in itertools.islice(source, window):
                pending.add(pool.submit(fn, task))
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    result = future.result()
                    yield result
                for task in itertools.islice(source, len(done)):
                    pending.add(pool.submit(fn, task))
            finished = True
        finally:
            if not finished:
                self.abort()

    def abort(self) -> None:
        """Stop now: terminate every worker process (work in flight is lost) and drop the pool."""
        pool, self._pool = self._pool, None
        if pool is None:
            return
        processes = list((getattr(pool, "_processes", None) or {}).values())
        for process in processes:
            with contextlib.suppress(Exception):
                process.terminate()
        pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            with contextlib.suppress(Exception):
                process.join(5)
                if process.is_alive():
                    process.kill()
                    process.join(5)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=True)
            self._pool = None

    def __enter__(self) -> LocalExecutor:
        return self

    def __exit__(self, *exc: object) -> None:
        if exc[0] is not None:
            self.abort()
        self.close()

    def describe(self) -> str:
        """The processes that played (after a run: the pool's real size, which -j far above the batches does not reach)."""
        used = self._used or self.workers
        return f"{used} local processes" if used > 1 else "1 process"


#: How long a Dask client waits for the scheduler before giving up, in seconds (``--scheduler`` never hangs); the
#: environment variable ``SWEEPLAB_DASK_TIMEOUT`` changes it.
CONNECT_TIMEOUT = 10.0


def connect_timeout() -> str:
    """The connect timeout as Dask takes it: ``SWEEPLAB_DASK_TIMEOUT`` seconds if that is a positive number, else 10."""
    try:
        seconds = float(os.environ.get("SWEEPLAB_DASK_TIMEOUT", CONNECT_TIMEOUT))
    except ValueError:
        seconds = CONNECT_TIMEOUT
    if not 0 < seconds < 3600:
        seconds = CONNECT_TIMEOUT
    return f"{seconds}s"


_ADDRESS = re.compile(r"^(tcp|tls|ws|wss)://([^\s/:]+|\[[0-9a-fA-F:]+\]):(\d{1,5})/?$")


def check_scheduler_address(address: str) -> str:
    """``address`` if it looks like ``tcp://HOST:PORT`` (or tls, ws, wss), else an ``ExecutorError`` saying why."""
    match = _ADDRESS.match(address.strip())
    if match is None:
        raise ExecutorError(f"--scheduler {address!r} is not a Dask scheduler address: write it as tcp://HOST:PORT")
    port = int(match.group(3))
    if not 0 < port < 65536:
        raise ExecutorError(f"--scheduler {address!r}: port {port} is not between 1 and 65535")
    return address.strip()


class DaskExecutor(_Base):
    """Batches sent to a Dask cluster: an existing one at ``scheduler`` (``tcp://HOST:PORT``), or a new ``LocalCluster``.

    The workers must be able to import the same sweeplab (install it on every worker). Tasks run in worker threads,
    where the per-game time limit stops a game only at the end of a move (see :class:`sweeplab.bench.runner.GameTimer`). As with
    the local pool, tasks are submitted a few per worker at a time; :meth:`abort` cancels the futures in flight.
    Connecting to ``scheduler`` gives up after :func:`connect_timeout`.
    """

    def __init__(self, scheduler: str | None = None, workers: int | None = None) -> None:
        try:
            from distributed import Client
        except ImportError:
            raise ExecutorError("the dask executor needs Dask: pip install 'sweeplab[dask]'") from None
        if scheduler is not None:
            scheduler = check_scheduler_address(scheduler)
        self._cluster: Any = None
        self.client: Any = None
        self._futures: list[Any] = []
        if scheduler is None:  # the LocalCluster starts with the first run, sized to its tasks
            self.workers = workers or os.cpu_count() or 1
            self.scheduler = "a LocalCluster"
            return
        try:
            self.client = Client(scheduler, timeout=connect_timeout())
        except Exception as error:  # distributed raises OSError, TimeoutError, ValueError, even MemoryError here
            reason = str(error).splitlines()[0] if str(error) else type(error).__name__
            raise ExecutorError(f"cannot reach the Dask scheduler {scheduler}: {reason}") from None
        threads = self.client.nthreads()
        self.workers = max(1, sum(threads.values()))
        self.scheduler = scheduler

    def _start_cluster(self, count: int | None) -> None:
        from distributed import Client, LocalCluster

        n = self.workers if count is None else max(1, min(self.workers, count))
        try:
            self._cluster = LocalCluster(
                n_workers=n, threads_per_worker=1, processes=True, dashboard_address=":0", silence_logs=40
            )
            self.client = Client(self._cluster)
        except Exception as error:
            if self._cluster is not None:
                self._cluster.close()
                self._cluster = None
            raise ExecutorError(f"cannot start a Dask LocalCluster of {n} workers: {error}") from None

    def imap_unordered(self, fn: Callable[[T], R], tasks: Iterable[T], count: int | None = None) -> Generator[R, None, None]:
        from distributed import as_completed as dask_completed

        if self.client is None:
            self._start_cluster(count)
        source = iter(tasks)
        first = [self.client.submit(fn, task, pure=False) for task in itertools.islice(source, 2 * self.workers)]
        if not first:
            return
        self._futures = list(first)
        queue = dask_completed(first)
        finished = False
        try:
            for future in queue:
                result = future.result()
                self._futures.remove(future)
                yield result
                for task in itertools.islice(source, 1):
                    nxt = self.client.submit(fn, task, pure=False)
                    self._futures.append(nxt)
                    queue.add(nxt)
            finished = True
        finally:
            if not finished:
                self.abort()

    def abort(self) -> None:
        """Cancel every future still queued or running on the cluster."""
        futures, self._futures = self._futures, []
        if futures and self.client is not None:
            with contextlib.suppress(Exception):
                self.client.cancel(futures, force=True)

    def close(self) -> None:
        self.abort()
        if self.client is not None:
            with contextlib.suppress(Exception):
                self.client.close(timeout=connect_timeout())
        if self._cluster is not None:
            with contextlib.suppress(Exception):
                self._cluster.close()

    def __enter__(self) -> DaskExecutor:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def describe(self) -> str:
        return f"Dask ({self.scheduler}, {self.workers} worker thread(s))"


def make_executor(
    kind: str = "local", jobs: int | None = None, scheduler: str | None = None, start: str = "fork"
) -> LocalExecutor | DaskExecutor:
    """An executor by name: ``local`` (``jobs`` processes started by ``start``, see :class:`LocalExecutor`) or
    ``dask`` (``scheduler``, or a LocalCluster of ``jobs``)."""
    if kind == "local":
        if scheduler is not None:
            raise ExecutorError("--scheduler needs --executor dask")
        return LocalExecutor(jobs, start)
    if kind == "dask":
        return DaskExecutor(scheduler, jobs)
    raise ExecutorError(f"unknown executor {kind!r}: use local or dask")


__all__ = ["DaskExecutor", "Executor", "ExecutorError", "LocalExecutor", "make_executor"]
