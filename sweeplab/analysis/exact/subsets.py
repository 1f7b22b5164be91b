"""Seed 000's CSPStrategy steps 1 and 2 (trivial constraints and subset simplification, to a fixed point): the cells
they settle and the constraints left. The strategy runs them (:mod:`sweeplab.strategies.pgms.studholme_steps`), and the
analyzer settles the cells they decide on a large board whose single-point pass leaves a wide component."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

from sweeplab.core.errors import InconsistentPositionError

#: A constraint as (sorted cells, mines among them).
Equation = tuple[tuple[int, ...], int]


def simplify(constraints: Iterable[Equation]) -> tuple[set[int], set[int], list[Equation]]:
    """Steps 1 and 2 to a fixed point: returns (cells clear in every case, certain mines, the remaining constraints).

    A constraint whose constant is 0 (or equals its number of variables) settles its variables and disappears; known
    values are substituted into every other constraint; a constraint whose variables are a subset of another's is
    subtracted from it. Raises :class:`InconsistentPositionError` if the constraints contradict each other.

    >>> simplify([((0, 1, 2, 3), 2), ((1, 2), 1)])
    (set(), set(), [((0, 3), 1), ((1, 2), 1)])
    >>> simplify([((0, 1), 1), ((0, 1, 2), 2), ((2, 3), 1)])
    ({3}, {2}, [((0, 1), 1)])
    """
    cells: dict[int, set[int]] = {}
    mines: dict[int, int] = {}
    by_cell: dict[int, set[int]] = {}
    by_key: dict[frozenset[int], int] = {}
    known: dict[int, int] = {}
    work: deque[int] = deque()
    for i, (cs, m) in enumerate(constraints):
        key = frozenset(cs)
        other = by_key.get(key)
        if other is not None:
            if mines[other] != m:
                raise InconsistentPositionError(f"two constraints over cells {sorted(key)} need {mines[other]} and {m} mines")
            continue
        cells[i], mines[i], by_key[key] = set(cs), m, i
        for c in cs:
            by_cell.setdefault(c, set()).add(i)
        work.append(i)

    def remove(i: int) -> None:
        for c in cells[i]:
            by_cell[c].discard(i)
        del by_key[frozenset(cells[i])]
        del cells[i], mines[i]

    def replace(i: int, new_cells: set[int], new_mines: int) -> None:
        """Give constraint ``i`` new cells and constant, merging it into an equal constraint if one exists."""
        if new_mines < 0 or new_mines > len(new_cells):
            raise InconsistentPositionError(f"cells {sorted(new_cells)} cannot hold {new_mines} mines")
        del by_key[frozenset(cells[i])]
        for c in cells[i] - new_cells:
            by_cell[c].discard(i)
        cells[i], mines[i] = new_cells, new_mines
        key = frozenset(new_cells)
        other = by_key.get(key)
        if other is not None:
            if mines[other] != new_mines:
                raise InconsistentPositionError(f"cells {sorted(new_cells)} must hold both {mines[other]} and {new_mines} mines")
            for c in new_cells:
                by_cell[c].discard(i)
            del cells[i], mines[i]
            return
        by_key[key] = i
        work.append(i)

    while work:
        i = work.popleft()
        if i not in cells:
            continue
        current, m = cells[i], mines[i]
        if not current:
            remove(i)
            continue
        if m == 0 or m == len(current):  # step 1's degenerate cases
            value = 1 if m else 0
            settled = list(current)
            remove(i)
            for c in settled:
                if known.setdefault(c, value) != value:
                    raise InconsistentPositionError(f"cell {c} would be both clear and a mine")
                for j in list(by_cell.get(c, ())):
                    if j in cells:
                        replace(j, cells[j] - {c}, mines[j] - value)
            continue
        # step 2: subsets, in both directions, among the constraints sharing a cell with this one
        others: set[int] = set()
        for c in current:
            others |= by_cell[c]
        others.discard(i)
        for j in others:
            if j not in cells or i not in cells:
                continue
            cj = cells[j]
            if len(cj) > len(cells[i]) and cells[i] <= cj:
                replace(j, cj - cells[i], mines[j] - mines[i])
            elif len(cj) < len(cells[i]) and cj <= cells[i]:
                replace(i, cells[i] - cj, mines[i] - mines[j])
                break  # i changed and is queued again
    safe = {c for c, v in known.items() if v == 0}
    mine = {c for c, v in known.items() if v == 1}
    remaining = sorted((tuple(sorted(cells[i])), mines[i]) for i in cells)
    return safe, mine, remaining
