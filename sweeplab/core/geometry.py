"""Board geometry: size, row-major cell indexing and neighbour tables computed once per size."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from sweeplab.core.errors import BoardSpecError, shown, whole_number

MAX_SIDE = 1024  #: the longest side a board may have (MBF files hold at most 255; see formats.mbf)
MAX_CELLS = 65_536  #: the most cells a board may have


@lru_cache(maxsize=64)
def _neighbour_table(width: int, height: int) -> tuple[tuple[int, ...], ...]:
    table = []
    for y in range(height):
        for x in range(width):
            cells = []
            for dy in (-1, 0, 1):
                ny = y + dy
                if not 0 <= ny < height:
                    continue
                for dx in (-1, 0, 1):
                    nx = x + dx
                    if (dx or dy) and 0 <= nx < width:
                        cells.append(ny * width + nx)
            table.append(tuple(cells))
    return tuple(table)


@lru_cache(maxsize=64)
def _border_table(width: int, height: int) -> tuple[int, ...]:
    """Per cell: 0 for a corner, 1 for another border cell, 2 inside."""
    table = []
    for y in range(height):
        for x in range(width):
            on_x, on_y = x in (0, width - 1), y in (0, height - 1)
            table.append(0 if on_x and on_y else 1 if on_x or on_y else 2)
    return tuple(table)


@dataclass(frozen=True)
class Board:
    """A rectangular board of ``width`` x ``height`` cells; a cell is one int, ``y * width + x``.

    >>> b = Board(3, 2)
    >>> b.index(2, 1), b.xy(5), b.neighbours[0]
    (5, (2, 1), (1, 3, 4))
    """

    width: int
    height: int
    cells: int = field(init=False, repr=False, compare=False)  #: the number of cells
    neighbours: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)
    #: per cell: 0 a corner, 1 another border cell, 2 inside (``is_corner``/``is_edge`` without the checks)
    border: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        for name in ("width", "height"):
            value = whole_number(getattr(self, name), f"board {name}", error=BoardSpecError)
            if not 1 <= value <= MAX_SIDE:
                raise BoardSpecError(f"board {name} {shown(value)} is out of range: it must be 1 to {MAX_SIDE}")
            object.__setattr__(self, name, value)
        if self.width * self.height > MAX_CELLS:
            raise BoardSpecError(f"a {self.width}x{self.height} board has more than {MAX_CELLS} cells")
        object.__setattr__(self, "cells", self.width * self.height)
        object.__setattr__(self, "neighbours", _neighbour_table(self.width, self.height))
        object.__setattr__(self, "border", _border_table(self.width, self.height))

    def index(self, x: int, y: int) -> int:
        """The cell at column ``x``, row ``y`` (0-based), checked to lie on the board."""
        if type(x) is not int or type(y) is not int:
            x, y = whole_number(x, "x", error=BoardSpecError), whole_number(y, "y", error=BoardSpecError)
        if not (0 <= x < self.width and 0 <= y < self.height):
            raise BoardSpecError(f"cell ({shown(x)}, {shown(y)}) is off the {self.width}x{self.height} board")
        return y * self.width + x

    def check(self, cell: object, name: str = "cell") -> int:
        """``cell`` as an int, checked to be a whole number on the board; else :class:`BoardSpecError` naming it."""
        if type(cell) is not int:
            cell = whole_number(cell, name, error=BoardSpecError)
        if not 0 <= cell < self.width * self.height:  # type: ignore[operator]
            raise BoardSpecError(
                f"{name} {shown(cell)} is off the {self.width}x{self.height} board "
                f"(cells are 0 to {self.width * self.height - 1})"
            )
        return cell  # type: ignore[return-value]

    def xy(self, cell: int) -> tuple[int, int]:
        """The (x, y) of a cell index (checked to lie on the board)."""
        cell = self.check(cell)
        return cell % self.width, cell // self.width

    def contains(self, cell: object) -> bool:
        """True when ``cell`` is a whole number naming a cell of this board (never raises)."""
        if type(cell) is not int:
            if isinstance(cell, bool) or not hasattr(type(cell), "__index__"):
                return False
            cell = type(cell).__index__(cell)  # type: ignore[attr-defined]
        return 0 <= cell < self.width * self.height  # type: ignore[operator]

    def is_corner(self, cell: int) -> bool:
        x, y = self.xy(cell)
        return x in (0, self.width - 1) and y in (0, self.height - 1)

    def is_edge(self, cell: int) -> bool:
        """True for a cell on the border (corners included)."""
        x, y = self.xy(cell)
        return x in (0, self.width - 1) or y in (0, self.height - 1)

    def corners(self) -> tuple[int, ...]:
        """The distinct corner cells: top-left, top-right, bottom-left, bottom-right."""
        w, h = self.width, self.height
        seen: dict[int, None] = {}
        for x, y in ((0, 0), (w - 1, 0), (0, h - 1), (w - 1, h - 1)):
            seen[y * w + x] = None
        return tuple(seen)

    def edge_distance(self, cell: int) -> int:
        """Manhattan distance from the cell to the nearest border row or column (0 on the border)."""
        x, y = self.xy(cell)
        return min(x, y, self.width - 1 - x, self.height - 1 - y)

    def name(self, cell: int) -> str:
        """A cell as people write it: ``(x, y)``."""
        x, y = self.xy(cell)
        return f"({x}, {y})"
