"""Mine layouts in MBF (Minesweeper X board format): u8 width, u8 height, u16 big-endian mine count, then (u8 x, u8 y) per mine.

>>> layout = Layout(3, 2, (1, 5))
>>> read_mbf(write_mbf(layout)) == layout
True
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from sweeplab.core.errors import LayoutFormatError
from sweeplab.core.game import Game
from sweeplab.core.rules import Rules

MBF_MAX_SIDE = 255  #: MBF stores each side in one byte


@dataclass(frozen=True)
class Layout:
    """A board size and the cells (row-major indices, sorted) that hold mines."""

    width: int
    height: int
    mines: tuple[int, ...]

    def game(self, first_click: str = "unsafe") -> Game:
        """A game playing this layout as it is (no first-click rule is applied to a fixed layout)."""
        return Game(Rules(self.width, self.height, len(self.mines), first_click), layout=self.mines)

    @classmethod
    def of(cls, game: Game) -> Layout:
        return cls(game.board.width, game.board.height, tuple(sorted(game.mine_cells())))


def write_mbf(layout: Layout) -> bytes:
    if not (1 <= layout.width <= MBF_MAX_SIDE and 1 <= layout.height <= MBF_MAX_SIDE):
        raise LayoutFormatError(f"MBF holds sides of 1 to {MBF_MAX_SIDE}, not {layout.width}x{layout.height}")
    out = bytearray([layout.width, layout.height])
    out += len(layout.mines).to_bytes(2, "big")
    for cell in layout.mines:
        out += bytes([cell % layout.width, cell // layout.width])
    return bytes(out)


def read_mbf(data: bytes, source: str = "MBF data") -> Layout:
    """Parse MBF bytes; a truncated, oversized or impossible file is a ``LayoutFormatError`` naming the reason."""
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
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as error:
        raise LayoutFormatError(f"{path}: cannot read it ({error})") from None
    return read_mbf(data, str(path))


def save_mbf(layout: Layout, path: str | Path) -> None:
    Path(path).write_bytes(write_mbf(layout))
