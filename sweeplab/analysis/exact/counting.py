"""Stage two, the exact count: a :class:`Component` in, its :class:`Tally` out (weighted solutions by mine count and
each super-cell's expected mines), by dynamic programming over the super-cells; the pure-Python twin of the C kernel."""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from sweeplab.analysis.exact.budget import _CHECK_EVERY, DEFAULT_BUDGET, Budget, _check, _TooBig
from sweeplab.analysis.exact.components import Component

PY_ENTRY_BYTES = 200  # rough memory of one partial state in the pure-Python count (a dict entry, a tuple key)

_BINOM = [[math.comb(n, x) for x in range(n + 1)] for n in range(9)]  # a super-cell holds at most 8 cells


@dataclass
class Tally:
    """A component's weighted solutions by mine count k: ``weight[k]`` and ``expected[k][j]`` (weighted mines in
    super-cell j). Exact integers when counted; floats when estimated (divided by ``exp(log_scale)``), with the
    independent runs kept as ``batches``; floats too when folded (``rounding``: exact up to rounding, one expected
    row that holds only against the rest of its position, see :mod:`~sweeplab.analysis.estimate.folding`)."""

    weight: dict[int, Any]  # int when exact, float when estimated
    expected: dict[int, list[Any]]
    exact: bool = True
    batches: list[Tally] = field(default_factory=list)
    states: int = 0
    log_scale: float = 0.0  # estimates: the natural log of the factor the weights were divided by
    rounding: bool = False  # counted in floating point (analysis.folding): exact up to rounding, not estimated


def _order(component: Component) -> list[int]:
    """A banded order of super-cells (breadth first from a least-connected one) that keeps few constraints open."""
    n = len(component.supercells)
    adjacent: list[set[int]] = [set() for _ in range(n)]
    for js, _, _ in component.constraints:
        for j in js:
            adjacent[j].update(js)
    for j in range(n):
        adjacent[j].discard(j)
    order: list[int] = []
    seen = [False] * n
    starts = iter(sorted(range(n), key=lambda j: (len(adjacent[j]), j)))  # the least connected first, once
    while len(order) < n:
        start = next(j for j in starts if not seen[j])  # the least connected not yet ordered (each piece's start)
        seen[start] = True
        queue = deque([start])
        while queue:
            j = queue.popleft()
            order.append(j)
            for k in sorted(adjacent[j], key=lambda k: (len(adjacent[k]), k)):
                if not seen[k]:
                    seen[k] = True
                    queue.append(k)
    return order


class _Plan:
    """Precomputed steps of the count: per step the super-cell, the constraints it touches and the bounds. ``order``
    (super-cell indices) replaces the banded order when the caller has one (a block of the chain, breadth first)."""

    def __init__(self, component: Component, order: list[int] | None = None, deadline: float | None = None) -> None:
        """Raises ``_OutOfTime`` past ``deadline`` (a component of thousands of super-cells with a hundred numbers
        open takes a second or more to plan in Python)."""
        self.order = _order(component) if order is None else order
        sizes = [len(sc) for sc in component.supercells]
        position = [0] * len(sizes)
        for t, j in enumerate(self.order):
            position[j] = t
        cons = component.constraints
        touching_of: list[list[int]] = [[] for _ in sizes]
        first, last = [], []
        for i, (js, _, _) in enumerate(cons):
            ts = [position[j] for j in js]
            first.append(min(ts))
            last.append(max(ts))
            for j in js:
                touching_of[j].append(i)
        remaining = [sum(sizes[j] for j in js) for js, _, _ in cons]  # capacity not yet assigned
        self.sizes = [sizes[j] for j in self.order]
        self.cells = sum(sizes)
        self.mines = [m for _, m, _ in cons]
        self.steps = []
        active: list[int] = []
        for t, j in enumerate(self.order):  # list operations only (done in C): wide plans have 100 open constraints
            if not t & 31:
                _check(deadline)
            touching = touching_of[j]
            opened = [i for i in touching if first[i] == t]
            now = active + opened if opened else active  # constraints open while assigning step t
            index = now.index
            size = sizes[j]
            touch_slots = []
            closing = []
            for i in touching:
                remaining[i] -= size
                s = index(i)
                touch_slots.append((s, remaining[i]))
                if last[i] == t:
                    closing.append(s)
            keep = list(range(len(now)))
            after = list(now)
            if len(closing) > 1:
                closing.sort(reverse=True)
            for s in closing:
                del keep[s], after[s]
            self.steps.append((len(active), [self.mines[i] for i in opened], touch_slots, keep))
            active = after


def _feasible(needs: list[int], size: int, touch_slots: list[tuple[int, int]]) -> tuple[int, int]:
    """The range of mines a step's super-cell may hold: no touched constraint may go below 0 or be left needing more
    than its later super-cells can hold. Empty when the first bound exceeds the second."""
    lo, hi = 0, size
    for s, cap in touch_slots:
        r = needs[s]
        if r < hi:
            hi = r
        if r - cap > lo:
            lo = r - cap
    return lo, hi


def _successors(
    key: tuple, opened_needs: list[int], size: int, touch_slots: list[tuple[int, int]], keep: list[int]
) -> list[tuple[int, tuple]]:
    """The partial states one step of a plan leads to from ``key`` (mines so far, needs of the open constraints):
    (mines placed in the step's super-cell, the next key), for every feasible count. Shared by :func:`count` and the
    chain's block count."""
    needs = [*key[1:], *opened_needs]
    lo, hi = _feasible(needs, size, touch_slots)
    k = key[0]
    out = []
    for x in range(lo, hi + 1):
        if x:
            for s, _ in touch_slots:
                needs[s] -= x
            out.append((x, (k + x, *[needs[s] for s in keep])))
            for s, _ in touch_slots:
                needs[s] += x
        else:
            out.append((0, (k, *[needs[s] for s in keep])))
    return out


def count(component: Component, budget: Budget = DEFAULT_BUDGET, deadline: float | None = None) -> Tally:
    """Exact weighted solution counts of a component by mine count (the pure-Python twin of the C kernel).

    A forward pass merges partial states keyed by (mines so far, needs of the open constraints); a backward pass
    carries, per state, the weighted completions ending at each final count, which gives every super-cell's
    expected mines per final count in time linear in the states. Raises ``_TooBig`` past ``budget.max_states``
    states in a step or ``budget.max_bytes`` of tables, and ``_OutOfTime`` past ``deadline``."""
    plan = _Plan(component, deadline=deadline)
    max_entries = max(budget.max_bytes // PY_ENTRY_BYTES, 1)
    layers: list[dict[tuple, int]] = [{(0,): 1}]
    entries, tick, peak = 1, 0, 1
    for t, (_n_active, opened_needs, touch_slots, keep) in enumerate(plan.steps):
        size = plan.sizes[t]
        binom = _BINOM[size]
        new: dict[tuple, int] = {}
        get = new.get
        for key, w in layers[t].items():
            for x, nk in _successors(key, opened_needs, size, touch_slots, keep):
                new[nk] = get(nk, 0) + w * binom[x]
            tick += 1
            if tick >= _CHECK_EVERY:
                tick = 0
                _check(deadline)
        layers.append(new)
        entries += len(new)
        peak = max(peak, len(new))
        if len(new) > budget.max_states or entries > max_entries:
            raise _TooBig
    _check(deadline)
    last = layers[-1]
    finals = sorted(key[0] for key in last)
    nf = len(finals)
    beta: dict[tuple, list[int]] = {}
    for f, k in enumerate(finals):
        row = [0] * nf
        row[f] = 1
        beta[(k,)] = row
    expected_rows = [[0] * len(plan.order) for _ in finals]
    for t in range(len(plan.steps) - 1, -1, -1):
        _n_active, opened_needs, touch_slots, keep = plan.steps[t]
        size = plan.sizes[t]
        binom = _BINOM[size]
        acc = [0] * nf
        previous: dict[tuple, list[int]] = {}
        for key, a in layers[t].items():
            needs = [*key[1:], *opened_needs]
            lo, hi = _feasible(needs, size, touch_slots)
            k = key[0]
            b = [0] * nf
            for x in range(lo, hi + 1):
                if x:
                    for s, _ in touch_slots:
                        needs[s] -= x
                    bn = beta[(k + x, *[needs[s] for s in keep])]
                    for s, _ in touch_slots:
                        needs[s] += x
                else:
                    bn = beta[(k, *[needs[s] for s in keep])]
                c = binom[x]
                ax = a * c * x
                for f in range(nf):
                    v = bn[f]
                    if v:
                        b[f] += c * v
                        if x:
                            acc[f] += ax * v
            previous[key] = b
            tick += 1
            if tick >= _CHECK_EVERY:
                tick = 0
                _check(deadline)
        j = plan.order[t]
        for f in range(nf):
            expected_rows[f][j] = acc[f]
        beta = previous
        layers[t + 1] = {}
    return Tally({k: last[(k,)] for k in finals}, dict(zip(finals, expected_rows, strict=True)), True, states=peak)
