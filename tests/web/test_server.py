"""The real server (`sweeplab serve` in a child process): answers without Nagle's delay, stays responsive while a
solver works, and exits on the first SIGINT or SIGTERM."""

from __future__ import annotations

import http.client
import json
import signal
import statistics
import subprocess
import threading
import time
from urllib.parse import urlsplit

from tests.web.servers import get, serving


def connection(url: str) -> http.client.HTTPConnection:
    parts = urlsplit(url)
    return http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)


def timed_get(conn: http.client.HTTPConnection, path: str) -> float:
    began = time.perf_counter()
    conn.request("GET", path)
    response = conn.getresponse()
    response.read()
    assert response.status == 200
    return time.perf_counter() - began


def test_keep_alive_requests_answer_without_a_delayed_ack():
    """A small answer on a kept-alive connection must not wait for the client's delayed ACK (TCP_NODELAY is set on
    accepted connections): about 40 ms each without it, about 2 ms with it (the bound leaves room for a busy machine)."""
    with serving() as (_, url):
        conn = connection(url)
        timed_get(conn, "/api/meta")
        median = statistics.median(timed_get(conn, "/api/meta") for _ in range(50))
        conn.close()
    assert median < 0.025, f"median {median * 1000:.1f} ms per request"  # 40 ms or more with the delayed ACK


def post(url: str, path: str, body: dict, cookie: str) -> tuple[int, dict]:
    conn = connection(url)
    try:
        conn.request("POST", path, json.dumps(body), {"Content-Type": "application/json", "Cookie": cookie})
        response = conn.getresponse()
        return response.status, json.loads(response.read())
    finally:
        conn.close()


def browser_cookie(url: str) -> str:
    """The cookie the server gives a new browser (its games are seen only with it)."""
    conn = connection(url)
    conn.request("GET", "/api/meta")
    response = conn.getresponse()
    response.read()
    conn.close()
    return response.getheader("Set-Cookie", "").split(";")[0]


def long_step(url: str, answers: list) -> threading.Thread:
    """A step of `optimal` on a 6x5 board with 6 mines (its search runs for minutes), in a thread."""
    cookie = browser_cookie(url)
    _, game = post(url, "/api/games", {"board": "6x5x6", "rule": "safe", "seed": 1}, cookie)

    def step() -> None:
        try:
            answers.append(post(url, f"/api/games/{game['id']}/step", {"strategy": "optimal"}, cookie))
        except OSError as error:  # the server went away first
            answers.append(error)

    thread = threading.Thread(target=step, daemon=True)
    thread.start()
    return thread


def test_a_long_step_runs_apart_and_gets_the_time_limit_answer():
    with serving() as (_, url):
        limit = json.loads(get(url + "api/meta"))["limits"]["solver_seconds"]
        answers: list = []
        thread = long_step(url, answers)
        conn = connection(url)
        slowest = 0.0
        while thread.is_alive():
            slowest = max(slowest, timed_get(conn, "/api/meta"))
            time.sleep(0.05)
        conn.close()
    assert slowest < 1.0, f"/api/meta took {slowest:.2f} s while a step ran"
    status, body = answers[0]
    assert status == 503 and f"ran past the server's limit of {limit:g} s for one request" in body["detail"], body


def test_the_first_sigint_ends_the_server_while_a_step_runs():
    with serving() as (process, url):
        answers: list = []
        long_step(url, answers)
        time.sleep(1.0)  # the step is running in a solver process
        began = time.monotonic()
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            raise AssertionError("sweeplab serve still running 5 s after SIGINT") from None
        assert time.monotonic() - began < 5


def test_sigint_exits_130_and_sigterm_143_with_nothing_leaked():
    """As `sweeplab --help` states: 130 for Ctrl+C (no "Aborted!"), 143 for SIGTERM; a benchmark and the solver
    processes in use are shut down, so no semaphore is left for the resource tracker to warn about."""
    for sig, status in ((signal.SIGINT, 130), (signal.SIGTERM, 143)):
        with serving() as (process, url):
            cookie = browser_cookie(url)
            post(url, "/api/analyze", {"width": 3, "height": 1, "mines": 1, "view": [1, -1, -1]}, cookie)
            started, _ = post(url, "/api/bench", {"strategies": ["exact"], "board": "expert", "games": 500}, cookie)
            assert started == 202
            time.sleep(0.5)
            process.send_signal(sig)
            output = process.communicate(timeout=15)[0]
        assert process.returncode == status, (sig, process.returncode, output)
        assert "Aborted" not in output and "leaked" not in output and "Traceback" not in output, output
