"""``best``'s endgame: with few layouts left, list them and play the move with the highest exact chance of winning.

The layouts consistent with a position (all equally likely) are listed (:func:`list_layouts`, or one isolated set's
with :func:`list_component`) and searched with :class:`sweeplab.analysis.gametree.LayoutSetSearch` (its docstring
states the model: the memo on the set of layouts still possible, free reveals, cells tried safest first, the budget
counted in expanded positions). :class:`Endgame` builds the search's sets from the position (what each covered cell
shows in each layout) and follows the game: :meth:`Endgame.known` is the set left after later moves, so the next
decision reuses what the search kept. The win probability is ``wins / layouts``, an exact fraction.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

from sweeplab.analysis.exact import Component, Probabilities
from sweeplab.analysis.gametree import KERNEL, UNLIMITED, LayoutSetSearch, SearchBudgetExceeded
from sweeplab.core.observation import COVERED, FLAGGED, Observation

__all__ = ["KERNEL", "UNLIMITED", "Decision", "Endgame", "SearchBudgetExceeded", "list_component", "list_layouts"]


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


class Endgame(LayoutSetSearch):
    """``best``'s search over one listed set of layouts of a position; reusable over the following moves of the same game."""

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
        super().__init__(self.shows, self.mine, self.count, use_kernel)

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
        """The best cell to open when the layouts in ``S`` remain (raises :class:`SearchBudgetExceeded` past ``budget``
        expanded positions)."""
        j, wins, alternatives = self.best_move(S, budget)
        covered = self.covered
        return Decision(covered[j], wins, S.bit_count(), tuple((covered[c], w) for c, w in alternatives))

    def value(self, S: int, cell: int, budget: int) -> int:
        """The layouts of ``S`` won by opening ``cell`` first and playing optimally after (0 when it is a mine in all of
        them); raises :class:`SearchBudgetExceeded` past ``budget`` positions. The exact value of any move,
        not only the best one: what an analysis or a comparison of strategies needs."""
        return self.move_value(S, self.covered.index(cell), budget)


def _mask(flags: np.ndarray) -> int:
    """A bool vector as an int with bit i set when ``flags[i]``."""
    return int.from_bytes(np.packbits(flags, bitorder="little").tobytes(), "little")
