"""Stage one, super-cells and components: constraints in, independent components (:class:`Component`) out: frontier
cells that touch exactly the same numbers grouped into super-cells, the super-cells split into coupled sets."""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass

from sweeplab.analysis.exact.constraints import Constraint, coupled
from sweeplab.core.errors import UndecidedError


@dataclass
class Component:
    """A coupled set: super-cells (lists of cells) and constraints over super-cell indices."""

    supercells: list[tuple[int, ...]]
    constraints: list[tuple[tuple[int, ...], int, int]]  # (super-cell indices, mines, source cell)

    def key(self) -> tuple:
        """Equal keys mean the same super-cells in the same order under the same constraints, so a cached tally (which
        is indexed by super-cell) lines up with any component of that key, whichever path built it."""
        return tuple(self.supercells), tuple((js, m) for js, m, _ in self.constraints)

    @property
    def cells(self) -> list[int]:
        return [c for sc in self.supercells for c in sc]


def build_components(constraints: Iterable[Constraint], deadline: float | None = None) -> list[Component]:
    """Group frontier cells into super-cells and split them into independent components.

    Raises :class:`UndecidedError` when ``deadline`` (a ``time.perf_counter`` value) passes first."""
    constraints = list(constraints)
    touching: dict[int, list[int]] = {}
    for i, con in enumerate(constraints):
        for c in con.cells:
            touching.setdefault(c, []).append(i)
    groups: dict[tuple[int, ...], list[int]] = {}
    for cell, idx in touching.items():
        groups.setdefault(tuple(idx), []).append(cell)
    root_of = {i: group[0] for group in coupled([con.cells for con in constraints]) for i in group}
    by_root: dict[int, list[tuple[int, ...]]] = {}
    for key in groups:
        by_root.setdefault(root_of[key[0]], []).append(key)
    if deadline is not None and time.perf_counter() > deadline:
        raise UndecidedError(f"the time budget ran out while grouping {len(constraints)} numbers into components")
    components = []
    for n, keys in enumerate(by_root.values()):
        if n % 64 == 0 and deadline is not None and time.perf_counter() > deadline:
            raise UndecidedError(f"the time budget ran out while grouping {len(constraints)} numbers into components")
        keys.sort(key=lambda k: min(groups[k]))
        supercells = [tuple(sorted(groups[k])) for k in keys]
        members: dict[int, list[int]] = {}
        for j, k in enumerate(keys):
            for i in k:
                members.setdefault(i, []).append(j)
        cons = [(tuple(js), constraints[i].mines, constraints[i].source) for i, js in sorted(members.items())]
        components.append(Component(supercells, cons))
    components.sort(key=lambda comp: min(comp.cells))
    return components
