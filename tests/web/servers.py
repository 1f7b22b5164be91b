"""A real `sweeplab serve` on a free port, started as a user starts it, for the tests that need the real server."""

from __future__ import annotations

import contextlib
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def get(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=10) as response:
        return response.read()


def sweeplab_command() -> list[str]:
    executable = Path(sys.executable).with_name("sweeplab")
    return [str(executable)] if executable.exists() else [sys.executable, "-m", "sweeplab.cli"]


def start(*options: str) -> tuple[subprocess.Popen[str], str]:
    """`sweeplab serve --quiet` on a free port, once it answers: (the process, its URL ending in /)."""
    port = free_port()
    process = subprocess.Popen(
        [*sweeplab_command(), "serve", "--port", str(port), "--quiet", *options],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    url = f"http://127.0.0.1:{port}/"
    deadline = time.monotonic() + 30
    while True:
        try:
            get(url + "api/meta")
            return process, url
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                output = process.communicate()[0]
                pytest.fail(f"sweeplab serve did not start:\n{output}")
            time.sleep(0.1)


def stop(process: subprocess.Popen[str]) -> str:
    """SIGTERM, then SIGKILL if it lingers: everything it printed."""
    process.terminate()
    try:
        return process.communicate(timeout=10)[0]
    except subprocess.TimeoutExpired:
        process.kill()
        return process.communicate()[0]


@contextlib.contextmanager
def serving(*options: str) -> Iterator[tuple[subprocess.Popen[str], str]]:
    process, url = start(*options)
    try:
        yield process, url
    finally:
        if process.poll() is None:
            stop(process)
