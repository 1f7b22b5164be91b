"""Exhaustive endgame search: with few layouts left, the move with the highest exact chance of winning.

The layouts consistent with a position (all equally likely) are listed; a set ``S`` of them stands for what the player
knows, and two sequences of moves that leave the same set are the same position, so values are memoised on ``S``
(a bit mask over the listed layouts). ``wins(S)`` is the number of layouts of ``S`` that optimal play wins:

- one layout left: every mine is known, a win (1);
- a cell safe in every layout of ``S`` whose number differs between them is opened for free (information at no
  risk never hurts): ``wins(S) = sum over its numbers v of wins(S_v)``;
- otherwise the best guess: ``max over cells c of sum over numbers v of wins(S with c showing v)``; the layouts
  where ``c`` is a mine are lost.

The win probability is ``wins(S) / |S|``, an exact fraction. A cell's value is bounded by the layouts where it is
safe, so cells are tried safest first and the rest skipped once none can beat the best. The search counts the
positions it expands; past ``budget`` it gives up (:class:`SearchBudgetExceeded`) and keeps what it finished, so a
later call (after the next move) reuses it.

The search runs in C (``_endgame.c``, built by ``setup.py`` when a C compiler is present) or, without it or with
``SWEEPLAB_PURE_PYTHON`` set, in Python; the two are the same algorithm step for step: the same cell, the same
alternatives and the same number of positions expanded (a property test compares them). One difference: the Python
search recurses, and where a line of play is longer than Python's recursion allows (a board with hundreds of cells in
a row) it gives up as if past its budget, where the C search goes on, to 3,000 levels (each level removes a layout,
so under ``best``'s 1,000-layout default it never gets there; the limit keeps a search asked for on many more layouts
from overflowing the C stack).
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from sweeplab.analysis.exact import Component, Probabilities
from sweeplab.core.observation import COVERED, FLAGGED, Observation

try:  # the optional C search (setup.py builds it when a C compiler is present): the same search, step for step
    import sweeplab.strategies.best._endgame as _built_kernel  # a C extension without a stub: mypy sees Any
except ImportError:  # pragma: no cover - depends on the build
    _built_kernel = None
KERNEL = None if os.environ.get("SWEEPLAB_PURE_PYTHON") else _built_kernel


class SearchBudgetExceeded(Exception):
    """The search expanded more positions than its budget allowed."""


@dataclass(frozen=True)
class Decision:
    """The search's answer for a position: the cell to open and its exact chance of winning ``wins / layouts``."""

    cell: int
    wins: int
    layouts: int
    alternatives: tuple[tuple[int, int], ...]  # (cell, wins) of the other cells searched in full at the root

    @property
    def probability(self) -> float:
        return self.wins / self.layouts


#: A budget the C search treats as no budget (larger ones would not fit its counter).
UNLIMITED = 2**62


def _component_solutions(component: Component, cap: int) -> list[tuple[int, np.ndarray]] | None:
    """Every mine placement of a component as (mines, bool row over ``component.cells``); None past ``cap``."""
    sizes = [len(sc) for sc in component.supercells]
    n = len(sizes)
    cons = [(list(js), m) for js, m, _ in component.constraints]
    touching: list[list[int]] = [[] for _ in range(n)]
    for i, (js, _) in enumerate(cons):
        for j in js:
            touching[j].append(i)
    capacity = [sum(sizes[j] for j in js) for js, _ in cons]
    counts: list[list[int]] = []
    assigned = [0] * len(cons)
    left = list(capacity)
    x = [0] * n

    def fits(j: int, v: int) -> bool:
        for i in touching[j]:
            a, room = assigned[i] + v, left[i] - sizes[j]
            if a > cons[i][1] or a + room < cons[i][1]:
                return False
        return True

    def apply(j: int, v: int, sign: int) -> None:
        for i in touching[j]:
            assigned[i] += sign * v
            left[i] -= sign * sizes[j]

    # depth-first over the super-cells' mine counts, smallest count first, without recursion (a component may have
    # thousands of super-cells on a large board); every count vector gives at least one layout, so past ``cap`` of
    # them the answer is None already
    j, v = 0, 0
    while j >= 0:
        if j < n:
            while v <= sizes[j] and not fits(j, v):
                v += 1
            if v <= sizes[j]:  # a count that fits: go on to the next super-cell
                apply(j, v, 1)
                x[j] = v
                j, v = j + 1, 0
                continue
        else:  # every super-cell has a count
            counts.append(list(x))
            if len(counts) > cap:
                return None
        j -= 1  # back to the super-cell before, and its next count
        if j >= 0:
            apply(j, x[j], -1)
            v = x[j] + 1

    cells = component.cells
    offsets = list(itertools.accumulate([0, *sizes]))
    out: list[tuple[int, np.ndarray]] = []
    for xs in counts:
        per_supercell = [list(itertools.combinations(range(sizes[j]), xs[j])) for j in range(n)]
        for choice in itertools.product(*per_supercell):
            row = np.zeros(len(cells), dtype=bool)
            for j, picked in enumerate(choice):
                for p in picked:
                    row[offsets[j] + p] = True
            out.append((sum(xs), row))
            if len(out) > cap:
                return None
    return out


def list_layouts(result: Probabilities, limit: int) -> tuple[list[int], np.ndarray] | None:
    """The covered cells and a bool matrix (layouts x cells) of every layout consistent with the position, or None
    when there are more than ``limit`` (or the result is an estimate)."""
    if not result.exact or result.layouts > limit:
        return None
    observation = result.observation
    covered = [c for c, v in enumerate(observation.view) if v == COVERED]
    column = {c: i for i, c in enumerate(covered)}
    mines_left = observation.mines - observation.view.count(FLAGGED)
    unconstrained = list(result.unconstrained)
    parts: list[tuple[list[int], list[tuple[int, np.ndarray]]]] = []
    for comp in result.components:
        solutions = _component_solutions(comp, 20 * limit)
        if solutions is None:
            return None
        parts.append(([column[c] for c in comp.cells], solutions))
    # combine the components, keeping mine counts that can still be completed
    partial: list[tuple[int, tuple[int, ...]]] = [(0, ())]
    for _, solutions in parts:
        grown = [(k + sk, (*picks, i)) for k, picks in partial for i, (sk, _) in enumerate(solutions) if k + sk <= mines_left]
        if len(grown) > 20 * limit:
            return None
        partial = grown
    rows: list[np.ndarray] = []
    U = len(unconstrained)
    free_columns = [column[c] for c in unconstrained]
    for k, picks in partial:
        rest = mines_left - k
        if rest < 0 or rest > U:
            continue
        base = np.zeros(len(covered), dtype=bool)
        for (cols, solutions), i in zip(parts, picks, strict=True):
            base[cols] = solutions[i][1]
        for chosen in itertools.combinations(free_columns, rest):
            row = base.copy()
            row[list(chosen)] = True
            rows.append(row)
            if len(rows) > limit:
                return None
    if not rows:
        return None
    return covered, np.array(rows)


def list_component(component: Component, limit: int) -> tuple[list[int], np.ndarray] | None:
    """The cells and a bool matrix (layouts x cells) of every mine placement of one component, or None past
    ``limit``. For an isolated set with a fixed mine count (a craps shoot) these placements are equally likely."""
    solutions = _component_solutions(component, limit)
    if not solutions:
        return None
    return list(component.cells), np.array([row for _, row in solutions])


class Endgame:
    """The search over one listed set of layouts; reusable over the following moves of the same game."""

    def __init__(self, observation: Observation, covered: list[int], layouts: np.ndarray, use_kernel: bool | None = None) -> None:
        """``use_kernel``: search in C (the default when the C search is built) or in Python; both give the same
        decisions and expand the same positions."""
        board = observation.board
        self.board = board
        self.covered = covered
        self.count = len(layouts)
        column = {c: i for i, c in enumerate(covered)}
        m = len(covered)
        adjacency = np.zeros((m, m), dtype=np.int16)
        flagged = np.zeros(m, dtype=np.int16)
        view = observation.view
        for i, c in enumerate(covered):
            for n in board.neighbours[c]:
                j = column.get(n)
                if j is not None:
                    adjacency[j, i] = 1
                elif view[n] == FLAGGED:
                    flagged[i] += 1
        values = layouts.astype(np.int16) @ adjacency + flagged
        values[layouts] = -1
        self.values = values
        #: per column: {number: mask of layouts where the cell shows it}, and the mask where it is a mine
        self.shows: list[list[int]] = []
        self.mine: list[int] = []
        self.numbers: list[list[int]] = []  # the numbers matching ``shows``
        for j in range(m):
            col = values[:, j]
            parts = []
            numbers: list[int] = []
            mine = 0
            for v in np.unique(col):
                mask = _mask(col == v)
                if v < 0:
                    mine = mask
                else:
                    parts.append(mask)
                    numbers.append(int(v))
            self.shows.append(parts)
            self.numbers.append(numbers)
            self.mine.append(mine)
        self.memo: dict[int, int] = {}
        self.all = (1 << self.count) - 1
        self.expanded = 0
        self.budget = 0
        if use_kernel and KERNEL is None:
            raise RuntimeError(
                "the C endgame search is not built (sweeplab.strategies.best._endgame) or SWEEPLAB_PURE_PYTHON is set"
            )
        self._words = max(1, (self.count + 63) // 64)
        self._tree = None
        if KERNEL is not None and use_kernel is not False:
            size = self._words * 8
            self._tree = KERNEL.Tree(
                self._words,
                [[mask.to_bytes(size, "little") for mask in parts] for parts in self.shows],
                [mask.to_bytes(size, "little") for mask in self.mine],
            )

    @property
    def memo_size(self) -> int:
        """How many positions' values the search has kept."""
        return len(self.memo) if self._tree is None else int(self._tree.memo_size)

    def known(self, observation: Observation) -> int:
        """The layouts still consistent with ``observation`` (a later position of the same game)."""
        view = observation.view
        S = self.all
        for j, c in enumerate(self.covered):
            v = view[c]
            if v == COVERED:
                continue
            if v == FLAGGED:
                continue  # flags are the player's word, not information
            S &= next((mask for value, mask in zip(self.numbers[j], self.shows[j], strict=True) if value == v), 0)
        return S

    def decide(self, S: int, budget: int) -> Decision:
        """The best cell to open when the layouts in ``S`` remain (raises :class:`SearchBudgetExceeded`)."""
        if self._tree is not None:
            return self._decide_in_c(S, budget)
        try:
            return self._decide_in_python(S, budget)
        except RecursionError:  # a line of play longer than Python's recursion: given up as if past the budget
            raise SearchBudgetExceeded from None

    def _decide_in_python(self, S: int, budget: int) -> Decision:
        self.expanded = 0
        self.budget = budget
        n = S.bit_count()
        live, order, free = self._scan(S, range(len(self.covered)))
        if free is not None:  # a certainly safe cell that tells something: open it (no guess needed)
            j, parts = free
            wins = sum(self._wins(p, live) if p.bit_count() > 1 else 1 for p in parts)
            return Decision(self.covered[j], wins, n, ())
        best_j, best = -1, -1
        searched = []
        for safe, j in order:
            if safe <= best:
                break
            total = self._value(S, j, safe, best, live)
            if total is None:
                continue
            searched.append((self.covered[j], total))
            if total > best:
                best_j, best = j, total
        if best_j < 0:  # no cell is a mine in some layouts and safe in others: one layout is left, the game is won
            j = next(j for j in range(len(self.covered)) if not S & self.mine[j])
            return Decision(self.covered[j], n, n, ())
        alternatives = tuple((c, w) for c, w in searched if c != self.covered[best_j])
        return Decision(self.covered[best_j], best, n, alternatives)

    def value(self, S: int, cell: int, budget: int) -> int:
        """The layouts of ``S`` won by opening ``cell`` first and playing optimally after (0 when it is a mine in all of
        them); raises :class:`SearchBudgetExceeded` past ``budget`` positions. The exact value of any move,
        not only the best one: what an analysis or a comparison of strategies needs."""
        j = self.covered.index(cell)
        self.expanded = 0
        if not S & ~self.mine[j]:
            return 0
        if self._tree is not None:
            try:
                found = self._tree.value(S.to_bytes(self._words * 8, "little"), j, min(budget, UNLIMITED))
            finally:
                self.expanded = self._tree.expanded
            if found is None:
                raise SearchBudgetExceeded
            return int(found)
        self.budget = budget
        live, _, _ = self._scan(S, range(len(self.covered)))
        try:
            found = self._value(S, j, 0, -1, live)
        except RecursionError:
            raise SearchBudgetExceeded from None
        assert found is not None  # nothing is below a bar of -1
        return found

    def _decide_in_c(self, S: int, budget: int) -> Decision:
        tree = self._tree
        assert tree is not None
        try:
            found = tree.decide(S.to_bytes(self._words * 8, "little"), min(budget, UNLIMITED))
        finally:
            self.expanded = tree.expanded
        if found is None:
            raise SearchBudgetExceeded
        j, wins, searched = found
        n = S.bit_count()
        if searched is None:  # a free reveal
            return Decision(self.covered[j], wins, n, ())
        if j < 0:  # as in :meth:`decide`: one layout is left, the game is won
            j = next(j for j in range(len(self.covered)) if not S & self.mine[j])
            return Decision(self.covered[j], n, n, ())
        alternatives = tuple((self.covered[c], w) for c, w in searched if c != j)
        return Decision(self.covered[j], wins, n, alternatives)

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


def _mask(flags: np.ndarray) -> int:
    """A bool vector as an int with bit i set when ``flags[i]``."""
    return int.from_bytes(np.packbits(flags, bitorder="little").tobytes(), "little")
