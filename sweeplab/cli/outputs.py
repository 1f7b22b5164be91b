"""Files a command was asked to write: checked before the work starts, so a bad path fails at once."""

from __future__ import annotations

import os
from pathlib import Path
from typing import IO

from sweeplab.core.errors import SweeplabError


class OutputError(SweeplabError):
    """A file the command was asked to write that cannot be written."""


def open_output(path: Path, option: str) -> IO[str]:
    """``path`` opened for writing before the game starts, so a path that cannot be written fails at once."""
    try:
        return path.open("w", encoding="utf-8")
    except (OSError, ValueError) as error:
        raise OutputError(f"{option} {path}: cannot write it ({error.__class__.__name__}: {error})") from None


def check_writable(path: Path, option: str) -> None:
    """Refuse, before the game starts, an output path that is a folder or lies in a folder that is missing or
    cannot be written (the file itself is written at the end). ``option`` is how messages name it."""
    if path.is_dir():
        raise OutputError(f"{option}: is a folder; give a file name")
    if path.exists():
        if not os.access(path, os.W_OK):
            raise OutputError(f"{option}: cannot write it (permission denied)")
        return
    folder = path.parent
    if not folder.is_dir():
        raise OutputError(f"{option}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK):
        raise OutputError(f"{option}: the folder {folder} cannot be written")


def write_output(path: Path, text: str, option: str) -> None:
    try:
        path.write_text(text, encoding="utf-8")
    except (OSError, ValueError) as error:
        raise OutputError(f"{option} {path}: cannot write it ({error.__class__.__name__}: {error})") from None


def check_regular_file(path: Path, option: str) -> None:
    """:func:`check_writable`, and refuse a device or other special file (for outputs that need a real file, such
    as a zip archive that is written with seeks)."""
    check_writable(path, option)
    if path.exists() and not path.is_file():
        raise OutputError(f"{option} {path}: not a regular file; give a file name")


def prepare_output(path: Path, option: str) -> None:
    """Make sure, before the work starts, that ``path`` can be written at the end: refuse a folder, create the
    missing folders above it, and prove by writing a scratch file beside it (and opening ``path`` itself, without
    changing it, when it exists) that the file can be written. Errors name ``option`` and the reason."""
    import tempfile

    if path.is_dir():
        raise OutputError(f"{option} {path}: is a folder; give a file name")
    folder = path.parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise OutputError(f"{option} {path}: cannot create the folder {folder} ({error.strerror or error})") from None
    try:
        if path.exists():
            with path.open("a", encoding="utf-8"):
                pass
        else:
            fd, probe = tempfile.mkstemp(prefix=".sweeplab-probe-", dir=folder)
            os.close(fd)
            os.unlink(probe)
    except OSError as error:
        raise OutputError(f"{option} {path}: cannot write it ({error.strerror or error})") from None
