"""An outside player's process: started once per worker and command, spoken to in lines with deadlines, restarted
after a game it lost by forfeit. Nothing it does can block the caller past a deadline: reads and writes wait with
``poll`` on non-blocking pipes, an answer longer than :data:`MAX_LINE` is refused, and its stderr goes to a file.

Its CPU time (user and system, all its threads) is read, while it runs, from its process CPU-time clock
(``clock_gettime`` on the clock id Linux gives another process, ``(~pid << 3) | 2``: the scheduler's count in
nanoseconds, one system call, no file), else from ``/proc/PID/stat`` (in clock ticks); once it is stopped, from the
usage ``wait4`` reaps with it. The readings only grow, and :meth:`Program.take_cpu` hands out each reading's increase
once, so the shares of the games it played add up to its whole CPU time, start-up included. Child processes of the
program itself count only once they have exited and it has reaped them (then in ``wait4``'s usage). Where none of
these exists (not Linux), it is 0 and only sweeplab's own CPU is counted.
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import os
import re
import select
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from sweeplab.strategies.external.protocol import EXITED, GARBLED, MOVE_TIME, Forfeit

MAX_LINE = 4 * 1024 * 1024  #: bytes an answer may take (a longer one, or a flood without a newline, is refused)
MAX_STDERR = 64 * 1024 * 1024  #: bytes of stderr a copy may write (checked every 64 answers) before it is stopped
TAIL = 2000  #: bytes of the end of stderr quoted in a forfeit's message
_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _parent_death_signal() -> None:  # in the child, before exec: die with the worker that started it (Linux)
    libc = _LIBC
    if libc is not None:
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


_LIBC = ctypes.CDLL(None, use_errno=True) if sys.platform.startswith("linux") else None  # the C library, already loaded


class Program:
    """One running copy of ``argv``; stderr is appended to ``stderr_path``."""

    def __init__(self, argv: list[str], stderr_path: Path) -> None:
        self.argv = argv
        self.stderr_path = stderr_path
        self.games = 0  # games started by this copy
        self.answers = 0  # answers it has given
        self._cpu_mark = 0.0
        self._final_cpu: float | None = None
        self._clock: int | None = None  # its process CPU-time clock (Linux), once it is known to answer
        self.owner: object | None = None  # the player whose game it is playing now
        self.stopped = False  # stopped by sweeplab (its input closed, then killed if need be)
        stderr_path.parent.mkdir(parents=True, exist_ok=True)
        self._stderr = stderr_path.open("ab")
        self._stderr.write(f"--- sweeplab started {' '.join(argv)} ({time.strftime('%Y-%m-%d %H:%M:%S')})\n".encode())
        self._stderr.flush()
        self._stderr_start = self._stderr.tell()
        main = threading.current_thread() is threading.main_thread()
        try:
            self.process = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self._stderr,
                bufsize=0,
                start_new_session=True,  # Ctrl-C at the terminal stops sweeplab, which stops the program
                preexec_fn=_parent_death_signal if (main and _LIBC is not None) else None,
            )
        except OSError as error:
            self._stderr.close()
            raise Forfeit(EXITED, f"cannot start {argv[0]!r}: {error.strerror or error}") from None
        assert self.process.stdin is not None and self.process.stdout is not None
        if _LIBC is not None and hasattr(time, "clock_gettime"):
            self._clock = (~self.process.pid << 3) | 2  # the kernel's MAKE_PROCESS_CPUCLOCK(pid, CPUCLOCK_SCHED)
        self._in = self.process.stdin.fileno()
        self._out = self.process.stdout.fileno()
        os.set_blocking(self._in, False)
        os.set_blocking(self._out, False)
        self._reader = select.poll()
        self._reader.register(self._out, select.POLLIN)
        self._writer = select.poll()
        self._writer.register(self._in, select.POLLOUT)
        self._buffer = bytearray()
        self._lines = 0  # lines read (stderr's size is checked every 64th)

    @property
    def alive(self) -> bool:
        return self._final_cpu is None and self.process.poll() is None

    def send(self, data: bytes, deadline: float) -> None:
        """Write ``data`` whole by ``deadline`` (a ``time.monotonic`` reading)."""
        view = memoryview(data)
        while view:
            try:
                written = os.write(self._in, view)
            except BlockingIOError:
                written = 0
            except (BrokenPipeError, ConnectionResetError):
                raise self._gone("stopped reading its input") from None
            view = view[written:]
            if view and not self._writer.poll(max(0.0, deadline - time.monotonic()) * 1000):
                raise Forfeit(MOVE_TIME, f"the program did not read its input within the move time limit{self.tail()}")

    def receive(self, deadline: float, limit: float) -> bytes:
        """The next line the program writes (without its newline) by ``deadline``; ``limit`` is the time limit the
        deadline stands for (seconds, for the message)."""
        buffer = self._buffer
        end = buffer.find(b"\n")
        while end < 0:
            if len(buffer) > MAX_LINE:
                raise Forfeit(GARBLED, f"the program wrote more than {MAX_LINE:,} bytes without a newline{self.tail()}")
            wait = deadline - time.monotonic()
            if wait <= 0 or not self._reader.poll(wait * 1000):
                if not self.alive:
                    raise self._gone("exited")
                raise Forfeit(MOVE_TIME, f"no answer within {limit:g} s{self.tail()}")
            try:
                chunk = os.read(self._out, 1 << 16)
            except BlockingIOError:
                continue
            if not chunk:
                raise self._gone("closed its output")
            start = len(buffer)
            buffer += chunk
            end = buffer.find(b"\n", start)
        line = bytes(buffer[:end])
        del buffer[: end + 1]
        self._lines += 1
        if not self._lines % 64 and os.fstat(self._stderr.fileno()).st_size - self._stderr_start > MAX_STDERR:
            raise Forfeit(GARBLED, f"the program wrote more than {MAX_STDERR:,} bytes to stderr")
        return line

    def pending(self) -> bool:
        """Whether the program has written more than it was asked for (read, not yet taken)."""
        return bool(self._buffer)

    def _gone(self, what: str) -> Forfeit:
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(0.5)  # an exit takes a moment to be seen once its pipes close
        code = self.process.poll()
        if code is None:
            status = ""
        elif code < 0:
            status = f" (killed by {_signal_name(-code)})"
        else:
            status = f" (exit status {code})"
        return Forfeit(EXITED, f"the program {what}{status}{self.tail()}")

    def tail(self) -> str:
        """The end of what this copy wrote to stderr, as a message's last lines ('' if nothing)."""
        try:
            with self.stderr_path.open("rb") as handle:
                handle.seek(max(self._stderr_start, os.fstat(handle.fileno()).st_size - TAIL))
                text = handle.read(TAIL).decode("utf-8", "replace").strip()
        except OSError:
            return ""
        return f"; its stderr ends:\n{text}" if text else ""

    def cpu(self) -> float:
        """CPU seconds this copy has used so far (user and system, all its threads; see the module's docstring)."""
        if self._final_cpu is not None:
            return self._final_cpu
        if self._clock is not None:
            try:
                return max(self._cpu_mark, time.clock_gettime(self._clock))
            except OSError:  # no such clock here: read /proc from now on
                self._clock = None
        try:
            with open(f"/proc/{self.process.pid}/stat", "rb") as handle:
                fields = handle.read().rpartition(b")")[2].split()
            return max(self._cpu_mark, (int(fields[11]) + int(fields[12])) / _TICKS)
        except (OSError, IndexError, ValueError):
            return self._cpu_mark

    def take_cpu(self) -> float:
        """CPU seconds since the last call (or its start): one game's share, taken when the game ends, so that what
        the program did after its last answer (or between games) is the next game's."""
        now = self.cpu()
        used, self._cpu_mark = max(0.0, now - self._cpu_mark), now
        return used

    def stop(self, grace: float = 0.0) -> None:
        """Close its input, give it ``grace`` seconds to exit, then kill it; keep its CPU time from ``wait4``."""
        if self._final_cpu is not None:
            return
        self.stopped = True
        process = self.process
        with contextlib.suppress(OSError):
            process.stdin.close()  # type: ignore[union-attr]
        if grace and process.poll() is None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(grace)
        cpu = self._cpu_mark
        if process.returncode is None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, signal.SIGKILL)  # its own session: its children go too
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            try:
                _, status, usage = os.wait4(process.pid, 0)
                process.returncode = os.waitstatus_to_exitcode(status)
                cpu = usage.ru_utime + usage.ru_stime
            except ChildProcessError:
                process.wait()
        self._final_cpu = max(cpu, self._cpu_mark)
        with contextlib.suppress(OSError):
            process.stdout.close()  # type: ignore[union-attr]
        self._stderr.close()


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


_RUNNING: dict[tuple[int, int, str, str], Program] = {}  # (process, thread, command, stderr folder) -> its program
_LOCK = threading.Lock()


def stderr_folder(log_dir: str) -> Path:
    """Where the programs' stderr files go: ``LOG_DIR/stderr`` (the run's folder), or a temporary folder."""
    if log_dir:
        return Path(log_dir) / "stderr"
    return Path(tempfile.gettempdir()) / f"sweeplab-stderr-{os.getuid() if hasattr(os, 'getuid') else 0}"


def program(argv: list[str], command: str, log_dir: str) -> Program:
    """This thread's running copy of ``command``, started if there is none (or the last one stopped)."""
    key = (os.getpid(), threading.get_ident(), command, log_dir)  # a forked worker never takes its parent's
    found = _RUNNING.get(key)
    if found is not None and found.alive:
        return found
    if found is not None:
        found.stop()
    slug = re.sub(r"[^A-Za-z0-9._-]+", "_", Path(argv[0]).name)[:40] or "program"
    path = stderr_folder(log_dir) / f"{slug}-{os.getpid()}-{threading.get_ident() % 10_000}.log"
    started = Program(argv, path)
    with _LOCK:
        _RUNNING[key] = started
    return started


@atexit.register
def stop_all() -> None:
    """Stop every program this process started (at exit; a well-behaved program gets a moment to see its input end)."""
    with _LOCK:
        running = [each for key, each in _RUNNING.items() if key[0] == os.getpid()]
        _RUNNING.clear()
    for each in running:
        with contextlib.suppress(Exception):
            each.stop(grace=0.2)


__all__ = ["MAX_LINE", "Program", "program", "stderr_folder", "stop_all"]
