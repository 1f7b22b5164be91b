"""A run's output directory: finished games streamed to an append-only journal, resumed after an interruption.

``--out DIR`` of ``sweeplab bench`` and ``sweeplab experiment`` holds, while a run is under way:

- ``run.json``: the run's settings (every option that changes its result), the command, and whether it finished;
- ``games.jsonl``: one JSON line per finished game (``{"k": part, "index": ..., "won": ...}``, a :class:`GameResult`
  exactly), appended and flushed as each batch finishes, plus a line per batch with the wall time since the last.

A run stopped by a signal, a full disk or a crash is continued with ``--resume``: the journal's games are kept and
only the missing ones are played. Games depend only on the root seed and their index, so the result is the same as
an uninterrupted run's. A last line cut short by a crash is dropped (and cut from the file) on resume; a complete
line that does not read back is reported, never guessed at. Resuming with different settings is refused with the
difference named. When the run finishes, its result files are written whole or not at all (a temporary name, then
a rename), ``run.json`` says it finished, and the journal is deleted.

The directory is checked for writability before any game is played, and a lock (``flock`` on the directory)
refuses a second run writing to it at the same time.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import os
import stat
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from sweeplab.bench.runner import GameResult
from sweeplab.core.errors import SweeplabError

RUN = "run.json"
JOURNAL = "games.jsonl"


class OutputError(SweeplabError):
    """The output directory cannot be used: not a directory, not writable, locked by another run, or holding a run
    these settings cannot continue."""


class JournalError(SweeplabError):
    """A journal line that is complete but does not read back as a game (the file was changed or damaged)."""


# ----------------------------------------------------------------------------------------------- files


def check_writable(directory: Path) -> Path:
    """Create ``directory`` if needed and prove a file can be written in it; an ``OutputError`` says why not."""
    directory = Path(directory)
    try:
        mode = directory.stat().st_mode
    except FileNotFoundError:
        mode = None
    except OSError as error:
        raise OutputError(f"cannot use {directory} as the output directory: {error.strerror or error}") from None
    if mode is not None and not stat.S_ISDIR(mode):
        kind = "a file" if stat.S_ISREG(mode) else "a device or special file"
        raise OutputError(f"cannot use {directory} as the output directory: it is {kind}, not a directory")
    if mode is None:
        try:
            directory.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise OutputError(f"cannot create the output directory {directory}: {error.strerror or error}") from None
    try:
        import tempfile  # shutil and the compressors behind it, loaded only by a run that writes

        fd, probe = tempfile.mkstemp(prefix=".sweeplab-probe-", dir=directory)
        try:
            os.write(fd, b"x")
        finally:
            os.close(fd)
            os.unlink(probe)
    except OSError as error:
        raise OutputError(f"cannot write in the output directory {directory}: {error.strerror or error}") from None
    return directory


@contextlib.contextmanager
def replacing(path: Path) -> Iterator[Path]:
    """Write ``path`` whole or not at all: yields a temporary name beside it, renamed over ``path`` when the block
    succeeds and removed when it fails (a full disk leaves the old file, or none, never half a file)."""
    path = Path(path)
    import tempfile

    fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    temp = Path(name)
    try:
        yield temp
        with open(temp, "rb+") as handle:
            os.fsync(handle.fileno())
        os.chmod(temp, 0o644)
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            temp.unlink()
        raise


def write_text(path: Path, text: str) -> Path:
    """``path.write_text(text)``, whole or not at all."""
    with replacing(path) as temp:
        temp.write_text(text)
    return Path(path)


# ----------------------------------------------------------------------------------------------- the journal


def _differences(stored: dict[str, Any], wanted: dict[str, Any]) -> list[str]:
    out = []
    for key in dict.fromkeys([*stored, *wanted]):
        a, b = stored.get(key), wanted.get(key)
        if a != b:
            out.append(f"{key} was {_show(a)}, now {_show(b)}")
    return out


def _show(value: Any) -> str:
    return "not given" if value is None else json.dumps(value)


class Journal:
    """The output directory of one run, locked for as long as the run holds it (see the module docstring).

    ``settings`` are what makes the run's result (JSON values keyed by option name); ``resume`` continues a run
    found there with the same settings; ``force`` discards a run found there (without it, a run found there, unfinished
    or finished, is refused). ``finished`` is true when the directory already holds this run, finished (nothing to
    play; its files are in place).
    """

    def __init__(
        self, directory: Path, settings: dict[str, Any], *, resume: bool = False, force: bool = False, command: str = ""
    ) -> None:
        self.directory = check_writable(Path(directory))
        self.settings = json.loads(json.dumps(settings))  # as they read back from run.json
        self.command = command
        self.path = self.directory / JOURNAL
        self.run_path = self.directory / RUN
        self.notes: list[str] = []
        self.finished = False
        self._fd: int | None = None
        self._lock = self._acquire_lock()
        self._done: dict[str, dict[int, GameResult]] = {}
        self._walls: dict[str, list[float]] = {}
        self.resumed = 0
        try:
            self._open(resume, force)
        except BaseException:
            self.close()
            raise

    # -- locking
    def _acquire_lock(self) -> int:
        fd = os.open(self.directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as error:
            os.close(fd)
            if error.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                holder = ""
                with contextlib.suppress(OSError, ValueError, TypeError, AttributeError):
                    info = json.loads((self.directory / RUN).read_text())
                    holder = f" (pid {info['pid']}: {info['command']})"
                raise OutputError(
                    f"another sweeplab run is writing to {self.directory}{holder}: wait for it to end, or choose another --out"
                ) from None
            raise OutputError(f"cannot lock the output directory {self.directory}: {error.strerror}") from None
        return fd

    # -- opening
    def _open(self, resume: bool, force: bool) -> None:
        stored = self._read_run()
        if stored is not None and not force:
            old = stored.get("settings", {})
            if not stored.get("finished") and not resume:
                raise OutputError(
                    f"{self.directory} holds an unfinished run ({stored.get('command', '?')}): continue it with --resume, "
                    "or discard it and start afresh with --force"
                )
            if not resume:
                raise OutputError(
                    f"{self.directory} holds a finished run ({stored.get('command', '?')}): give another --out, "
                    "--resume to print its summary again, or --force to replace it"
                )
            if resume:
                diff = _differences(old, self.settings)
                if diff:
                    raise OutputError(
                        f"--resume: {self.directory} holds a run with other settings ({'; '.join(diff)}): resume with "
                        "the same settings, or start afresh with --force"
                    )
                if stored.get("finished"):
                    self.finished = True
                    self.files = [self.directory / f for f in stored.get("files", [])]
                    return
                self._load()
        elif stored is None and resume:
            self.notes.append(f"nothing to resume in {self.directory}: starting the run")
        if not self.resumed:
            if self.path.exists():
                self.path.unlink()
            self._walls.clear()
            self._done.clear()
        self._write_run(finished=False, started=time.time() if not self.resumed else stored.get("started"))  # type: ignore[union-attr]
        self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)

    def _read_run(self) -> dict[str, Any] | None:
        if not self.run_path.exists():
            return None
        try:
            data = json.loads(self.run_path.read_text())
            if not isinstance(data, dict):
                raise ValueError("not a JSON object")
        except (OSError, ValueError) as error:
            raise OutputError(f"{self.run_path}: not a readable run record ({error}); remove it or use --force") from None
        return data

    def _write_run(self, finished: bool, started: float | None, files: Sequence[Path] = (), wall: float | None = None) -> None:
        record = {
            "command": self.command,
            "settings": self.settings,
            "finished": finished,
            "started": started,
            "pid": os.getpid(),
            "cores": os.cpu_count(),
            "journal": JOURNAL,
        }
        if finished:
            record["ended"] = time.time()
            record["wall_seconds"] = wall
            record["files"] = [Path(f).name if Path(f).parent == self.directory else str(f) for f in files]
        write_text(self.run_path, json.dumps(record, indent=1) + "\n")

    def _load(self) -> None:
        """Read the journal back; a torn last line (no newline: the run died while writing it) is cut off."""
        if not self.path.exists():
            return
        data = self.path.read_bytes()
        end = data.rfind(b"\n") + 1
        if end < len(data):
            self.notes.append(f"dropped a torn last line of {self.path} ({len(data) - end} bytes): its game is played again")
            with open(self.path, "rb+") as handle:
                handle.truncate(end)
        for number, line in enumerate(data[:end].splitlines(), 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
                if "wall" in record:
                    self._walls.setdefault(str(record["wall"]), []).append(float(record["seconds"]))
                    continue
                key = str(record.pop("k"))
                result = GameResult.from_json(record)
            except (ValueError, TypeError, KeyError, AttributeError) as error:
                raise JournalError(
                    f"{self.path}, line {number}: not a finished game ({error}); the journal was changed or damaged: "
                    "start afresh with --force"
                ) from None
            self._done.setdefault(key, {})[result.index] = result
        self.resumed = sum(len(d) for d in self._done.values())

    # -- during the run
    def done(self, key: str) -> dict[int, GameResult]:
        """The games of part ``key`` already in the journal, by index (a copy the caller may extend)."""
        return dict(self._done.get(key, {}))

    def wall(self, key: str) -> float:
        """Wall seconds recorded for part ``key`` so far (this session's included)."""
        return sum(self._walls.get(key, []))

    @property
    def timed(self) -> bool:
        """Whether any part recorded its wall time here (an experiment that measures without the journal does not)."""
        return bool(self._walls)

    def record(self, key: str, results: Sequence[GameResult], seconds: float) -> None:
        """Append a finished batch of part ``key`` (and the wall time it stands for); raises ``OSError`` if the disk
        refuses (whatever was written before stays readable)."""
        if self._fd is None:
            raise OutputError(f"{self.path} is closed")
        lines = [json.dumps({"k": key, **r.to_json()}, separators=(",", ":")) for r in results]
        lines.append(json.dumps({"wall": key, "seconds": seconds, "games": len(results)}))
        data = ("\n".join(lines) + "\n").encode()
        view = memoryview(data)
        try:
            while view:
                written = os.write(self._fd, view)
                view = view[written:]
        except OSError as error:
            raise OSError(error.errno, error.strerror, str(self.path)) from None
        self._walls.setdefault(key, []).append(seconds)

    def finish(self, files: Sequence[Path], wall: float | None = None) -> None:
        """The result files are written: mark the run finished (with ``wall``, by default the wall time recorded
        over every session of the run) and delete the journal."""
        if wall is None:
            wall = sum(sum(seconds) for seconds in self._walls.values())
        started = (self._read_run() or {}).get("started")
        if self._fd is not None:
            os.fsync(self._fd)
            os.close(self._fd)
            self._fd = None
        self._write_run(finished=True, started=started, files=files, wall=wall)
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()
        self.finished = True
        self.files = list(files)

    def close(self) -> None:
        """Flush what was written and release the lock (the journal stays for ``--resume``)."""
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.fsync(self._fd)
            os.close(self._fd)
            self._fd = None
        if self._lock is not None:
            os.close(self._lock)  # closing the descriptor releases the flock
            self._lock = None  # type: ignore[assignment]

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def atomic(writer: Callable[[Path], Any], path: Path) -> Path:
    """Run ``writer(temporary_path)`` and rename the result over ``path`` (whole or not at all)."""
    with replacing(path) as temp:
        writer(temp)
    return Path(path)


__all__ = ["JOURNAL", "RUN", "Journal", "JournalError", "OutputError", "atomic", "check_writable", "replacing", "write_text"]
