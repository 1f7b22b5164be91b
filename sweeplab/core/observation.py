"""Observation: exactly what a player may see of a game, and nothing of its hidden mine layout."""

from __future__ import annotations

from dataclasses import dataclass

from sweeplab.core.geometry import Board

COVERED = -1  #: a cell not yet revealed and not flagged
FLAGGED = -2  #: a covered cell the player has flagged


@dataclass(frozen=True, slots=True)
class Observation:
    """The player's view: per cell a revealed number 0-8, ``COVERED`` or ``FLAGGED``.

    It holds no reference to the game, so a strategy given one has nothing to cheat with.

    >>> from sweeplab.core.geometry import Board
    >>> o = Observation(Board(2, 1), 1, (1, COVERED))
    >>> o.covered(), o.mines_left
    ((1,), 1)
    """

    board: Board
    mines: int
    view: tuple[int, ...]
    moves: int = 0

    @property
    def width(self) -> int:
        return self.board.width

    @property
    def height(self) -> int:
        return self.board.height

    @property
    def flag_count(self) -> int:
        return self.view.count(FLAGGED)

    @property
    def mines_left(self) -> int:
        """Total mines minus flags placed (flags are taken at their word)."""
        return self.mines - self.view.count(FLAGGED)

    def covered(self) -> tuple[int, ...]:
        """Cells neither revealed nor flagged."""
        return tuple(i for i, v in enumerate(self.view) if v == COVERED)

    def flagged(self) -> tuple[int, ...]:
        return tuple(i for i, v in enumerate(self.view) if v == FLAGGED)

    def revealed(self) -> tuple[int, ...]:
        return tuple(i for i, v in enumerate(self.view) if v >= 0)

    def is_revealed(self, cell: int) -> bool:
        return self.view[cell] >= 0

    def is_start(self) -> bool:
        """True before any cell is revealed."""
        return all(v < 0 for v in self.view)

    def at(self, x: int, y: int) -> int:
        return self.view[self.board.index(x, y)]
