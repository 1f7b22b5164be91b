"""The single-point pass: the covered cells that one revealed number decides on its own, repeated to a fixed point.

A number whose known mines (flags, the mines the caller already knows, mines found by the pass) equal it frees its
other covered neighbours; a number whose undecided covered neighbours are exactly its missing mines makes them mines.
Every cell it calls safe is safe in every layout the exact analysis would count, so a player may reveal them without
a full analysis: the ``exact`` strategy runs this pass first and analyses only when it finds nothing. Because knowledge
only grows, the cells found do not depend on the order the numbers are examined in (the least fixed point of the two
rules), and the C kernel's ``obvious`` and the Python below give the same cells.

>>> from sweeplab.formats.position import parse_position
>>> position = parse_position("3x2x2\\n1HH\\nHH1\\n")
>>> mines = bytearray(6)
>>> obvious(position, mines), list(mines)
((), [0, 0, 0, 0, 0, 0])
>>> mines[1] = 1  # a mine known from an earlier analysis: each 1 then frees its other neighbours
>>> obvious(position, mines)
(2, 3, 4)
"""

from __future__ import annotations

from sweeplab.analysis.exact.kernel import KERNEL
from sweeplab.core.observation import COVERED, FLAGGED, Observation

_OBVIOUS = getattr(KERNEL, "obvious", None)  # None without the kernel (or one built before the pass existed)

_UNKNOWN, _MINE, _SAFE = 0, 1, 2


def obvious(
    observation: Observation, mines: bytearray, use_kernel: bool = True, seen: bytearray | None = None
) -> tuple[int, ...] | None:
    """The covered cells the single-point pass proves safe (sorted), given the known mines ``mines`` (one byte per
    cell, non-zero for a mine); the mines the pass finds are added to ``mines``. Flags count as mines, as in the
    analysis. None when a number cannot hold even locally (more known mines than it says, or too few cells left):
    the position is then the full analysis's to judge, which names the fault. ``mines`` must describe the same game
    (a mine found in an earlier position of it stays a mine). ``use_kernel=False`` runs the Python pass even where
    the C kernel is built (the pure-Python engine's timings).

    ``seen`` (optional: a bytearray of ``2 * cells + 1`` zero bytes at a game's start, then passed to every pass of
    that game) lets the kernel's pass start from the numbers whose neighbourhood changed since the last pass instead
    of every number: the same cells, less work. The Python pass ignores it (and marks it stale)."""
    board = observation.board
    if len(mines) != board.cells:
        raise ValueError(f"obvious(observation, mines): mines has {len(mines)} bytes for {board.cells} cells")
    if seen is not None and len(seen) != 2 * board.cells + 1:
        raise ValueError(f"obvious(observation, mines, seen): seen has {len(seen)} bytes for {board.cells} cells")
    if _OBVIOUS is not None and use_kernel:
        found: tuple[int, ...] | None = _OBVIOUS(observation.view, board.width, board.height, mines, seen)
        return found
    if seen is not None:
        seen[-1] = 0
    return _obvious_python(observation, mines)


def _obvious_python(observation: Observation, mines: bytearray) -> tuple[int, ...] | None:
    """The pass in Python (the kernel's ``obvious``, the same cells)."""
    view, neighbours = observation.view, observation.board.neighbours
    state = [_MINE if v == FLAGGED or (v == COVERED and mines[c]) else _UNKNOWN for c, v in enumerate(view)]
    work = [c for c, v in enumerate(view) if v >= 0]
    waiting = set(work)
    while work:
        cell = work.pop()
        waiting.discard(cell)
        value = view[cell]
        known = 0
        unknown = []
        for n in neighbours[cell]:
            if view[n] >= 0:
                continue
            if state[n] == _MINE:
                known += 1
            elif state[n] == _UNKNOWN:
                unknown.append(n)
        if known > value or known + len(unknown) < value:
            return None
        if not unknown or (known != value and known + len(unknown) != value):
            continue
        to = _SAFE if known == value else _MINE
        for n in unknown:
            state[n] = to
            for m in neighbours[n]:
                if view[m] >= 0 and m not in waiting:
                    waiting.add(m)
                    work.append(m)
    for c, v in enumerate(view):
        if v == COVERED and state[c] == _MINE:
            mines[c] = 1
    return tuple(c for c, s in enumerate(state) if s == _SAFE)
