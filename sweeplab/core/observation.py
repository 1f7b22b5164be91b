"""Observation: exactly what a player may see of a game, and nothing of its hidden mine layout."""

from __future__ import annotations

from collections.abc import Mapping, Set
from dataclasses import dataclass

from sweeplab.core.errors import ArgumentError, shown, whole_number
from sweeplab.core.geometry import Board

COVERED = -1  #: a cell not yet revealed and not flagged
FLAGGED = -2  #: a covered cell the player has flagged


@dataclass(frozen=True, slots=True)
class Observation:
    """The player's view: per cell a revealed number 0-8, ``COVERED`` or ``FLAGGED``.

    It holds no reference to the game, so a strategy given one has nothing to cheat with. The arguments are
    checked (a view of ``width * height`` whole numbers from -2 to 8; ``mines`` from 0 to the cell count; any
    sequence is kept as a tuple): a wrong one raises :class:`~sweeplab.core.errors.ArgumentError` naming it.

    >>> from sweeplab.core.geometry import Board
    >>> o = Observation(Board(2, 1), 1, (1, COVERED))
    >>> o.covered(), o.mines_left
    ((1,), 1)
    """

    board: Board
    mines: int
    view: tuple[int, ...]
    moves: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.board, Board):
            raise ArgumentError(f"Observation(board): expected a Board such as Board(9, 9), not {shown(self.board)}")
        cells = self.board.cells
        object.__setattr__(self, "mines", whole_number(self.mines, "Observation(mines)", minimum=0, maximum=cells))
        object.__setattr__(self, "moves", whole_number(self.moves, "Observation(moves)", minimum=0))
        view = self.view
        if isinstance(view, str | bytes | Mapping | Set) or not (hasattr(view, "__len__") and hasattr(view, "__iter__")):
            raise ArgumentError(f"Observation(view): expected a sequence of {cells} ints, not {shown(view)}")
        if len(view) != cells:
            raise ArgumentError(
                f"Observation(view): has {len(view)} cells but the {self.board.width}x{self.board.height} board has {cells}"
            )
        if type(view) is not tuple or (cells and set(map(type, view)) != {int}):
            view = tuple(whole_number(v, f"Observation(view): cell {i}") for i, v in enumerate(view))
            object.__setattr__(self, "view", view)
        if cells and not (min(view) >= FLAGGED and max(view) <= 8):
            cell = next(i for i, v in enumerate(view) if not FLAGGED <= v <= 8)
            raise ArgumentError(
                f"Observation(view): cell {cell} {self.board.name(cell)} holds {view[cell]}; "
                f"use 0-8, COVERED ({COVERED}) or FLAGGED ({FLAGGED})"
            )

    @classmethod
    def _unchecked(cls, board: Board, mines: int, view: tuple[int, ...], moves: int) -> Observation:
        """An observation built by the game itself, whose arguments are right by construction (no checks: it runs
        once per move)."""
        observation = object.__new__(cls)
        setattr_ = object.__setattr__
        setattr_(observation, "board", board)
        setattr_(observation, "mines", mines)
        setattr_(observation, "view", view)
        setattr_(observation, "moves", moves)
        return observation

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
        return self.view[self.board.check(cell)] >= 0

    def is_start(self) -> bool:
        """True before any cell is revealed."""
        return not self.view or max(self.view) < 0

    def at(self, x: int, y: int) -> int:
        return self.view[self.board.index(x, y)]

    def with_cells(self, changes: Mapping[int, int], moves: int | None = None) -> Observation:
        """This position with some cells changed: a hypothetical one, such as a cell showing a number or a set of
        cells flagged, for an analysis to weigh. Only the changed cells are checked (each a cell of the board and a
        value from ``FLAGGED`` to 8); ``moves`` defaults to this position's.

        >>> from sweeplab.core.geometry import Board
        >>> Observation(Board(2, 1), 1, (1, COVERED)).with_cells({1: FLAGGED}).view
        (1, -2)
        """
        view = list(self.view)
        cells = len(view)
        for cell, value in changes.items():
            if type(cell) is int and 0 <= cell < cells and type(value) is int and FLAGGED <= value <= 8:
                view[cell] = value  # the common case, checked without the calls that name a fault
                continue
            cell = self.board.check(cell, "Observation.with_cells: cell")
            if type(value) is not int or not FLAGGED <= value <= 8:
                raise ArgumentError(
                    f"Observation.with_cells: cell {self.board.name(cell)} given {shown(value)}; "
                    f"use 0-8, COVERED ({COVERED}) or FLAGGED ({FLAGGED})"
                )
            view[cell] = value
        return Observation._unchecked(self.board, self.mines, tuple(view), self.moves if moves is None else moves)
