"""Fifty-fifty influence: how much of a cell's risk is a risk the player will have to take anyway.

Two covered cells side by side whose outside neighbours are all mines (or off the board) can never be told apart: if
one of them is a mine, the game ends in a 50/50 guess. Two by two blocks are the same with their four diagonal
corners. A cell that may end up in such a trap is cheaper to guess now than its bare safety says: in the layouts
where it is a mine inside the trap, the game was going to need a coin toss there anyway. JSMinesweeper calls this
"50/50 influence" (DavidNHill's LongTermRiskHelper); this module is our own reading of the idea.

For a covered cell ``c``, its influence ``I(c)`` counts layouts (of the current position):

- for each 2x1 pair holding ``c`` (four: ``c`` and its right, left, lower, upper neighbour), the layouts in which the
  pair's first cell (left or upper) is a mine, the second is safe, and every covered cell that flanks the pair (the
  two columns, or rows, beside it, three cells each) is a mine;
- plus the largest such count over the four 2x2 blocks holding ``c`` (top-left and bottom-right mines, the other
  two safe, the four diagonal corners mines);
- plus, where ``c`` itself flanks a pair (alone) or a block (with at most one other covered corner), that pattern's
  count when it is more than ``THRESHOLD`` of all layouts: ``c`` being a mine is then what closes the trap.

A pattern counts only when none of its flanking cells is revealed (a revealed neighbour of one pattern cell but not
the other would tell them apart) and at most ``MAX_FLANK`` flanking cells are still unknown. ``I(c)`` is capped at the
smaller of the layouts where ``c`` is safe and where it is a mine. The guess score is multiplied by
``1 + WEIGHT * I(c) / safe(c)``, at most ``1 + WEIGHT``: JSMinesweeper's form and weight 0.9, kept as published.

Counts come from the exact engine: flagging a set of cells leaves exactly the layouts in which they are all mines,
and "safe" is had by inclusion and exclusion over the flagged sets.
"""

from __future__ import annotations

from collections.abc import Iterable

from sweeplab.analysis.exact import Analyzer, Probabilities
from sweeplab.core.observation import COVERED, FLAGGED, Observation

#: How much of the influence counts as safety (JSMinesweeper's 0.9).
WEIGHT = 0.9
#: At most this many unknown flanking cells for a pattern the cell belongs to.
MAX_FLANK = 3
#: A pattern that the cell closes (as a flanking cell) counts only above this share of the layouts.
THRESHOLD = 0.025
#: A pattern whose cells are all mines in at most this share of the layouts is not counted further (its count, at
#: most that, would move a factor by less than about a thousandth); this saves most of the work.
NEGLIGIBLE = 0.001


class Influence:
    """The fifty-fifty influence of cells in one position (counts memoised on the set of cells assumed mines)."""

    def __init__(self, analyzer: Analyzer, observation: Observation, result: Probabilities, mines: Iterable[int]) -> None:
        self.analyzer = analyzer
        self.observation = observation
        self.result = result
        self.known = frozenset(mines)
        self.total = result.layouts
        self._unconstrained = frozenset(result.unconstrained)
        #: counts by (the cells some number touches, how many cells no number touches): the latter are
        #: interchangeable (no number involves them), so only how many of them are mines matters
        self._counts: dict[tuple[frozenset[int], int], int] = {(frozenset(), 0): result.layouts}
        self._pairs: dict[tuple[int, int, bool], tuple[int, int, list[int]] | None] = {}
        self._trapped: dict[tuple[tuple[int, ...], tuple[int, ...], float], int] = {}
        board = observation.board
        self.width, self.height = board.width, board.height

    # ----- geometry -----
    def _cell(self, x: int, y: int) -> int | None:
        return y * self.width + x if 0 <= x < self.width and 0 <= y < self.height else None

    def _hidden(self, cell: int | None) -> bool:
        return cell is not None and self.observation.view[cell] == COVERED and cell not in self.known

    def _flank(self, cells: list[tuple[int, int]]) -> list[int] | None:
        """The flanking cells still unknown, or None when one is revealed (the pattern can never form)."""
        view = self.observation.view
        unknown = []
        for x, y in cells:
            c = self._cell(x, y)
            if c is None or c in self.known or view[c] == FLAGGED:
                continue
            if view[c] != COVERED:
                return None
            unknown.append(c)
        return unknown

    def _pair(self, x: int, y: int, horizontal: bool) -> tuple[int, int, list[int]] | None:
        """(first, second, unknown flank) of the 2x1 pair with first cell (x, y), or None if it cannot trap."""
        key = (x, y, horizontal)
        if key not in self._pairs:
            self._pairs[key] = self._find_pair(x, y, horizontal)
        return self._pairs[key]

    def _find_pair(self, x: int, y: int, horizontal: bool) -> tuple[int, int, list[int]] | None:
        if horizontal:
            a, b = self._cell(x, y), self._cell(x + 1, y)
            flank = [(x - 1, y + d) for d in (-1, 0, 1)] + [(x + 2, y + d) for d in (-1, 0, 1)]
        else:
            a, b = self._cell(x, y), self._cell(x, y + 1)
            flank = [(x + d, y - 1) for d in (-1, 0, 1)] + [(x + d, y + 2) for d in (-1, 0, 1)]
        if a is None or b is None or not (self._hidden(a) and self._hidden(b)):
            return None
        unknown = self._flank(flank)
        return None if unknown is None else (a, b, unknown)

    def _box(self, x: int, y: int) -> tuple[list[int], list[int]] | None:
        """([top-left, bottom-right, top-right, bottom-left], unknown corners) of the 2x2 block at (x, y), or None."""
        cells = [self._cell(x, y), self._cell(x + 1, y + 1), self._cell(x + 1, y), self._cell(x, y + 1)]
        if any(c is None or not self._hidden(c) for c in cells):
            return None
        unknown = self._flank([(x - 1, y - 1), (x + 2, y - 1), (x - 1, y + 2), (x + 2, y + 2)])
        return None if unknown is None else ([c for c in cells if c is not None], unknown)

    # ----- counts -----
    def mined(self, cells: frozenset[int]) -> int:
        """Layouts of this position in which every cell of ``cells`` is a mine."""
        free = cells & self._unconstrained
        key = (cells - free, len(free))
        if key not in self._counts:
            self._counts[key] = 0 if len(cells - self.known) > self.observation.mines else self._count(cells)
        return self._counts[key]

    def _count(self, cells: frozenset[int]) -> int:
        view = list(self.observation.view)
        for c in cells:
            view[c] = FLAGGED
        o = self.observation
        after = self.analyzer.try_analyze(Observation._unchecked(o.board, o.mines, tuple(view), o.moves))
        return 0 if after is None else int(after.layouts)

    def trapped(self, mines: list[int], safe: list[int], floor: float = NEGLIGIBLE) -> int:
        """Layouts in which every cell of ``mines`` is a mine and every cell of ``safe`` is safe (0 when the mines
        alone are in at most ``floor`` of the layouts)."""
        key = (tuple(mines), tuple(safe), floor)
        if key not in self._trapped:
            self._trapped[key] = self._trap(mines, safe, floor)
        return self._trapped[key]

    def _trap(self, mines: list[int], safe: list[int], floor: float) -> int:
        base = frozenset(mines)
        if self.mined(base) <= floor * self.total:
            return 0
        total = 0
        n = len(safe)
        for mask in range(1 << n):  # inclusion and exclusion over the cells that must be safe
            extra = [safe[i] for i in range(n) if mask >> i & 1]
            sign = -1 if len(extra) % 2 else 1
            total += sign * self.mined(base | frozenset(extra))
        return total

    def count(self, mines: list[int], safe: list[int], floor: float, upper: bool) -> int:
        """:meth:`trapped`, or with ``upper`` a bound on it that needs one count: the layouts where the mines are."""
        if not upper:
            return self.trapped(mines, safe, floor)
        bound = self.mined(frozenset(mines))
        return bound if bound > floor * self.total else 0

    def pair_count(self, pair: tuple[int, int, list[int]], floor: float = NEGLIGIBLE, upper: bool = False) -> int:
        a, b, flank = pair
        return self.count([a, *flank], [b], floor, upper)

    def box_count(self, box: tuple[list[int], list[int]], floor: float = NEGLIGIBLE, upper: bool = False) -> int:
        (tl, br, tr, bl), corners = box
        return self.count([tl, br, *corners], [tr, bl], floor, upper)

    # ----- the figure -----
    def of(self, cell: int, safety: float, upper: bool = False) -> float:
        """``I(cell)`` as a share of all layouts (see the module docstring); with ``upper``, a cheaper bound at least
        as large (each pattern's count bounded by the layouts where its mines are)."""
        x, y = cell % self.width, cell // self.width
        total = 0
        for px, py, horizontal in ((x, y, True), (x - 1, y, True), (x, y, False), (x, y - 1, False)):
            pair = self._pair(px, py, horizontal)
            if pair is not None and len(pair[2]) <= MAX_FLANK:
                total += self.pair_count(pair, upper=upper)
        boxes = [0]
        for bx, by in ((x, y), (x - 1, y), (x, y - 1), (x - 1, y - 1)):
            box = self._box(bx, by)
            if box is not None and len(box[1]) <= MAX_FLANK:
                boxes.append(self.box_count(box, upper=upper))
        total += max(boxes)
        total += self._closing(cell, x, y, upper)
        safe = safety * self.total
        return min(total, safe, self.total - safe) / self.total

    def _closing(self, cell: int, x: int, y: int, upper: bool) -> int:
        """Counts of the patterns ``cell`` flanks and would close alone (pairs) or with one more corner (blocks)."""
        found = 0
        for d in (-1, 0, 1):
            for pair in (
                self._pair(x + 1, y + d, True),
                self._pair(x - 2, y + d, True),
                self._pair(x + d, y + 1, False),
                self._pair(x + d, y - 2, False),
            ):
                if pair is not None and pair[2] == [cell]:
                    found += self._above(self.pair_count(pair, THRESHOLD, upper))
        for bx, by in ((x + 1, y + 1), (x - 2, y + 1), (x + 1, y - 2), (x - 2, y - 2)):
            box = self._box(bx, by)
            if box is not None and cell in box[1] and len(box[1]) <= 2:
                found += self._above(self.box_count(box, THRESHOLD, upper))
        return found

    def _above(self, count: int) -> int:
        return count if count > THRESHOLD * self.total else 0

    def factor(self, cell: int, safety: float) -> float:
        """The score multiplier ``1 + WEIGHT * I / safe`` (1.0 for a cell that cannot be trapped)."""
        if safety <= 0:
            return 1.0
        return 1.0 + WEIGHT * self.of(cell, safety) / safety
