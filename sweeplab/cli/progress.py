"""Progress of a long run on stderr: a rich bar on a terminal, a plain line every few seconds anywhere else.

When stderr is not a terminal (CI logs, ``make demo | tee``, a pipe), :class:`PlainProgress` prints
``bench: 1,200/10,000 games (12.0%), 350 games/s, ETA 25 s`` every :func:`interval` seconds (5 by default; the
environment variable ``SWEEPLAB_PROGRESS_SECONDS`` changes it), from a background thread so that a slow game does
not silence it.
"""

from __future__ import annotations

import contextlib
import math
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import click

from sweeplab.cli.app import progress_bar

DEFAULT_INTERVAL = 5.0


def interval() -> float:
    """Seconds between two plain progress lines: ``SWEEPLAB_PROGRESS_SECONDS`` if it is a positive number, else 5."""
    try:
        value = float(os.environ.get("SWEEPLAB_PROGRESS_SECONDS", DEFAULT_INTERVAL))
    except ValueError:
        return DEFAULT_INTERVAL
    return value if 0 < value < math.inf else DEFAULT_INTERVAL


def _duration(seconds: float) -> str:
    seconds = round(seconds)
    if seconds < 120:
        return f"{seconds} s"
    if seconds < 7200:
        return f"{seconds // 60} min {seconds % 60:02d} s"
    return f"{seconds // 3600} h {seconds % 3600 // 60:02d} min"


class PlainProgress:
    """Counts games and prints a plain progress line on stderr every ``every`` seconds until stopped.

    ``done`` games were finished before this run started (a resumed run): they count towards the total but not
    towards the rate.
    """

    def __init__(self, label: str, total: int, done: int = 0, every: float | None = None) -> None:
        self.label = label
        self.total = total
        self.done = done
        self._start_done = done
        self.every = every if every is not None else interval()
        self._start = time.monotonic()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="sweeplab-progress", daemon=True)

    def advance(self, games: int) -> None:
        with self._lock:
            self.done += games

    def line(self) -> str:
        with self._lock:
            done = self.done
        elapsed = time.monotonic() - self._start
        played = done - self._start_done
        rate = played / elapsed if elapsed > 0 else 0.0
        share = f" ({100 * done / self.total:.1f}%)" if self.total else ""
        text = f"{self.label}: {done:,}/{self.total:,} games{share}, {rate:,.1f} games/s"
        if rate > 0 and self.total > done:
            text += f", ETA {_duration((self.total - done) / rate)}"
        elif played == 0:
            text += ", ETA unknown"
        return text

    def _loop(self) -> None:
        while not self._stop.wait(self.every):
            click.echo(self.line(), err=True)

    def __enter__(self) -> PlainProgress:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


@contextlib.contextmanager
def game_progress(label: str, total: int, done: int = 0, quiet: bool = False) -> Iterator[Callable[[int], None] | None]:
    """A callback to count finished games: a rich bar if stderr is a terminal, plain lines if not, none if ``quiet``."""
    if quiet:
        yield None
        return
    if sys.stderr.isatty():
        with progress_bar(True, label) as bar:
            bar_: Any = bar
            task = bar_.add_task(label, total=total, completed=done)
            yield lambda n: bar_.advance(task, n)
        return
    with PlainProgress(label, total, done) as plain:
        yield plain.advance


__all__ = ["PlainProgress", "game_progress", "interval"]


def search_progress(search: Any, note: str = "") -> Callable[[Any], None]:
    """A progress callback for an optimal-play search (:class:`~sweeplab.analysis.optimal.search.OptimalSearch`):
    a plain line on stderr every :func:`interval` seconds, with ``note`` (what the search is for) after it."""
    every = interval()
    last = [time.monotonic()]
    start = last[0]

    def report(stats: Any) -> None:
        now = time.monotonic()
        if now - last[0] >= every:
            last[0] = now
            rate = stats.states / max(now - start, 1e-9)
            line = f"optimal: {stats.states:,} states searched, {rate:,.0f} states/s, {search.stored:,} kept"
            click.echo(line + (f" ({note})" if note else ""), err=True)

    search.progress_every = 2_000
    return report
