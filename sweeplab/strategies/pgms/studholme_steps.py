"""Seed 000's CSPStrategy, steps 1-3 (described, with where we depart from the paper, in
:mod:`sweeplab.strategies.pgms.studholme`): constraints in; settled cells, simplified constraints and coupled sets
solved by backtracking, pruned by the mine count, out."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from sweeplab.analysis.exact.constraints import coupled
from sweeplab.analysis.exact.subsets import Equation, simplify

#: Variable assignments (search nodes) after which one coupled set's enumeration stops
#: (see :mod:`sweeplab.strategies.pgms.studholme`).
DEFAULT_NODE_CAP = 1_000_000


# ----- steps 1 and 2: trivial constraints and subset simplification: sweeplab.analysis.exact.subsets.simplify -----


def coupled_sets(constraints: Sequence[Equation]) -> list[list[Equation]]:
    """Step 3's partition: constraints sharing a variable (directly or through others) form one coupled set.

    >>> coupled_sets([((0, 1), 1), ((5, 6), 1), ((1, 2), 1)])
    [[((0, 1), 1), ((1, 2), 1)], [((5, 6), 1)]]
    """
    return [[constraints[i] for i in group] for group in coupled([cs for cs, _ in constraints])]


# ----- step 3: the backtracking enumeration of all solutions of one coupled set -----
@dataclass
class CoupledSet:
    """All solutions of one coupled set, tallied as the paper does.

    ``counts[k]`` is the number of solutions that place ``k`` mines; ``tally[k][i]`` the number of those in which
    variable ``cells[i]`` is a mine (the paper's 2-D array indexed by mine count and variable). ``found`` is the
    number of solutions enumerated before any mine-count pruning; ``complete`` is False when the node cap stopped
    the search.
    """

    cells: tuple[int, ...]
    constraints: int
    counts: dict[int, int]
    tally: dict[int, list[int]]
    found: int
    nodes: int
    complete: bool = True
    index: dict[int, int] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.index = {c: i for i, c in enumerate(self.cells)}

    @property
    def degrees_of_freedom(self) -> int:
        """The paper's size of a set: variables - constraints."""
        return len(self.cells) - self.constraints

    @property
    def solutions(self) -> int:
        """Solutions kept (after mine-count pruning)."""
        return sum(self.counts.values())

    def mine_solutions(self, cell: int) -> int:
        """Kept solutions in which ``cell`` is a mine."""
        i = self.index[cell]
        return sum(row[i] for row in self.tally.values())

    def clear_probability(self, cell: int) -> float:
        """Step 6: solutions with the variable 0 / all solutions, every solution equally likely."""
        total = self.solutions
        return (total - self.mine_solutions(cell)) / total if total else 0.0

    def expected_mines(self) -> float:
        """The mean mine count of the set's kept solutions, every solution equally likely."""
        total = self.solutions
        return sum(k * n for k, n in self.counts.items()) / total if total else 0.0

    def restrict(self, allowed: Iterable[int]) -> CoupledSet:
        """A copy keeping only the solutions whose mine count is in ``allowed``."""
        keep = set(allowed)
        return CoupledSet(
            self.cells,
            self.constraints,
            {k: n for k, n in self.counts.items() if k in keep},
            {k: row for k, row in self.tally.items() if k in keep},
            self.found,
            self.nodes,
            self.complete,
        )


def _variable_order(n: int, var_cons: list[list[int]], cvars: list[list[int]]) -> list[int]:
    """Most constraints first; ties by breadth-first order over the constraint graph from the first such variable."""
    rank = [-1] * n
    seen = 0
    for start in sorted(range(n), key=lambda v: -len(var_cons[v])):
        if rank[start] >= 0:
            continue
        rank[start] = seen
        seen += 1
        queue = deque([start])
        while queue:
            v = queue.popleft()
            for c in var_cons[v]:
                for u in cvars[c]:
                    if rank[u] < 0:
                        rank[u] = seen
                        seen += 1
                        queue.append(u)
    return sorted(range(n), key=lambda v: (-len(var_cons[v]), rank[v]))


def solve_coupled_set(
    constraints: Sequence[Equation], mines_left: int | None = None, node_cap: int = DEFAULT_NODE_CAP
) -> CoupledSet:
    """Find every solution of a coupled set by the paper's backtracking and tally them by mine count and variable.

    A variable forced by one of its constraints is assigned first (with that value); otherwise the unassigned
    variable in most constraints. Each variable is tried with 0, then 1; after each assignment the constraints of
    that variable are checked and a violated one ends the branch. Partial assignments needing more than
    ``mines_left`` mines are dropped. After ``node_cap`` assignments the search stops (``complete`` False).

    >>> s = solve_coupled_set([((0, 1, 2), 1), ((1, 2, 3), 1)])
    >>> s.cells, s.counts, s.tally
    ((0, 1, 2, 3), {2: 1, 1: 2}, {2: [1, 0, 0, 1], 1: [0, 1, 1, 0]})
    """
    cells = tuple(sorted({c for cs, _ in constraints for c in cs}))
    n = len(cells)
    idx = {c: i for i, c in enumerate(cells)}
    cvars = [[idx[c] for c in cs] for cs, _ in constraints]
    need = [m for _, m in constraints]
    free = [len(vs) for vs in cvars]
    var_cons: list[list[int]] = [[] for _ in range(n)]
    for ci, vs in enumerate(cvars):
        for v in vs:
            var_cons[v].append(ci)
    order = _variable_order(n, var_cons, cvars)
    cap_mines = mines_left if mines_left is not None else n
    value = [-1] * n
    trail: list[int] = []
    tally: dict[int, list[int]] = {}
    state = [0, 0]  # mines placed, nodes visited

    def assign(v: int, val: int) -> bool:
        value[v] = val
        trail.append(v)
        state[0] += val
        state[1] += 1
        ok = True
        for c in var_cons[v]:
            free[c] -= 1
            need[c] -= val
            if need[c] < 0 or need[c] > free[c]:
                ok = False
        return ok

    def undo(mark: int) -> None:
        while len(trail) > mark:
            v = trail.pop()
            val = value[v]
            value[v] = -1
            state[0] -= val
            for c in var_cons[v]:
                free[c] += 1
                need[c] += val

    def try_value(v: int, val: int) -> bool:
        """Assign ``v`` then every variable its constraints force (the paper's "restricted to a particular value")."""
        if not assign(v, val):
            return False
        pending = list(var_cons[v])
        while pending:
            c = pending.pop()
            if free[c] == 0:
                continue
            if need[c] == 0:
                forced = 0
            elif need[c] == free[c]:
                forced = 1
            else:
                continue
            for u in cvars[c]:
                if value[u] < 0:
                    if not assign(u, forced):
                        return False
                    pending.extend(var_cons[u])
        return state[0] <= cap_mines

    def credit(mark: int, counts: dict[int, int]) -> None:
        """Every variable set to 1 since ``mark`` is a mine in each of the subtree's ``counts`` solutions."""
        for v in trail[mark:]:
            if value[v] == 1:
                for k, cnt in counts.items():
                    row = tally.get(k)
                    if row is None:
                        row = tally[k] = [0] * n
                    row[v] += cnt

    def merge(into: dict[int, int], counts: dict[int, int]) -> None:
        for k, cnt in counts.items():
            into[k] = into.get(k, 0) + cnt

    def next_branch(pos: int) -> int:
        pos += 1
        while pos < n and value[order[pos]] >= 0:
            pos += 1
        return pos

    total: dict[int, int] = {}
    aborted = False
    if n == 0:
        total = {0: 1}
    else:
        # frame: [order position, variable, next value to try, trail mark of the current try, counts below]
        frames: list[list[Any]] = [[0, order[0], 0, 0, {}]]
        while frames:
            frame = frames[-1]
            if frame[2] > 1 or aborted:
                frames.pop()
                below = frame[4]
                if frames:
                    parent = frames[-1]
                    credit(parent[3], below)
                    merge(parent[4], below)
                    undo(parent[3])
                else:
                    total = below
                continue
            val = frame[2]
            frame[2] = val + 1
            mark = len(trail)
            frame[3] = mark
            if not try_value(frame[1], val):
                undo(mark)
                continue
            if state[1] > node_cap:
                aborted = True
                undo(mark)
                continue
            pos = next_branch(frame[0])
            if pos == n:  # every variable assigned and every constraint satisfied: one solution
                leaf = {state[0]: 1}
                credit(mark, leaf)
                merge(frame[4], leaf)
                undo(mark)
                continue
            frames.append([pos, order[pos], 0, 0, {}])
    counts = {k: c for k, c in total.items() if c}
    for k in counts:
        tally.setdefault(k, [0] * n)
    tally = {k: row for k, row in tally.items() if k in counts}
    return CoupledSet(cells, len(constraints), counts, tally, sum(counts.values()), state[1], not aborted)


def prune_by_mine_count(sets: Sequence[CoupledSet], mines_left: int, unconstrained: int, lower: bool = True) -> list[CoupledSet]:
    """Step 3's pruning: drop solutions needing more mines than remain given the least the other sets need, or
    (when ``lower``) leaving more mines than the unconstrained squares can hold given the most the other sets can
    take. Repeated until nothing changes. An incomplete set constrains the others only by its variable count.
    If pruning would empty a set (an inconsistent position), the sets are returned unpruned.
    """
    allowed = [set(s.counts) for s in sets]

    def low(i: int) -> int:
        return min(allowed[i]) if sets[i].complete else 0

    def high(i: int) -> int:
        return max(allowed[i]) if sets[i].complete else len(sets[i].cells)

    changed = True
    while changed:
        changed = False
        lows = [low(i) for i in range(len(sets))]
        highs = [high(i) for i in range(len(sets))]
        sum_low, sum_high = sum(lows), sum(highs)
        for i in range(len(sets)):
            most = mines_left - (sum_low - lows[i])
            least = mines_left - unconstrained - (sum_high - highs[i]) if lower else 0
            keep = {k for k in allowed[i] if least <= k <= most}
            if keep != allowed[i]:
                if not keep:
                    return list(sets)
                allowed[i] = keep
                changed = True
                break
    return [s if allowed[i] == set(s.counts) else s.restrict(allowed[i]) for i, s in enumerate(sets)]


class SetSize(NamedTuple):
    """The size of a solved coupled set, as seed 000 reports it ("600,000 games" paragraph); a plain tuple
    (variables, constraints, degrees of freedom, solutions found) for the benchmark's records."""

    variables: int
    constraints: int
    degrees_of_freedom: int
    solutions: int


__all__ = [
    "DEFAULT_NODE_CAP",
    "CoupledSet",
    "Equation",
    "SetSize",
    "coupled_sets",
    "prune_by_mine_count",
    "simplify",
    "solve_coupled_set",
]
