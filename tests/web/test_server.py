"""The real server (`sweeplab serve` in a child process): answers without Nagle's delay, stays responsive while a
solver works, and stops on the first SIGINT or SIGTERM."""

from __future__ import annotations

import http.client
import statistics
import time
from urllib.parse import urlsplit

from tests.web.servers import serving


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
    accepted connections): about 40 ms each without it, about 2 ms with it."""
    with serving() as (_, url):
        conn = connection(url)
        timed_get(conn, "/api/meta")
        median = statistics.median(timed_get(conn, "/api/meta") for _ in range(50))
        conn.close()
    assert median < 0.010, f"median {median * 1000:.1f} ms per request"
