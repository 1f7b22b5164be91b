"""The first click for a board and first-click rule: the measured best cell where it has been measured.

Under ``safe`` (and ``xp``, ``hint``, ``unsafe``) the first click may show any number, and a corner, with the fewest
neighbours, is the likeliest to show a zero and open an area. Under ``zero`` every first click opens an area; a cell
away from the border opens a larger one, at the cost of numbers on all sides. :data:`OPENINGS` holds the cell
measured best per board and rule (``results/best/openings/data.json``: three cells per board and rule, 10,000 to
40,000 games each, written by ``python -m sweeplab.studies.best openings``; a test keeps the two equal). Where
nothing was measured: a corner, and under ``zero`` the cell two in from the top-left corner.

Measured with ``best`` at 1718a05 (the earlier version's runs, which chose the same cells, are in
``results/best/before-living/openings/``). The corner wins under ``safe`` by 2.7 to 5.1 points on every board. Under
``zero`` the margins are small: (2, 2) on 9x9/10 (+0.35 ± 0.12 over (3, 3)) and 16x16/40 (+0.43 ± 0.31), and (3, 3) on
expert (+1.24 ± 0.70 over (2, 2)); the centre is last on every board.
"""

from __future__ import annotations

from sweeplab.core.geometry import Board

#: (first-click rule, width, height, mines) -> the measured best first click (x, y).
OPENINGS: dict[tuple[str, int, int, int], tuple[int, int]] = {
    ("safe", 9, 9, 10): (0, 0),
    ("zero", 9, 9, 10): (2, 2),
    ("safe", 16, 16, 40): (0, 0),
    ("zero", 16, 16, 40): (2, 2),
    ("safe", 30, 16, 99): (0, 0),
    ("zero", 30, 16, 99): (3, 3),
}

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
