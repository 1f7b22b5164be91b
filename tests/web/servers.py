"""A real `sweeplab serve` on a free port, started as a user starts it, for the tests that need the real server."""

from __future__ import annotations

import contextlib
import resource
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


def start(*options: str, files: int | None = None, output: object = subprocess.PIPE) -> tuple[subprocess.Popen[str], str]:
    """`sweeplab serve --quiet` on a free port, once it answers: (the process, its URL ending in /). ``files``: its
    limit of open file descriptors (``ulimit -n``); ``output``: where its stdout and stderr go."""
    port = free_port()

    def limit() -> None:
        if files is not None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (files, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))

    process = subprocess.Popen(
        [*sweeplab_command(), "serve", "--port", str(port), "--quiet", *options],
        stdout=output,  # type: ignore[arg-type]
        stderr=subprocess.STDOUT,
        text=True,
        preexec_fn=limit,
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
                printed = process.communicate()[0]
                pytest.fail(f"sweeplab serve did not start:\n{printed}")
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
def serving(
    *options: str, files: int | None = None, output: object = subprocess.PIPE
) -> Iterator[tuple[subprocess.Popen[str], str]]:
    process, url = start(*options, files=files, output=output)
    try:
        yield process, url
    finally:
        if process.poll() is None:
            stop(process)
