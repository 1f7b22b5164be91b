"""sweeplab.bench.signals: a signal during a deferred block arrives after it, whichever thread the kernel gives it to."""

from __future__ import annotations

import os
import signal
import sys
import threading

import pytest

from sweeplab.bench.signals import Interrupted, check, deferred, interruptible


class _Sender(threading.Thread):
    """A thread started before the block (so it does not share a signal mask set in the block, as a process pool's
    helper threads do not) that sends ``signum`` to this process when asked."""

    def __init__(self, signum: int) -> None:
        super().__init__(daemon=True)
        self.signum = signum
        self.go = threading.Event()
        self.sent = threading.Event()

    def run(self) -> None:
        self.go.wait(10)
        os.kill(os.getpid(), self.signum)
        self.sent.set()

    def send(self) -> None:
        self.go.set()
        assert self.sent.wait(10)


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_inside_a_deferred_block_is_raised_after_it(signum):
    steps = []
    sender = _Sender(signum)
    sender.start()
    with pytest.raises(Interrupted) as stopped, interruptible(), deferred():
        sender.send()
        with open(os.devnull, "w") as sink:  # a write, as the journal's: the GIL is let go and taken back
            sink.write("x" * 100_000)
            sink.flush()
        for i in range(100_000):  # bytecodes at which a handler run in the block would raise
            steps.append(i)
        steps.append("end")
    assert steps[-1] == "end" and len(steps) == 100_001
    assert stopped.value.signum == signum


def test_the_handlers_are_restored_and_nothing_is_held_when_no_signal_came():
    with interruptible():
        before = signal.getsignal(signal.SIGTERM)
        with deferred():
            pass
        assert signal.getsignal(signal.SIGTERM) is before
    with pytest.raises(Interrupted), interruptible():  # and a later signal is delivered at once
        signal.raise_signal(signal.SIGTERM)
        for _ in range(1000):
            pass


@pytest.fixture
def python_sigint():
    """Python's own SIGINT handler for the test, whatever an earlier test in this process left (this test failed
    once in CI's ``-n 2`` run with "DID NOT RAISE", which only another handler left installed explains)."""
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, signal.SIG_DFL if before is None else before)


def test_outside_a_run_a_held_sigint_is_python_s_keyboard_interrupt(python_sigint):
    steps = []
    with pytest.raises(KeyboardInterrupt), deferred():
        signal.raise_signal(signal.SIGINT)
        steps.append("after the signal")  # the block goes on; the interrupt comes once it ends
    assert steps == ["after the signal"]


class _SignalWhenCollected:
    """An object whose ``__del__`` receives a signal: Python prints the handler's exception and ignores it (as when a
    SIGINT arrives while Dask's ``Future.__del__`` runs)."""

    def __init__(self, signum: int) -> None:
        self.signum = signum

    def __del__(self) -> None:
        signal.raise_signal(self.signum)


class _FailWhenCollected:
    def __del__(self) -> None:
        raise ValueError("a finaliser's own bug")


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_ignored_in_a_finaliser_is_raised_again_by_check(signum, monkeypatch):
    reported: list[BaseException] = []

    def record(unraisable):
        reported.append(unraisable.exc_value)

    monkeypatch.setattr(sys, "unraisablehook", record)
    with interruptible():
        check()  # nothing came: nothing raised
        _SignalWhenCollected(signum)  # collected at once; its Interrupted is ignored, and not reported
        assert reported == []
        with pytest.raises(Interrupted) as stopped:
            check()
        assert stopped.value.signum == signum
        _FailWhenCollected()  # any other ignored exception is still reported
        assert [type(error) for error in reported] == [ValueError]
    assert sys.unraisablehook is record and reported[0].args == ("a finaliser's own bug",)
    check()  # outside the run: the signal is forgotten
    with interruptible():
        check()  # and a new run does not see it


@pytest.mark.filterwarnings("error::pytest.PytestUnraisableExceptionWarning")  # the ignored signal is not reported
def test_a_run_stops_on_a_signal_ignored_in_a_finaliser():
    from sweeplab.bench.runner import BenchSpec, Stopped, run_many
    from sweeplab.core.rules import Rules

    spec = BenchSpec("exact", Rules(9, 9, 10, "safe"), seed=0, first_click=None, time_limit=None)
    batches = []

    def on_games(count: int) -> None:
        batches.append(count)
        if len(batches) == 2:
            _SignalWhenCollected(signal.SIGINT)

    with pytest.raises(Stopped) as stopped, interruptible():
        run_many([(spec, 40)], None, on_games, batch=5)
    assert isinstance(stopped.value.cause, Interrupted) and len(batches) == 2
    assert sum(len(games) for games in stopped.value.partial) == 10
