"""The first click for a board and first-click rule: the measured best cell where it has been measured.

Under ``safe`` (and ``xp``, ``hint``, ``unsafe``) the first click may show any number, and a corner, with the fewest
neighbours, is the likeliest to show a zero and open an area. Under ``zero`` every first click opens an area; a cell
away from the border opens a larger one, at the cost of numbers on all sides. :data:`OPENINGS` is for the cells
measured best per board and rule; it is empty today (no opening runs have been made, see issue 9), so the defaults
below apply everywhere: a corner, and under ``zero`` the cell two in from the top-left corner.
"""

from __future__ import annotations

from sweeplab.core.geometry import Board

#: (first-click rule, width, height, mines) -> the measured best first click (x, y).
OPENINGS: dict[tuple[str, int, int, int], tuple[int, int]] = {}

#: Under ``zero`` on a board not measured: this many cells in from the top-left corner (clipped to the board's middle).
ZERO_DEFAULT_INSET = 2


def opening_cell(board: Board, mines: int, rule: str | None) -> tuple[int, str]:
    """The cell to open first on ``board`` with ``mines`` mines under first-click ``rule``, and why."""
    measured = OPENINGS.get((rule or "", board.width, board.height, mines))
    if measured is not None:
        return board.index(*measured), f"measured best first click for the {rule} rule on this board"
    if rule == "zero":
        x = min(ZERO_DEFAULT_INSET, (board.width - 1) // 2)
        y = min(ZERO_DEFAULT_INSET, (board.height - 1) // 2)
        return board.index(x, y), f"the zero rule opens an area anywhere; ({x}, {y}) opens more than a corner"
    return 0, "a corner has the fewest neighbours, so it is the likeliest to open an area"
