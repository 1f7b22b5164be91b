"""Seed 003's matrix algorithms on ``A x = b`` (rows as (support bitmask, b)): substitution, DSS backbones (Algorithms
1-2), the enumeration of solutions (DSScsp, Algorithm 3, and plain backtracking), independent sub-matrices and
equation (3); the reconstructions are described in :mod:`sweeplab.strategies.dss.players`, whose players use them.

>>> red = dss([(0b011, 1), (0b111, 2)])  # x0 + x1 = 1, x0 + x1 + x2 = 2  ->  x2 = 1
>>> bin(red.ones), bin(red.zeros), red.rows
('0b100', '0b0', ((3, 1),))
>>> sorted(enumerate_solutions([(0b011, 1), (0b111, 2)]).solutions)
[5, 6]
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from sweeplab.analysis.exact.constraints import Problem, coupled

#: One row of ``A x = b``: (bitmask of the columns with a 1, b).
Row = tuple[int, int]

FULL_MAX_NODES = 50_000


def bits(mask: int) -> Iterator[int]:
    """The column indices set in ``mask``, lowest first.

    >>> list(bits(0b10110))
    [1, 2, 4]
    """
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _table(rows: Iterable[Row]) -> dict[int, int] | None:
    """Rows as support -> b, merging duplicates; None if a row cannot hold or two equal supports disagree."""
    table: dict[int, int] = {}
    for support, b in rows:
        if b < 0 or b > support.bit_count():
            return None
        if not support:
            continue
        if table.setdefault(support, b) != b:
            return None
    return table


def substitute(rows: Iterable[Row], ones: int, zeros: int) -> dict[int, int] | None:
    """The matrix with the columns in ``ones`` set to 1 and those in ``zeros`` set to 0, as support -> b.

    Rows left empty vanish; None when a row is left with ``b < 0`` or ``b > |support|`` (the pruning rule).

    >>> substitute([(0b011, 1), (0b110, 1)], ones=0b001, zeros=0)
    {2: 0, 6: 1}
    >>> substitute([(0b011, 1)], ones=0b011, zeros=0) is None
    True
    """
    assigned = ones | zeros
    out: dict[int, int] = {}
    for support, b in rows:
        if support & assigned:
            b -= (support & ones).bit_count()
            support &= ~assigned
        if b < 0 or b > support.bit_count():
            return None
        if support and out.setdefault(support, b) != b:
            return None
    return out


@dataclass(frozen=True)
class Reduction:
    """What DSS leaves: the reduced rows, and the columns it forced to 1 (``ones``) and to 0 (``zeros``)."""

    rows: tuple[Row, ...]
    ones: int
    zeros: int


def _pairwise(table: dict[int, int]) -> tuple[int, int, dict[int, int]] | None:
    """One round of pairwise row reasoning: (forced ones, forced zeros, subset replacements), or None if infeasible."""
    by_column: dict[int, list[int]] = {}
    for support in table:
        for column in bits(support):
            by_column.setdefault(column, []).append(support)
    ones = zeros = 0
    replace: dict[int, int] = {}
    for si, bi in table.items():
        seen: set[int] = {si}
        for column in bits(si):
            for sj in by_column[column]:
                if sj in seen:
                    continue
                seen.add(sj)
                bj = table[sj]
                only_i, only_j = si & ~sj, sj & ~si
                d = bi - bj
                if d > only_i.bit_count() or -d > only_j.bit_count():
                    return None
                if d == only_i.bit_count():
                    ones |= only_i
                    zeros |= only_j
                elif not only_j and si not in replace:
                    replace[si] = sj
    return ones, zeros, replace


def dss(rows: Iterable[Row]) -> Reduction | None:
    """Deterministic Solution Search: the columns the rows force, found by row-level reasoning to a fixed point.

    Returns None when the rows contradict each other. Every forced value holds in every solution of the rows.

    >>> red = dss([(0b0011, 1), (0b0110, 2)])  # x0+x1 = 1, x1+x2 = 2 -> x2 = 1, x0 = 0, then x1 = 1
    >>> bin(red.ones), bin(red.zeros), red.rows
    ('0b110', '0b1', ())
    >>> dss([(0b01, 1), (0b11, 0)]) is None
    True
    """
    table = _table(rows)
    if table is None:
        return None
    all_ones = all_zeros = 0
    while table:
        ones = zeros = 0
        for support, b in table.items():
            if b == 0:
                zeros |= support
            elif b == support.bit_count():
                ones |= support
        if not (ones | zeros):
            found = _pairwise(table)
            if found is None:
                return None
            ones, zeros, replace = found
            if not (ones | zeros):
                if not replace:
                    break
                # each replaced row keeps its subset row (never itself replaced into a cycle: subsets are strict)
                table = _table(
                    (si & ~replace[si], b - table[replace[si]]) if si in replace else (si, b) for si, b in table.items()
                )
                if table is None:
                    return None
                continue
        if ones & zeros:
            return None
        all_ones |= ones
        all_zeros |= zeros
        table = substitute(table.items(), ones, zeros)
        if table is None:
            return None
    return Reduction(tuple(table.items()), all_ones, all_zeros)


@dataclass(frozen=True)
class Enumeration:
    """The solutions an enumeration found (each a bitmask of the columns set to 1), the nodes it visited, whether it
    explored the whole tree, and which guard stopped it ("" when none did; "depth" when sub-trees were dropped)."""

    solutions: tuple[int, ...]
    nodes: int
    complete: bool
    stopped: str = ""


def enumerate_solutions(
    rows: Iterable[Row],
    columns: int = 0,
    *,
    use_dss: bool = True,
    rng: random.Random | None = None,
    max_solutions: int | None = None,
    max_depth: int | None = None,
    max_nodes: int | None = FULL_MAX_NODES,
) -> Enumeration:
    """Every 0/1 assignment of ``columns`` (default: the columns of the rows) that satisfies the rows, up to the caps.

    ``use_dss`` runs DSS at every node (DSScsp, Algorithm 3); without it this is plain backtracking. ``rng``
    chooses, at each branch, whether 1 or 0 is explored first (without it, 1 first). ``max_solutions`` stops after
    that many solutions, ``max_nodes`` after that many visited nodes, and ``max_depth`` drops nodes that many
    branching edges below the root. ``complete`` is True only when the whole tree was explored.

    >>> e = enumerate_solutions([(0b111, 1)], use_dss=False)
    >>> sorted(e.solutions), e.complete
    ([1, 2, 4], True)
    >>> enumerate_solutions([(0b111, 1)], max_solutions=2).complete
    False
    """
    rows = list(rows)
    for support, _ in rows:
        columns |= support
    start = _table(rows)
    if start is None:
        return Enumeration((), 0, True)
    stack: list[tuple[dict[int, int], int, int, int]] = [(start, 0, 0, 0)]
    solutions: list[int] = []
    nodes = 0
    stopped = ""
    while stack:
        if max_nodes is not None and nodes >= max_nodes:
            return Enumeration(tuple(solutions), nodes, False, "nodes")
        table, ones, assigned, depth = stack.pop()
        nodes += 1
        if use_dss and table:
            red = dss(table.items())
            if red is None:
                continue
            table = dict(red.rows)
            ones |= red.ones
            assigned |= red.ones | red.zeros
        free = columns & ~assigned
        if not free:
            solutions.append(ones)
            if max_solutions is not None and len(solutions) >= max_solutions:
                if stack:
                    return Enumeration(tuple(solutions), nodes, False, "solutions")
                break
            continue
        if max_depth is not None and depth >= max_depth:
            stopped = "depth"
            continue
        union = 0
        for support in table:
            union |= support
        pick = union or free
        column = pick & -pick
        one_first = rng.random() < 0.5 if rng is not None else True
        for value in (0, 1) if one_first else (1, 0):  # pushed in reverse: the last pushed is explored first
            child = substitute(table.items(), column if value else 0, 0 if value else column)
            if child is not None:
                stack.append((child, ones | column if value else ones, assigned | column, depth + 1))
    return Enumeration(tuple(solutions), nodes, not stopped, stopped)


def components(rows: Sequence[Row]) -> list[list[Row]]:
    """The rows split into independent sub-matrices (rows linked through shared columns), in order of first row.

    >>> components([(0b0011, 1), (0b1100, 1), (0b0110, 1)]) == [[(0b0011, 1), (0b1100, 1), (0b0110, 1)]]
    True
    >>> components([(0b01, 1), (0b10, 0)])
    [[(1, 1)], [(2, 0)]]
    """
    return [[rows[i] for i in group] for group in coupled([bits(support) for support, _ in rows])]


def matrix_from(problem: Problem) -> tuple[tuple[int, ...], list[Row]]:
    """The columns (frontier cells, column j is ``columns[j]``) and the rows of ``A x = b`` for a position."""
    columns = problem.frontier
    index = {cell: j for j, cell in enumerate(columns)}
    rows = []
    for constraint in problem.constraints:
        support = 0
        for cell in constraint.cells:
            support |= 1 << index[cell]
        rows.append((support, constraint.mines))
    return columns, rows


def column_means(solutions: Sequence[int], columns: int) -> dict[int, float]:
    """Equation (3): for each column in ``columns``, the fraction of the solutions with it set.

    >>> column_means([0b01, 0b11], 0b11)
    {0: 1.0, 1: 0.5}
    """
    n = len(solutions)
    return {j: sum((s >> j) & 1 for s in solutions) / n for j in bits(columns)}


__all__ = [
    "FULL_MAX_NODES",
    "Enumeration",
    "Reduction",
    "Row",
    "bits",
    "column_means",
    "components",
    "dss",
    "enumerate_solutions",
    "matrix_from",
    "substitute",
]
