"""The exhaustive game-tree search over mine layouts, in C where built and in Python otherwise (both the same search).

A position's value ``W`` is the number of its layouts (equally likely, or counted with weight) that optimal play wins:
all of them once every safe cell is known, otherwise the best over covered cells ``c`` of the sum of ``W`` over what
revealing ``c`` can show (layouts with a mine at ``c`` are lost). Values are memoised, moves are tried safest first
(a move wins at most the layouts where its cell is safe) and each only as far as decides whether it beats the best so
far. Two front ends share that engine (one C file, ``_gametree.c``: the table, the budget, the move loop), because
their positions differ:

- :class:`InformationSearch`: a whole small board (up to 64 cells in C): a position is an information state (revealed
  cells and numbers, :data:`code`: four bits per cell, 0 covered, ``n + 1`` a revealed ``n``) with the layouts that agree
  with it; certainly safe cells are revealed at once (so states are "closed", which also does the flood fill); the table
  is keyed by the code folded over the board's symmetries, and of the moves a symmetry of the state maps onto each
  other only one is searched; values are passed down as bounds (a state that cannot matter stops early and its entry
  keeps an upper bound). :mod:`sweeplab.analysis.optimal.search` runs it over the first-click rules.
- :class:`LayoutSetSearch`: any position whose layouts are listed: a position is the set ``S`` of layouts still possible
  (a bit mask over the listed ones, also its key, so two lines of play that leave the same set are one position); a
  cell safe in all of ``S`` whose number splits ``S`` is opened for free; the search counts the positions it expands
  and past its budget gives up, keeping what it finished. The ``best`` strategy's endgame uses it.

``SWEEPLAB_PURE_PYTHON=1`` forces the Python searches. Each C front end is its Python twin step for step: the same
values, moves and positions expanded (property tests compare them). The Python layout-set search recurses, and where a
line of play is longer than Python's recursion allows it gives up as if past its budget; the C one goes on to 3,000
levels (each removes a layout), a limit that keeps a search on very many layouts from overflowing the C stack.
"""

from __future__ import annotations

import os
import time
from array import array
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import reduce
from itertools import groupby
from operator import or_

from sweeplab.core.errors import SweeplabError
from sweeplab.core.geometry import Board

try:  # the optional C search (setup.py builds it when a C compiler is present)
    import sweeplab.analysis.optimal._gametree as _built_kernel  # a C extension without a stub: mypy sees Any
except ImportError:  # pragma: no cover - depends on the build
    _built_kernel = None
KERNEL = None if os.environ.get("SWEEPLAB_PURE_PYTHON") else _built_kernel
KERNEL_MAX_CELLS = 64  #: the C information-state search keeps a layout in one 64-bit word

#: A budget the C layout-set search treats as no budget (larger ones would not fit its counter).
UNLIMITED = 2**62


class SearchError(SweeplabError):
    """A search that cannot be run as asked (a rule it does not model, a board with too many layouts)."""


class SearchBudgetExceeded(SweeplabError):
    """The search ran past its time or position budget before it could prove the value."""


@dataclass
class Stats:
    """Counters of one information-state search (cumulative over its life)."""

    states: int = 0  #: states expanded (their moves tried)
    hits: int = 0  #: lookups answered by the table
    moves: int = 0  #: moves tried (each splits a state's layouts by what the cell shows)
    started: float = field(default_factory=time.perf_counter)


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


class InformationSearch:
    """The search over the information states of one board and mine count (layouts as mine bitmasks); its table of
    values lasts as long as the object, so later calls reuse it.

    ``perms`` are the symmetries folded (identity first; only the identity turns folding off). ``kernel`` chooses the C
    search (boards of up to 64 cells) or the pure-Python one; by default the C one when it is built and
    ``SWEEPLAB_PURE_PYTHON`` is not set. ``deadline`` (a ``time.perf_counter`` value) and ``max_states`` (over the
    search's life) bound the work; past either the search raises :class:`SearchBudgetExceeded`. ``progress(stats)`` is
    called every ``progress_every`` expanded states. A position is given as (revealed cells, code, layouts in the
    search's form: :meth:`encode`) and a ``namespace``: -1, or a table of its own (the first click under ``xp``, whose
    dealing depends on it; such states are not folded).
    """

    def __init__(self, board: Board, mines: int, perms: list[tuple[int, ...]], kernel: bool | None = None) -> None:
        self.board = board
        self.mines = mines
        self.cells = cells = board.cells
        self.full = (1 << cells) - 1
        self.nbr = [sum(1 << n for n in ns) for ns in board.neighbours]
        self.perms = perms
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
                        for x in board.neighbours[y]:
                            v += 1 << (4 * x)
                row.append(v << cells)
            self._number_tables.append(row)
        # per byte of a cell mask: a 1 in the nibble of each of its cells
        self._spread = [
            [sum(1 << (4 * (8 * j + i)) for i in range(8) if b >> i & 1) for b in range(256)] for j in range((cells + 7) // 8)
        ]
        self.memo: dict[int, int] = {}  # key -> value (>= 0, exact) or -(bound + 1) (an upper bound)
        self.stats = Stats()
        self.deadline: float | None = None
        self.max_states: int | None = None
        self.progress: Callable[[Stats], None] | None = None
        self.progress_every = 20_000
        if kernel and (KERNEL is None or cells > KERNEL_MAX_CELLS):
            raise SearchError("the C search is not built (or the board has more than 64 cells); use the pure-Python one")
        use_kernel = KERNEL is not None and cells <= KERNEL_MAX_CELLS if kernel is None else kernel
        self._kernel = KERNEL.Search(cells, mines, self.nbr, [list(p) for p in self.perms]) if use_kernel and KERNEL else None

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


class LayoutSetSearch:
    """The search over one listed set of layouts: ``shows[j]`` holds, per number column ``j`` can show, the mask of the
    layouts where it shows it (in the order of the numbers), ``mine[j]`` the mask where it is a mine. A position is a
    mask ``S`` of the layouts still possible; the memo lasts as long as the object, so a later position of the same game
    reuses it. ``use_kernel``: search in C (the default when built) or in Python; both decide alike and expand the same
    positions.
    """

    def __init__(self, shows: list[list[int]], mine: list[int], count: int, use_kernel: bool | None = None) -> None:
        self.shows = shows
        self.mine = mine
        self.count = count
        self.all = (1 << count) - 1
        self.memo: dict[int, int] = {}
        self.expanded = 0
        self.budget = 0
        if use_kernel and KERNEL is None:
            raise RuntimeError(
                "the C game-tree search is not built (sweeplab.analysis.optimal._gametree) or SWEEPLAB_PURE_PYTHON is set"
            )
        self._words = max(1, (count + 63) // 64)
        self._tree = None
        if KERNEL is not None and use_kernel is not False:
            size = self._words * 8
            self._tree = KERNEL.Tree(
                self._words,
                [[mask.to_bytes(size, "little") for mask in parts] for parts in shows],
                [mask.to_bytes(size, "little") for mask in mine],
            )

    @property
    def memo_size(self) -> int:
        """How many positions' values the search has kept."""
        return len(self.memo) if self._tree is None else int(self._tree.memo_size)

    def best_move(self, S: int, budget: int) -> tuple[int, int, tuple[tuple[int, int], ...]]:
        """(column, wins, alternatives) for the layouts ``S``: the column to open (a free reveal when there is one), the
        layouts of ``S`` that optimal play wins, and (column, wins) of the other columns searched in full. Raises
        :class:`SearchBudgetExceeded` past ``budget`` expanded positions (what it finished is kept)."""
        n = S.bit_count()
        if self._tree is not None:
            try:
                found = self._tree.decide(S.to_bytes(self._words * 8, "little"), max(0, min(budget, UNLIMITED)))
            finally:
                self.expanded = self._tree.expanded
            if found is None:
                raise SearchBudgetExceeded
        else:
            try:
                found = self._decide(S, budget)
            except RecursionError:  # a line of play longer than Python's recursion: given up as if past the budget
                raise SearchBudgetExceeded from None
        j, wins, searched = found
        if searched is None:  # a free reveal
            return j, wins, ()
        if j < 0:  # no column is a mine in some layouts and safe in others: one layout is left, the game is won
            return next(j for j in range(len(self.mine)) if not S & self.mine[j]), n, ()
        return j, wins, tuple((c, w) for c, w in searched if c != j)

    def move_value(self, S: int, j: int, budget: int) -> int:
        """The layouts of ``S`` won by opening column ``j`` first and playing optimally after (0 when it is a mine in all
        of them); raises :class:`SearchBudgetExceeded` past ``budget`` positions."""
        self.expanded = 0
        if not S & ~self.mine[j]:
            return 0
        if self._tree is not None:
            try:
                found = self._tree.value(S.to_bytes(self._words * 8, "little"), j, max(0, min(budget, UNLIMITED)))
            finally:
                self.expanded = self._tree.expanded
            if found is None:
                raise SearchBudgetExceeded
            return int(found)
        self.budget = budget
        live, _, _ = self._scan(S, range(len(self.mine)))
        try:
            value = self._value(S, j, 0, -1, live)
        except RecursionError:
            raise SearchBudgetExceeded from None
        assert value is not None  # nothing is below a bar of -1
        return value

    def _decide(self, S: int, budget: int) -> tuple[int, int, list[tuple[int, int]] | None]:
        """What the C search's ``decide`` returns: (free column, wins, None), or (best column or -1, wins, the
        (column, wins) searched in full)."""
        self.expanded = 0
        self.budget = budget
        live, order, free = self._scan(S, range(len(self.mine)))
        if free is not None:  # a certainly safe cell that tells something: open it (no guess needed)
            j, parts = free
            return j, sum(self._wins(p, live) if p.bit_count() > 1 else 1 for p in parts), None
        best_j, best = -1, -1
        searched = []
        for safe, j in order:
            if safe <= best:
                break
            total = self._value(S, j, safe, best, live)
            if total is None:
                continue
            searched.append((j, total))
            if total > best:
                best_j, best = j, total
        return best_j, best, searched

    # ----- the search -----
    def _scan(self, S: int, columns: Iterable[int]) -> tuple[list[int], list[tuple[int, int]], tuple[int, list[int]] | None]:
        """For the layouts ``S``: the columns that still matter (neither a mine in all nor safe with one number in
        all), the guesses among them as (safe layouts, column) safest first (none when there is a free reveal), and
        the parts of a free reveal if any."""
        n = S.bit_count()
        live: list[int] = []
        order: list[tuple[int, int]] = []
        free: tuple[int, list[int]] | None = None
        mine, shows = self.mine, self.shows
        for j in columns:
            mj = S & mine[j]
            if mj == S:
                continue
            if not mj:
                split = False
                for mask in shows[j]:  # the first number it can show here decides: all of S, or a split
                    part = S & mask
                    if part:
                        split = part != S
                        break
                if not split:
                    continue
                if free is None:
                    free = (j, [part for part in (S & mask for mask in shows[j]) if part])
            else:
                order.append((mj.bit_count() - n, j))  # minus the safe layouts: a plain sort puts the safest first
            live.append(j)
        if free is not None:
            return live, [], free  # the free reveal is taken; no guess is needed here
        order.sort()  # ties keep the columns' (ascending) order, as a stable sort on safety alone would
        return live, [(-neg, j) for neg, j in order], free

    def _value(self, S: int, j: int, safe: int, bar: int, live: list[int]) -> int | None:
        """Wins when opening column ``j`` in ``S``; None once it cannot exceed ``bar``.

        The bound starts from what is known of each outcome (its memoised value, else its size) and tightens as the
        outcomes are searched, largest first."""
        memo = self.memo
        parts = []
        bound = 0
        for mask in self.shows[j]:
            part = S & mask
            if part:
                size = part.bit_count()
                known = memo.get(part, size) if size > 1 else 1
                parts.append((size, known, part))
                bound += known
        if bound <= bar:
            return None
        parts.sort(key=lambda t: -t[0])
        for size, known, part in parts:
            if size > 1 and part not in memo:
                bound += self._wins(part, live) - known
                if bound <= bar:
                    return None
        return bound

    def _wins(self, S: int, columns: list[int]) -> int:
        hit = self.memo.get(S)
        if hit is not None:
            return hit
        self.expanded += 1
        if self.expanded > self.budget:
            raise SearchBudgetExceeded
        live, order, free = self._scan(S, columns)
        if free is not None:  # information at no risk: take it
            total = sum(self._wins(p, live) if p.bit_count() > 1 else 1 for p in free[1])
            self.memo[S] = total
            return total
        best = 0
        for safe, j in order:
            if safe <= best:
                break
            value = self._value(S, j, safe, best, live)
            if value is not None and value > best:
                best = value
                if best == safe:
                    break
        self.memo[S] = best
        return best
