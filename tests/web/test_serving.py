"""How `sweeplab serve` runs uvicorn: the connection cap below the descriptor limit, failed accepts logged once per
interval, and the exit status of a signal."""

from __future__ import annotations

import asyncio
import errno

from uvicorn import Config

from sweeplab.web.serving import Serving, Throttled, connection_cap, exit_status


def test_the_connection_cap_leaves_descriptors_for_everything_else():
    assert connection_cap(1024) == 1024 - 64 - 128
    assert connection_cap(20000) == 4096  # and never more than that
    assert connection_cap(100) == 8 and connection_cap(256, backlog=16) == 256 - 16 - 64


def test_a_failed_accept_is_one_line_per_interval_however_often_it_fails(capsys):
    now = [0.0]
    server = Serving(Config(app=None))
    server.accept_failures = Throttled(10, clock=lambda: now[0])
    loop = asyncio.new_event_loop()
    try:
        error = OSError(errno.EMFILE, "Too many open files")
        for step in range(30_000):  # asyncio tries again and again, up to its backlog each time
            now[0] = step * 0.001  # 30 s in all
            server.loop_exception(loop, {"message": "socket.accept() out of system resource", "exception": error})
    finally:
        loop.close()
    lines = capsys.readouterr().err.splitlines()  # uvicorn's logger writes to stderr
    assert len(lines) == 3 and all("cannot accept a connection: Too many open files" in line for line in lines)
    assert "(9999 more since the last such line)" in lines[1] and not any("Traceback" in line for line in lines)


def test_exit_status_of_a_signal():
    assert exit_status(None) == 0 and exit_status(2) == 130 and exit_status(15) == 143
