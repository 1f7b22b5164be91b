"""Blocks of a component's super-cells for the chain (:mod:`~sweeplab.analysis.estimate.chain`): a component's solution held
as mines per super-cell, a block's sub-problem given the rest of the solution, and the first solution (a randomised
forward pass, then repairs of the numbers it breaks by exact minimum-violation counts over blocks around them).
"""

from __future__ import annotations

import random
import time
from array import array
from collections import deque
from typing import Any

from sweeplab.analysis.estimate.kernel import CHAIN
from sweeplab.analysis.exact.budget import _OutOfTime
from sweeplab.analysis.exact.components import Component
from sweeplab.analysis.exact.counting import _feasible, _Plan

_PLAN = getattr(CHAIN, "plan", None)  # None without the C chain (or with one built before it had plans)
PACKED = getattr(CHAIN, "block_plan", None)  # None without the C chain (or with one built before packed plans)
_ASSIGN = getattr(CHAIN, "block_assign", None)  # likewise
_LEAST_BROKEN = getattr(CHAIN, "least_broken", None)  # likewise (with packed plans)

PREPARED = 20_000  # blocks whose plans are remembered
REPAIR_STATES = 300  # the cheapest partial states a repair's count keeps per step


class Blocks:
    """A component's super-cells, numbers and adjacency, and one assignment ``x`` (mines per super-cell) with each
    number's residual (its mines less those the assignment puts under it: 0 where the number holds)."""

    def __init__(self, component: Component, rng: random.Random, block: int) -> None:
        self.sizes = [len(sc) for sc in component.supercells]
        self.anchors = [min(sc) for sc in component.supercells]
        self.cons = [(js, m) for js, m, _ in component.constraints]
        n = len(self.sizes)
        self.touching: list[list[int]] = [[] for _ in range(n)]
        for i, (js, _) in enumerate(self.cons):
            for j in js:
                self.touching[j].append(i)
        self._adjacent: list[list[int]] | None = None
        self.rng = rng
        self.block = block
        self.x = [0] * n
        self.residual = [m for _, m in self.cons]
        self._prepared: dict[tuple[int, int], tuple[list[int], _Plan, list[tuple[int, list[int]]]]] = {}
        self._balls: dict[tuple[int, int], tuple[list[int], bytes, bytes]] = {}
        self._structure: tuple[array, array, array, array, array] | None = None
        self._banded: dict[tuple[int, bool], tuple[Any, Any]] = {}

    @property
    def adjacent(self) -> list[list[int]]:
        """Per super-cell, the others that share a number with it (built on first use: the balls and the repair need
        it, the strips do not)."""
        if self._adjacent is None:
            adjacent: list[set[int]] = [set() for _ in self.sizes]
            for js, _ in self.cons:
                for j in js:
                    adjacent[j].update(js)
            self._adjacent = [sorted(a - {j}) for j, a in enumerate(adjacent)]
        return self._adjacent

    def ball(self, center: int, size: int) -> list[int]:
        """Up to ``size`` super-cells, breadth first from ``center``."""
        seen, adjacent = {center}, self.adjacent
        queue = deque([center])
        out: list[int] = []
        while queue and len(out) < size:
            j = queue.popleft()
            out.append(j)
            for k in adjacent[j]:
                if k not in seen:
                    seen.add(k)
                    queue.append(k)
        return out

    def prepared(self, center: int, size: int) -> tuple[list[int], _Plan, list[tuple[int, list[int]]]]:
        """The ball of ``size`` around ``center``, the count's plan for it in that breadth-first order (whose steps
        hold indices into ``ids`` where the needs go: :meth:`steps` fills them in) and ``ids``, each touching number
        with its super-cells inside the ball; remembered, since the shape of a block does not change as the chain
        moves."""
        got = self._prepared.get((center, size))
        if got is None:
            got = self.plan_of(self.ball(center, size))
            if len(self._prepared) >= PREPARED:
                self._prepared.clear()
            self._prepared[(center, size)] = got
        return got

    def plan_of(self, block: list[int], only: set[int] | None = None) -> tuple[list[int], _Plan, list[tuple[int, list[int]]]]:
        """:meth:`prepared` for any block of super-cells, counted in the order given (under the numbers ``only``,
        when given, instead of every number touching the block)."""
        local = {j: p for p, j in enumerate(block)}
        seen: set[int] = set()
        sub: list[tuple[tuple[int, ...], int, int]] = []
        ids: list[tuple[int, list[int]]] = []
        cons, add = self.cons, seen.add
        for j in block:
            for i in self.touching[j]:
                if i not in seen and (only is None or i in only):
                    add(i)
                    inside = [k for k in cons[i][0] if k in local]
                    sub.append((tuple([local[k] for k in inside]), len(ids), i))
                    ids.append((i, inside))
        if _PLAN is None:
            plan = _Plan(Component([(0,) * self.sizes[j] for j in block], sub), list(range(len(block))))
        else:  # the same plan, its steps built in C (a strip's plan has thousands of steps)
            plan = _Plan.__new__(_Plan)
            plan.order, plan.sizes = list(range(len(block))), [self.sizes[j] for j in block]
            plan.cells, plan.mines = sum(plan.sizes), [m for _, m, _ in sub]
            plan.steps = _PLAN(plan.sizes, [(js, m) for js, m, _ in sub])
        return block, plan, ids

    def packed(self, block: list[int], done: bytearray | None = None, skip: bytearray | None = None) -> tuple[bytes, bytes, int]:
        """:meth:`plan_of` built in C for the C move (``_chain.block_plan``): the plan packed as bytes, the numbers
        touching the block packed for :meth:`packed_needs`, and the block's cells. The numbers counted are those
        ``skip`` (a flag per number) leaves and, when ``done`` (a flag per super-cell) is given, whose every
        super-cell lies in the block or is done. A strip of a thousand super-cells takes a millisecond or two,
        where :meth:`plan_of` takes several."""
        assert PACKED is not None  # the strips, which call this, run only with the C chain
        plan, ids = PACKED(self.structure(), block, done, skip)
        sizes = self.sizes
        return plan, ids, sum(sizes[j] for j in block)

    def structure(self) -> tuple[array, array, array, array, array]:
        """The component for the C functions (built once): the super-cells' sizes, the numbers touching each
        super-cell (``touch_list[touch_start[j]:touch_start[j + 1]]``) and each number's super-cells (likewise), as
        arrays of native ints."""
        if self._structure is None:
            touch_start, touch_list = array("i", [0]), array("i")
            for touching in self.touching:
                touch_list.extend(touching)
                touch_start.append(len(touch_list))
            cons_start, cons_members = array("i", [0]), array("i")
            for js, _ in self.cons:
                cons_members.extend(js)
                cons_start.append(len(cons_members))
            self._structure = (array("i", self.sizes), touch_start, touch_list, cons_start, cons_members)
        return self._structure

    def packed_needs(self, ids: bytes) -> list[int]:
        """:meth:`needs` for the ids of :meth:`packed` (in C)."""
        assert CHAIN is not None
        return CHAIN.block_needs(ids, self.x, self.residual)

    def axes(self, width: int, turned: bool = False) -> tuple[list[int], list[int]]:
        """Each super-cell's place along the component's longer side and across it (from 0), by its first cell
        (along the shorter side when ``turned``)."""
        xs = [c % width for c in self.anchors]
        ys = [c // width for c in self.anchors]
        if (max(xs) - min(xs) < max(ys) - min(ys)) != turned:  # strips run down the board
            xs, ys = ys, xs
        low = min(ys)
        return xs, [y - low for y in ys]

    def strips(self, width: int, height: int, tilings: int = 2, turned: bool = False) -> list[tuple[list[int], list[int]]]:
        """Strips of ``height`` cells across the component's longer side, in two tilings offset by half a strip:
        each strip's super-cells ordered along it (a banded order whose count keeps few numbers open however long
        the strip is), and the positions in that list of its inner half (the middle ``height // 2`` rows), whose
        conditional means the boundary sways least. The inner halves of the two tilings cover every super-cell
        once. ``height`` is a multiple of 4; a super-cell lies where its first cell does. ``turned``: strips across
        the shorter side instead."""
        import numpy as np  # only when a position needs an estimate

        key = (width, turned)
        if key not in self._banded:  # the banded order of every super-cell, and their places across, once
            xs, across = self.axes(width, turned)
            order = np.array(sorted(range(len(xs)), key=lambda j: (xs[j], across[j])), dtype=np.int64)
            self._banded[key] = (order, np.array(across, dtype=np.int64)[order])
        order, across = self._banded[key]
        quarter = height // 4
        out = []
        for offset in (0, height // 2)[:tilings]:
            band = (across + height - offset) // height
            by_band = np.argsort(band, kind="stable")  # each strip in the banded order
            bands = band[by_band]
            cuts = np.flatnonzero(np.diff(bands)) + 1
            for part in np.split(by_band, cuts):
                start = int(band[part[0]]) * height - height + offset
                rows = across[part]
                inner = np.flatnonzero((rows >= start + quarter) & (rows < start + height - quarter))
                out.append((order[part].tolist(), inner.tolist()))
        return out

    def needs(self, ids: list[tuple[int, list[int]]]) -> list[int]:
        """Each number touching a block (``ids``, from :meth:`prepared`) less the mines the assignment puts outside
        the block: what the block's own super-cells must hold."""
        x, residual = self.x, self.residual
        out = []
        for i, inside in ids:
            v = residual[i]
            for k in inside:
                v += x[k]
            out.append(v)
        return out

    def steps(self, plan: _Plan, ids: list[tuple[int, list[int]]]) -> list[tuple[int, list[int], list, list[int]]]:
        """``plan``'s steps with each opened number's need (:meth:`needs`) in place of its index."""
        need = self.needs(ids)
        return [(a, [need[i] for i in opened], ts, keep) for a, opened, ts, keep in plan.steps]

    def assign(self, block: list[int], values: list[int]) -> None:
        """Set the block's mines per super-cell, keeping the residuals (in C when it is built)."""
        if _ASSIGN is not None:
            _ASSIGN(self.structure(), block, values, self.x, self.residual)
            return
        x, residual = self.x, self.residual
        for j, v in zip(block, values, strict=True):
            d = v - x[j]
            if d:
                x[j] = v
                for i in self.touching[j]:
                    residual[i] -= d

    def first(self, component: Component, deadline: float, patience: int = 2) -> bool:
        """Find a first solution before ``deadline``: a depth-first search in the count's order, values in a random
        order, that remembers dead partial states (the needs of the open numbers at a step); past ``patience`` times
        the super-cells in visits, the path it holds is completed by drawing each later super-cell's mines within the
        bounds its numbers leave (the nearest value when none fits), and :meth:`repair` mends the numbers broken."""
        if time.perf_counter() > deadline:
            return False
        try:
            plan = _Plan(component, deadline=deadline)
        except _OutOfTime:
            return False
        steps, sizes, n = plan.steps, plan.sizes, len(plan.steps)
        rng = self.rng
        dead: set[tuple[int, tuple[int, ...]]] = set()

        def options(t: int, key: tuple[int, ...]) -> list[tuple[int, tuple[int, ...]]]:
            _n_active, opened_needs, touch_slots, keep = steps[t]
            needs = [*key, *opened_needs]
            lo, hi = _feasible(needs, sizes[t], touch_slots)
            out = []
            for x in range(lo, hi + 1):
                nxt = list(needs)
                for s, _ in touch_slots:
                    nxt[s] -= x
                out.append((x, tuple(nxt[s] for s in keep)))
            if len(out) > 1:
                rng.shuffle(out)
            return out

        chosen: list[int] = []
        stack: list[list] = [[0, (), options(0, ()), 0]]
        visits = 0
        while stack and len(chosen) < n and visits < patience * n:
            frame = stack[-1]
            t, key, opts, i = frame
            if i >= len(opts):
                dead.add((t, key))
                stack.pop()
                if chosen:
                    chosen.pop()
                continue
            frame[3] = i + 1
            x, nkey = opts[i]
            chosen.append(x)
            if t + 1 == n:
                break
            if (t + 1, nkey) in dead:
                chosen.pop()
                continue
            stack.append([t + 1, nkey, options(t + 1, nkey), 0])
            visits += 1
            if not visits & 4095 and time.perf_counter() > deadline:
                return False
        needs = list(stack[-1][1]) if stack and len(chosen) < n else []
        for t in range(len(chosen), n):  # the rest, drawn within the bounds
            _n_active, opened_needs, touch_slots, keep = steps[t]
            needs = [*needs, *opened_needs]
            lo, hi = _feasible(needs, sizes[t], touch_slots)
            v = rng.randint(lo, hi) if lo <= hi else min(max(hi, 0), sizes[t])
            for s, _ in touch_slots:
                needs[s] -= v
            needs = [needs[s] for s in keep]
            chosen.append(v)
        values = [0] * n
        for t, v in enumerate(chosen):
            values[plan.order[t]] = v
        self.assign(list(range(n)), values)
        return self.repair(deadline)

    def repair(self, deadline: float) -> bool:
        """Until every number holds (True) or ``deadline`` passes (False): a block around a random broken number is
        given an assignment that breaks the fewest mines' worth of its numbers (ties drawn at random), by
        :meth:`_least_broken`'s count (in C, ``_chain.least_broken``, when it is built)."""
        residual, rng, cons = self.residual, self.rng, self.cons
        broken = {i for i, r in enumerate(residual) if r}
        size, best, stuck = min(self.block, 16), len(broken), 0
        while broken:
            if time.perf_counter() > deadline:
                return False
            i = rng.choice(tuple(broken))
            center = rng.choice(cons[i][0])
            if _LEAST_BROKEN is not None and PACKED is not None:  # the same count in C, over the ball's packed plan
                block, packed, packed_ids = self._packed_ball(center, size)
                values = _LEAST_BROKEN(packed, self.packed_needs(packed_ids), REPAIR_STATES, rng.getrandbits(64) | 1)
            else:
                block, plan, ids = self.prepared(center, size)
                values = self._least_broken(block, plan, self.steps(plan, ids))
            touched = {c for j in block for c in self.touching[j]}
            self.assign(block, values)
            for c in touched:
                if residual[c]:
                    broken.add(c)
                else:
                    broken.discard(c)
            if len(broken) < best:
                best, stuck = len(broken), 0
            else:
                stuck += 1
                if stuck > 20 + 4 * len(broken):  # a defect no small block mends: wider blocks
                    size, stuck = min(size * 2, 384), 0
        return True

    def _packed_ball(self, center: int, size: int) -> tuple[list[int], bytes, bytes]:
        """The ball of ``size`` around ``center`` with its plan and numbers packed by :meth:`packed` (remembered, as
        :meth:`prepared` remembers the Python plans)."""
        got = self._balls.get((center, size))
        if got is None:
            block = self.ball(center, size)
            plan, ids, _ = self.packed(block)
            if len(self._balls) >= PREPARED:
                self._balls.clear()
            got = self._balls[(center, size)] = (block, plan, ids)
        return got

    def _least_broken(self, block: list[int], plan: _Plan, steps: list, states: int = REPAIR_STATES) -> list[int]:
        """The block's mines per super-cell that minimise the summed |residual| of the numbers touching it, by a
        count of the least cost per partial state: each super-cell's mines within the bounds its numbers leave, or
        around them when none fits (past ``states`` partial states in a step the cheapest are kept, so the result
        may not be the least)."""
        rng = self.rng
        layers: list[dict[tuple, tuple[float, tuple, int]]] = [{(): (0.0, (), 0)}]
        for t, (_n_active, opened_needs, touch_slots, keep) in enumerate(steps):
            size = plan.sizes[t]
            kept = set(keep)
            closing = [s for s, _ in touch_slots if s not in kept]
            new: dict[tuple, tuple[float, tuple, int]] = {}
            for key, (cost, _, _) in layers[t].items():
                needs = [*key, *opened_needs]
                lo, hi = _feasible(needs, size, touch_slots)
                if lo > hi:  # some number breaks whatever this super-cell holds: the nearest values, at a cost
                    lo, hi = max(min(hi, lo) - 1, 0), min(max(hi, lo) + 1, size)
                for v in range(lo, hi + 1):
                    nxt = list(needs)
                    for s, _ in touch_slots:
                        nxt[s] -= v
                    c = cost + sum(abs(nxt[s]) for s in closing) + 0.001 * rng.random()
                    nk = tuple(nxt[s] for s in keep)
                    old = new.get(nk)
                    if old is None or c < old[0]:
                        new[nk] = (c, key, v)
            if len(new) > states:  # keep the cheapest, counting the needs already below 0 as broken
                ranked = sorted(new.items(), key=lambda item: item[1][0] - sum(n for n in item[0] if n < 0))
                new = dict(ranked[:states])
            layers.append(new)
        key, (_cost, _, _) = min(layers[-1].items(), key=lambda item: item[1][0])
        values = [0] * len(block)
        for t in range(len(steps), 0, -1):
            _c, prev, v = layers[t][key]
            values[plan.order[t - 1]] = v
            key = prev
        return values
