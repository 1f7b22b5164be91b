"""Exact optimal play on small boards: the highest probability any player can win, by searching what the player sees.

The model (stated once, used by the search, the ``optimal`` strategy and ``sweeplab evaluate``):

- A layout is a set of ``mines`` cells, kept as a bitmask (bit ``c`` is cell ``c = y * width + x``). How the game deals
  it is :func:`dealt_layouts`, a faithful copy of :class:`sweeplab.core.game.Game`'s dealing for each first-click rule:
  ``unsafe`` deals uniformly and the first click can lose; ``safe`` deals uniformly among the layouts that leave the
  first click free; ``zero`` among those that leave the click and its neighbours free (on a board too dense for
  that, only the click, as the game does); ``xp`` deals uniformly and then moves a mine under the first click to the
  first free cell from the top-left, so a few layouts are dealt by more than one way (they are listed once per way:
  a multiset). The ``hint`` rule is not modelled: which cell the game opens depends on the layout, so the opening
  itself carries information that an information state of revealed numbers does not hold.
- The player only reveals: flags change nothing the player knows, so they cannot change a win probability. A game is
  won when every safe cell is revealed, lost at the first mine.
- An information state is what the player sees: the revealed cells and their numbers (:data:`code`: four bits per
  cell, 0 covered, ``n + 1`` a revealed ``n``). The layouts still possible are those dealt (for the first click
  played) that agree with it, each with its dealing weight; a move's outcomes are grouped by what the player then
  sees.
- ``W(state)`` is the number of those layouts (counted with weight) that optimal play from the state wins: 1 per
  layout once all safe cells are revealed, otherwise the best over covered cells ``c`` of the sum of ``W`` over the
  states that revealing ``c`` can lead to (layouts with a mine at ``c`` are lost). The win probability is ``W``
  divided by the number of layouts: an exact fraction, integers throughout.

How the search is kept small (each step keeps every value exact; the tests check it against a plain game-tree search):

- A cell that is safe in every layout still possible is revealed at once, without trying other moves: revealing a
  certainly safe cell can never lower the value (the player may ignore what it shows, and it must be revealed to
  win anyway). This also does the game's flood fill (the neighbours of a 0 are certainly safe), so the search
  reveals one cell per move and its states are "closed": no certainly safe cell is left covered.
- After the first click, under ``unsafe``, ``safe`` and ``zero`` every layout that agrees with what is shown is equally
  likely (what the deal guaranteed, a free click or a free neighbourhood, is visible on the board), so one table of
  values serves all three rules and every first click; ``xp``'s weights depend on the first click, so its states are
  kept per first click. Under ``unsafe`` and ``safe`` the first click's outcomes are the same, so the best first
  click is the same and the values differ by the factor ``cells / (cells - mines)``.
- Memoised by state; states that a symmetry of the board (mirror, 180 degree turn, and on square boards the
  transpositions and quarter turns) maps onto each other share one entry, and of the moves that a symmetry of the
  state itself maps onto each other only one is searched (not for ``xp``, whose dealing prefers the top-left).
- Branch and bound: a move can win at most the layouts in which its cell is safe; moves are tried safest first and a
  move is dropped as soon as its losses exceed what it could still gain over the best move found, with the bound
  passed down so that a state stops as soon as it cannot matter (its entry then keeps an upper bound).
"""

from __future__ import annotations

import math
import os
import time
from array import array
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import reduce
from itertools import groupby
from operator import or_
from typing import Any

from sweeplab.core.errors import SweeplabError
from sweeplab.core.geometry import Board
from sweeplab.core.rules import Rules

try:  # the optional C search (setup.py builds it when a C compiler is present)
    import sweeplab.analysis._optimal as _built_kernel  # a C extension without a stub: mypy sees Any
except ImportError:  # pragma: no cover - depends on the build
    _built_kernel = None
KERNEL = None if os.environ.get("SWEEPLAB_PURE_PYTHON") else _built_kernel
KERNEL_MAX_CELLS = 64  #: the C search keeps a layout in one 64-bit word

#: First-click rules the search models (``hint`` is not: see the module docstring).
RULES = ("unsafe", "safe", "zero", "xp")

#: The most layouts a search may start from: their lists must fit in memory (about 40 bytes each, several copies).
MAX_LAYOUTS = 50_000_000


class SearchError(SweeplabError):
    """A search that cannot be run as asked (a rule it does not model, a board with too many layouts)."""


class SearchBudgetExceeded(SweeplabError):
    """The search ran past its time or state budget before it could prove the value."""


def layout_masks(cells: int, mines: int) -> list[int]:
    """Every layout of ``mines`` mines on ``cells`` cells as a bitmask, in increasing order (Gosper's hack).

    >>> layout_masks(4, 2)
    [3, 5, 6, 9, 10, 12]
    """
    if mines == 0:
        return [0]
    out: list[int] = []
    x = (1 << mines) - 1
    limit = 1 << cells
    append = out.append
    while x < limit:
        append(x)
        low = x & -x
        ripple = x + low
        x = ripple | (((ripple ^ x) // low) >> 2)
    return out


def zero_keeps_neighbours(rules: Rules, click: int) -> bool:
    """Whether the ``zero`` rule keeps the click's neighbours free too (False on a board too dense for it), as
    :meth:`sweeplab.core.game.Game._deal_around` decides."""
    board = rules.board
    return board.cells - len(board.neighbours[click]) - 1 >= rules.mines


def xp_move(layout: int, click: int, cells: int) -> int:
    """The ``xp`` rule's layout after the first click: a mine under ``click`` moves to the first free cell (lowest
    index, other than the click), as :meth:`sweeplab.core.game.Game._xp_move` does.

    >>> bin(xp_move(0b0011, 0, 4))  # the mine at 0 moves to cell 2, the first free one
    '0b110'
    """
    bit = 1 << click
    if not layout & bit:
        return layout
    occupied = layout | bit
    free = ~occupied & ((1 << cells) - 1)
    target = free & -free
    return (layout & ~bit) | target


def dealt_layouts(rules: Rules, click: int, every: list[int] | None = None) -> list[int]:
    """The layouts the game deals when the first reveal is ``click``, one entry per equally likely way of dealing
    (so for ``xp`` a layout reached from two dealt layouts is listed twice). ``every`` may pass
    ``layout_masks(cells, mines)`` when the caller already has it.

    >>> len(dealt_layouts(Rules(3, 3, 2, "unsafe"), 4)), len(dealt_layouts(Rules(3, 3, 2, "safe"), 4))
    (36, 28)
    >>> len(dealt_layouts(Rules(3, 3, 2, "zero"), 0)), len(dealt_layouts(Rules(3, 3, 2, "xp"), 0))
    (10, 36)
    """
    rule = rules.first_click
    if rule not in RULES:
        raise SearchError(
            f"the {rule!r} rule is not modelled: the cell the game opens depends on the layout, so the opening itself "
            f"tells the player something; use one of {', '.join(RULES)}"
        )
    board = rules.board
    if not board.contains(click):
        raise SearchError(f"first click {click} is off the {board.width}x{board.height} board")
    cells = board.cells
    layouts = every if every is not None else layout_masks(cells, rules.mines)
    if rule == "unsafe":
        return list(layouts)
    if rule == "xp":
        return [xp_move(layout, click, cells) for layout in layouts]
    keep = 1 << click
    if rule == "zero" and zero_keeps_neighbours(rules, click):
        for n in board.neighbours[click]:
            keep |= 1 << n
    return [layout for layout in layouts if not layout & keep]


def symmetries(board: Board) -> list[tuple[int, ...]]:
    """The board's symmetries as cell permutations (``perm[c]`` is where cell ``c`` goes), identity first.

    >>> len(symmetries(Board(4, 4))), len(symmetries(Board(5, 4))), len(symmetries(Board(3, 1)))
    (8, 4, 2)
    """
    w, h = board.width, board.height
    maps: list[Callable[[int, int], tuple[int, int]]] = [
        lambda x, y: (x, y),
        lambda x, y: (w - 1 - x, y),
        lambda x, y: (x, h - 1 - y),
        lambda x, y: (w - 1 - x, h - 1 - y),
    ]
    if w == h:
        maps += [
            lambda x, y: (y, x),
            lambda x, y: (h - 1 - y, x),
            lambda x, y: (y, w - 1 - x),
            lambda x, y: (h - 1 - y, w - 1 - x),
        ]
    seen: dict[tuple[int, ...], None] = {}
    for f in maps:
        perm = []
        for c in range(board.cells):
            nx, ny = f(c % w, c // w)
            perm.append(ny * w + nx)
        seen.setdefault(tuple(perm), None)
    return list(seen)


class _State:
    """A closed information state in the search: revealed cells, code, layouts, and what is known of its value."""

    __slots__ = ("bound", "code", "exact", "fixing", "key", "layouts", "moves", "revealed")

    def __init__(self, revealed: int, code: int, layouts: list[int]) -> None:
        self.revealed = revealed
        self.code = code
        self.layouts = layouts
        self.exact: int | None = None
        self.bound = 0
        self.key = 0
        self.fixing: list[int] | None = None
        self.moves: list[tuple[int, int]] | None = None


@dataclass(frozen=True)
class FirstClick:
    """One first click's result: the layouts it wins (counted with dealing weight) out of the layouts dealt for it.

    ``exact`` is False when the search stopped as soon as it proved the click no better than the best one found;
    ``wins`` is then an upper bound. ``cells`` lists the click and the cells a board symmetry maps it to (same value).
    """

    cell: int
    wins: int
    layouts: int
    exact: bool = True
    cells: tuple[int, ...] = ()

    @property
    def value(self) -> Fraction:
        return Fraction(self.wins, self.layouts)


@dataclass(frozen=True)
class OptimalResult:
    """The best win probability any player can reach on ``rules``, with the search's cost.

    ``wins``/``layouts`` is the optimal win probability in lowest terms' numerator and the count it was measured
    over: under ``unsafe`` every layout (the first click can lose), under ``safe``/``zero`` the layouts dealt for the best
    first click. ``states`` is the number of information states the search expanded (a state searched twice with
    different bounds counts twice), ``stored`` the distinct states it remembers, ``seconds`` wall-clock time.
    """

    rules: Rules
    wins: int
    layouts: int
    best: tuple[int, ...]
    first_clicks: tuple[FirstClick, ...]
    states: int
    stored: int
    seconds: float
    symmetry: bool

    @property
    def value(self) -> Fraction:
        return Fraction(self.wins, self.layouts)


@dataclass
class Stats:
    """Counters of one search (cumulative over the life of an :class:`OptimalSearch`)."""

    states: int = 0  #: states expanded (their moves tried)
    hits: int = 0  #: lookups answered by the table
    moves: int = 0  #: moves tried (each splits a state's layouts by what the cell shows)
    started: float = field(default_factory=time.perf_counter)


class OptimalSearch:
    """The optimal-play search on one board size and mine count; its table of values is shared by every rule and
    every call, so asking for ``safe`` after ``unsafe`` (or the strategy's moves after :meth:`solve`) costs little.

    ``symmetry=False`` turns the folding of symmetric states and moves off (for the test that it changes nothing).
    ``kernel`` chooses the C search (``sweeplab.analysis._optimal``, the same search step for step, on boards of up to
    64 cells) or the pure-Python one; by default the C one when it is built and ``SWEEPLAB_PURE_PYTHON`` is not set.
    ``deadline`` (a ``time.perf_counter`` value) and ``max_states`` bound the work; past either the search raises
    :class:`SearchBudgetExceeded`. ``progress(stats)`` is called every ``progress_every`` expanded states.

    >>> search = OptimalSearch(4, 4, 4)
    >>> search.solve("unsafe").value
    Fraction(961, 1820)
    """

    def __init__(
        self,
        width: int,
        height: int,
        mines: int,
        *,
        symmetry: bool = True,
        max_layouts: int = MAX_LAYOUTS,
        kernel: bool | None = None,
    ) -> None:
        self.board = Board(width, height)
        Rules(width, height, mines, "unsafe")  # validates the mine count
        self.width, self.height, self.mines = width, height, mines
        self.cells = cells = self.board.cells
        self.total = math.comb(cells, mines)
        if self.total > max_layouts:
            raise SearchError(
                f"{width}x{height} with {mines} mines has {self.total:,} layouts, more than the {max_layouts:,} this "
                "search keeps in memory"
            )
        self.full = (1 << cells) - 1
        self.nbr = [sum(1 << n for n in ns) for ns in self.board.neighbours]
        self.symmetry = symmetry
        self.perms = symmetries(self.board) if symmetry else [tuple(range(cells))]
        self._nbytes = (4 * cells + 7) // 8
        # per symmetry (but the identity), per byte of a code (two cells): the byte's nibbles moved to their image cells
        self._tables: list[list[list[int]]] = []
        for perm in self.perms[1:]:
            tables = []
            for j in range(self._nbytes):
                lo, hi = 2 * j, 2 * j + 1
                row = []
                for b in range(256):
                    v = 0
                    if lo < cells:
                        v |= (b & 15) << (4 * perm[lo])
                    if hi < cells:
                        v |= (b >> 4) << (4 * perm[hi])
                    row.append(v)
                tables.append(row)
            self._tables.append(tables)
        # a layout is kept as one int: the mine bits, and above them four bits per cell holding the cell's number
        # (mines among its neighbours), so that grouping layouts by the numbers shown is a sort on a masked key
        self._number_tables: list[list[int]] = []
        for j in range((cells + 7) // 8):
            row = []
            for b in range(256):
                v = 0
                for i in range(8):
                    y = 8 * j + i
                    if b >> i & 1 and y < cells:
                        for x in self.board.neighbours[y]:
                            v += 1 << (4 * x)
                row.append(v << cells)
            self._number_tables.append(row)
        # per byte of a cell mask: a 1 in the nibble of each of its cells
        self._spread = [
            [sum(1 << (4 * (8 * j + i)) for i in range(8) if b >> i & 1) for b in range(256)] for j in range((cells + 7) // 8)
        ]
        self.memo: dict[int, int] = {}  # key -> value (>= 0, exact) or -(bound + 1) (an upper bound)
        self.stats = Stats()
        self._every: list[int] | None = None
        self._every_encoded: list[int] | None = None
        self._results: dict[str, OptimalResult] = {}
        self.deadline: float | None = None
        self.max_states: int | None = None
        self.progress: Callable[[Stats], None] | None = None
        self.progress_every = 20_000
        if kernel and (KERNEL is None or cells > KERNEL_MAX_CELLS):
            raise SearchError("the C search is not built (or the board has more than 64 cells); use the pure-Python one")
        use_kernel = KERNEL is not None and cells <= KERNEL_MAX_CELLS if kernel is None else kernel
        self._kernel = KERNEL.Search(cells, mines, self.nbr, [list(p) for p in self.perms]) if use_kernel and KERNEL else None

    # ----- layouts -----
    def every_layout(self) -> list[int]:
        """All ``C(cells, mines)`` layouts as bitmasks (computed once)."""
        if self._every is None:
            self._every = layout_masks(self.cells, self.mines)
        return self._every

    def encode(self, layouts: list[int]) -> list[int]:
        """Layouts (mine bitmasks) in the search's form: the mask with every cell's number above it."""
        tables = self._number_tables
        if len(tables) == 1:
            (t0,) = tables
            return [m | t0[m] for m in layouts]
        if len(tables) == 2:
            t0, t1 = tables
            return [m | t0[m & 255] + t1[m >> 8] for m in layouts]
        if len(tables) == 3:
            t0, t1, t2 = tables
            return [m | t0[m & 255] + t1[m >> 8 & 255] + t2[m >> 16] for m in layouts]
        if len(tables) == 4:
            t0, t1, t2, t3 = tables
            return [m | t0[m & 255] + t1[m >> 8 & 255] + t2[m >> 16 & 255] + t3[m >> 24] for m in layouts]
        out = []
        for m in layouts:
            v = m
            for j, table in enumerate(tables):
                v += table[m >> (8 * j) & 255]
            out.append(v)
        return out

    def every_encoded(self) -> list[int]:
        """:meth:`every_layout` in the search's form (computed once)."""
        if self._every_encoded is None:
            self._every_encoded = self.encode(self.every_layout())
        return self._every_encoded

    def dealt_encoded(self, rule: str, click: int) -> list[int]:
        """:func:`dealt_layouts` for this board, in the search's form."""
        rules = self.rules(rule)
        if rule == "unsafe":
            return self.every_encoded()
        if rule == "xp":
            return self.encode(dealt_layouts(rules, click, self.every_layout()))
        dealt_layouts(rules, click, [])  # checks the rule and the click
        keep = 1 << click
        if rule == "zero" and zero_keeps_neighbours(rules, click):
            keep |= self.nbr[click]
        return [e for e in self.every_encoded() if not e & keep]

    def rules(self, rule: str) -> Rules:
        return Rules(self.width, self.height, self.mines, rule)

    def dealt(self, rule: str, click: int) -> list[int]:
        """:func:`dealt_layouts` for this board."""
        return dealt_layouts(self.rules(rule), click, self.every_layout())

    # ----- keys and symmetry -----
    def _images(self, code: int) -> list[int]:
        """The code under every symmetry, identity first."""
        data = code.to_bytes(self._nbytes, "little")
        out = [code]
        for tables in self._tables:
            v = 0
            for j, b in enumerate(data):
                if b:
                    v |= tables[j][b]
            out.append(v)
        return out

    def _key(self, code: int, namespace: int) -> tuple[int, list[int] | None]:
        """(table key, the symmetries that fix the state, or None when folding is off)."""
        if namespace >= 0:  # xp: states depend on the first click and are not folded
            return code | ((namespace + 1) << (4 * self.cells)), None
        if len(self.perms) == 1:
            return code, None
        images = self._images(code)
        fixing = [i for i, v in enumerate(images) if v == code and i]
        return min(images), fixing

    # ----- the search -----
    def _reveal(self, revealed: int, code: int, layouts: list[int], cell: int) -> list[tuple[int, int, list[int]]]:
        """The closed states that revealing ``cell`` leads to (layouts with a mine there are dropped).

        The layouts are grouped by what is shown (a sort on their stored numbers, masked to the cells revealed), then
        every cell safe in all layouts of a group is revealed the same way until none is left. A group of one layout
        is returned as it is (its safe cells are all certain)."""
        bit = 1 << cell
        if any(layout & bit for layout in layouts):
            layouts = [layout for layout in layouts if not layout & bit]
            if not layouts:
                return []
        full, cells, spread = self.full, self.cells, self._spread
        out: list[tuple[int, int, list[int]]] = []
        # work items: (revealed, code, layouts, cells safe in all of them still to reveal)
        stack = [(revealed, code, layouts, bit)]
        while stack:
            revealed, code, layouts, pending = stack.pop()
            while True:
                if not pending:
                    if len(layouts) > 1:
                        pending = full & ~revealed & ~reduce(or_, layouts)
                    if not pending:
                        out.append((revealed, code, layouts))
                        break
                revealed |= pending
                ones = 0  # a 1 in each revealed cell's nibble: the code holds number + 1
                for j, table in enumerate(spread):
                    byte = pending >> (8 * j) & 255
                    if byte:
                        ones |= table[byte]
                pending = 0
                shown = (ones * 15) << cells
                key = shown.__and__
                if len(layouts) > 1:
                    layouts.sort(key=key)
                    if key(layouts[0]) != key(layouts[-1]):
                        for numbers, group in groupby(layouts, key):
                            stack.append((revealed, code | ((numbers >> cells) + ones), list(group), 0))
                        break
                code |= (key(layouts[0]) >> cells) + ones
        return out

    def _check_budget(self) -> None:
        stats = self.stats
        if self.progress is not None and stats.states % self.progress_every == 0:
            self.progress(stats)
        if self.max_states is not None and stats.states > self.max_states:
            raise SearchBudgetExceeded(f"the search expanded more than {self.max_states:,} states without finishing")
        if self.deadline is not None and stats.states % 256 == 1 and time.perf_counter() > self.deadline:
            raise SearchBudgetExceeded("the search ran past its time limit without finishing")

    def _safe_counts(self, revealed: int, layouts: list[int]) -> list[tuple[int, int]]:
        """(layouts in which the cell is safe, cell) for every covered cell that is not a certain mine.

        Counted with one pass per residue class of cells spaced wider than the count's bit length: summing
        ``layout & mask`` adds up every cell of the class at once without the counts overlapping."""
        total = len(layouts)
        covered = self.full & ~revealed
        width = total.bit_length() + 1
        out = []
        for residue in range(min(width, self.cells)):
            mask = 0
            for c in range(residue, self.cells, width):
                mask |= 1 << c
            mask &= covered
            if not mask:
                continue
            summed = sum(map(mask.__and__, layouts))
            ones = (1 << width) - 1
            for c in range(residue, self.cells, width):
                if mask >> c & 1:
                    safe = total - ((summed >> c) & ones)
                    if safe:
                        out.append((safe, c))
        return out

    def _prepare(self, revealed: int, code: int, layouts: list[int], namespace: int) -> _State:
        """A closed state with what is known of its value without searching it: exact when won, when at most two layouts
        are left (one: all its safe cells are certain; two: every move has a mine in one of them and the other is then
        certain) or when the table has it; otherwise an upper bound, from the table or from the safest move."""
        state = _State(revealed, code, layouts)
        total = len(layouts)
        if (self.full & ~revealed).bit_count() == self.mines:
            state.exact = total  # won: every safe cell is revealed
            return state
        if total <= 2:
            state.exact = 1
            return state
        state.key, state.fixing = self._key(code, namespace)
        entry = self.memo.get(state.key)
        if entry is not None:
            self.stats.hits += 1
            if entry >= 0:
                state.exact = entry
            else:
                state.bound = -entry - 1
            return state
        state.moves = self._safe_counts(revealed, layouts)
        state.bound = max(s for s, _ in state.moves)
        return state

    def _value(self, state: _State, alpha: int, namespace: int) -> int:
        """``W`` of a prepared closed state when it exceeds ``alpha``; otherwise an upper bound that is at most ``alpha``."""
        if state.exact is not None:
            return state.exact
        if state.bound <= alpha:
            if state.moves is not None:  # a bound of its own, not one read from the table
                self.memo[state.key] = -state.bound - 1
            return state.bound
        moves = state.moves if state.moves is not None else self._safe_counts(state.revealed, state.layouts)
        self.stats.states += 1
        self._check_budget()
        if state.fixing:
            perms = self.perms
            moves = [(s, c) for s, c in moves if all(perms[i][c] >= c for i in state.fixing)]
        moves.sort(key=lambda m: (-m[0], m[1]))
        best = alpha
        for safe, cell in moves:
            if safe <= best:
                break
            value = self._move(state.revealed, state.code, state.layouts, cell, best, namespace)
            if value > best:
                best = value
        if best > alpha:
            self.memo[state.key] = best
            return best
        self.memo[state.key] = -alpha - 1
        return alpha

    def _move(self, revealed: int, code: int, layouts: list[int], cell: int, alpha: int, namespace: int) -> int:
        """``W`` of revealing ``cell`` when it exceeds ``alpha``; otherwise an upper bound that is at most ``alpha``.

        Every child's bound is known before any is searched; children are then searched largest bound first, each
        only as far as it takes to show whether the move can still beat ``alpha``."""
        self.stats.moves += 1
        children = [self._prepare(r, c, g, namespace) for r, c, g in self._reveal(revealed, code, layouts, cell)]
        bound = sum(child.exact if child.exact is not None else child.bound for child in children)
        if bound <= alpha:
            return bound
        open_children = [child for child in children if child.exact is None]
        open_children.sort(key=lambda child: -child.bound)
        for child in open_children:
            need = alpha - bound + child.bound  # the child must win more than this for the move to beat alpha
            value = self._value(child, max(need, -1), namespace)
            bound += value - child.bound
            if value <= need:
                return bound
        return bound

    def _top_move(self, revealed: int, code: int, layouts: list[int], cell: int, alpha: int, namespace: int) -> int:
        """:meth:`_move` from outside the search: in C when the kernel is in use."""
        kernel = self._kernel
        if kernel is None:
            return self._move(revealed, code, layouts, cell, alpha, namespace)
        stats = self.stats
        done = kernel.stats[0]
        max_states = -1 if self.max_states is None else max(0, self.max_states - stats.states + done)
        seconds = -1.0 if self.deadline is None else max(0.0, self.deadline - time.perf_counter())
        progress = self.progress

        def report() -> None:
            self._sync(done)
            if progress is not None:
                progress(self.stats)

        kernel.set_budget(max_states, seconds, report, self.progress_every)
        full = self.full
        value = kernel.move(revealed, code, array("Q", [e & full for e in layouts]), cell, alpha, namespace)
        self._sync(done)
        if value is None:
            if kernel.aborted == 1:
                raise SearchBudgetExceeded(f"the search expanded more than {self.max_states:,} states without finishing")
            raise SearchBudgetExceeded("the search ran past its time limit without finishing")
        return int(value)

    def _sync(self, done: int) -> None:
        """Add the kernel's counts since ``done`` states to :attr:`stats` (once per call)."""
        assert self._kernel is not None
        states, hits, moves, _ = self._kernel.stats
        base = self.__dict__.setdefault("_synced", [0, 0, 0])
        self.stats.states += states - base[0]
        self.stats.hits += hits - base[1]
        self.stats.moves += moves - base[2]
        base[:] = [states, hits, moves]

    @property
    def stored(self) -> int:
        """Distinct states in the table."""
        return int(self._kernel.stats[3]) if self._kernel is not None else len(self.memo)

    # ----- public entry points -----
    def first_click_orbits(self, rule: str) -> list[tuple[int, ...]]:
        """The first clicks worth trying: one per orbit of the board's symmetries (every cell for ``xp``)."""
        if rule == "xp" or not self.symmetry:
            return [(c,) for c in range(self.cells)]
        perms = symmetries(self.board)
        seen: set[int] = set()
        out = []
        for c in range(self.cells):
            if c in seen:
                continue
            orbit = tuple(sorted({p[c] for p in perms}))
            seen.update(orbit)
            out.append(orbit)
        return out

    def first_click(self, rule: str, click: int, alpha: int = -1) -> tuple[int, int, bool]:
        """(wins, layouts dealt, exact) for first click ``click`` under ``rule``; ``wins`` is exact when above ``alpha``."""
        dealt = self.dealt_encoded(rule, click)
        namespace = click if rule == "xp" else -1
        value = self._top_move(0, 0, dealt, click, alpha, namespace)
        return value, len(dealt), value > alpha

    def solve(
        self,
        rule: str,
        *,
        every_first_click: bool = False,
        on_click: Callable[[FirstClick], None] | None = None,
    ) -> OptimalResult:
        """The optimal win probability under ``rule``. With ``every_first_click`` every first click's value is exact
        (slower: no click is cut short by a better one found earlier)."""
        rules = self.rules(rule)
        dealt_layouts(rules, 0, [])  # refuses a rule it does not model
        start = time.perf_counter()
        states0 = self.stats.states
        orbits = self.first_click_orbits(rule)
        best: Fraction | None = None
        results: list[FirstClick] = []
        for orbit in orbits:
            click = orbit[0]
            layouts = self._dealt_count(rules, click)
            alpha = -1 if every_first_click or best is None else math.floor(best * layouts)
            wins, layouts, exact = self.first_click(rule, click, alpha)
            found = FirstClick(click, wins, layouts, exact, orbit)
            results.append(found)
            if exact and (best is None or found.value > best):
                best = found.value
            if on_click is not None:
                on_click(found)
        assert best is not None
        winners = [r for r in results if r.exact and r.value == best]
        top = winners[0]
        return OptimalResult(
            rules=rules,
            wins=top.wins,
            layouts=top.layouts,
            best=tuple(sorted(c for r in winners for c in r.cells)),
            first_clicks=tuple(results),
            states=self.stats.states - states0,
            stored=self.stored,
            seconds=time.perf_counter() - start,
            symmetry=self.symmetry,
        )

    def policy_tree(self, rule: str, click: int, depth: int) -> list[dict[str, Any]]:
        """The optimal policy after first click ``click``, ``depth`` moves deep: for each thing the click can show (the
        cells revealed, with every certainly safe cell revealed too, and their numbers), the optimal next reveal and
        its exact win probability, then the same for what that reveal can show."""
        namespace = click if rule == "xp" else -1
        children = self._reveal(0, 0, self.dealt_encoded(rule, click), click)
        return [self._policy_node(0, r, code, group, namespace, depth) for r, code, group in children]

    def _policy_node(
        self, before: int, revealed: int, code: int, layouts: list[int], namespace: int, depth: int
    ) -> dict[str, Any]:
        shows = {}
        for c in range(self.cells):
            if revealed >> c & 1 and not before >> c & 1:
                x, y = self.board.xy(c)
                shows[f"{x},{y}"] = (code >> (4 * c) & 15) - 1
        node: dict[str, Any] = {"shows": shows, "layouts": len(layouts)}
        if (self.full & ~revealed).bit_count() == self.mines or len(layouts) == 1:
            node["won"] = True
            return node
        wins, cell, _ = self.move_values(revealed, code, layouts, namespace)[0]
        node["move"] = "{},{}".format(*self.board.xy(cell))
        node["wins"] = wins
        node["win_probability"] = str(Fraction(wins, len(layouts)))
        if depth > 1:
            node["then"] = [
                self._policy_node(revealed, r, c, g, namespace, depth - 1)
                for r, c, g in self._reveal(revealed, code, layouts, cell)
            ]
        return node

    def result(self, rule: str) -> OptimalResult:
        """:meth:`solve` for ``rule``, computed once per search."""
        found = self._results.get(rule)
        if found is None:
            found = self._results[rule] = self.solve(rule)
        return found

    def _dealt_count(self, rules: Rules, click: int) -> int:
        cells, mines = self.cells, self.mines
        if rules.first_click in ("unsafe", "xp"):
            return math.comb(cells, mines)
        free = 1
        if rules.first_click == "zero" and zero_keeps_neighbours(rules, click):
            free += len(self.board.neighbours[click])
        return math.comb(cells - free, mines)

    def move_value(self, revealed: int, code: int, layouts: list[int], cell: int, namespace: int = -1) -> int:
        """``W`` of revealing ``cell`` in a closed state (``layouts`` in the search's form), exactly: the layouts that
        revealing it and then playing optimally wins."""
        return self._top_move(revealed, code, layouts, cell, -1, namespace)

    def move_values(
        self, revealed: int, code: int, layouts: list[int], namespace: int = -1, exact: bool = False
    ) -> list[tuple[int, int, bool]]:
        """(wins, cell, exact) for every move of a closed state (``layouts`` in the search's form), best first: the
        first is exact and optimal. With ``exact`` every move's value is exact; otherwise a move found no better than
        the best carries an upper bound (``exact`` False) and sorts after exact moves of the same value."""
        moves = self._safe_counts(revealed, layouts)
        moves.sort(key=lambda m: (-m[0], m[1]))
        out: list[tuple[int, int, bool]] = []
        best = -1
        for safe, cell in moves:
            if not exact and safe <= best:
                out.append((safe, cell, False))
                continue
            alpha = -1 if exact else best
            value = self._top_move(revealed, code, layouts, cell, alpha, namespace)
            out.append((value, cell, value > alpha))
            best = max(best, value)
        out.sort(key=lambda m: (-m[0], not m[2], m[1]))
        return out
