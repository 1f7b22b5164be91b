"""The exact probability engine: every covered cell's mine probability, weighted by the global mine count.

Stages (named as in minesweepr): constraints -> super-cells (frontier cells that touch exactly the same
numbers) -> independent components -> a per-component count of weighted solutions by mine count k
(dynamic programming over super-cells, merging equal partial states, so a long thin frontier costs
little; a forward pass of weights, then a backward pass for each super-cell's expected mines) ->
weighting by C(U, R - K), the ways to put the remaining R - K mines among the U covered cells no number
touches, where K sums the components' counts. All of it in exact integers: the result is the true
posterior under a uniformly random layout, equal to brute force over every layout.

The budget is a promise (:class:`Budget`): ``Analyzer.analyze`` returns within ``seconds`` plus a small overhead
(:data:`OVERHEAD_SECONDS`), with the best answer it has. Every stage checks the clock (constraints, components,
the count, in the C kernel too, the estimate, the weighting, the witness search). The exact count may use the
first :data:`EXACT_SHARE` of the budget; a component still uncounted then (too many partial states, too much
memory, or no time) is estimated by a branching particle filter in the rest, and the result says
``exact=False`` with an estimated error (two standard errors over batches). A position is called
inconsistent (:class:`InconsistentPositionError`) only when that is proved: a number that cannot hold, a
component counted exactly with no solution, or exact counts that no global mine count fits. When even an
estimate cannot be had in time, :class:`UndecidedError` says so; it never means "inconsistent".
"""

from __future__ import annotations

import math
import os
import random
import time
from array import array
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any, NoReturn

from sweeplab.analysis.constraints import Constraint, constraints_from, coupled, describe
from sweeplab.core.errors import ArgumentError, InconsistentPositionError, SweeplabError, UndecidedError, shown
from sweeplab.core.observation import COVERED, FLAGGED, Observation

try:  # the optional C kernel (setup.py builds it when a C compiler is present)
    import sweeplab.analysis._kernel as _built_kernel  # a C extension without a stub: mypy sees Any
except ImportError:  # pragma: no cover - depends on the build
    _built_kernel = None
KERNEL = None if os.environ.get("SWEEPLAB_PURE_PYTHON") else _built_kernel
_PACK = getattr(KERNEL, "pack", None)  # the view as the kernel's bytes and its flag count, in one pass

EXACT_SHARE = 0.6  # the share of the budget the exact count may use before the rest is estimated
ESTIMATE_RESERVE = 0.05  # the share kept back from the estimate for weighting and building the result
OVERHEAD_SECONDS = 0.25  # stated overhead past the budget: finishing a check interval, weighting, building results
PATIENCE = 15  # a player's second try at an undecided position gets this many times the budget's seconds
PY_ENTRY_BYTES = 200  # rough memory of one partial state in the pure-Python count (a dict entry, a tuple key)
_CHECK_EVERY = 4096  # work items between clock checks in the Python stages

_BINOM = [[math.comb(n, x) for x in range(n + 1)] for n in range(9)]  # a super-cell holds at most 8 cells


@dataclass(frozen=True)
class Budget:
    """How much one analysis may spend.

    ``seconds`` bounds the whole call on the wall clock (plus :data:`OVERHEAD_SECONDS`); ``max_states`` bounds
    the partial states one step of a component's count may hold; ``max_bytes`` bounds the memory of one
    component's count tables (and of the particle filter's history); ``samples`` bounds the particles of an
    estimate. The defaults keep every position met in real play exact.
    """

    seconds: float = 2.0
    max_states: int = 100_000
    samples: int = 20_000
    max_bytes: int = 256 * 2**20

    def __post_init__(self) -> None:
        if not (isinstance(self.seconds, (int, float)) and math.isfinite(self.seconds) and self.seconds > 0):
            raise SweeplabError(f"a budget needs a finite number of seconds above 0, not {self.seconds!r}")
        for name in ("max_states", "samples", "max_bytes"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise SweeplabError(f"a budget's {name} must be a positive integer, not {value!r}")


DEFAULT_BUDGET = Budget()


@dataclass(frozen=True)
class _Clock:
    """The deadlines of one analysis: the exact count's and the whole call's (``time.perf_counter`` values)."""

    start: float
    exact: float
    end: float
    seconds: float

    @classmethod
    def starting(cls, budget: Budget) -> _Clock:
        start = time.perf_counter()
        return cls(start, start + EXACT_SHARE * budget.seconds, start + budget.seconds, budget.seconds)


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


@dataclass
class Tally:
    """A component's weighted solutions by mine count k: ``weight[k]`` and ``expected[k][j]`` (weighted mines in
    super-cell j). Exact integers when counted; floats when estimated (divided by ``exp(log_scale)``), with the
    independent runs kept as ``batches``."""

    weight: dict[int, Any]  # int when exact, float when estimated
    expected: dict[int, list[Any]]
    exact: bool = True
    batches: list[Tally] = field(default_factory=list)
    states: int = 0
    log_scale: float = 0.0  # estimates: the natural log of the factor the weights were divided by


class _TooBig(Exception):
    """A count past ``max_states`` or ``max_bytes``."""


class _OutOfTime(_TooBig):
    """A stage past its deadline."""


BudgetExceededError = UndecidedError  # the former name, kept for callers


def _check(deadline: float | None) -> None:
    if deadline is not None and time.perf_counter() > deadline:
        raise _OutOfTime


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
    while len(order) < n:
        start = min((j for j in range(n) if not seen[j]), key=lambda j: (len(adjacent[j]), j))
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
    """Precomputed steps of the count: per step the super-cell, the constraints it touches and the bounds."""

    def __init__(self, component: Component) -> None:
        self.order = _order(component)
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
        self.mines = [m for _, m, _ in cons]
        self.steps = []
        active: list[int] = []
        for t, j in enumerate(self.order):
            touching = touching_of[j]
            opened = [i for i in touching if first[i] == t]
            now = active + opened  # constraints open while assigning step t
            slot = {i: s for s, i in enumerate(now)}
            touch_slots = []
            for i in touching:
                remaining[i] -= sizes[j]
                touch_slots.append((slot[i], remaining[i]))
            after = [i for i in now if last[i] > t]
            keep = [slot[i] for i in after]
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


def count(component: Component, budget: Budget = DEFAULT_BUDGET, deadline: float | None = None) -> Tally:
    """Exact weighted solution counts of a component by mine count (the pure-Python twin of the C kernel).

    A forward pass merges partial states keyed by (mines so far, needs of the open constraints); a backward pass
    carries, per state, the weighted completions ending at each final count, which gives every super-cell's
    expected mines per final count in time linear in the states. Raises ``_TooBig`` past ``budget.max_states``
    states in a step or ``budget.max_bytes`` of tables, and ``_OutOfTime`` past ``deadline``."""
    plan = _Plan(component)
    max_entries = max(budget.max_bytes // PY_ENTRY_BYTES, 1)
    layers: list[dict[tuple, int]] = [{(0,): 1}]
    entries, tick, peak = 1, 0, 1
    for t, (_n_active, opened_needs, touch_slots, keep) in enumerate(plan.steps):
        size = plan.sizes[t]
        binom = _BINOM[size]
        new: dict[tuple, int] = {}
        get = new.get
        for key, w in layers[t].items():
            needs = [*key[1:], *opened_needs]
            lo, hi = _feasible(needs, size, touch_slots)
            k = key[0]
            for x in range(lo, hi + 1):
                if x:
                    for s, _ in touch_slots:
                        needs[s] -= x
                    nk = (k + x, *[needs[s] for s in keep])
                    for s, _ in touch_slots:
                        needs[s] += x
                else:
                    nk = (k, *[needs[s] for s in keep])
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


def sample(
    component: Component, budget: Budget, deadline: float, seed: int = 0, runs: int = 4, use_kernel: bool = True
) -> Tally | None:
    """Estimate a component's tally by a sampled count (deterministic for a seed, given the time).

    Each run follows the plan's steps like :func:`count`, merging equal partial states, but when a step holds
    more than ``cap`` states it keeps ``cap`` draws of them by systematic resampling in proportion to weight (a
    state drawn c times carries c times the mean weight; the totals stay unbiased); dead ends drop out. A
    backward pass then sends each final count's weight to the parents in proportion to what they sent, giving
    every super-cell's expected mines. A first small run times the component; ``cap`` is then sized from the time
    left and from ``budget.max_bytes``, and ``runs`` runs are kept as batches for the error estimate (their sum,
    in a common scale, is the estimate). The C kernel runs it when built. Returns None when no run found a
    solution before ``deadline``: that proves nothing about consistency.
    """
    plan = _Plan(component)
    n_steps = max(len(plan.steps), 1)
    limit = max(min(budget.samples, budget.max_bytes // (n_steps * 400)), 1)
    cap = min(256, limit)
    done: list[tuple[int, tuple[float, dict[int, float], dict[int, list[float]]]]] = []
    run_seed = seed
    while len(done) < runs:
        now = time.perf_counter()
        if now >= deadline:
            break
        result = _sample_run(plan, cap, run_seed, deadline - now, budget.max_bytes, use_kernel)
        run_seed += 1
        if result is None:
            break  # out of time (or memory) in the middle of a run
        elapsed = time.perf_counter() - now
        if not result[1]:  # every state died: more of them
            if cap >= limit:
                break
            cap = min(cap * 4, limit)
            continue
        done.append((cap, result))
        if len(done) == 1 and cap < limit:  # size the runs to come from this one's time
            per_run = (deadline - time.perf_counter()) / runs
            cap = int(min(max(cap * per_run / max(elapsed, 1e-4) * 0.7, cap), limit))
    if not done:
        return None
    top_cap = max(c for c, _ in done)
    kept = [r for c, r in done if c == top_cap]
    if len(kept) < 2:
        kept = [r for _, r in done]
    common = max(log_scale for log_scale, _, _ in kept)
    n = len(plan.order)
    batches = []
    for log_scale, weight, by_step in kept:
        factor = math.exp(log_scale - common)
        expected = {}
        for k, row in by_step.items():
            cells = [0.0] * n
            for t, v in enumerate(row):
                cells[plan.order[t]] = v * factor
            expected[k] = cells
        batches.append(Tally({k: w * factor for k, w in weight.items()}, expected, False, log_scale=common))
    total_w: dict[int, float] = {}
    total_e: dict[int, list[float]] = {}
    for batch in batches:
        for k, v in batch.weight.items():
            total_w[k] = total_w.get(k, 0.0) + v
            row = total_e.setdefault(k, [0.0] * n)
            for j, v2 in enumerate(batch.expected[k]):
                row[j] += v2
    return Tally(total_w, total_e, False, batches, log_scale=common)


def _sample_run(
    plan: _Plan, cap: int, seed: int, seconds: float, max_bytes: int, use_kernel: bool = True
) -> tuple[float, dict[int, float], dict[int, list[float]]] | None:
    """One run of the sampled count: (log scale, weight by final count, expected mines per step by final count),
    empty when every state died, None past ``seconds`` or ``max_bytes``. The C kernel's ``sample`` when built."""
    if KERNEL is not None and use_kernel:
        out = KERNEL.sample(plan.sizes, plan.steps, cap, seed, seconds, max_bytes)
        return None if out is None else (out[0], out[1], out[2])
    deadline = time.perf_counter() + seconds
    rng = random.Random(seed)
    layers: list[dict[tuple, list[float]]] = [{(0,): [1.0, 1.0]}]  # key -> [weight after resampling, sum sent]
    log_scale, tick = 0.0, 0
    max_entries = max(max_bytes // PY_ENTRY_BYTES, 1)
    entries = 1
    for t, (_n_active, opened_needs, touch_slots, keep) in enumerate(plan.steps):
        size = plan.sizes[t]
        binom = _BINOM[size]
        sent: dict[tuple, float] = {}
        for key, (w, _) in layers[t].items():
            needs = [*key[1:], *opened_needs]
            lo, hi = _feasible(needs, size, touch_slots)
            k = key[0]
            for x in range(lo, hi + 1):
                nxt = list(needs)
                for s, _ in touch_slots:
                    nxt[s] -= x
                nk = (k + x, *[nxt[s] for s in keep])
                sent[nk] = sent.get(nk, 0.0) + w * binom[x]
            tick += 1
            if tick >= _CHECK_EVERY:
                tick = 0
                if time.perf_counter() > deadline:
                    return None
        if not sent:
            return 0.0, {}, {}
        layer: dict[tuple, list[float]] = {}
        if len(sent) > cap:
            stride = sum(sent.values()) / cap
            point, acc, drawn = stride * rng.random(), 0.0, 0
            for key, v in sent.items():
                acc += v
                copies = 0
                while point < acc and drawn + copies < cap:
                    copies += 1
                    point += stride
                drawn += copies
                if copies:
                    layer[key] = [copies * stride, v]
        else:
            layer = {key: [v, v] for key, v in sent.items()}
        peak = max(pair[0] for pair in layer.values())
        for pair in layer.values():
            pair[0] /= peak
        log_scale += math.log(peak)
        layers.append(layer)
        entries += len(layer)
        if entries > max_entries:
            return None
    last = layers[-1]
    finals = sorted({key[0] for key in last})
    index = {k: f for f, k in enumerate(finals)}
    nf, n_steps = len(finals), len(plan.steps)
    weight = [0.0] * nf
    flow: dict[tuple, list[float]] = {}
    for key, (w, _) in last.items():
        row = [0.0] * nf
        row[index[key[0]]] = w
        weight[index[key[0]]] += w
        flow[key] = row
    expected = [[0.0] * n_steps for _ in finals]
    for t in range(n_steps - 1, -1, -1):
        _n_active, opened_needs, touch_slots, keep = plan.steps[t]
        size = plan.sizes[t]
        binom = _BINOM[size]
        below = layers[t + 1]
        previous: dict[tuple, list[float]] = {}
        for key, (w, _) in layers[t].items():
            needs = [*key[1:], *opened_needs]
            lo, hi = _feasible(needs, size, touch_slots)
            k = key[0]
            mine = [0.0] * nf
            for x in range(lo, hi + 1):
                nxt = list(needs)
                for s, _ in touch_slots:
                    nxt[s] -= x
                nk = (k + x, *[nxt[s] for s in keep])
                child = below.get(nk)
                if child is None:
                    continue  # dropped by resampling
                share = w * binom[x] / child[1]
                for f, v in enumerate(flow[nk]):
                    if v:
                        mine[f] += share * v
                        if x:
                            expected[f][t] += share * v * x
            previous[key] = mine
            tick += 1
            if tick >= _CHECK_EVERY:
                tick = 0
                if time.perf_counter() > deadline:
                    return None
        flow = previous
        layers[t + 1] = {}
    top = max(weight)
    return (
        log_scale + math.log(top),
        {k: weight[f] / top for f, k in enumerate(finals)},
        {k: [v / top for v in expected[f]] for f, k in enumerate(finals)},
    )


@dataclass(frozen=True)
class CrapsShoot:
    """Seed 000's craps shoot: an isolated coupled set with a fixed mine count; no move elsewhere can inform it."""

    cells: tuple[int, ...]
    best: int
    safety: float


class Probabilities:
    """The answer for one position. ``probability(cell)`` is the mine probability of a covered cell (1 for a flag).

    ``exact`` results hold exact integers (``fraction(cell)``); otherwise the probabilities are estimates within
    about ``error`` (two standard errors) and ``layouts`` is an estimate too.

    The shares are kept per super-cell (every cell of a super-cell has the same probability); the per-cell views
    (``probability``, ``covered``) and the craps shoots are built on first use, so a caller that only reads
    ``safe`` or :meth:`lowest` pays for neither."""

    def __init__(
        self,
        observation: Observation,
        exact: bool,
        error: float,
        layouts: int | None,
        safe: tuple[int, ...],
        mines: tuple[int, ...] | _LazyMines,
        components: list[Component],
        unconstrained: tuple[int, ...],
        shares: list[list[tuple[Any, Any]]] | None,
        unconstrained_share: tuple[Any, Any] | None,
        tallies: list[Tally] | None,
        mines_left: int | None = None,
    ) -> None:
        """``layouts``, ``shares`` and ``unconstrained_share`` may be None for an exact result (``tallies`` and
        ``mines_left`` given): they are then weighed exactly on first use (:func:`_weigh_exact`). ``mines`` may be a
        :class:`_LazyMines` that finds them on first use."""
        self.observation = observation
        self.exact = exact
        self.error = error
        self.safe = safe
        self._mines = mines
        self.components = components
        self.unconstrained = unconstrained
        self._layouts = layouts
        self._shares_v = shares  # per component, per super-cell: (numerator, denominator)
        self._unconstrained_v = unconstrained_share
        self._tallies = tallies  # for the craps shoots; None when weighed in floating point (no craps shoots then)
        self._mines_left = mines_left
        self._by_cell: dict[int, tuple[Any, Any]] | None = None
        self._craps: tuple[CrapsShoot, ...] | None = None
        self._forward_v: Forward | None = None  # the count's forward pass, kept for the weighing
        self._supercells_v: tuple[tuple[float, tuple[int, ...]], ...] | None = None

    def _weigh(self) -> None:
        """Weigh a lazily built exact result: every layout count, share and the unconstrained cells' share."""
        if self._tallies is None or self._mines_left is None:
            raise RuntimeError("a Probabilities without its weights needs its tallies and mines left")
        weighing = _weigh_exact(self._tallies, len(self.unconstrained), self._mines_left, None, self._forward_v)
        self._forward_v = None
        self._shares_v = _cell_shares(self.components, self._tallies, weighing, False)
        self._unconstrained_v = weighing.unconstrained if self.unconstrained else (0, 1)
        self._layouts = int(weighing.layouts)

    @property
    def mines(self) -> tuple[int, ...]:
        """The covered cells that hold a mine in every layout (sorted)."""
        mines = self._mines
        if isinstance(mines, _LazyMines):
            mines = self._mines = mines.find()
        return mines

    @property
    def layouts(self) -> int:
        """The number of layouts consistent with the position (an estimate when ``exact`` is False)."""
        if self._layouts is None:
            if self._tallies is None or self._mines_left is None:
                self._weigh()  # raises: nothing to count from
            else:  # the count alone (a look-ahead often needs no more); the shares are weighed when first asked for
                self._layouts, self._forward_v = _count_exact(self._tallies, len(self.unconstrained), self._mines_left)
        assert self._layouts is not None
        return self._layouts

    @property
    def _shares(self) -> list[list[tuple[Any, Any]]]:
        if self._shares_v is None:
            self._weigh()
        assert self._shares_v is not None
        return self._shares_v

    @property
    def _unconstrained(self) -> tuple[Any, Any]:
        if self._unconstrained_v is None:
            self._weigh()
        assert self._unconstrained_v is not None
        return self._unconstrained_v

    def __repr__(self) -> str:
        return (
            f"<Probabilities exact={self.exact} layouts={self.layouts} safe={len(self.safe)} mines={len(self.mines)} "
            f"components={len(self.components)} unconstrained={len(self.unconstrained)}>"
        )

    def _share(self, cell: int) -> tuple[Any, Any]:
        """(numerator, denominator) of a covered unflagged cell's probability."""
        by_cell = self._by_cell
        if by_cell is None:
            by_cell = {}
            for comp, shares in zip(self.components, self._shares, strict=True):
                for cells, share in zip(comp.supercells, shares, strict=True):
                    for c in cells:
                        by_cell[c] = share
            self._by_cell = by_cell
        return by_cell.get(cell, self._unconstrained)

    def probability(self, cell: int) -> float:
        v = self.observation.view[cell]
        if v == FLAGGED:
            return 1.0
        if v != COVERED:
            raise ValueError(f"cell {self.observation.board.name(cell)} is revealed; it has no mine probability")
        num, den = self._share(cell)
        return float(num / den)

    def fraction(self, cell: int) -> Fraction:
        """The exact probability as a fraction (only for exact results)."""
        if not self.exact:
            raise ValueError("this result was estimated (exact=False); no exact fraction is available")
        v = self.observation.view[cell]
        if v == FLAGGED:
            return Fraction(1)
        if v != COVERED:
            raise ValueError(f"cell {self.observation.board.name(cell)} is revealed; it has no mine probability")
        num, den = self._share(cell)
        return Fraction(int(num), int(den))

    @property
    def unconstrained_probability(self) -> float | None:
        """The mine probability shared by every covered cell no number touches (None if there is none)."""
        if not self.unconstrained:
            return None
        num, den = self._unconstrained
        return float(num / den)

    @property
    def craps(self) -> tuple[CrapsShoot, ...]:
        """Seed 000's craps shoots in this position (see :func:`_craps_shoots`), found on first use."""
        if self._craps is None:
            if self._tallies is None:
                self._craps = ()
            else:
                self._craps = _craps_shoots(self.observation, self.components, self._tallies, self._shares)
        return self._craps

    def grid(self) -> list[list[float | None]]:
        """Rows of per-cell probabilities: None for revealed cells."""
        b = self.observation.board
        view = self.observation.view
        values = [None if view[c] >= 0 else self.probability(c) for c in range(b.cells)]
        return [values[y * b.width : (y + 1) * b.width] for y in range(b.height)]

    def covered(self) -> list[tuple[int, float]]:
        """(cell, probability) for every covered unflagged cell."""
        by_cell: dict[int, float] = {}
        for comp, shares in zip(self.components, self._shares, strict=True):
            for cells, (num, den) in zip(comp.supercells, shares, strict=True):
                p = float(num / den)
                for c in cells:
                    by_cell[c] = p
        num, den = self._unconstrained
        shared = float(num / den)
        return [(c, by_cell.get(c, shared)) for c, v in enumerate(self.observation.view) if v == COVERED]

    def supercells(self) -> tuple[tuple[float, tuple[int, ...]], ...]:
        """(mine probability, cells) of every super-cell of the components (cells a number touches; the cells of one
        super-cell share their probability), as :meth:`probability` gives it; built once per result."""
        found = self._supercells_v
        if found is None:
            found = self._supercells_v = tuple(
                (float(num / den), tuple(cells))
                for comp, shares in zip(self.components, self._shares, strict=True)
                for cells, (num, den) in zip(comp.supercells, shares, strict=True)
            )
        return found

    def lowest(self, tie: float = 0.0) -> tuple[float, list[int]]:
        """The lowest mine probability of a covered unflagged cell, and every such cell within ``tie`` of it (in no
        particular order): what ``min`` over :meth:`covered` gives, computed once per super-cell."""
        floats: list[tuple[float, Sequence[int]]] = list(self.supercells())
        shared = self.unconstrained_probability
        if shared is not None:
            floats.append((shared, self.unconstrained))
        best = min(p for p, _ in floats)
        return best, [c for p, cells in floats if p <= best + tie for c in cells]


def _observation(value: object, where: str) -> Observation:
    """``value`` if it is an :class:`Observation`, else :class:`ArgumentError` naming ``where``."""
    if not isinstance(value, Observation):
        raise ArgumentError(
            f"{where}: expected an Observation (game.observation(), or a position read with "
            f"sweeplab.formats.read_position), not {shown(value)}"
        )
    return value


class Analyzer:
    """Analyses positions within a :class:`Budget`. It counts with the C kernel when it is built
    (``sweeplab.analysis._kernel``) and in pure Python otherwise or when ``SWEEPLAB_PURE_PYTHON`` is set; both give
    the same exact integers. The Python path remembers component counts, so successive positions of one game reuse
    the components that did not change."""

    def __init__(self, budget: Budget = DEFAULT_BUDGET, cache_size: int = 4096, use_kernel: bool | None = None) -> None:
        self.budget = budget
        self.cache_size = cache_size
        self._cache: dict[tuple, Tally] = {}
        self.use_kernel = KERNEL is not None if use_kernel is None else use_kernel and KERNEL is not None

    def analyze(self, observation: Observation) -> Probabilities:
        """Probabilities for every covered cell.

        Raises :class:`InconsistentPositionError` when no layout can produce the position (proved), and
        :class:`UndecidedError` when the budget ran out before even an estimate was had."""
        observation = _observation(observation, "Analyzer.analyze(observation)")
        clock = _Clock.starting(self.budget)
        if self.use_kernel:
            return self._analyze_with_kernel(observation, clock)
        try:
            problem = constraints_from(observation, deadline=clock.end)
        except UndecidedError as error:
            raise UndecidedError(f"{error} (budget {clock.seconds:g} s)") from None
        components = build_components(problem.constraints, deadline=clock.end)
        tallies: list[Tally | None] = []
        for comp in components:
            tallies.append(self._cache.get(comp.key()))
        self._count(components, tallies, clock)
        return _combine(observation, problem.unconstrained, problem.mines_left, components, tallies, clock)

    def analyze_patiently(self, observation: Observation) -> Probabilities:
        """:meth:`analyze` for a player, which must move whatever the position: when the budget runs out before even
        an estimate (a frontier of a thousand cells on a loaded machine: the budget is wall-clock time), once more
        with :data:`PATIENCE` times the seconds. If that fails too, :class:`UndecidedError` propagates; under a
        per-game time limit the harness counts the game as timed out before that."""
        try:
            return self.analyze(observation)
        except UndecidedError:
            patient = Analyzer(replace(self.budget, seconds=self.budget.seconds * PATIENCE), self.cache_size, self.use_kernel)
            patient._cache = self._cache
            return patient.analyze(observation)

    def try_analyze(self, observation: Observation) -> Probabilities | None:
        """Like :meth:`analyze`, but None for a position proved inconsistent, and without the work of naming the
        number that fails (for callers that test many hypothetical positions, such as a look-ahead over the numbers
        a cell could show). :class:`UndecidedError` still propagates."""
        if not self.use_kernel:
            try:
                return self.analyze(observation)
            except InconsistentPositionError:
                return None
        try:
            return self._analyze_with_kernel(observation, _Clock.starting(self.budget), explain=False)
        except InconsistentPositionError:
            return None

    def _count(self, components: list[Component], tallies: list[Tally | None], clock: _Clock) -> None:
        """Fill in the missing tallies: exact counts (smallest first) until the exact deadline, then estimates."""
        todo = sorted((i for i, t in enumerate(tallies) if t is None), key=lambda i: len(components[i].cells))
        left = []
        for i in todo:
            if time.perf_counter() > clock.exact:
                left.append(i)
                continue
            try:
                tally = count(components[i], self.budget, clock.exact)
            except _TooBig:
                left.append(i)
                continue
            tallies[i] = tally
            if len(self._cache) >= self.cache_size:
                self._cache.clear()
            self._cache[components[i].key()] = tally
        self._estimate(components, tallies, left, clock)

    def _estimate(self, components: list[Component], tallies: list[Tally | None], which: list[int], clock: _Clock) -> None:
        """Estimate the components ``which`` in the time left, shared in proportion to their size."""
        end = clock.end - ESTIMATE_RESERVE * clock.seconds
        remaining = sum(len(components[i].cells) for i in which)
        for i in which:
            now = time.perf_counter()
            size = len(components[i].cells)
            share = (end - now) * size / remaining if remaining else 0.0
            remaining -= size
            if share > 0:
                tallies[i] = sample(components[i], self.budget, now + share, use_kernel=self.use_kernel)

    def _analyze_with_kernel(self, observation: Observation, clock: _Clock, explain: bool = True) -> Probabilities:
        if KERNEL is None:  # use_kernel is only true when the kernel is built
            raise RuntimeError("the C kernel is not built (sweeplab.analysis._kernel) or SWEEPLAB_PURE_PYTHON is set")
        board, view = observation.board, observation.view
        if _PACK is not None:
            raw, flags = _PACK(view)
        else:  # a kernel built before pack existed (rerun pip install -e .)
            raw = array("b", view).tobytes()
            flags = raw.count(FLAGGED & 0xFF)  # FLAGGED as an unsigned byte
        if flags > observation.mines:
            if not explain:
                raise InconsistentPositionError("more flags than mines")
            constraints_from(observation)  # raises, naming the flags
        seconds = max(clock.exact - time.perf_counter(), 0.0)
        out = KERNEL.tally(raw, board.width, board.height, self.budget.max_states, self.budget.max_bytes, seconds)
        if out[0] == "local":
            if explain:
                constraints_from(observation)  # raises, naming the number in its own words
            raise InconsistentPositionError(f"the number at {board.name(out[1])} cannot hold", cells=(out[1],))
        found, unconstrained = out
        components: list[Component] = []
        tallies: list[Tally | None] = []
        wide: list[int] = []
        left: list[int] = []
        if len(found) > 1:  # in the order of each component's first cell (min(supercells) starts with it)
            found.sort(key=lambda item: min(item[0])[0])
        for supercells, constraints, counted in found:
            components.append(Component(supercells, constraints))
            if isinstance(counted, tuple):
                tallies.append(Tally(counted[0], counted[1]))
            else:
                tallies.append(None)
                (wide if counted == "wide" else left).append(len(components) - 1)
        for i in wide:  # more open constraints than the kernel's keys hold: Python may still count it
            try:
                tallies[i] = count(components[i], self.budget, clock.exact)
            except _TooBig:
                left.append(i)
        if left:
            self._estimate(components, tallies, sorted(left, key=lambda i: len(components[i].cells)), clock)
        try:
            return _combine(observation, unconstrained, observation.mines - flags, components, tallies, clock, explain)
        except InconsistentPositionError:
            if explain:
                constraints_from(observation)  # two numbers over the same cells that disagree: say it in those words
            raise


# ---------- weighting the components by the global mine count ----------


def _comb_row(U: int, top: int, length: int) -> list[int]:
    """``[C(U, top - a) for a in range(length)]`` (0 outside 0..U), by the ratio between neighbours."""
    out = [0] * length
    a0 = max(0, top - U)
    if top < 0 or a0 >= length:
        return out
    value = math.comb(U, top - a0)
    for a in range(a0, min(length, top + 1)):
        out[a] = value
        r = top - a
        if r:
            value = value * r // (U - r + 1)  # C(U, r - 1) = C(U, r) * r / (U - r + 1)
    return out


@dataclass
class _Weighing:
    """Per multi-count component: ``g[i][k]``, the weighted ways the rest of the position completes a solution of
    component i with k mines (offset from its lowest count), and ``z[i]`` (its normaliser); the unconstrained
    cells' share ``(numerator, denominator)``; and the number of layouts."""

    g: dict[int, Any]
    z: dict[int, Any]
    unconstrained: tuple[Any, Any]
    layouts: int
    zero: bool


def _polys(tallies: list[Tally], R: int) -> tuple[list[int], list[int], int]:
    """The components with more than one possible count, the fixed ones, and R less the fixed components' mines and
    every multi-count component's lowest count."""
    multi, fixed = [], []
    top = R
    for i, t in enumerate(tallies):
        ks = [k for k, w in t.weight.items() if w]
        if len(ks) == 1:
            fixed.append(i)
            top -= ks[0]
        else:
            multi.append(i)
            top -= min(ks)
    return multi, fixed, top


#: :func:`_forward`'s result: (multi-count components, single-count ones, top, their polynomials, F_0..F_m, C row)
Forward = tuple[list[int], list[int], int, list[list[int]], list[list[int]], list[int]]


def _forward(tallies: list[Tally], U: int, R: int, deadline: float | None) -> Forward:
    """The forward pass of :func:`_weigh_exact`: the multi-count components' polynomials, their running products
    F_0..F_m and the row of C(U, top - s)."""
    multi, fixed, top = _polys(tallies, R)
    polys = []
    for i in multi:
        weight = tallies[i].weight
        lo, hi = min(k for k, w in weight.items() if w), max(weight)
        polys.append([weight.get(k, 0) for k in range(lo, hi + 1)])
    length = 1 + sum(len(p) - 1 for p in polys)
    c = _comb_row(U, top, length)
    forward = [[1]]
    for p in polys:
        f = forward[-1]
        out = [0] * (len(f) + len(p) - 1)
        for a, fa in enumerate(f):
            if fa:
                for k, pk in enumerate(p):
                    out[a + k] += fa * pk
        forward.append(out)
        _check(deadline)
    return multi, fixed, top, polys, forward, c


def _fixed_product(tallies: list[Tally], fixed: list[int]) -> int:
    """The product of the single-count components' layout counts."""
    return math.prod(tallies[i].weight[next(k for k, w in tallies[i].weight.items() if w)] for i in fixed)


def _count_exact(tallies: list[Tally], U: int, R: int) -> tuple[int, Forward]:
    """The number of layouts alone: :func:`_weigh_exact`'s ``layouts`` without the backward pass and the shares (and
    the forward pass, which the weighing can reuse)."""
    done = _forward(tallies, U, R, None)
    _, fixed, _, _, forward, c = done
    return sum(fa * ca for fa, ca in zip(forward[-1], c, strict=True)) * _fixed_product(tallies, fixed), done


def _weigh_exact(tallies: list[Tally], U: int, R: int, deadline: float | None, done: Forward | None = None) -> _Weighing:
    """Exact integer weighting (raises ``_OutOfTime`` past ``deadline``; None: no deadline).

    With F_i the product of the multi-count components before i (as polynomials in their counts) and
    D_i(s) = sum_k P_i(k) D_{i+1}(s + k), D_m(s) = C(U, top - s), the completions of component i with count k are
    g_i(k) = sum_a F_i(a) D_{i+1}(a + k), and Z = D_0(0). One pass each way, no per-component convolution of the
    others."""
    multi, fixed, top, polys, forward, c = done if done is not None else _forward(tallies, U, R, deadline)
    d = c
    g: dict[int, list[int]] = {}
    for index in range(len(polys) - 1, -1, -1):
        f, p = forward[index], polys[index]
        g[multi[index]] = [sum(fa * d[a + k] for a, fa in enumerate(f) if fa) for k in range(len(p))]
        d = [sum(pk * d[s + k] for k, pk in enumerate(p) if pk) for s in range(len(d) - len(p) + 1)]
        _check(deadline)
    final = forward[-1]
    Z = sum(fa * ca for fa, ca in zip(final, c, strict=True))
    un_num = sum(fa * ca * (top - a) for a, (fa, ca) in enumerate(zip(final, c, strict=True))) if U else 0
    layouts = Z * _fixed_product(tallies, fixed)
    return _Weighing(g, dict.fromkeys(multi, Z), (un_num, U * Z if U else 1), layouts, Z == 0)


def _weigh_numeric(tallies: list[Tally], U: int, R: int) -> _Weighing:
    """The same weighting in extended-precision floating point (numpy ``longdouble``), each vector rescaled to its
    maximum as it goes: fast on any position, used for estimates and when exact integers run out of time."""
    import numpy as np

    ld = np.longdouble
    multi, fixed, top = _polys(tallies, R)
    polys, log_scale = [], 0.0
    for i in multi:
        weight = tallies[i].weight
        lo, hi = min(k for k, w in weight.items() if w), max(weight)
        biggest = max(weight.values())
        polys.append(np.array([weight.get(k, 0) / biggest for k in range(lo, hi + 1)], dtype=ld))
        log_scale += _log(biggest) + tallies[i].log_scale
    length = 1 + sum(len(p) - 1 for p in polys)
    # log C(U, top - a) where defined, by the ratio between neighbours from the largest valid a down
    logc = np.full(length, -np.inf, dtype=ld)
    a_hi, a_lo = min(top, length - 1), max(0, top - U)
    if U >= 0 and a_lo <= a_hi:
        r0 = top - a_hi
        logc[a_hi] = math.lgamma(U + 1) - math.lgamma(r0 + 1) - math.lgamma(U - r0 + 1)
        if a_hi > a_lo:
            r = np.arange(r0, top - a_lo, dtype=ld)  # C(U, r + 1) = C(U, r) * (U - r) / (r + 1)
            logc[a_lo:a_hi][::-1] = logc[a_hi] + np.cumsum(np.log((U - r) / (r + 1)))
    top_logc = logc.max() if length else -np.inf
    if not np.isfinite(top_logc):
        return _Weighing({}, {}, (0, 1), 0, True)
    c = np.exp(logc - top_logc)
    log_scale += float(top_logc)
    forward = [np.ones(1, dtype=ld)]
    log_forward = 0.0
    for p in polys:
        f = np.convolve(forward[-1], p)
        peak = f.max()
        forward.append(f / peak)
        log_forward += float(np.log(peak))
    d = c
    g: dict[int, Any] = {}
    z: dict[int, Any] = {}
    for index in range(len(polys) - 1, -1, -1):
        f, p = forward[index], polys[index]
        gi = np.correlate(d, f, "valid")
        g[multi[index]] = gi
        z[multi[index]] = float((gi * p).sum())
        d = np.correlate(d, p, "valid")
        peak = d.max()
        if peak > 0:
            d = d / peak
    final = forward[-1]
    weighted = final * c
    total = weighted.sum()
    if not total > 0:
        return _Weighing(g, z, (0, 1), 0, True)
    un_num = float((weighted * (top - np.arange(length, dtype=ld))).sum() / total) if U else 0.0
    un_num = min(max(un_num, 0.0), float(U))
    log_layouts = log_scale + log_forward + float(np.log(total))
    for i in fixed:
        log_layouts += _log(max(tallies[i].weight.values())) + tallies[i].log_scale
    return _Weighing(g, z, (un_num, float(U) if U else 1.0), _int_from_log(log_layouts), False)


def _log(value: int | float) -> float:
    """The natural log of a positive integer of any size."""
    if isinstance(value, int) and value.bit_length() > 1000:
        shift = value.bit_length() - 64
        return math.log(value >> shift) + shift * math.log(2)
    return math.log(value)


def _int_from_log(log_value: float) -> int:
    """The integer nearest exp(log_value) to about 15 significant digits (for an estimated layout count)."""
    log10 = log_value / math.log(10)
    exponent = max(math.floor(log10) - 15, 0)
    return round(10 ** (log10 - exponent)) * 10**exponent


def _feasible_total(counts: list[Iterable[int]], U: int, R: int) -> bool:
    """Whether one count per component leaves between 0 and U of the R mines for the unconstrained cells."""
    sums = {0}
    for ks in counts:
        sums = {s + k for s in sums for k in ks if s + k <= R}
    return any(0 <= R - s <= U for s in sums)


def _no_total(observation: Observation, tallies: list[Tally], U: int, R: int) -> NoReturn:
    """Raise the error for exact counts that no global mine count fits."""
    low = sum(min(t.weight) for t in tallies)
    high = sum(max(t.weight) for t in tallies) + U
    raise InconsistentPositionError(
        f"the numbers need between {low} and {high} mines in all, but {R} remain "
        f"({observation.mines} mines minus {observation.mines - R} flags)"
    )


LIGHT_MULTI = 16  # at most this many components with several possible counts for the lazy weighing
LIGHT_COUNTS = 512  # and at most this many possible counts over them all
LIGHT_BITS = 4096  # and C(U, R), the size of the weights, below 2**LIGHT_BITS (expert: about 2**216)


def _binomial_bits(n: int, k: int) -> float:
    """log2 C(n, k), from log-gamma (0 outside 0 <= k <= n)."""
    if not 0 <= k <= n:
        return 0.0
    return (math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)) / math.log(2)


def _certain_exact(
    components: list[Component], tallies: list[Tally], unconstrained: tuple[int, ...], R: int
) -> tuple[tuple[int, ...], _LazyMines] | bool | None:
    """The certain cells of an exact position without weighing it: (the safe cells, the mine cells to find on first
    use); False when no global mine count fits; None when the position is too large for the lazy path (then it is
    weighed at once, within the clock, as it is when the weights C(U, .) pass 2**LIGHT_BITS: the deferred weighing
    runs after the analysis returned, with no deadline, so only positions whose weighing is cheap are deferred).

    A cell's exact share is sum_k g(k) e_k / sum_k g(k) w_k |sc| over its component's counts k (g(k) > 0 exactly
    when some counts of the other components and of the unconstrained cells complete count k: a bit-set sum over
    the components' counts decides that). Every term is non-negative and e_k <= w_k |sc|, so the share is 0 exactly
    when e_k = 0 for every completed k, and 1 exactly when e_k = w_k |sc| for every completed k; likewise the
    unconstrained cells are safe (mines) exactly when every possible total leaves them 0 (all) of the mines. So
    these are the cells :func:`_combine` finds from the weighed shares, found with small integers only."""
    counts = []
    multi = 0
    total = 0
    for t in tallies:
        ks = [k for k, w in t.weight.items() if w]
        counts.append(ks)
        if len(ks) > 1:
            multi += 1
            total += len(ks)
    U = len(unconstrained)
    if multi > LIGHT_MULTI or total > LIGHT_COUNTS or _binomial_bits(U, min(max(R, 0), U)) > LIGHT_BITS:
        return None  # the deferred weighing has no clock: only positions whose weighing is cheap go lazily
    low = max(R - U, 0)
    window = ((1 << (R + 1)) - 1) >> low << low if R >= 0 else 0  # the totals that leave 0..U mines outside
    n = len(counts)
    prefix = [1]
    for ks in counts:
        mask = prefix[-1]
        prefix.append(mask << ks[0] if len(ks) == 1 else _sumset(mask, ks))
    totals = prefix[-1] & window
    if not totals:
        return False
    suffix = 1
    safe: list[int] = []
    completed: list[list[int]] = [[]] * n  # per component, its counts that some layout of the whole position has
    for i in range(n - 1, -1, -1):
        ks = counts[i]
        if len(ks) > 1:
            others = 0
            before = prefix[i]
            while before:  # the sums of the other components' counts: prefix[i] + suffix, one set bit at a time
                lowest = before & -before
                others |= suffix << (lowest.bit_length() - 1)
                before ^= lowest
            suffix = _sumset(suffix, ks)
            ks = [k for k in ks if (others << k) & window]
        else:
            suffix <<= ks[0]
        completed[i] = ks
        expected = tallies[i].expected
        first = expected[ks[0]]
        if 0 in first:
            zero = [j for j, e in enumerate(first) if not e]
            for k in ks[1:]:
                row = expected[k]
                zero = [j for j in zero if not row[j]]
            supercells = components[i].supercells
            for j in zero:
                safe.extend(supercells[j])
    if U and totals == 1 << R:
        safe.extend(unconstrained)
    safe.sort()

    return tuple(safe), _LazyMines(components, tallies, completed, unconstrained, 0 < U <= R and totals == 1 << (R - U))


@dataclass(frozen=True)
class _LazyMines:
    """The mine cells of an exact result, found on first use (see :func:`_certain_exact`): a super-cell whose summed
    expected mines over the completed counts equal the summed weights times its size; the unconstrained cells when
    every possible total leaves them all the remaining mines (``outside``)."""

    components: list[Component]
    tallies: list[Tally]
    completed: list[list[int]]
    unconstrained: tuple[int, ...]
    outside: bool

    def find(self) -> tuple[int, ...]:
        found: list[int] = []
        for comp, t, ks in zip(self.components, self.tallies, self.completed, strict=True):
            whole = sum(t.weight[k] for k in ks)
            rows = [t.expected[k] for k in ks]
            sums = rows[0] if len(rows) == 1 else [sum(column) for column in zip(*rows, strict=True)]
            for cells, e in zip(comp.supercells, sums, strict=True):
                if e and e == whole * len(cells):
                    found.extend(cells)
        if self.outside:
            found.extend(self.unconstrained)
        found.sort()
        return tuple(found)


def _sumset(mask: int, counts: list[int]) -> int:
    """The bit set of every s + k, for s in the bit set ``mask`` and k in ``counts``."""
    out = 0
    for k in counts:
        out |= mask << k
    return out


def _combine(
    observation: Observation,
    unconstrained: tuple[int, ...],
    mines_left: int,
    components: list[Component],
    tallies: list[Tally | None],
    clock: _Clock,
    explain: bool = True,
) -> Probabilities:
    """Combine the components' tallies into every covered cell's probability, weighting by the unconstrained cells.

    Only proofs raise :class:`InconsistentPositionError`; a missing or empty estimate raises :class:`UndecidedError`."""
    board = observation.board
    U, R = len(unconstrained), mines_left
    for comp, t in zip(components, tallies, strict=True):
        if t is not None and t.exact and not t.weight:
            raise _blame(comp, observation, clock.end) if explain else InconsistentPositionError("no layout fits the numbers")
    missing = [comp for comp, t in zip(components, tallies, strict=True) if t is None or not t.weight]
    if missing:
        frontier = sum(len(comp.cells) for comp in missing)
        raise UndecidedError(
            f"undecided within the budget of {clock.seconds:g} s: {len(missing)} component(s) of {frontier} frontier cells "
            f"(the largest around {board.name(max(missing, key=lambda c: len(c.cells)).constraints[0][2])}) could be "
            "neither counted nor estimated in time; the position is not proved inconsistent (give it more time)"
        )
    counted: list[Tally] = [t for t in tallies if t is not None]
    exact = all(t.exact for t in counted)
    weighing: _Weighing | None = None
    if exact:
        light = _certain_exact(components, counted, unconstrained, R)
        if light is False:
            _no_total(observation, counted, U, R)
        if isinstance(light, tuple):  # the certain cells without weighing; the weights are computed on first use
            certain, lazy = light
            return Probabilities(observation, True, 0.0, None, certain, lazy, components, unconstrained, None, None, counted, R)
        try:
            weighing = _weigh_exact(counted, U, R, clock.end)
        except _OutOfTime:
            weighing = None
        if weighing.zero if weighing is not None else not _feasible_total([list(t.weight) for t in counted], U, R):
            _no_total(observation, counted, U, R)
    numeric = weighing is None
    if weighing is None:
        weighing = _weigh_numeric(counted, U, R)
        if weighing.zero:
            raise UndecidedError(
                f"undecided within the budget of {clock.seconds:g} s: the estimated components found no way to place "
                f"the {R} remaining mines; the position is not proved inconsistent (give it more time)"
            )
    shares = _cell_shares(components, counted, weighing, numeric)
    error = 0.0
    if not exact:
        error = _batch_error(components, counted, U, R)
    elif numeric:
        error = 1e-12  # exact counts, weighed in floating point: rounding only
    safe: list[int] = []
    mines: list[int] = []
    for comp, t, row_shares in zip(components, counted, shares, strict=True):
        if not t.exact:
            continue  # an estimate never claims certainty
        if numeric:  # certain for every count of the component (sufficient; the global count may add more)
            weights = [(w, t.expected[k]) for k, w in t.weight.items() if w]
            for j, cells in enumerate(comp.supercells):
                if all(row[j] == 0 for _, row in weights):
                    safe.extend(cells)
                elif all(row[j] == w * len(cells) for w, row in weights):
                    mines.extend(cells)
        else:
            for cells, (num, den) in zip(comp.supercells, row_shares, strict=True):
                if num == 0:
                    safe.extend(cells)
                elif num == den:
                    mines.extend(cells)
    un_num, un_den = weighing.unconstrained
    if unconstrained and not numeric:
        if un_num == 0:
            safe.extend(unconstrained)
        elif un_num == un_den:
            mines.extend(unconstrained)
    safe.sort()
    mines.sort()
    return Probabilities(
        observation,
        exact and not numeric,
        error,
        int(weighing.layouts),
        tuple(safe),
        tuple(mines),
        components,
        unconstrained,
        shares,
        (un_num, un_den) if unconstrained else (0, 1),
        None if numeric else counted,
    )


def _cell_shares(
    components: list[Component], tallies: list[Tally], weighing: _Weighing, numeric: bool
) -> list[list[tuple[Any, Any]]]:
    """Per component, per super-cell: the probability of each of its cells as (numerator, denominator), exact
    integers unless ``numeric``."""
    out: list[list[tuple[Any, Any]]] = []
    for index, (comp, t) in enumerate(zip(components, tallies, strict=True)):
        g = weighing.g.get(index)
        if g is None:  # one possible count: the rest of the position cannot change the odds inside the component
            k = next(k for k, w in t.weight.items() if w)
            w, row = t.weight[k], t.expected[k]
            out.append([(e, w * len(cells)) for cells, e in zip(comp.supercells, row, strict=True)])
            continue
        lo = min(k for k, w in t.weight.items() if w)
        z = weighing.z[index]
        if numeric:
            biggest = max(t.weight.values())
            sums = [0.0] * len(comp.supercells)
            for k, row in t.expected.items():
                factor = float(g[k - lo]) / z if k - lo < len(g) else 0.0
                if factor:
                    for j, e in enumerate(row):
                        sums[j] += factor * (e / biggest)
            shares = []
            for cells, s in zip(comp.supercells, sums, strict=True):
                size = len(cells)
                shares.append((min(max(s, 0.0), float(size)), size))  # rounding must not leave [0, 1]
            out.append(shares)
            continue
        exact_sums: list[int] | None = None
        for k, row in t.expected.items():
            gk = g[k - lo]
            if not gk:
                continue
            if exact_sums is None:
                exact_sums = [e * gk for e in row]
            else:
                exact_sums = [a + e * gk for a, e in zip(exact_sums, row, strict=True)]
        if exact_sums is None:
            exact_sums = [0] * len(comp.supercells)
        out.append([(num, z * len(cells)) for cells, num in zip(comp.supercells, exact_sums, strict=True)])
    return out


def _batch_error(components: list[Component], tallies: list[Tally], U: int, R: int) -> float:
    """Two standard errors of the estimated probabilities over the particle filter's independent runs."""
    runs = min(len(t.batches) for t in tallies if not t.exact)
    estimates: dict[int, list[float]] = {}
    for b in range(runs):
        per = [t if t.exact else t.batches[b] for t in tallies]
        weighing = _weigh_numeric(per, U, R)
        if weighing.zero:
            continue
        shares = _cell_shares(components, per, weighing, True)
        for comp, row in zip(components, shares, strict=True):
            for cells, (num, den) in zip(comp.supercells, row, strict=True):
                value = float(num / den)
                for c in cells:
                    estimates.setdefault(c, []).append(value)
    error = 0.0
    for values in estimates.values():
        if len(values) > 1:
            mean = sum(values) / len(values)
            sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (len(values) - 1))
            error = max(error, 2 * sd / math.sqrt(len(values)))
    return max(error, 1e-12) if runs > 1 else 0.5  # a single run says nothing of its spread


def _craps_shoots(
    observation: Observation,
    components: list[Component],
    tallies: list[Tally],
    shares: list[list[tuple[Any, Any]]],
) -> tuple[CrapsShoot, ...]:
    """Seed 000's step 5: a coupled set whose solutions all need the same number of mines and none of whose cells
    has a covered neighbour outside the set (the paper: no neighbour that is unknown or a variable of another set).
    We also require that it has no certainly safe cell, since revealing one could still inform the set."""
    neighbours = observation.board.neighbours
    view = observation.view
    found = []
    for comp, t, row in zip(components, tallies, shares, strict=True):
        ks = [k for k, w in t.weight.items() if w]
        if len(ks) != 1:
            continue
        if any(num == 0 for num, _ in row):
            continue
        share = {c: s for cells, s in zip(comp.supercells, row, strict=True) for c in cells}
        cells = comp.cells
        inside = set(cells)
        if any(view[n] == COVERED and n not in inside for c in cells for n in neighbours[c]):
            continue
        best = min(sorted(cells), key=lambda c: share[c][0] / share[c][1])
        num, den = share[best]
        if num == den:
            continue
        found.append(CrapsShoot(tuple(sorted(cells)), best, 1 - num / den))
    return tuple(found)


def _names(observation: Observation, cells: list[int], limit: int = 12) -> str:
    shown = ", ".join(observation.board.name(c) for c in cells[:limit])
    return shown + (f" and {len(cells) - limit} more" if len(cells) > limit else "")


def _blame(component: Component, observation: Observation, deadline: float | None = None) -> InconsistentPositionError:
    """The error for an unsatisfiable component, naming its first number whose removal lets the others hold (tried
    while time is left before ``deadline``; otherwise the component's numbers are named together)."""
    sources = [src for _, _, src in component.constraints]
    if len(component.constraints) <= 40:
        for drop in range(len(component.constraints)):
            rest = [c for i, c in enumerate(component.constraints) if i != drop]
            used = sorted({j for js, _, _ in rest for j in js})
            remap = {j: i for i, j in enumerate(used)}
            sub = Component([component.supercells[j] for j in used], [(tuple(remap[j] for j in js), m, s) for js, m, s in rest])
            limit = time.perf_counter() + 0.5 if deadline is None else min(deadline, time.perf_counter() + 0.5)
            try:
                if not rest or count(sub, Budget(seconds=0.5, max_states=20_000), limit).weight:
                    others = _names(observation, [s for s in sources if s != sources[drop]])
                    return InconsistentPositionError(
                        f"{describe(observation, sources[drop])} cannot hold together with the numbers at {others}: "
                        "no layout satisfies them all",
                        cells=(sources[drop], *(s for s in sources if s != sources[drop])),
                    )
            except _TooBig:
                break
    return InconsistentPositionError(
        f"no layout satisfies the {len(sources)} numbers at {_names(observation, sources)} together", cells=tuple(sources)
    )


def analyze(observation: Observation, budget: Budget = DEFAULT_BUDGET) -> Probabilities:
    """Exact mine probabilities for a position (a fresh :class:`Analyzer`; strategies keep their own for reuse)."""
    observation = _observation(observation, "analyze(observation)")
    if not isinstance(budget, Budget):
        raise ArgumentError(f"analyze(budget): expected a Budget such as Budget(seconds=2.0), not {shown(budget)}")
    return Analyzer(budget).analyze(observation)


@dataclass(frozen=True)
class Consistency:
    """Kaye's minesweeper consistency problem: can any layout produce this position? With one witness layout."""

    consistent: bool
    witness: frozenset[int] | None
    reason: str | None


def check_consistency(observation: Observation, budget: Budget = DEFAULT_BUDGET) -> Consistency:
    """Decide consistency; a consistent position comes with one witness layout (flags included as mines).

    Every component is counted exactly (the C kernel when built) to learn which mine counts it allows; a count per
    component that fits the global mine count is chosen, and one solution of each is found by a memoised
    depth-first search. Raises :class:`UndecidedError` (also known as ``BudgetExceededError``) when a component is
    too large to count, or the search takes longer than ``budget.seconds``: consistency is never estimated."""
    observation = _observation(observation, "check_consistency(observation)")
    start = time.perf_counter()
    clock = _Clock(start, start + budget.seconds, start + budget.seconds, budget.seconds)
    too_big = UndecidedError(
        f"the position is too large to decide within the budget ({budget.seconds:g} s, {budget.max_states} states)"
    )
    try:
        components, tallies, unconstrained, mines_left = _exact_tallies(observation, budget, clock)
    except InconsistentPositionError as error:
        return Consistency(False, None, str(error))
    except _TooBig:
        raise too_big from None
    for comp, t in zip(components, tallies, strict=True):
        if not t.weight:
            return Consistency(False, None, str(_blame(comp, observation, clock.end)))
    feasible = [sorted(t.weight) for t in tallies]
    U, R = len(unconstrained), mines_left
    # pick a mine count per component so that the rest fits in the unconstrained cells
    reachable: list[dict[int, int]] = [{0: -1}]
    for ks in feasible:
        nxt: dict[int, int] = {}
        for total in reachable[-1]:
            for k in ks:
                if total + k <= R:
                    nxt.setdefault(total + k, k)
        reachable.append(nxt)
    target = next((K for K in sorted(reachable[-1]) if 0 <= R - K <= U), None)
    if target is None:
        low = sum(min(ks) for ks in feasible)
        high = sum(max(ks) for ks in feasible)
        return Consistency(
            False, None, f"the numbers need between {low} and {high + U} mines in all, but {R} remain after the flags"
        )
    picks = []
    for i in range(len(feasible) - 1, -1, -1):
        k = reachable[i + 1][target]
        picks.append(k)
        target -= k
    picks.reverse()
    mines = set(observation.flagged())
    try:
        for comp, k in zip(components, picks, strict=True):
            mines.update(_one_solution(comp, k, clock.end))
    except _OutOfTime:
        raise too_big from None
    mines.update(unconstrained[: R - sum(picks)])
    return Consistency(True, frozenset(mines), None)


def _exact_tallies(
    observation: Observation, budget: Budget, clock: _Clock
) -> tuple[list[Component], list[Tally], tuple[int, ...], int]:
    """Every component counted exactly (raises ``_TooBig`` when one cannot be within the budget)."""
    try:
        problem = constraints_from(observation, deadline=clock.end)
    except UndecidedError:
        raise _OutOfTime from None
    if KERNEL is not None:
        view, board = observation.view, observation.board
        seconds = max(clock.end - time.perf_counter(), 0.0)
        out = KERNEL.tally(array("b", view), board.width, board.height, budget.max_states, budget.max_bytes, seconds)
        if out[0] == "local":  # constraints_from has already raised for every local contradiction
            raise InconsistentPositionError(f"the number at {board.name(out[1])} cannot hold", cells=(out[1],))
        found, unconstrained = out
        components, tallies = [], []
        for supercells, constraints, counted in sorted(found, key=lambda item: min(sc[0] for sc in item[0])):
            comp = Component(supercells, constraints)
            components.append(comp)
            if isinstance(counted, tuple):
                tallies.append(Tally(counted[0], counted[1]))
            elif counted == "wide":
                tallies.append(count(comp, budget, clock.end))
            else:
                raise _TooBig
        return components, tallies, unconstrained, problem.mines_left
    try:
        components = build_components(problem.constraints, deadline=clock.end)
    except UndecidedError:
        raise _OutOfTime from None
    return components, [count(comp, budget, clock.end) for comp in components], problem.unconstrained, problem.mines_left


def _one_solution(component: Component, k: int, deadline: float | None = None) -> list[int]:
    """Mine cells of one solution of the component with exactly k mines: an iterative depth-first search over the
    super-cell counts that remembers dead partial states, so it visits each state at most once."""
    plan = _Plan(component)
    steps, sizes = plan.steps, plan.sizes
    n = len(steps)

    def options(t: int, key: tuple[int, ...], used: int) -> list[tuple[int, tuple[int, ...]]]:
        _n_active, opened_needs, touch_slots, keep = steps[t]
        needs = [*key, *opened_needs]
        lo, hi = _feasible(needs, sizes[t], touch_slots)
        out = []
        for x in range(lo, min(hi, k - used) + 1):
            nxt = list(needs)
            for s, _ in touch_slots:
                nxt[s] -= x
            out.append((x, tuple(nxt[s] for s in keep)))
        return out

    dead: set[tuple[int, tuple[int, ...], int]] = set()
    chosen: list[int] = []
    stack: list[list[Any]] = [[0, (), 0, options(0, (), 0), 0]]
    tick = 0
    found = False
    while stack and not found:
        frame = stack[-1]
        t, key, used, opts, i = frame
        if i >= len(opts):
            dead.add((t, key, used))
            stack.pop()
            if stack:
                chosen.pop()
            continue
        frame[4] = i + 1
        x, nkey = opts[i]
        if t + 1 == n:
            if used + x == k:
                chosen.append(x)
                found = True
            continue
        if (t + 1, nkey, used + x) in dead:
            continue
        chosen.append(x)
        stack.append([t + 1, nkey, used + x, options(t + 1, nkey, used + x), 0])
        tick += 1
        if tick >= _CHECK_EVERY:
            tick = 0
            _check(deadline)
    if not found:
        raise InconsistentPositionError("no solution with the chosen mine count")  # cannot happen after a count
    cells: list[int] = []
    for t, x in enumerate(chosen):
        cells.extend(component.supercells[plan.order[t]][:x])
    return cells


def is_consistent(observation: Observation) -> tuple[bool, frozenset[int] | None]:
    """(True, a witness layout) if some layout produces the position, else (False, None)."""
    result = check_consistency(observation)
    return result.consistent, result.witness
