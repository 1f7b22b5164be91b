"""Positions in JSMinesweeper's text format: a ``WxHxM`` header, then rows of ``H`` (hidden), ``F`` (flag), ``0``-``8``.

>>> obs = parse_position("3x1x1\\n1HH\\n")
>>> obs.view, format_position(obs)
((1, -1, -1), '3x1x1\\n1HH\\n')
"""

from __future__ import annotations

import re
from pathlib import Path

from sweeplab.core.errors import ArgumentError, PositionFormatError, SweeplabError, shown
from sweeplab.core.geometry import Board
from sweeplab.core.observation import COVERED, FLAGGED, Observation

_HEADER = re.compile(r"^\s*(\d+)\s*x\s*(\d+)\s*x\s*(\d+)\s*$", re.IGNORECASE)
_SYMBOL = {"H": COVERED, "h": COVERED, "F": FLAGGED, "f": FLAGGED}
_SYMBOL.update({str(d): d for d in range(9)})
MAX_POSITION_BYTES = 16 * 1024 * 1024  #: a position file larger than this is refused (the largest board needs ~70 KB)


def parse_position(text: str, source: str = "position") -> Observation:
    """Read a position; errors name the source, the line, the cell and the reason. A leading UTF-8 byte-order mark
    (as some Windows editors write) is ignored."""
    if not isinstance(text, str):
        raise ArgumentError(f"parse_position(text): expected the position as text (str), not {shown(text)}")
    if not isinstance(source, str):
        raise ArgumentError(f"parse_position(source): expected the name to use in messages (str), not {shown(source)}")
    lines = text.removeprefix("\ufeff").splitlines()
    while lines and not lines[-1].strip():
        lines.pop()
    if not lines:
        raise PositionFormatError(f"{source}: empty; expected a WIDTHxHEIGHTxMINES header line such as 30x16x99")
    match = _HEADER.match(lines[0])
    if not match:
        raise PositionFormatError(f"{source}, line 1: expected a WIDTHxHEIGHTxMINES header such as 30x16x99, got {lines[0]!r}")
    if any(len(g) > 12 for g in match.groups()):
        raise PositionFormatError(f"{source}, line 1: the header {shown(lines[0])} has a number of more than 12 digits")
    width, height, mines = (int(g) for g in match.groups())
    try:
        board = Board(width, height)
    except SweeplabError as error:
        raise PositionFormatError(f"{source}, line 1: {error}") from None
    if mines > width * height:
        raise PositionFormatError(
            f"{source}, line 1: {mines} mines do not fit on a {width}x{height} board of {width * height} cells"
        )
    rows = lines[1:]
    if len(rows) != height:
        raise PositionFormatError(f"{source}: the header promises {height} rows but {len(rows)} follow it")
    view: list[int] = []
    for y, raw in enumerate(rows):
        line_no = y + 2
        row = raw.rstrip()
        if len(row) != width:
            raise PositionFormatError(
                f"{source}, line {line_no}: row {y} has {len(row)} cells but the header says the board is {width} wide"
            )
        for x, ch in enumerate(row):
            if ch not in _SYMBOL:
                raise PositionFormatError(
                    f"{source}, line {line_no}, cell ({x}, {y}): unexpected {ch!r}; use H (hidden), F (flag) or a digit 0-8"
                )
            view.append(_SYMBOL[ch])
    flags = view.count(FLAGGED)
    if flags > mines:
        raise PositionFormatError(f"{source}: {flags} cells are flagged but the header says there are {mines} mines")
    for cell, value in enumerate(view):
        if value < 0:
            continue
        x, y = board.xy(cell)
        nbrs = board.neighbours[cell]
        unrevealed = sum(view[n] < 0 for n in nbrs)
        flagged = sum(view[n] == FLAGGED for n in nbrs)
        if value > unrevealed:
            raise PositionFormatError(
                f"{source}, line {y + 2}, cell ({x}, {y}): shows {value} but only {unrevealed} of its "
                f"{len(nbrs)} neighbours are hidden or flagged, so it cannot be right"
            )
        if flagged > value:
            raise PositionFormatError(
                f"{source}, line {y + 2}, cell ({x}, {y}): shows {value} but {flagged} of its neighbours are flagged"
            )
    return Observation(board, mines, tuple(view))


def format_position(observation: Observation) -> str:
    """Write a position in the same format (with a trailing newline)."""
    if not isinstance(observation, Observation):
        raise ArgumentError(f"format_position(observation): expected an Observation, not {shown(observation)}")
    w = observation.board.width
    symbols = {COVERED: "H", FLAGGED: "F"}
    chars = [symbols.get(v, str(v)) for v in observation.view]
    rows = ["".join(chars[y * w : (y + 1) * w]) for y in range(observation.board.height)]
    return f"{w}x{observation.board.height}x{observation.mines}\n" + "\n".join(rows) + "\n"


def read_position(path: str | Path) -> Observation:
    """Read a position file (UTF-8, with or without a byte-order mark); an unreadable file is a
    ``PositionFormatError`` naming it."""
    if not isinstance(path, str | Path) or str(path) == "":
        raise ArgumentError(f"read_position(path): expected a file name, not {shown(path)}")
    path = Path(path)
    try:
        with path.open("rb") as file:
            data = file.read(MAX_POSITION_BYTES + 1)  # a bounded read: /dev/zero or a huge file cannot hang it
    except (OSError, ValueError) as error:  # ValueError: a NUL in the name
        raise PositionFormatError(f"{path}: cannot read it ({error.__class__.__name__}: {error})") from None
    if len(data) > MAX_POSITION_BYTES:
        raise PositionFormatError(f"{path}: more than {MAX_POSITION_BYTES} bytes, far larger than any position")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise PositionFormatError(f"{path}: not UTF-8 text ({error})") from None
    return parse_position(text, str(path))
