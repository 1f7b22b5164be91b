"""Where batches of games are played: this process, a local process pool, or a Dask cluster.

Every executor has the same small contract: ``run(fn, tasks, on_done) -> [fn(task) for task in tasks]`` (in task
order, whatever order they finish in), ``workers`` (how many run at once, for sizing batches) and ``close()``.
Because each game's randomness comes only from its index and the root seed, the executor never changes a result.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from typing import Any, Protocol, TypeVar

from sweeplab.core.errors import SweeplabError

T = TypeVar("T")
R = TypeVar("R")


class ExecutorError(SweeplabError):
    """The executor could not be started (e.g. Dask is not installed or the scheduler cannot be reached)."""


class Executor(Protocol):
    workers: int

    def run(self, fn: Callable[[T], R], tasks: Sequence[T], on_done: Callable[[R], None] | None = None) -> list[R]: ...

    def close(self) -> None: ...


class LocalExecutor:
    """``jobs`` local worker processes (a ``ProcessPoolExecutor``, reused across runs); with one job, this process."""

    def __init__(self, jobs: int | None = None) -> None:
        self.workers = jobs if jobs is not None else (os.cpu_count() or 1)
        self._pool: ProcessPoolExecutor | None = None

    def run(self, fn: Callable[[T], R], tasks: Sequence[T], on_done: Callable[[R], None] | None = None) -> list[R]:
        if self.workers <= 1 or len(tasks) <= 1:
            out = []
            for task in tasks:
                result = fn(task)
                out.append(result)
                if on_done:
                    on_done(result)
            return out
        if self._pool is None:
            self._pool = ProcessPoolExecutor(max_workers=self.workers)
        futures: list[Future[R]] = [self._pool.submit(fn, task) for task in tasks]
        try:
            for future in as_completed(futures):
                result = future.result()
                if on_done:
                    on_done(result)
        except BaseException:
            for future in futures:
                future.cancel()
            raise
        return [f.result() for f in futures]

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=True)
            self._pool = None

    def __enter__(self) -> LocalExecutor:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def describe(self) -> str:
        return f"{self.workers} local process(es)" if self.workers > 1 else "1 process"


class DaskExecutor:
    """Batches sent to a Dask cluster: an existing one at ``scheduler`` (``tcp://HOST:PORT``), or a new ``LocalCluster``.

    The workers must be able to import the same sweeplab (install it on every worker). Tasks run in worker threads,
    where the per-game time limit is checked after every move (see :class:`sweeplab.bench.runner._Timer`).
    """

    def __init__(self, scheduler: str | None = None, workers: int | None = None) -> None:
        try:
            from distributed import Client, LocalCluster
        except ImportError:
            raise ExecutorError("the dask executor needs Dask: pip install 'sweeplab[dask]'") from None
        self._cluster: Any = None
        try:
            if scheduler is None:
                n = workers or os.cpu_count() or 1
                self._cluster = LocalCluster(
                    n_workers=n, threads_per_worker=1, processes=True, dashboard_address=":0", silence_logs=40
                )
                self.client: Any = Client(self._cluster)
            else:
                self.client = Client(scheduler, timeout="10s")
        except (OSError, TimeoutError, RuntimeError) as error:
            if self._cluster is not None:
                self._cluster.close()
            raise ExecutorError(f"cannot reach the Dask scheduler {scheduler}: {error}") from None
        threads = self.client.nthreads()
        self.workers = max(1, sum(threads.values()))
        self.scheduler = scheduler or "a LocalCluster"

    def run(self, fn: Callable[[T], R], tasks: Sequence[T], on_done: Callable[[R], None] | None = None) -> list[R]:
        from distributed import as_completed as dask_completed

        if not tasks:
            return []
        futures = self.client.map(fn, list(tasks), pure=False)
        try:
            for future in dask_completed(futures):
                if on_done:
                    on_done(future.result())
            return list(self.client.gather(futures))
        finally:
            self.client.cancel(futures)

    def close(self) -> None:
        self.client.close()
        if self._cluster is not None:
            self._cluster.close()

    def __enter__(self) -> DaskExecutor:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def describe(self) -> str:
        return f"Dask ({self.scheduler}, {self.workers} worker thread(s))"


def make_executor(kind: str = "local", jobs: int | None = None, scheduler: str | None = None) -> LocalExecutor | DaskExecutor:
    """An executor by name: ``local`` (``jobs`` processes) or ``dask`` (``scheduler``, or a LocalCluster of ``jobs``)."""
    if kind == "local":
        if scheduler is not None:
            raise ExecutorError("--scheduler needs --executor dask")
        return LocalExecutor(jobs)
    if kind == "dask":
        return DaskExecutor(scheduler, jobs)
    raise ExecutorError(f"unknown executor {kind!r}: use local or dask")


__all__ = ["DaskExecutor", "Executor", "ExecutorError", "LocalExecutor", "make_executor"]
