"""The solver queue: clients served round robin, one client never holding every worker, and a task refused before
it runs (its line full, the queue full, or waited too long) said to be worth retrying."""

from __future__ import annotations

import threading
import time

import pytest

from sweeplab.web.solvers import SolverLimitError, SolverPool


def submit(pool: SolverPool, client: str, seconds: float, done: list, errors: list) -> threading.Thread:
    def task() -> None:
        try:
            pool.run(time.sleep, seconds, client=client)
            done.append((client, time.monotonic()))
        except SolverLimitError as error:
            errors.append((client, error))

    thread = threading.Thread(target=task)
    thread.start()
    return thread


def warm(pool: SolverPool) -> None:
    threads = [submit(pool, f"warm-{n}", 0.2, [], []) for n in range(pool.size)]
    for thread in threads:
        thread.join()


def test_clients_take_turns_so_a_backlog_waits_behind_its_own_requests():
    pool = SolverPool(workers=1, seconds=5)
    try:
        warm(pool)
        done: list = []
        threads = [submit(pool, "busy", 0.3, done, [])]
        time.sleep(0.1)
        threads += [submit(pool, "busy", 0.3, done, []) for _ in range(2)]
        time.sleep(0.1)
        threads.append(submit(pool, "other", 0.05, done, []))
        for thread in threads:
            thread.join()
    finally:
        pool.close()
    assert [client for client, _ in done] == ["busy", "other", "busy", "busy"]


def test_one_client_never_holds_every_worker():
    pool = SolverPool(workers=2, seconds=5)
    try:
        warm(pool)
        done: list = []
        threads = [submit(pool, "busy", 0.5, done, []) for _ in range(3)]
        time.sleep(0.1)
        began = time.monotonic()
        threads.append(submit(pool, "other", 0.01, done, []))
        for thread in threads:
            thread.join()
    finally:
        pool.close()
    other = next(at for client, at in done if client == "other")
    assert other - began < 0.4, "the other client waited for the busy one's tasks"
    busy = sorted(at for client, at in done if client == "busy")
    assert busy[-1] - busy[0] > 0.8  # the busy client's three ran one after another, on one worker


def test_a_task_not_run_is_refused_with_a_time_to_retry():
    pool = SolverPool(workers=1, seconds=5, wait=0.5, per_client=2)
    try:
        warm(pool)
        errors: list = []
        threads = [submit(pool, "busy", 1.5, [], errors)]
        time.sleep(0.1)
        threads += [submit(pool, "busy", 0.1, [], errors) for _ in range(2)]
        time.sleep(0.1)
        assert pool.full("busy") and not pool.full("other")
        with pytest.raises(SolverLimitError, match="already has 2 requests waiting") as full:
            pool.run(abs, -1, client="busy")
        assert full.value.retry_after == 5
        for thread in threads:
            thread.join()
    finally:
        pool.close()
    assert len(errors) == 2 and all("waited 0.5 s for a free solver process" in str(e) for _, e in errors)
    assert all(e.retry_after == 5 for _, e in errors)


def test_the_queue_as_a_whole_is_bounded():
    pool = SolverPool(workers=1, seconds=5, wait=2, queued=3)
    try:
        warm(pool)
        threads = [submit(pool, f"c{n}", 0.6, [], []) for n in range(4)]
        time.sleep(0.2)
        with pytest.raises(SolverLimitError, match="3 requests are waiting") as full:
            pool.run(abs, -1, client="late")
        assert full.value.retry_after is not None
        for thread in threads:
            thread.join()
    finally:
        pool.close()
