"""The public entry points of ``sweeplab.formats`` check their arguments: junk gets one of sweeplab's own errors,
never a raw ``TypeError``, ``AttributeError``, ``OSError`` or ``UnicodeDecodeError``."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sweeplab.core.errors import ArgumentError, LayoutFormatError, PositionFormatError, SweeplabError, shown
from sweeplab.formats import (
    Layout,
    format_position,
    load_mbf,
    parse_position,
    read_mbf,
    read_position,
    render_game,
    render_observation,
    save_mbf,
    write_mbf,
)
from tests.core.test_errors import JUNK

SCRATCH = Path(tempfile.mkdtemp(prefix="sweeplab-formats-junk-"))


def inside_scratch(path: Any) -> Any:
    """A text path moved under a scratch directory, so that junk names never write into the working tree."""
    if isinstance(path, str):
        return str(SCRATCH / path.replace("\x00", "").lstrip("/").replace("..", "_"))
    return path


FORMAT_JUNK = st.one_of(
    JUNK,
    st.sampled_from(["3x1x1\n1HH\n", "\ufeff3x1x1\n1HH\n", "3x1x1\n1H\n", "0x0x0\n", "3x1x9\nHHH\n", "1x1x0\n9\n"]),
    st.sampled_from([b"\x03\x01\x00\x01\x02\x00", b"\x00\x00\x00\x00", b"\x03\x01\x00\x05", bytearray(b"\x01\x01\x00\x00")]),
    st.builds(lambda: Layout(3, 2, (1, 5))),
    st.sampled_from(["/dev/null", "/", "/nonexistent/x", "", "\x00", "/proc/self/status"]),
)

ENTRY_POINTS: list[tuple[str, Callable[..., Any], int]] = [
    ("Layout", Layout, 3),
    ("Layout.game", lambda rule: Layout(3, 2, (1, 5)).game(rule), 1),
    ("Layout.of", Layout.of, 1),
    ("write_mbf", write_mbf, 1),
    ("read_mbf", read_mbf, 1),
    ("read_mbf(source)", read_mbf, 2),
    ("load_mbf", load_mbf, 1),
    ("save_mbf", lambda layout, path: save_mbf(layout, inside_scratch(path)), 2),
    ("parse_position", parse_position, 1),
    ("parse_position(source)", parse_position, 2),
    ("format_position", format_position, 1),
    ("read_position", read_position, 1),
    ("render_game", render_game, 1),
    ("render_game(axes)", render_game, 2),
    ("render_observation", render_observation, 1),
    ("render_observation(axes)", render_observation, 2),
]


@settings(max_examples=500, deadline=None)
@given(st.data())
def test_junk_arguments_get_sweeplab_errors_only(data):
    name, function, arity = data.draw(st.sampled_from(ENTRY_POINTS), label="entry point")
    args = [data.draw(FORMAT_JUNK, label=f"argument {i + 1}") for i in range(arity)]
    try:
        function(*args)
    except SweeplabError as error:
        assert str(error), f"{name} raised an empty message"
    except Exception as error:
        pytest.fail(f"{name}({', '.join(shown(a) for a in args)}) raised {error.__class__.__name__}: {error}")


def test_files_that_cannot_be_read_or_written_are_named(tmp_path):
    with pytest.raises(PositionFormatError, match=rf"{tmp_path}: cannot read it \(IsADirectoryError"):
        read_position(tmp_path)
    with pytest.raises(LayoutFormatError, match=r"cannot read it \(FileNotFoundError"):
        load_mbf(tmp_path / "missing.mbf")
    with pytest.raises(LayoutFormatError, match=rf"{tmp_path}: cannot write it \(IsADirectoryError"):
        save_mbf(Layout(3, 2, (1,)), tmp_path)
    with pytest.raises(PositionFormatError, match="empty"):
        read_position(os.devnull)
    with pytest.raises(ArgumentError, match=r"read_position\(path\): expected a file name, not None"):
        read_position(None)


def test_endless_files_are_refused_without_hanging():
    # /dev/zero never ends: the readers stop after the largest size a real file can have
    with pytest.raises(PositionFormatError, match="far larger than any position"):
        read_position("/dev/zero")
    with pytest.raises(LayoutFormatError, match="larger than any MBF file can be"):
        load_mbf("/dev/zero")


def test_layout_checks_its_cells():
    assert Layout(3, 2, [5, 1]).mines == (1, 5)
    with pytest.raises(ArgumentError, match=r"Layout\(mines\): mine 2, cell 6 is off the 3x2 board"):
        Layout(3, 2, (1, 6))
    with pytest.raises(ArgumentError, match=r"cell 1 \(1, 0\) is listed twice"):
        Layout(3, 2, (1, 1))
    with pytest.raises(ArgumentError, match=r"Layout: board width must be a whole number, not '3'"):
        Layout("3", 2, ())
