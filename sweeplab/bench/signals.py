"""Stopping a long run cleanly: SIGINT and SIGTERM become :class:`Interrupted`, and short critical sections defer them.

A run installs :func:`interruptible` around its games: either signal then raises :class:`Interrupted` in the main
thread, wherever it is waiting, so the run can stop its workers, keep what is finished and say how to resume. Writing
one batch of finished games to the journal happens inside :func:`deferred`, so a signal never tears a record in two
(a crash still can; the journal drops a torn last line). Worker processes call :func:`worker_setup`: they ignore
SIGINT (the main process stops them), die on SIGTERM, and on Linux die with the main process if it is killed.
"""

from __future__ import annotations

import contextlib
import signal
import sys
import threading
from collections.abc import Iterator
from typing import Any

#: The exit status of a run stopped by each signal: 128 + the signal's number, as shells report it.
EXIT_STATUS = {signal.SIGINT: 130, signal.SIGTERM: 143}

_HANDLED = (signal.SIGINT, signal.SIGTERM)


class Interrupted(BaseException):
    """SIGINT or SIGTERM arrived during a run (a ``BaseException``, like ``KeyboardInterrupt``, so that no
    ``except Exception`` swallows it)."""

    def __init__(self, signum: int) -> None:
        self.signum = signum
        super().__init__(f"interrupted by {signal.Signals(signum).name}")

    @property
    def name(self) -> str:
        """``SIGINT`` or ``SIGTERM``."""
        return signal.Signals(self.signum).name

    @property
    def exit_status(self) -> int:
        return EXIT_STATUS.get(signal.Signals(self.signum), 128 + self.signum)


#: Signals whose :class:`Interrupted` was raised in the current run (see :func:`check`).
_raised: list[int] = []


def _raise(signum: int, frame: object) -> None:
    _raised.append(signum)
    raise Interrupted(signum)


def check() -> None:
    """Raise :class:`Interrupted` again for a signal already raised in this run, if the run is still going.

    A handler's exception is raised wherever the main thread is. When that is inside a ``__del__`` (or a weakref
    callback), Python prints "Exception ignored" and carries on, and the signal would be lost: a Dask run was seen to
    finish all its games and exit 0 after a SIGINT that arrived while a ``Future`` was being collected. A run calls
    this after every batch, so such a signal stops it one batch later. (A run that did stop never gets here.) Within
    :func:`interruptible`, Python's "Exception ignored" report of such an :class:`Interrupted` is not printed either
    (see :func:`_unraisable`): the run's own message says it stopped."""
    if _raised:
        raise Interrupted(_raised[0])


@contextlib.contextmanager
def interruptible() -> Iterator[None]:
    """Within the block, SIGINT and SIGTERM raise :class:`Interrupted` (main thread only; elsewhere a no-op).

    A ``KeyboardInterrupt`` raised before the handler was installed is also turned into :class:`Interrupted`.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    _raised.clear()  # a new run: a signal of an earlier run, stopped since, does not stop it
    old = {s: signal.signal(s, _raise) for s in _HANDLED}
    old_hook = sys.unraisablehook
    sys.unraisablehook = _unraisable(old_hook)
    try:
        yield
    except KeyboardInterrupt:
        raise Interrupted(signal.SIGINT) from None
    finally:
        _raised.clear()  # ... nor one that comes later, outside any run
        sys.unraisablehook = old_hook
        for s, handler in old.items():
            _restore(s, handler)


def _unraisable(previous: Any) -> Any:
    """An ``unraisablehook`` that keeps quiet about an :class:`Interrupted` raised where Python cannot raise it (a
    ``__del__``, a weakref callback): the signal is noted in ``_raised`` and :func:`check` raises it again. Anything
    else goes to ``previous``. (A CI run printed a Dask ``Future.__del__`` traceback above a clean "stopped by
    SIGINT".)"""

    def hook(unraisable: Any) -> None:
        if not isinstance(unraisable.exc_value, Interrupted):
            previous(unraisable)

    return hook


def _restore(signum: int, handler: Any) -> None:
    """Put back a handler ``signal.signal`` returned; one not set from Python (None) cannot be, so the default."""
    signal.signal(signum, signal.SIG_DFL if handler is None else handler)


@contextlib.contextmanager
def deferred() -> Iterator[None]:
    """Hold SIGINT and SIGTERM until the block ends (they are delivered, in order, right after it).

    The signals are held at Python's level: within the block their handlers only note them. Blocking them at the
    thread's level (``pthread_sigmask``) is not enough: a signal sent to the process then goes to another thread
    (a process pool has helper threads), and CPython still runs its Python handler in the main thread at the next
    bytecode, inside the block. A run was seen to journal a batch and stop before counting it that way."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    pending: list[int] = []

    def hold(signum: int, frame: object) -> None:
        pending.append(signum)

    # a handler not set from Python (getsignal gives None) could not be put back: such a signal is left alone
    old = {s: signal.signal(s, hold) for s in _HANDLED if signal.getsignal(s) is not None}
    try:
        yield
    finally:
        for s, handler in old.items():
            _restore(s, handler)
        for signum in pending:
            _deliver(signum, old[signal.Signals(signum)])


def _deliver(signum: int, handler: Any) -> None:
    """Run what ``handler`` (as ``signal.signal`` returned it) would have done for ``signum``."""
    if callable(handler):
        handler(signum, None)
    elif handler == signal.SIG_DFL:
        signal.raise_signal(signum)  # the default action (a handler restored above is not ours any more)
    # SIG_IGN: nothing to do


def worker_setup() -> None:
    """Run first in every local worker process: ignore SIGINT, die on SIGTERM, die when the parent dies (Linux)."""
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _HANDLED)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if sys.platform.startswith("linux"):
        _die_with_parent()


def _die_with_parent() -> None:
    """``prctl(PR_SET_PDEATHSIG, SIGKILL)``: the kernel kills this process when the process that made it exits,
    even if that one was killed with SIGKILL, so no worker outlives the run holding the caller's pipes."""
    import ctypes

    try:
        libc: Any = ctypes.CDLL(None, use_errno=True)
        pr_set_pdeathsig = 1
        libc.prctl(pr_set_pdeathsig, int(signal.SIGKILL), 0, 0, 0)
    except (OSError, AttributeError):  # not glibc/musl: the main process still stops its workers itself
        pass


def ignore_file_size_limit() -> None:
    """Make a write past ``ulimit -f`` fail with ``OSError`` (``EFBIG``) instead of killing the process with SIGXFSZ,
    so a run can report what it kept."""
    if hasattr(signal, "SIGXFSZ") and threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)


__all__ = ["EXIT_STATUS", "Interrupted", "check", "deferred", "ignore_file_size_limit", "interruptible", "worker_setup"]
