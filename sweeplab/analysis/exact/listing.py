"""Every layout of a position, or every mine placement of one component, listed as a bool matrix (layouts x cells):
the sets that ``best``'s endgame searches and that ``oh`` samples from, when they are small enough to list.

The layouts consistent with a position are equally likely, so a listed set is the exact posterior over them; a
component's placements are equally likely only when it is isolated with a fixed mine count (a craps shoot).
"""

from __future__ import annotations

import itertools

import numpy as np

from sweeplab.analysis.exact.components import Component
from sweeplab.analysis.exact.probabilities import Probabilities
from sweeplab.core.observation import COVERED, FLAGGED

__all__ = ["list_component", "list_layouts"]


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
