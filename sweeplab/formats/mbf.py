"""Mine layouts in MBF (Minesweeper X board format): u8 width, u8 height, u16 big-endian mine count, then (u8 x, u8 y) per mine.

>>> layout = Layout(3, 2, (1, 5))
>>> read_mbf(write_mbf(layout)) == layout
True
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from sweeplab.core.errors import ArgumentError, LayoutFormatError, SweeplabError, shown
from sweeplab.core.game import Game
from sweeplab.core.geometry import Board
from sweeplab.core.rules import Rules

MBF_MAX_SIDE = 255  #: MBF stores each side in one byte
MBF_MAX_BYTES = 4 + 2 * MBF_MAX_SIDE * MBF_MAX_SIDE  #: the largest well-formed file: every cell of a 255x255 board a mine


@dataclass(frozen=True)
class Layout:
    """A board size and the cells (row-major indices) that hold mines; the cells are checked to be distinct and on
    the board, and kept sorted."""

    width: int
    height: int
    mines: tuple[int, ...]

    def __post_init__(self) -> None:
        try:
            board = Board(self.width, self.height)
        except SweeplabError as error:
            raise ArgumentError(f"Layout: {error}") from None
        object.__setattr__(self, "width", board.width)
        object.__setattr__(self, "height", board.height)
        if isinstance(self.mines, str | bytes) or not hasattr(self.mines, "__iter__"):
            raise ArgumentError(f"Layout(mines): expected a collection of mine cells (ints), not {shown(self.mines)}")
        cells: list[int] = []
        for position, value in enumerate(self.mines):
            try:
                cells.append(board.check(value, f"Layout(mines): mine {position + 1}, cell"))
            except SweeplabError as error:
                raise ArgumentError(str(error)) from None
        if len(set(cells)) != len(cells):
            repeated = next(c for c in cells if cells.count(c) > 1)
            raise ArgumentError(f"Layout(mines): cell {repeated} {board.name(repeated)} is listed twice")
        object.__setattr__(self, "mines", tuple(sorted(cells)))

    def game(self, first_click: str = "unsafe") -> Game:
        """A game playing this layout as it is (no first-click rule is applied to a fixed layout)."""
        return Game(Rules(self.width, self.height, len(self.mines), first_click), layout=self.mines)

    @classmethod
    def of(cls, game: Game) -> Layout:
        """The layout a game was dealt (after its first reveal, for rules that deal at the first click)."""
        if not isinstance(game, Game):
            raise ArgumentError(f"Layout.of(game): expected a Game, not {shown(game)}")
        return cls(game.board.width, game.board.height, tuple(sorted(game.mine_cells())))


def write_mbf(layout: Layout) -> bytes:
    """The MBF bytes of a layout (sides up to 255)."""
    if not isinstance(layout, Layout):
        raise ArgumentError(f"write_mbf(layout): expected a Layout, not {shown(layout)}")
    if not (1 <= layout.width <= MBF_MAX_SIDE and 1 <= layout.height <= MBF_MAX_SIDE):
        raise LayoutFormatError(f"MBF holds sides of 1 to {MBF_MAX_SIDE}, not {layout.width}x{layout.height}")
    out = bytearray([layout.width, layout.height])
    out += len(layout.mines).to_bytes(2, "big")
    for cell in layout.mines:
        out += bytes([cell % layout.width, cell // layout.width])
    return bytes(out)


def read_mbf(data: bytes, source: str = "MBF data") -> Layout:
    """Parse MBF bytes; a truncated, oversized or impossible file is a ``LayoutFormatError`` naming the reason."""
    if not isinstance(data, bytes | bytearray | memoryview):
        raise ArgumentError(f"read_mbf(data): expected bytes, not {shown(data)}")
    data = bytes(data)
    if not isinstance(source, str):
        raise ArgumentError(f"read_mbf(source): expected the name to use in messages (str), not {shown(source)}")
    if len(data) < 4:
        raise LayoutFormatError(f"{source}: truncated: {len(data)} bytes, but the MBF header alone is 4")
    width, height = data[0], data[1]
    count = int.from_bytes(data[2:4], "big")
    if width == 0 or height == 0:
        raise LayoutFormatError(f"{source}: the board is {width}x{height}; both sides must be at least 1")
    if count > width * height:
        raise LayoutFormatError(f"{source}: {count} mines do not fit on a {width}x{height} board")
    expected = 4 + 2 * count
    if len(data) < expected:
        raise LayoutFormatError(
            f"{source}: truncated: the header promises {count} mines ({expected} bytes) "
            f"but the file has {len(data)} bytes ({(len(data) - 4) // 2} whole mines)"
        )
    if len(data) > expected:
        raise LayoutFormatError(f"{source}: oversized: {len(data) - expected} bytes follow the {count} mines the header promises")
    seen: set[int] = set()
    for i in range(count):
        x, y = data[4 + 2 * i], data[5 + 2 * i]
        if x >= width or y >= height:
            raise LayoutFormatError(f"{source}: mine {i + 1} at ({x}, {y}) is off the {width}x{height} board")
        cell = y * width + x
        if cell in seen:
            raise LayoutFormatError(f"{source}: mine {i + 1} repeats ({x}, {y})")
        seen.add(cell)
    return Layout(width, height, tuple(sorted(seen)))


def load_mbf(path: str | Path) -> Layout:
    """Read an MBF file; an unreadable or malformed file is a ``LayoutFormatError`` naming it."""
    path = _path(path, "load_mbf(path)")
    try:
        with path.open("rb") as file:
            data = file.read(MBF_MAX_BYTES + 1)  # a bounded read: /dev/zero or a huge file cannot hang it
    except (OSError, ValueError) as error:
        raise LayoutFormatError(f"{path}: cannot read it ({error.__class__.__name__}: {error})") from None
    if len(data) > MBF_MAX_BYTES:
        raise LayoutFormatError(f"{path}: more than {MBF_MAX_BYTES} bytes, larger than any MBF file can be")
    return read_mbf(data, str(path))


def save_mbf(layout: Layout, path: str | Path) -> None:
    """Write a layout as an MBF file; a path that cannot be written is a ``LayoutFormatError`` naming it."""
    data = write_mbf(layout)
    path = _path(path, "save_mbf(path)")
    try:
        path.write_bytes(data)
    except (OSError, ValueError) as error:
        raise LayoutFormatError(f"{path}: cannot write it ({error.__class__.__name__}: {error})") from None


def _path(path: object, name: str) -> Path:
    if not isinstance(path, str | Path) or str(path) == "":
        raise ArgumentError(f"{name}: expected a file name, not {shown(path)}")
    return Path(path)
