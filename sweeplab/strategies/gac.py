"""Seed 001's CSP solver: sum constraints, subset reduction, pair variables and GAC propagation (``gac``, ``gac-endgame``).

Source: seed ``001_7a2ffe71bc3f660b.txt`` ("Solving minesweeper using CSP"), sections "Design", "Constraints",
"Search strategy" and "Discussion / Improvement 1". The paper's table names four rule sets:

- c1: each covered cell is a variable with domain {0, 1} (revealed cells are 0, flags 1 and are left out of the
  model, their count subtracted from the numbers); each revealed number gives an n-ary sum constraint over its
  covered neighbours; generalized arc consistency (GAC) prunes every value no satisfying tuple supports.
- c2: subset reduction: when one constraint's scope lies strictly inside another's, the larger is replaced by
  the difference (``c1 - c2: v3 = 1`` in the paper's first example).
- c3: pair variables: for two constraints sharing two or more cells, a new variable (``V2V3``) with domain
  {0..k} for the k shared cells and two new constraints, each the original with the shared cells replaced by
  the pair variable (``c3: v1 + V2V3 = 2``, ``c4: V2V3 + v4 = 1``).
- c4 (``gac-endgame``): once 20 or fewer covered cells remain, one more constraint says all of them together
  hold the mines left; it is added before the subset reduction, so that, as in the paper's Figure 4/5, the
  frames that each hold one mine are subtracted from it and the rest can be proved safe.

``gac`` plays c1 + c2 + c3, ``gac-endgame`` c1..c4. Propagation runs to a fixed point; every cell whose domain
is one value is certain: safes are revealed and mines flagged (all certain moves found are queued and played
before the model is rebuilt). With nothing certain the strategy reveals a uniformly random covered cell, as the
paper's search strategy does ("we randomly pick the next move"; guess kind ``random``, no safety estimate since
the paper makes none). Options ``subsets=False`` / ``pairs=False`` switch c2 / c3 off to reproduce the table's
c1 and c1 + c2 rows.

Where the paper is unclear:

- First move: paper says its game opens a zero under the first click (Vista rule) and the player "starts off
  with clicking a random grid"; we reveal a uniformly random cell (kind ``first``) and leave the rule to the
  game (``-r zero`` reproduces the paper's setting).
- Pair variables: paper says the pair variable is created and the two new constraints are added; it does not
  say how ``V2V3`` is tied back to ``v2`` and ``v3``. We add the linking constraint ``v2 + v3 - V2V3 = 0`` (the
  "sum" the pair variable stands for), keep the two original constraints, and pair only the constraints left
  after the subset reduction (pairs of pair constraints are not formed), which keeps the model linear in size.
- GAC: paper's ``propagators.py`` tests each value against the constraint's satisfying tuples. We compute the
  same supports without listing tuples: a value ``a`` of ``x`` is supported iff ``total - coef * a`` is a sum
  the other variables can reach (prefix and suffix sets of reachable partial sums). This is exactly GAC, and its
  cost is at most |scope| x (S + 1)^2 per revision for partial sums in 0..S (S <= 20 for the end-game
  constraint), where the tuple version would list up to C(20, 10) = 184,756 tuples. :func:`supports_by_tuples`
  is the paper's tuple method, kept as the reference the tests compare against; its domain-size guard
  (``TUPLE_LIMIT`` tuples) makes it refuse rather than blow up.
- End game: paper says it applies the global constraint "when the number of remaining grids are 20"; we apply it
  whenever 20 or fewer covered unflagged cells remain (``ENDGAME_CELLS``).
"""

from __future__ import annotations

import itertools
import math
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from sweeplab.analysis.exact.constraints import constraints_from
from sweeplab.core.errors import InconsistentPositionError
from sweeplab.core.game import Move
from sweeplab.core.observation import Observation
from sweeplab.strategies.base import Strategy

#: The end-game constraint (c4) is added once this many covered cells or fewer remain (the paper's threshold).
ENDGAME_CELLS = 20
#: Guard of the reference tuple-based GAC: it refuses constraints with more candidate tuples than this.
TUPLE_LIMIT = 1 << 16
#: Guard of the subset reduction: at most this many replacements per position (each one shrinks the model,
#: so the reduction ends long before on any real board; the cap only bounds adversarial input).
REDUCTION_STEPS = 100_000


@dataclass(frozen=True, slots=True)
class SumConstraint:
    """``sum(coefficient * variable) == total`` over ``scope`` (variable ids of a :class:`SumCSP`)."""

    scope: tuple[int, ...]
    coefficients: tuple[int, ...]
    total: int
    name: str = ""


def supported_values(domains: Sequence[Iterable[int]], coefficients: Sequence[int], total: int) -> list[set[int]] | None:
    """For each variable, the values that some satisfying tuple of ``sum(c * x) == total`` uses (GAC supports),
    computed from reachable partial sums; ``None`` if the constraint has no satisfying tuple at all.

    >>> supported_values([{0, 1}, {0, 1, 2}], [1, 1], 3)
    [{1}, {2}]
    """
    doms = [tuple(d) for d in domains]
    n = len(doms)
    prefix: list[set[int]] = [{0}]
    for k in range(n):
        c = coefficients[k]
        prefix.append({p + c * v for p in prefix[k] for v in doms[k]})
    if total not in prefix[n]:
        return None
    suffix: list[set[int]] = [set() for _ in range(n + 1)]
    suffix[n] = {0}
    for k in range(n - 1, -1, -1):
        c = coefficients[k]
        suffix[k] = {s + c * v for s in suffix[k + 1] for v in doms[k]}
    result = []
    for k in range(n):
        others = {p + s for p in prefix[k] for s in suffix[k + 1]}
        c = coefficients[k]
        result.append({v for v in doms[k] if total - c * v in others})
    return result


def supports_by_tuples(
    domains: Sequence[Iterable[int]], coefficients: Sequence[int], total: int, limit: int = TUPLE_LIMIT
) -> list[set[int]] | None:
    """The paper's GAC (propagators.py): list the satisfying tuples, keep each value some tuple uses.

    Guard: raises ``ValueError`` when the constraint has more than ``limit`` candidate tuples.

    >>> supports_by_tuples([{0, 1}, {0, 1}, {0, 1}], [1, 1, 1], 3)
    [{1}, {1}, {1}]
    """
    doms = [sorted(d) for d in domains]
    size = math.prod(len(d) for d in doms)
    if size > limit:
        raise ValueError(f"a constraint with {size} candidate tuples exceeds the tuple limit of {limit}")
    supports: list[set[int]] = [set() for _ in doms]
    found = False
    for values in itertools.product(*doms):
        if sum(c * v for c, v in zip(coefficients, values, strict=True)) == total:
            found = True
            for k, v in enumerate(values):
                supports[k].add(v)
    return supports if found else None


class SumCSP:
    """A CSP of integer variables with finite domains and linear sum constraints, propagated by GAC.

    >>> csp = SumCSP()
    >>> a, b = csp.add_variable("a", (0, 1)), csp.add_variable("b", (0, 1))
    >>> csp.add_constraint((a, b), 2)
    >>> csp.propagate(), csp.domains
    (True, [{1}, {1}])
    """

    def __init__(self) -> None:
        self.names: list[str] = []
        self.domains: list[set[int]] = []
        self.constraints: list[SumConstraint] = []
        self._watch: list[list[int]] = []

    def add_variable(self, name: str, domain: Iterable[int]) -> int:
        """A new variable; returns its id."""
        self.names.append(name)
        self.domains.append(set(domain))
        self._watch.append([])
        return len(self.names) - 1

    def add_constraint(self, scope: Sequence[int], total: int, coefficients: Sequence[int] | None = None, name: str = "") -> None:
        coefs = tuple(coefficients) if coefficients is not None else (1,) * len(scope)
        index = len(self.constraints)
        self.constraints.append(SumConstraint(tuple(scope), coefs, total, name))
        for v in scope:
            self._watch[v].append(index)

    def domain_of(self, name: str) -> set[int]:
        return self.domains[self.names.index(name)]

    def _revise(self, constraint: SumConstraint) -> list[int] | None:
        """Prune unsupported values; the variables whose domains shrank, or ``None`` on a wipe-out."""
        doms = self.domains
        scope = constraint.scope
        if all(c == 1 for c in constraint.coefficients) and all(doms[v] <= {0, 1} for v in scope):
            # 0/1 variables with unit coefficients: the reachable sums are an interval, so counting is exact GAC.
            ones = sum(1 for v in scope if doms[v] == {1})
            free = [v for v in scope if len(doms[v]) == 2]
            need = constraint.total - ones
            if any(not doms[v] for v in scope) or not 0 <= need <= len(free):
                return None
            if need == 0:
                value = 0
            elif need == len(free):
                value = 1
            else:
                return []
            for v in free:
                doms[v] = {value}
            return free
        supports = supported_values([doms[v] for v in scope], constraint.coefficients, constraint.total)
        if supports is None:
            return None
        changed = []
        for v, keep in zip(scope, supports, strict=True):
            if keep != doms[v]:
                doms[v] = keep
                changed.append(v)
        return changed

    def propagate(self) -> bool:
        """GAC to a fixed point (AC-3 over constraints); False if some domain was wiped out (no solution)."""
        queue = deque(range(len(self.constraints)))
        queued = [True] * len(self.constraints)
        while queue:
            index = queue.popleft()
            queued[index] = False
            changed = self._revise(self.constraints[index])
            if changed is None:
                return False
            for v in changed:
                for other in self._watch[v]:
                    if not queued[other]:
                        queued[other] = True
                        queue.append(other)
        return True


def reduce_subsets(constraints: Iterable[tuple[Iterable[int], int]]) -> list[tuple[frozenset[int], int]]:
    """Seed 001's c2: while a constraint's cells lie strictly inside another's, replace the larger by the difference.

    Duplicates are merged and emptied constraints dropped; raises :class:`InconsistentPositionError` if the
    constraints contradict each other on the way (a difference with a negative or too large count).

    >>> sorted((sorted(c), m) for c, m in reduce_subsets([((1, 2, 3), 2), ((1, 2), 1), ((2, 3), 1)]))
    [([1], 1), ([2], 0), ([3], 1)]
    """
    items: dict[int, tuple[frozenset[int], int]] = {}
    by_cell: dict[int, set[int]] = {}
    serial = itertools.count()

    def add(cells: frozenset[int], mines: int) -> int | None:
        if mines < 0 or mines > len(cells):
            raise InconsistentPositionError(f"cells {sorted(cells)} cannot hold {mines} mine(s)")
        if not cells:
            return None
        key = next(serial)
        items[key] = (cells, mines)
        for c in cells:
            by_cell.setdefault(c, set()).add(key)
        return key

    def remove(key: int) -> None:
        cells, _ = items.pop(key)
        for c in cells:
            by_cell[c].discard(key)

    work: deque[int] = deque()
    for cells, mines in constraints:
        key = add(frozenset(cells), mines)
        if key is not None:
            work.append(key)
    steps = 0
    while work and steps < REDUCTION_STEPS:
        key = work.popleft()
        if key not in items:
            continue
        cells, mines = items[key]
        related = set().union(*(by_cell[c] for c in cells))
        related.discard(key)
        for other in sorted(related):
            if other not in items:
                continue
            o_cells, o_mines = items[other]
            if o_cells == cells:
                if o_mines != mines:
                    raise InconsistentPositionError(f"cells {sorted(cells)} need both {mines} and {o_mines} mines")
                remove(other)
            elif cells < o_cells:
                steps += 1
                remove(other)
                new = add(o_cells - cells, o_mines - mines)
                if new is not None:
                    work.append(new)
            elif o_cells < cells:
                steps += 1
                remove(key)
                new = add(cells - o_cells, mines - o_mines)
                if new is not None:
                    work.append(new)
                break
    return list(items.values())


@dataclass(frozen=True)
class Deduction:
    """What seed 001's CSP proves about a set of constraints: certain safe cells and certain mines, and the model."""

    safe: tuple[int, ...]
    mines: tuple[int, ...]
    csp: SumCSP
    consistent: bool = True


def deduce(
    constraints: Iterable[tuple[Iterable[int], int]],
    *,
    subsets: bool = True,
    pairs: bool = True,
    name: str = "v{}",
) -> Deduction:
    """Build seed 001's model over ``constraints`` ((cells, mines) pairs), propagate, and report certain cells.

    ``name`` formats a cell's variable name; pair variables are named by joining their cells' names with
    upper-case ``V`` as the paper does (``V2V3``).

    >>> d = deduce([((1, 2, 3), 2), ((2, 3, 4), 1)])
    >>> d.safe, d.mines, d.csp.domain_of("V2V3")
    ((4,), (1,), {1})
    """
    cons = [(frozenset(c), m) for c, m in constraints]
    if subsets:
        cons = reduce_subsets(cons)
    else:
        unique: dict[frozenset[int], int] = {}
        for cs, m in cons:
            if cs:
                unique.setdefault(cs, m)
        cons = list(unique.items())
    csp = SumCSP()
    var: dict[int, int] = {}
    for cells, _ in cons:
        for c in sorted(cells):
            if c not in var:
                var[c] = csp.add_variable(name.format(c), (0, 1))
    for cells, mines in cons:
        csp.add_constraint([var[c] for c in sorted(cells)], mines)
    if pairs:
        pair_var: dict[frozenset[int], int] = {}
        by_cell: dict[int, list[int]] = {}
        for i, (cells, _) in enumerate(cons):
            for c in cells:
                by_cell.setdefault(c, []).append(i)
        for i, (cells, mines) in enumerate(cons):
            partners = sorted({j for c in cells for j in by_cell[c] if j > i})
            for j in partners:
                other, other_mines = cons[j]
                shared = cells & other
                if len(shared) < 2 or shared in (cells, other):
                    continue
                shared_sorted = sorted(shared)
                if shared not in pair_var:
                    label = "V" + "V".join(name.format(c).lstrip("v") for c in shared_sorted)
                    pv = csp.add_variable(label, range(len(shared) + 1))
                    pair_var[shared] = pv
                    csp.add_constraint([*(var[c] for c in shared_sorted), pv], 0, [1] * len(shared) + [-1], f"{label} link")
                pv = pair_var[shared]
                csp.add_constraint([*(var[c] for c in sorted(cells - shared)), pv], mines)
                csp.add_constraint([*(var[c] for c in sorted(other - shared)), pv], other_mines)
    consistent = csp.propagate()
    safe = tuple(sorted(c for c, v in var.items() if csp.domains[v] == {0})) if consistent else ()
    mines_found = tuple(sorted(c for c, v in var.items() if csp.domains[v] == {1})) if consistent else ()
    return Deduction(safe, mines_found, csp, consistent)


class GacStrategy(Strategy):
    """Seed 001's CSP solver with c1 + c2 + c3 (GAC, subset reduction, pair variables); see the module docstring."""

    name = "gac"
    source = "seed 001 (Solving minesweeper using CSP), Design / Constraints / Search strategy"
    summary = "GAC over sum constraints with subset reduction and pair variables; random cell when stuck"
    endgame = False

    def __init__(self, seed: int | None = None, *, subsets: bool = True, pairs: bool = True, **options: Any) -> None:
        super().__init__(seed, **options)  # any other option is refused with a StrategyError
        self.subsets = subsets
        self.pairs = pairs

    def choose(self, observation: Observation) -> Move:
        move = self.next_queued(observation)
        if move is not None:
            return move
        if observation.is_start():
            return self.guess(observation, self.random_covered(observation), "first")
        problem = constraints_from(observation)
        cons: list[tuple[Iterable[int], int]] = [(c.cells, c.mines) for c in problem.constraints]
        covered = observation.covered()
        if self.endgame and len(covered) <= ENDGAME_CELLS:
            cons.append((covered, problem.mines_left))
        try:
            found = deduce(cons, subsets=self.subsets, pairs=self.pairs)
        except InconsistentPositionError:
            found = None
        if found is not None and found.consistent:
            self.queue(Move.reveal(c) for c in found.safe)
            self.queue(Move.flag(c) for c in found.mines)
        if self._queue:
            return self._queue.popleft()
        return self.guess(observation, self.random_covered(observation), "random")


class GacEndgameStrategy(GacStrategy):
    """Seed 001's c1..c4: :class:`GacStrategy` plus the end-game constraint (all covered cells hold the mines left,
    added once ``ENDGAME_CELLS`` or fewer covered cells remain)."""

    name = "gac-endgame"
    source = "seed 001 (Solving minesweeper using CSP), Discussion / Improvement 1"
    summary = "gac plus the global mine-count constraint once 20 or fewer covered cells remain"
    endgame = True
