"""The optimal table's vocabulary: its boards, rules, players and defaults, what a row holds, and its data file read
back (``DIR/data.json``, written by ``sweeplab optimal-table --out DIR``)."""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sweeplab.core.errors import SweeplabError
from sweeplab.core.rules import Rules

RULES = ("unsafe", "safe", "zero")
STRATEGIES = ("exact", "best", "cspstrategy")
#: 3x3, 4x4, 4x5 and 5x5 over a range of mine counts (to the density where a win is rare, or where the search stops
#: finishing in minutes), then 6x6 and 8x8 with few mines.
DEFAULT_BOARDS = "3x3x1-7,4x4x1-10,4x5x1-8,5x5x1-6,6x6x1-4,8x8x1-4"
#: Layouts (of the board, every rule) above which a strategy is not evaluated; ``best`` costs ~2-4 ms a game.
DEFAULT_MAX_LAYOUTS = 200_000
DEFAULT_CAPS = {"best": 20_000}
DEFAULT_TIME_LIMIT = 600.0
COLUMNS = [
    "board", "width", "height", "mines", "cells", "density", "layouts", "rule", "player", "status", "wins", "dealt",
    "win_probability", "win_rate", "gap", "gap_rate", "first_click", "best_first_clicks", "states", "stored",
    "seconds", "cpu_seconds", "time_limit", "note",
]  # fmt: skip


class TableError(SweeplabError):
    """The table was asked for something it cannot do (a malformed board list, a data file from another run)."""


@dataclass(frozen=True)
class Board:
    width: int
    height: int
    mines: int

    @property
    def spec(self) -> str:
        return f"{self.width}x{self.height}x{self.mines}"

    @property
    def cells(self) -> int:
        return self.width * self.height

    @property
    def layouts(self) -> int:
        return math.comb(self.cells, self.mines)

    def rules(self) -> list[str]:
        """The rules that can deal this board (``safe`` needs a free cell, ``zero`` a free click and neighbour)."""
        out = []
        for rule in RULES:
            try:
                Rules(self.width, self.height, self.mines, rule)
            except SweeplabError:
                continue
            out.append(rule)
        return out


def parse_boards(text: str) -> list[Board]:
    """``WxHxM`` or ``WxHxA-B`` (mines A to B), comma-separated, e.g. ``3x3x1-7,8x8x2``.

    >>> [b.spec for b in parse_boards("3x3x1-2, 5x4x3")]
    ['3x3x1', '3x3x2', '5x4x3']
    """
    out: list[Board] = []
    for item in (part.strip() for part in text.split(",")):
        match = re.fullmatch(r"(\d+)x(\d+)x(\d+)(?:-(\d+))?", item)
        if not match:
            raise TableError(f"board {item!r}: expected WxHxM or WxHxA-B (mines A to B), e.g. 4x4x1-10")
        w, h, a = int(match[1]), int(match[2]), int(match[3])
        b = int(match[4]) if match[4] else a
        if b < a:
            raise TableError(f"board {item!r}: the mine range {a}-{b} is empty")
        if w * h > 64:
            raise TableError(f"board {item!r}: the optimal search handles at most 64 cells")
        for m in range(a, min(b, w * h + 1) + 1):
            try:
                Rules(w, h, m, "unsafe")
            except SweeplabError as error:
                raise TableError(f"board {item!r}: {error}") from None
            board = Board(w, h, m)
            if board not in out:
                out.append(board)
    return out


#: Under ``zero`` the first click decides most of the value, so each strategy is also played from the optimal player's
#: first click (the harness reveals it, as ``bench --first-click``): the row's player is the spec with this suffix.
BEST_CLICK = "@best-click"


def board_xy(board: Board, cell: int) -> tuple[int, int]:
    return cell % board.width, cell // board.width


def load(out: Path) -> dict[str, Any] | None:
    path = out / "data.json"
    if not path.exists():
        return None
    try:
        data = json.loads(path.read_text())
        rows = data["rows"]
        assert isinstance(rows, list)
    except (ValueError, KeyError, AssertionError) as error:
        raise TableError(f"{path}: not an optimal-table data file ({error})") from None
    return data
