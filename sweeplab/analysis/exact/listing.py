"""Every layout of a position, or every mine placement of one component, listed as a bool matrix (layouts x cells):
the sets that ``best``'s endgame searches and that ``oh`` samples from, when they are small enough to list; and
:class:`LayoutSampler`, exact draws from a position's layouts where only its components' count vectors need listing.

The layouts consistent with a position are equally likely, so a listed set is the exact posterior over them; a
component's placements are equally likely only when it is isolated with a fixed mine count (a craps shoot).
"""

from __future__ import annotations

import bisect
import itertools
import math
import random

import numpy as np

from sweeplab.analysis.exact.components import Component
from sweeplab.analysis.exact.probabilities import Probabilities
from sweeplab.core.observation import COVERED, FLAGGED

__all__ = ["LayoutSampler", "list_component", "list_layouts"]


def _count_vectors(component: Component, cap: int) -> list[list[int]] | None:
    """Every vector of mine counts per super-cell that fits a component's constraints; None past ``cap`` of them."""
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
    # thousands of super-cells on a large board)
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
    return counts


def _component_solutions(component: Component, cap: int) -> list[tuple[int, np.ndarray]] | None:
    """Every mine placement of a component as (mines, bool row over ``component.cells``); None past ``cap``."""
    counts = _count_vectors(component, cap)  # every count vector gives at least one layout: past cap, None already
    if counts is None:
        return None
    sizes = [len(sc) for sc in component.supercells]
    n = len(sizes)
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


#: one component of a :class:`LayoutSampler`: its super-cells' cells, and {mine total: (cumulative weights, vectors)}
_Part = tuple[list[list[int]], dict[int, tuple[list[int], list[list[int]]]]]


class LayoutSampler:
    """Exact draws from the layouts consistent with a position, every one equally likely (the posterior).

    Built by :meth:`build` from an exact result. Each component's vectors of mine counts per super-cell are listed
    (:func:`_count_vectors`, at most ``cap`` per component), each weighted by the ways to place its counts,
    the product of C(size, count) over the super-cells. A draw takes the components' mine totals in turn, each in
    proportion to its weight times the layouts that complete it (backward sums over the later components and
    C(U, R - total) for the ``U`` cells no number touches and the ``R`` mines left), all in exact integers; then a
    count vector with that total in proportion to its weight, each super-cell's mines uniformly among its cells, and
    the mines left uniformly among the cells no number touches. Flagged cells are mines, as the count takes them.
    """

    def __init__(
        self,
        cells: int,
        flagged: list[int],
        parts: list[_Part],
        after: list[dict[int, int]],
        unconstrained: list[int],
        mines_left: int,
    ) -> None:
        self.cells = cells
        self.flagged = flagged
        self.parts = parts
        self.after = after  # after[k][s]: the layouts completing a total of s mines in components 0..k-1
        self.unconstrained = unconstrained
        self.mines_left = mines_left

    @classmethod
    def build(cls, result: Probabilities, cap: int = 20_000) -> LayoutSampler | None:
        """The sampler of ``result``'s position; None when the result is an estimate, no layout fits, or a component
        has more than ``cap`` count vectors."""
        if not result.exact:
            return None
        observation = result.observation
        view = observation.view
        flagged = [c for c, v in enumerate(view) if v == FLAGGED]
        mines_left = observation.mines - len(flagged)
        unconstrained = list(result.unconstrained)
        parts = []
        for comp in result.components:
            vectors = _count_vectors(comp, cap)
            if not vectors:
                return None
            sizes = [len(sc) for sc in comp.supercells]
            by_total: dict[int, tuple[list[int], list[list[int]]]] = {}
            for xs in vectors:
                weight = math.prod(math.comb(n, x) for n, x in zip(sizes, xs, strict=True))
                cumulative, kept = by_total.setdefault(sum(xs), ([], []))
                cumulative.append((cumulative[-1] if cumulative else 0) + weight)
                kept.append(xs)
            parts.append(([list(sc) for sc in comp.supercells], by_total))
        U = len(unconstrained)
        # after[k][s]: the layouts of components k.. and the unconstrained cells completing s mines placed before k
        after: list[dict[int, int]] = [{} for _ in range(len(parts) + 1)]
        reach = [{0}]
        for _, by_total in parts:
            reach.append({s + t for s in reach[-1] for t in by_total if s + t <= mines_left})
        after[len(parts)] = {s: math.comb(U, mines_left - s) for s in reach[-1] if 0 <= mines_left - s <= U}
        for k in range(len(parts) - 1, -1, -1):
            by_total, later = parts[k][1], after[k + 1]
            row = {}
            for s in reach[k]:
                total = sum(cum[-1] * later.get(s + t, 0) for t, (cum, _) in by_total.items())
                if total:
                    row[s] = total
            after[k] = row
        if not after[0].get(0):
            return None
        return cls(len(view), flagged, parts, after, unconstrained, mines_left)

    @property
    def layouts(self) -> int:
        """How many layouts fit the position (the exact count the draws are uniform over)."""
        return self.after[0][0]

    def draw(self, rng: random.Random) -> bytearray:
        """One layout, a byte per cell of the board (1: a mine), drawn uniformly from those that fit."""
        mine = bytearray(self.cells)
        for c in self.flagged:
            mine[c] = 1
        placed = 0
        for k, (supercells, by_total) in enumerate(self.parts):
            later = self.after[k + 1]
            pick = rng.randrange(self.after[k][placed])
            for t, (cumulative, _) in by_total.items():
                share = cumulative[-1] * later.get(placed + t, 0)
                if pick < share:
                    break
                pick -= share
            cumulative, vectors = by_total[t]
            chosen = vectors[bisect.bisect_right(cumulative, rng.randrange(cumulative[-1]))]
            for cells, x in zip(supercells, chosen, strict=True):
                for c in rng.sample(cells, x) if x < len(cells) else cells:
                    mine[c] = 1
            placed += t
        for c in rng.sample(self.unconstrained, self.mines_left - placed):
            mine[c] = 1
        return mine
