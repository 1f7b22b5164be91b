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
``1 + WEIGHT * I(c) / safe(c)``, at most ``1 + WEIGHT``: JSMinesweeper's form. Its weight is 0.9; ours is 1.0, what
the model says (a trap's layouts are lost half the time whichever cell is guessed first, so all of that risk is risk
the player takes anyway), and 1.0 won more expert games than 0.9 on both fresh root seeds tried (+0.10 ± 0.04 and
+0.04 ± 0.04 points, 30,000 paired games each; ``results/best/tuning/``, ``docs/results.md`` "How the defaults were
chosen").

Counts come from the exact engine: flagging a set of cells leaves exactly the layouts in which they are all mines,
and "safe" is had by inclusion and exclusion over the flagged sets.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from sweeplab.analysis import Analyzer, Probabilities
from sweeplab.analysis.exact.kernel import _PACK
from sweeplab.core.observation import COVERED, FLAGGED, Observation
from sweeplab.strategies.loops import LOOPS

_COUNT = getattr(LOOPS, "count_layouts", None)  # the exact layout count in C (None without the kernel)

#: How much of the influence counts as safety (JSMinesweeper's is 0.9; see the module docstring).
WEIGHT = 1.0
#: At most this many unknown flanking cells for a pattern the cell belongs to.
MAX_FLANK = 3
#: A pattern that the cell closes (as a flanking cell) counts only above this share of the layouts.
THRESHOLD = 0.025
#: A pattern whose cells are all mines in at most this share of the layouts is not counted further (its count, at
#: most that, would move a factor by less than about a thousandth); this saves most of the work.
NEGLIGIBLE = 0.001


_SHOWN, _HIDDEN, _MINED = 0, 1, 2  # Influence's cell codes

PairKey = tuple[int, int, bool]  # (x, y, horizontal) of a pair's first cell
BoxKey = tuple[int, int]  # (x, y) of a block's top-left cell


class Geometry:
    """The 2x1 pairs and 2x2 blocks of a board, with the cells around each that could tell its cells apart, and for
    each cell the patterns it belongs to or flanks. Worked out per cell on first use and kept per board size (so a
    huge board costs only the cells that are asked about)."""

    _cache: ClassVar[dict[tuple[int, int], Geometry]] = {}

    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self._pairs: dict[PairKey, tuple[int, int, tuple[int, ...]] | None] = {}
        self._boxes: dict[BoxKey, tuple[tuple[int, int, int, int], tuple[int, ...]] | None] = {}
        self._of: dict[int, tuple[list[PairKey], list[BoxKey], list[PairKey], list[BoxKey]]] = {}

    @classmethod
    def of(cls, width: int, height: int) -> Geometry:
        if (width, height) not in cls._cache:
            cls._cache[(width, height)] = cls(width, height)
        return cls._cache[(width, height)]

    def _at(self, x: int, y: int) -> int | None:
        return y * self.width + x if 0 <= x < self.width and 0 <= y < self.height else None

    def _on(self, cells: list[tuple[int, int]]) -> tuple[int, ...]:
        return tuple(c for c in (self._at(x, y) for x, y in cells) if c is not None)

    def pair(self, key: PairKey) -> tuple[int, int, tuple[int, ...]] | None:
        """(first, second, flanking cells on the board) of a pair, or None if it leaves the board."""
        if key not in self._pairs:
            x, y, horizontal = key
            a, b = (self._at(x, y), self._at(x + 1, y)) if horizontal else (self._at(x, y), self._at(x, y + 1))
            if a is None or b is None:
                self._pairs[key] = None
            elif horizontal:
                flank = self._on([(x - 1, y + d) for d in (-1, 0, 1)] + [(x + 2, y + d) for d in (-1, 0, 1)])
                self._pairs[key] = (a, b, flank)
            else:
                flank = self._on([(x + d, y - 1) for d in (-1, 0, 1)] + [(x + d, y + 2) for d in (-1, 0, 1)])
                self._pairs[key] = (a, b, flank)
        return self._pairs[key]

    def box(self, key: BoxKey) -> tuple[tuple[int, int, int, int], tuple[int, ...]] | None:
        """((top-left, bottom-right, top-right, bottom-left), diagonal corners on the board) of a block, or None."""
        if key not in self._boxes:
            x, y = key
            if 0 <= x < self.width - 1 and 0 <= y < self.height - 1:
                w = self.width
                cells = (y * w + x, (y + 1) * w + x + 1, y * w + x + 1, (y + 1) * w + x)
                self._boxes[key] = (cells, self._on([(x - 1, y - 1), (x + 2, y - 1), (x - 1, y + 2), (x + 2, y + 2)]))
            else:
                self._boxes[key] = None
        return self._boxes[key]

    def around(self, cell: int) -> tuple[list[PairKey], list[BoxKey], list[PairKey], list[BoxKey]]:
        """The pairs and blocks holding ``cell``, and those it flanks (pairs) or is a diagonal corner of (blocks)."""
        if cell not in self._of:
            x, y = cell % self.width, cell // self.width
            pairs: list[PairKey] = [(x, y, True), (x - 1, y, True), (x, y, False), (x, y - 1, False)]
            boxes: list[BoxKey] = [(x, y), (x - 1, y), (x, y - 1), (x - 1, y - 1)]
            flanked: list[PairKey] = [
                key
                for d in (-1, 0, 1)
                for key in ((x + 1, y + d, True), (x - 2, y + d, True), (x + d, y + 1, False), (x + d, y - 2, False))
            ]
            cornered: list[BoxKey] = [(x + 1, y + 1), (x - 2, y + 1), (x + 1, y - 2), (x - 2, y - 2)]
            self._of[cell] = (
                [k for k in pairs if self.pair(k) is not None],
                [k for k in boxes if self.box(k) is not None],
                [k for k in flanked if self.pair(k) is not None],
                [k for k in cornered if self.box(k) is not None],
            )
        return self._of[cell]


class Unweighable(Exception):
    """The influence cannot be counted exactly in this position (an estimated count, or numbers past the range of a
    float); the caller plays without it."""


class Influence:
    """The fifty-fifty influence of cells in one position (counts memoised on the set of cells assumed mines).

    Raises :class:`Unweighable` when a count is not exact, or the position has more layouts than a float can hold
    (boards far beyond the papers' sizes)."""

    def __init__(self, analyzer: Analyzer, observation: Observation, result: Probabilities, mines: Iterable[int]) -> None:
        self.analyzer = analyzer
        self.observation = observation
        self.known = frozenset(mines)
        self.total = result.layouts
        if not result.exact or self.total > 2**1000:
            raise Unweighable("the layouts are estimated or too many to weigh in floating point")
        self._unconstrained = frozenset(result.unconstrained)
        #: counts by (the cells some number touches, how many cells no number touches): the latter are
        #: interchangeable (no number involves them), so only how many of them are mines matters
        self._counts: dict[tuple[frozenset[int], int], int] = {(frozenset(), 0): result.layouts}
        self._pairs: dict[PairKey, tuple[int, int, list[int]] | None] = {}
        self._boxes: dict[BoxKey, tuple[list[int], list[int]] | None] = {}
        self.geometry = Geometry.of(observation.board.width, observation.board.height)
        #: per cell: 1 hidden (covered, not a known mine), 2 a flag or a known mine, 0 revealed
        code = bytearray(_HIDDEN if v == COVERED else _MINED if v == FLAGGED else _SHOWN for v in observation.view)
        for c in self.known:
            code[c] = _MINED
        self._code = code
        self._raw: bytes | None = None  # the view as the kernel's bytes, packed on first use

    # ----- geometry -----
    def _state(self, cells: tuple[int, ...]) -> list[int] | None:
        """The cells still unknown among a pattern's flanking ``cells`` (on the board), or None when one is revealed
        (the pattern can never form)."""
        code = self._code
        unknown = []
        for c in cells:
            k = code[c]
            if k == _MINED:
                continue
            if k == _SHOWN:
                return None
            unknown.append(c)
        return unknown

    def _pair(self, index: PairKey) -> tuple[int, int, list[int]] | None:
        """(first, second, unknown flank) of a 2x1 pair on the board, or None if it cannot trap."""
        pairs = self._pairs
        if index in pairs:
            return pairs[index]
        found = self.geometry.pair(index)
        assert found is not None
        a, b, flank = found
        code = self._code
        unknown = self._state(flank) if code[a] == _HIDDEN and code[b] == _HIDDEN else None
        made = pairs[index] = None if unknown is None else (a, b, unknown)
        return made

    def _box(self, index: BoxKey) -> tuple[list[int], list[int]] | None:
        """([top-left, bottom-right, top-right, bottom-left], unknown corners) of a 2x2 block, or None."""
        boxes = self._boxes
        if index in boxes:
            return boxes[index]
        found = self.geometry.box(index)
        assert found is not None
        cells, corners = found
        code = self._code
        unknown = self._state(corners) if all(code[c] == _HIDDEN for c in cells) else None
        made = boxes[index] = None if unknown is None else (list(cells), unknown)
        return made

    # ----- counts -----
    def mined(self, cells: frozenset[int]) -> int:
        """Layouts of this position in which every cell of ``cells`` is a mine."""
        free = cells & self._unconstrained
        key = (cells - free, len(free))
        counts = self._counts
        found = counts.get(key)
        if found is None:
            found = counts[key] = self._count(cells)
        return found

    def _count(self, cells: frozenset[int]) -> int:
        analyzer = self.analyzer
        if _COUNT is not None and _PACK is not None and type(analyzer) is Analyzer and analyzer.use_kernel:
            # the kernel counts the position with ``cells`` flagged (its view as bytes), the same integer, or says None
            if self._raw is None:
                self._raw = _PACK(self.observation.view)[0]
            flagged = bytearray(self._raw)
            for c in cells:
                flagged[c] = FLAGGED & 0xFF
            budget, board = analyzer.budget, self.observation.board
            found: int | None = _COUNT(
                flagged, board.width, board.height, self.observation.mines, budget.max_states, budget.max_bytes, budget.seconds
            )
            if found is not None:
                return found
        position = self.observation.with_cells(dict.fromkeys(cells, FLAGGED))
        after = analyzer.try_analyze(position)
        if after is not None and not after.exact:
            raise Unweighable("a count was estimated, not exact")
        return 0 if after is None else int(after.layouts)

    def trapped(self, mines: list[int], safe: list[int], floor: float = NEGLIGIBLE) -> int:
        """Layouts in which every cell of ``mines`` is a mine and every cell of ``safe`` is safe (0 when the mines
        alone are in at most ``floor`` of the layouts). Each count it adds up is memoised by :meth:`mined`."""
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
        pair_keys, box_keys, _, _ = self.geometry.around(cell)
        pairs, boxes_of = self._pairs, self._boxes  # the memos, read here without a call per pattern
        total = 0
        for pair_key in pair_keys:
            pair = pairs[pair_key] if pair_key in pairs else self._pair(pair_key)
            if pair is not None and len(pair[2]) <= MAX_FLANK:
                total += self.pair_count(pair, upper=upper)
        boxes = [0]
        for box_key in box_keys:
            box = boxes_of[box_key] if box_key in boxes_of else self._box(box_key)
            if box is not None and len(box[1]) <= MAX_FLANK:
                boxes.append(self.box_count(box, upper=upper))
        total += max(boxes)
        total += self._closing(cell, upper)
        safe = safety * self.total
        return min(total, safe, self.total - safe) / self.total

    def _closing(self, cell: int, upper: bool) -> int:
        """Counts of the patterns ``cell`` flanks and would close alone (pairs) or with one more corner (blocks)."""
        _, _, flanked, cornered = self.geometry.around(cell)
        pairs, boxes = self._pairs, self._boxes
        found = 0
        for pair_key in flanked:
            pair = pairs[pair_key] if pair_key in pairs else self._pair(pair_key)
            if pair is not None and pair[2] == [cell]:
                found += self._above(self.pair_count(pair, THRESHOLD, upper))
        for box_key in cornered:
            box = boxes[box_key] if box_key in boxes else self._box(box_key)
            if box is not None and cell in box[1] and len(box[1]) <= 2:
                found += self._above(self.box_count(box, THRESHOLD, upper))
        return found

    def _above(self, count: int) -> int:
        return count if count > THRESHOLD * self.total else 0

    def factor(self, cell: int, safety: float) -> float:
        """The score multiplier ``1 + WEIGHT * I / safe`` (1.0 for a cell that cannot be trapped)."""
        return factor_of(self.of(cell, safety), safety)


def factor_of(share: float, safety: float) -> float:
    """The score multiplier for an influence ``share`` (of all layouts) and a cell's ``safety``."""
    return 1.0 + WEIGHT * share / safety if safety > 0 else 1.0
