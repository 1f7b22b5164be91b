"""Observation -> constraints: each revealed number says how many mines its covered neighbours hold.

Flags count as mines (as in JSMinesweeper's analyser): a number's constraint is its value minus its
flagged neighbours, over its covered unflagged neighbours. The analysis below this module knows no
geometry, only these (cells, mines) pairs.

>>> from sweeplab.formats.position import parse_position
>>> problem = constraints_from(parse_position("3x2x1\\n1HH\\nF1H\\n"))
>>> [(c.cells, c.mines) for c in problem.constraints], problem.unconstrained, problem.mines_left
([((1,), 0), ((1, 2, 5), 0)], (), 0)
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from sweeplab.core.errors import ArgumentError, InconsistentPositionError, UndecidedError, shown
from sweeplab.core.observation import COVERED, FLAGGED, Observation


@dataclass(frozen=True, slots=True)
class Constraint:
    """``mines`` of the covered ``cells`` (sorted) hold a mine; ``source`` is the number that says so."""

    cells: tuple[int, ...]
    mines: int
    source: int


@dataclass(frozen=True)
class Problem:
    """The constraints of a position, its covered cells no number touches, and the mines left to place."""

    constraints: tuple[Constraint, ...]
    frontier: tuple[int, ...]
    unconstrained: tuple[int, ...]
    mines_left: int
    observation: Observation


def describe(observation: Observation, cell: int) -> str:
    value = observation.view[cell]
    return f"the {value} at {observation.board.name(cell)}"


def _observation(value: object, where: str) -> Observation:
    """``value`` if it is an :class:`Observation`, else :class:`ArgumentError` naming ``where``."""
    if not isinstance(value, Observation):
        raise ArgumentError(
            f"{where}: expected an Observation (game.observation(), or a position read with "
            f"sweeplab.formats.read_position), not {shown(value)}"
        )
    return value


def constraints_from(observation: Observation, deadline: float | None = None) -> Problem:
    """The constraints of a position; raises :class:`InconsistentPositionError` naming a number that cannot hold
    locally (more flags than it shows, or more mines than covered neighbours), or a flag count above the total,
    and :class:`UndecidedError` if ``deadline`` (a ``time.perf_counter`` value) passes first."""
    view, neighbours = observation.view, observation.board.neighbours
    flags = view.count(FLAGGED)
    mines_left = observation.mines - flags
    if mines_left < 0:
        raise InconsistentPositionError(f"{flags} cells are flagged but the board has only {observation.mines} mines")
    by_cells: dict[tuple[int, ...], Constraint] = {}
    in_frontier = [False] * len(view)
    for cell, value in enumerate(view):
        if value < 0:
            continue
        if deadline is not None and not cell & 4095 and time.perf_counter() > deadline:
            raise UndecidedError(f"the time budget ran out while reading the numbers of {len(view)} cells")
        covered = []
        flagged = 0
        for n in neighbours[cell]:
            v = view[n]
            if v == COVERED:
                covered.append(n)
            elif v == FLAGGED:
                flagged += 1
        need = value - flagged
        if need < 0:
            raise InconsistentPositionError(
                f"{describe(observation, cell)} cannot hold: it has {flagged} flagged neighbours, more than it shows",
                cells=(cell,),
            )
        if need > len(covered):
            raise InconsistentPositionError(
                f"{describe(observation, cell)} cannot hold: it needs {need} more mine(s) but has only "
                f"{len(covered)} covered unflagged neighbour(s)",
                cells=(cell,),
            )
        if not covered:
            continue
        key = tuple(covered)
        other = by_cells.get(key)
        if other is not None:
            if other.mines != need:
                raise InconsistentPositionError(
                    f"{describe(observation, cell)} and {describe(observation, other.source)} see the same covered "
                    f"cells but need {need} and {other.mines} mines there",
                    cells=(cell, other.source),
                )
            continue
        by_cells[key] = Constraint(key, need, cell)
        for n in covered:
            in_frontier[n] = True
    frontier = tuple(i for i, f in enumerate(in_frontier) if f)
    unconstrained = tuple(i for i, v in enumerate(view) if v == COVERED and not in_frontier[i])
    return Problem(tuple(by_cells.values()), frontier, unconstrained, mines_left, observation)


def coupled(cell_sets: Sequence[Iterable[int]]) -> list[list[int]]:
    """Indices of ``cell_sets`` grouped into coupled sets: sets linked, directly or through others, by a shared cell.

    Each group is in increasing index order; groups are ordered by their first index.

    >>> coupled([(0, 1), (5, 6), (1, 2), ()])
    [[0, 2], [1], [3]]
    """
    parent = list(range(len(cell_sets)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    owner: dict[int, int] = {}
    for i, cells in enumerate(cell_sets):
        for c in cells:
            j = owner.setdefault(c, i)
            if j != i:
                a, b = find(i), find(j)
                if a != b:
                    parent[max(a, b)] = min(a, b)
    groups: dict[int, list[int]] = {}
    for i in range(len(cell_sets)):
        groups.setdefault(find(i), []).append(i)
    return list(groups.values())
