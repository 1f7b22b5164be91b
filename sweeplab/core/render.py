"""Plain-text drawing of a board for terminals: the one drawing behind ``Game.__str__`` and ``sweeplab.formats.render``."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from sweeplab.core.errors import ArgumentError, shown
from sweeplab.core.geometry import Board
from sweeplab.core.observation import COVERED, FLAGGED, Observation

LEGEND = "# covered  F flag  . zero  1-8 number  * mine  @ exploded mine  x wrong flag"


def _char(value: int) -> str:
    if value == COVERED:
        return "#"
    if value == FLAGGED:
        return "F"
    return "." if value == 0 else str(value)


def draw(
    width: int,
    height: int,
    view: Sequence[int],
    mines: Collection[int] | None = None,
    exploded: int | None = None,
    axes: bool = True,
) -> str:
    """A view (0-8, ``COVERED``, ``FLAGGED`` per cell) as rows of text; with ``mines`` (a finished game's layout),
    covered mines show as ``*``, wrong flags as ``x`` and the ``exploded`` mine as ``@``. ``axes`` adds column
    numbers (a tens row too on boards wider than 10) and row numbers.

    >>> print(draw(3, 2, [0, 1, COVERED, 0, 1, FLAGGED], mines={5}))
      012
    0 .1#
    1 .1F
    """
    board = Board(width, height)
    view = Observation(board, 0, view).view  # type: ignore[arg-type]  # Observation checks and converts any sequence
    if mines is not None and not isinstance(mines, Collection):
        raise ArgumentError(f"draw(mines): expected a collection of cells, not {shown(mines)}")
    if exploded is not None:
        exploded = board.check(exploded, "draw(exploded)")
    chars = [_char(v) for v in view]
    if mines is not None:
        for cell, value in enumerate(view):
            if value == COVERED and cell in mines:
                chars[cell] = "*"
            elif value == FLAGGED and cell not in mines:
                chars[cell] = "x"
        if exploded is not None:
            chars[exploded] = "@"
    rows = ["".join(chars[y * width : (y + 1) * width]) for y in range(height)]
    if not axes:
        return "\n".join(rows)
    pad = " " * (len(str(height - 1)) + 1)
    header = []
    if width > 10:
        header.append(pad + "".join(" " if x < 10 else str(x // 10 % 10) for x in range(width)))
    header.append(pad + "".join(str(x % 10) for x in range(width)))
    return "\n".join(header + [f"{y:>{len(pad) - 1}} {row}" for y, row in enumerate(rows)])
