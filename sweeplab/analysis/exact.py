"""The exact probability engine: every covered cell's mine probability, weighted by the global mine count.

Stages (named as in minesweepr): constraints -> super-cells (frontier cells that touch exactly the same
numbers) -> independent components -> a per-component count of weighted solutions by mine count k
(dynamic programming over super-cells, merging equal partial states, so a long thin frontier costs
little) -> convolution of the components over k -> weighting by C(U, R - k), the ways to put the
remaining R - k mines among the U covered cells no number touches. All of it in exact integers: the
result is the true posterior under a uniformly random layout, equal to brute force over every layout.

A component too large for the budget is estimated by sequential importance sampling instead; the
result then says ``exact=False`` and carries an estimated error (two standard errors over batches).
"""

from __future__ import annotations

import math
import os
import random
import time
from array import array
from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache

from sweeplab.analysis.constraints import Constraint, constraints_from, coupled, describe
from sweeplab.core.errors import InconsistentPositionError, SweeplabError
from sweeplab.core.observation import COVERED, FLAGGED, Observation

comb = lru_cache(maxsize=65536)(math.comb)

try:  # the optional C kernel (setup.py builds it when a C compiler is present)
    import sweeplab.analysis._kernel as _built_kernel  # a C extension without a stub: mypy sees Any
except ImportError:  # pragma: no cover - depends on the build
    _built_kernel = None
KERNEL = None if os.environ.get("SWEEPLAB_PURE_PYTHON") else _built_kernel
KERNEL_MAX_ENTRIES = 2_000_000  # partial states one kernel count may keep over all its steps (about 40 bytes each)


@dataclass(frozen=True)
class Budget:
    """How much work one analysis may do before it estimates instead of counting.

    ``seconds`` bounds the whole call (wall clock); ``max_states`` bounds the partial states one
    component's count may hold at any step. The defaults keep every position met in real play exact.
    """

    seconds: float = 2.0
    max_states: int = 100_000
    samples: int = 20_000


DEFAULT_BUDGET = Budget()


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
    super-cell j). Exact integers when counted, floats when estimated."""

    weight: dict[int, int | float]
    expected: dict[int, list[int | float]]
    exact: bool = True
    batches: list[Tally] = field(default_factory=list)
    states: int = 0


class _TooBig(Exception):
    pass


def build_components(constraints: Iterable[Constraint]) -> list[Component]:
    """Group frontier cells into super-cells and split them into independent components."""
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
    components = []
    for keys in by_root.values():
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
        queue = [start]
        while queue:
            j = queue.pop(0)
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
    """Exact weighted solution counts of a component by mine count (raises ``_TooBig`` past the budget)."""
    plan = _Plan(component)
    states: dict[tuple, list] = {(0,): [1, []]}  # key: (k, needs...) -> [weight, expected per step]
    peak = 1
    for t, (_n_active, opened_needs, touch_slots, keep) in enumerate(plan.steps):
        size = plan.sizes[t]
        binom = [comb(size, x) for x in range(size + 1)]
        new: dict[tuple, list] = {}
        for key, (w, e) in states.items():
            needs = list(key[1:]) + opened_needs if opened_needs else list(key[1:])
            lo, hi = _feasible(needs, size, touch_slots)
            if lo > hi:
                continue
            k = key[0]
            for x in range(lo, hi + 1):
                if x:
                    for s, _ in touch_slots:
                        needs[s] -= x
                nk = (k + x, *[needs[s] for s in keep])
                if x:
                    for s, _ in touch_slots:
                        needs[s] += x
                b = binom[x]
                nw = w * b
                slot = new.get(nk)
                if slot is None:
                    new[nk] = [nw, [v * b for v in e] + [x * nw]] if b != 1 else [nw, [*e, x * nw]]
                else:
                    slot[0] += nw
                    ne = slot[1]
                    for i, v in enumerate(e):
                        ne[i] += v * b
                    ne[-1] += x * nw
        states = new
        if len(states) > peak:
            peak = len(states)
        if peak > budget.max_states or (deadline is not None and time.perf_counter() > deadline):
            raise _TooBig
    weight: dict[int, int | float] = {}
    expected: dict[int, list[int | float]] = {}
    inverse = [0] * len(plan.order)
    for t, j in enumerate(plan.order):
        inverse[j] = t
    for key, (w, e) in states.items():
        k = key[0]
        weight[k] = w
        expected[k] = [e[inverse[j]] for j in range(len(plan.order))]
    return Tally(weight, expected, True, states=peak)


def sample(component: Component, budget: Budget, deadline: float, seed: int = 0, runs: int = 4) -> Tally:
    """Estimate a component's tally with a branching particle filter (deterministic for a seed).

    Each run follows the plan's steps like :func:`count`, but instead of merging partial states it keeps
    at most ``cap`` weighted particles: every particle branches into its feasible counts, and when there
    are too many children, ``cap`` of them are resampled in proportion to their weights (systematic
    resampling, weights reset to keep the totals unbiased). Dead ends simply drop out. ``cap`` is sized
    from the time left. The mean of ``runs`` independent runs is returned, with the runs kept as
    batches for the error estimate.
    """
    plan = _Plan(component)
    rng = random.Random(seed)
    n = len(plan.order)
    steps = max(len(plan.steps), 1)
    tallies = []
    for run in range(runs):
        left = max(deadline - time.perf_counter(), 0.05) / (runs - run)
        cap = int(min(max(left / (steps * 20e-6), 32), budget.samples))
        result = _particle_run(plan, cap, rng)
        while not result.weight and cap < budget.samples and time.perf_counter() < deadline:
            cap *= 4  # every particle died: retry with more of them
            result = _particle_run(plan, cap, rng)
        tallies.append(result)
    total_w: dict[int, int | float] = {}
    total_e: dict[int, list[int | float]] = {}
    for t in tallies:
        for k, v in t.weight.items():
            total_w[k] = total_w.get(k, 0) + v / runs
            row = total_e.setdefault(k, [0.0] * n)
            for j, v2 in enumerate(t.expected[k]):
                row[j] += v2 / runs
    return Tally(total_w, total_e, False, tallies)


def _particle_run(plan: _Plan, cap: int, rng: random.Random) -> Tally:
    particles: list[tuple[int, tuple[int, ...], int]] = [(0, (), 1)]
    history: list[list[tuple[int, int]]] = []
    for t, (_n_active, opened_needs, touch_slots, keep) in enumerate(plan.steps):
        size = plan.sizes[t]
        children: list[tuple[int, tuple[int, ...], int, int, int]] = []
        for parent, (k, key, w) in enumerate(particles):
            needs = list(key) + opened_needs
            lo, hi = _feasible(needs, size, touch_slots)
            for x in range(lo, hi + 1):
                nxt = list(needs)
                for s, _ in touch_slots:
                    nxt[s] -= x
                children.append((k + x, tuple(nxt[s] for s in keep), w * comb(size, x), parent, x))
        if not children:
            return Tally({}, {}, False)
        if len(children) > cap:
            total = sum(c[2] for c in children)
            step = total / cap
            point = rng.random() * step
            acc = 0.0
            kept: list[tuple[int, tuple[int, ...], int, int, int]] = []
            for child in children:
                acc += child[2]
                copies = 0
                while point < acc and len(kept) + copies < cap:
                    copies += 1
                    point += step
                if copies:
                    kept.append((*child[:2], total * copies // cap, *child[3:]))
            children = kept
        history.append([(c[3], c[4]) for c in children])
        particles = [(c[0], c[1], c[2]) for c in children]
    n = len(plan.order)
    weight: dict[int, int | float] = {}
    expected: dict[int, list[int | float]] = {}
    for index, (k, _, w) in enumerate(particles):
        weight[k] = weight.get(k, 0) + w
        row = expected.setdefault(k, [0] * n)
        i = index
        for t in range(len(history) - 1, -1, -1):
            parent, x = history[t][i]
            if x:
                row[plan.order[t]] += w * x
            i = parent
    return Tally(weight, expected, False)


def _convolve(a: dict[int, int | float], b: dict[int, int | float]) -> dict[int, int | float]:
    out: dict[int, int | float] = {}
    for ka, va in a.items():
        for kb, vb in b.items():
            out[ka + kb] = out.get(ka + kb, 0) + va * vb
    return out


@dataclass(frozen=True)
class CrapsShoot:
    """Seed 000's craps shoot: an isolated coupled set with a fixed mine count; no move elsewhere can inform it."""

    cells: tuple[int, ...]
    best: int
    safety: float


@dataclass
class Probabilities:
    """The answer for one position. ``probability(cell)`` is the mine probability of a covered cell (1 for a flag)."""

    observation: Observation
    exact: bool
    error: float
    layouts: int
    safe: tuple[int, ...]
    mines: tuple[int, ...]
    craps: tuple[CrapsShoot, ...]
    components: list[Component]
    unconstrained: tuple[int, ...]
    _numerator: dict[int, int | float]
    _denominator: dict[int, int | float]
    _unconstrained: tuple[int | float, int | float]

    def probability(self, cell: int) -> float:
        v = self.observation.view[cell]
        if v == FLAGGED:
            return 1.0
        if v != COVERED:
            raise ValueError(f"cell {self.observation.board.name(cell)} is revealed; it has no mine probability")
        if cell in self._numerator:
            return self._numerator[cell] / self._denominator[cell]
        num, den = self._unconstrained
        return num / den

    def fraction(self, cell: int) -> Fraction:
        """The exact probability as a fraction (only for exact results)."""
        if not self.exact:
            raise ValueError("this result was estimated (exact=False); no exact fraction is available")
        v = self.observation.view[cell]
        if v == FLAGGED:
            return Fraction(1)
        if v != COVERED:
            raise ValueError(f"cell {self.observation.board.name(cell)} is revealed; it has no mine probability")
        if cell in self._numerator:
            return Fraction(int(self._numerator[cell]), int(self._denominator[cell]))
        num, den = self._unconstrained
        return Fraction(int(num), int(den))

    @property
    def unconstrained_probability(self) -> float | None:
        """The mine probability shared by every covered cell no number touches (None if there is none)."""
        if not self.unconstrained:
            return None
        num, den = self._unconstrained
        return num / den

    def grid(self) -> list[list[float | None]]:
        """Rows of per-cell probabilities: None for revealed cells."""
        b = self.observation.board
        view = self.observation.view
        values = [None if view[c] >= 0 else self.probability(c) for c in range(b.cells)]
        return [values[y * b.width : (y + 1) * b.width] for y in range(b.height)]

    def covered(self) -> list[tuple[int, float]]:
        """(cell, probability) for every covered unflagged cell."""
        return [(c, self.probability(c)) for c, v in enumerate(self.observation.view) if v == COVERED]


class Analyzer:
    """Analyses positions. It counts with the C kernel when it is built (``sweeplab.analysis._kernel``) and in pure
    Python otherwise or when ``SWEEPLAB_PURE_PYTHON`` is set; both give the same exact integers. The Python path
    remembers component counts, so successive positions of one game reuse the components that did not change."""

    def __init__(self, budget: Budget = DEFAULT_BUDGET, cache_size: int = 4096, use_kernel: bool | None = None) -> None:
        self.budget = budget
        self.cache_size = cache_size
        self._cache: dict[tuple, Tally] = {}
        self.use_kernel = KERNEL is not None if use_kernel is None else use_kernel and KERNEL is not None

    def tally(self, component: Component, deadline: float) -> Tally:
        """Count a component exactly (cached), or estimate it when the count exceeds half of the time left."""
        key = component.key()
        hit = self._cache.get(key)
        if hit is not None:
            return hit
        now = time.perf_counter()
        try:
            result = count(component, self.budget, now + max(deadline - now, 0.0) / 2)
        except _TooBig:
            return sample(component, self.budget, max(deadline, time.perf_counter() + 0.05))  # estimates are not cached
        if len(self._cache) >= self.cache_size:
            self._cache.clear()
        self._cache[key] = result
        return result

    def analyze(self, observation: Observation) -> Probabilities:
        """Probabilities for every covered cell; raises :class:`InconsistentPositionError` if none can hold."""
        deadline = time.perf_counter() + self.budget.seconds
        if self.use_kernel:
            try:
                return self._analyze_with_kernel(observation, deadline)
            except InconsistentPositionError:
                pass  # the Python path names the failing number in its own words
        problem = constraints_from(observation)
        components = build_components(problem.constraints)
        tallies = [self.tally(comp, deadline) for comp in components]
        return _combine(observation, problem.unconstrained, problem.mines_left, components, tallies)

    def _analyze_with_kernel(self, observation: Observation, deadline: float) -> Probabilities:
        if KERNEL is None:  # use_kernel is only true when the kernel is built
            raise RuntimeError("the C kernel is not built (sweeplab.analysis._kernel) or SWEEPLAB_PURE_PYTHON is set")
        board = observation.board
        view = observation.view
        out = KERNEL.tally(array("b", view), board.width, board.height, self.budget.max_states, KERNEL_MAX_ENTRIES)
        if out[0] == "local":
            raise InconsistentPositionError(f"the number at {board.name(out[1])} cannot hold")
        found, unconstrained = out
        components = []
        tallies = []
        for supercells, constraints, counted in sorted(found, key=lambda item: min(sc[0] for sc in item[0])):
            component = Component(supercells, constraints)
            components.append(component)
            if counted is None:
                tallies.append(self.tally(component, deadline))
            else:
                tallies.append(Tally(counted[0], counted[1]))
        flags = view.count(FLAGGED)
        if flags > observation.mines:
            raise InconsistentPositionError("more flags than mines")
        return _combine(observation, unconstrained, observation.mines - flags, components, tallies)


def _combine(
    observation: Observation,
    unconstrained: tuple[int, ...],
    mines_left: int,
    components: list[Component],
    tallies: list[Tally],
) -> Probabilities:
    """Combine the components' tallies into every covered cell's probability, weighting by the unconstrained cells."""
    exact = all(t.exact for t in tallies)
    U = len(unconstrained)
    R = mines_left
    for comp, t in zip(components, tallies, strict=True):
        if not t.weight:
            if not t.exact:
                raise InconsistentPositionError(
                    f"no layout was found for the {len(comp.constraints)} numbers around "
                    f"{observation.board.name(comp.constraints[0][2])} within the budget; the position may be inconsistent"
                )
            raise _blame(comp, observation)
    result = _probabilities(components, tallies, U, R)
    if result is None:
        low = sum(min(t.weight) for t in tallies)
        high = sum(max(t.weight) for t in tallies) + U
        raise InconsistentPositionError(
            f"the numbers need between {low} and {high} mines in all, but {R} remain "
            f"({observation.mines} mines minus {observation.mines - R} flags)"
        )
    numerator, denominator, unconstrained_share, Z = result
    error = 0.0
    if not exact:
        # spread of the estimate over batches: rerun the combination per batch
        estimates: dict[int, list[float]] = {}
        runs = len(next(t for t in tallies if not t.exact).batches)
        for b in range(runs):
            per = [t if t.exact else t.batches[b] for t in tallies]
            if any(not p.weight for p in per):
                continue
            r = _probabilities(components, per, U, R)
            if r is None:
                continue
            num_b, den_b, _, _ = r
            for c in num_b:
                estimates.setdefault(c, []).append(num_b[c] / den_b[c])
        for values in estimates.values():
            if len(values) > 1:
                mean = sum(values) / len(values)
                sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (len(values) - 1))
                error = max(error, 2 * sd / math.sqrt(len(values)))
        error = max(error, 1e-12)
    safe, mines = [], []
    for c, num in numerator.items():
        if num == 0:
            safe.append(c)
        elif num == denominator[c]:
            mines.append(c)
    if unconstrained:
        if unconstrained_share[0] == 0:
            safe.extend(unconstrained)
        elif unconstrained_share[0] == unconstrained_share[1]:
            mines.extend(unconstrained)
    if not exact:
        safe, mines = [], []  # an estimate never claims certainty
    craps = _craps_shoots(observation, components, tallies, numerator, denominator) if exact else ()
    return Probabilities(
        observation,
        exact,
        error,
        int(Z),
        tuple(sorted(safe)),
        tuple(sorted(mines)),
        craps,
        components,
        unconstrained,
        numerator,
        denominator,
        unconstrained_share,
    )


def _probabilities(components: list[Component], tallies: list[Tally], U: int, R: int):
    n = len(tallies)
    prefix: list[dict[int, int | float]] = [{0: 1}]
    for t in tallies:
        prefix.append(_convolve(prefix[-1], t.weight))
    suffix: list[dict[int, int | float]] = [{0: 1}] * (n + 1)
    for i in range(n - 1, 0, -1):
        suffix[i] = _convolve(suffix[i + 1], tallies[i].weight)
    total = prefix[n]
    Z = sum(v * comb(U, R - K) for K, v in total.items() if 0 <= R - K <= U)
    if not Z:
        return None
    numerator: dict[int, int | float] = {}
    denominator: dict[int, int | float] = {}
    for i, (comp, t) in enumerate(zip(components, tallies, strict=True)):
        others = _convolve(prefix[i], suffix[i + 1]) if n > 1 else {0: 1}
        sums: list[int | float] | None = None  # per super-cell: expected mines weighted by each k's global weight
        for k in t.weight:
            g = sum(v * comb(U, R - k - K) for K, v in others.items() if 0 <= R - k - K <= U)
            if g:
                row = t.expected[k]
                sums = [e * g for e in row] if sums is None else [a + e * g for a, e in zip(sums, row, strict=True)]
        if sums is None:
            sums = [0] * len(comp.supercells)
        for cells, num in zip(comp.supercells, sums, strict=True):
            den = Z * len(cells)
            for c in cells:
                numerator[c] = num
                denominator[c] = den
    if U:
        un = sum(v * comb(U - 1, R - K - 1) for K, v in total.items() if 1 <= R - K <= U)
        unconstrained = (un, Z)
    else:
        unconstrained = (0, 1)
    return numerator, denominator, unconstrained, Z


def _craps_shoots(
    observation: Observation,
    components: list[Component],
    tallies: list[Tally],
    numerator: dict[int, int | float],
    denominator: dict[int, int | float],
) -> tuple[CrapsShoot, ...]:
    """Seed 000's step 5: a coupled set whose solutions all need the same number of mines and none of whose cells
    has a covered neighbour outside the set (the paper: no neighbour that is unknown or a variable of another set).
    We also require that it has no certainly safe cell, since revealing one could still inform the set."""
    neighbours = observation.board.neighbours
    view = observation.view
    found = []
    for comp, t in zip(components, tallies, strict=True):
        ks = [k for k, w in t.weight.items() if w]
        if len(ks) != 1:
            continue
        cells = comp.cells
        if any(numerator[c] == 0 for c in cells):
            continue
        inside = set(cells)
        if any(view[n] == COVERED and n not in inside for c in cells for n in neighbours[c]):
            continue
        best = min(sorted(cells), key=lambda c: numerator[c] / denominator[c])
        if numerator[best] == denominator[best]:
            continue
        found.append(CrapsShoot(tuple(sorted(cells)), best, 1 - numerator[best] / denominator[best]))
    return tuple(found)


def _blame(component: Component, observation: Observation) -> InconsistentPositionError:
    """The error for an unsatisfiable component, naming its first number whose removal lets the others hold."""
    sources = [src for _, _, src in component.constraints]
    if len(component.constraints) <= 40:
        for drop in range(len(component.constraints)):
            rest = [c for i, c in enumerate(component.constraints) if i != drop]
            used = sorted({j for js, _, _ in rest for j in js})
            remap = {j: i for i, j in enumerate(used)}
            sub = Component([component.supercells[j] for j in used], [(tuple(remap[j] for j in js), m, s) for js, m, s in rest])
            try:
                if not rest or count(sub, Budget(seconds=0.5, max_states=20_000), time.perf_counter() + 0.5).weight:
                    others = ", ".join(observation.board.name(s) for s in sources if s != sources[drop])
                    return InconsistentPositionError(
                        f"{describe(observation, sources[drop])} cannot hold together with the numbers at {others}: "
                        "no layout satisfies them all",
                        cells=(sources[drop], *(s for s in sources if s != sources[drop])),
                    )
            except _TooBig:
                break
    names = ", ".join(observation.board.name(s) for s in sources)
    return InconsistentPositionError(f"no layout satisfies the numbers at {names} together", cells=tuple(sources))


def analyze(observation: Observation, budget: Budget = DEFAULT_BUDGET) -> Probabilities:
    """Exact mine probabilities for a position (a fresh :class:`Analyzer`; strategies keep their own for reuse)."""
    return Analyzer(budget).analyze(observation)


@dataclass(frozen=True)
class Consistency:
    """Kaye's minesweeper consistency problem: can any layout produce this position? With one witness layout."""

    consistent: bool
    witness: frozenset[int] | None
    reason: str | None


class BudgetExceededError(SweeplabError):
    """A question the budget was too small to answer exactly (consistency is never estimated)."""


def check_consistency(observation: Observation, budget: Budget = DEFAULT_BUDGET) -> Consistency:
    """Decide consistency; a consistent position comes with one witness layout (flags included as mines).

    Raises :class:`BudgetExceededError` when a component is too large to count within ``budget``."""
    try:
        problem = constraints_from(observation)
        components = build_components(problem.constraints)
        deadline = time.perf_counter() + budget.seconds
        feasible: list[set[int]] = []
        for comp in components:
            t = count(comp, budget, deadline)
            if not t.weight:
                raise _blame(comp, observation)
            feasible.append(set(t.weight))
    except _TooBig:
        raise BudgetExceededError(
            f"the position is too large to decide within the budget ({budget.seconds} s, {budget.max_states} states)"
        ) from None
    except InconsistentPositionError as error:
        return Consistency(False, None, str(error))
    U, R = len(problem.unconstrained), problem.mines_left
    # pick a mine count per component so that the rest fits in the unconstrained cells
    reachable: list[dict[int, int]] = [{0: -1}]
    for ks in feasible:
        nxt: dict[int, int] = {}
        for total in reachable[-1]:
            for k in ks:
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
    for comp, k in zip(components, picks, strict=True):
        mines.update(_one_solution(comp, k))
    mines.update(problem.unconstrained[: R - sum(picks)])
    return Consistency(True, frozenset(mines), None)


def _one_solution(component: Component, k: int) -> list[int]:
    """Mine cells of one solution of the component with exactly k mines (depth-first over super-cell counts)."""
    plan = _Plan(component)
    chosen: list[int] = []

    def search(t: int, needs: list[int], used: int) -> bool:
        if t == len(plan.steps):
            return used == k
        n_active, opened_needs, touch_slots, keep = plan.steps[t]
        needs = needs[:n_active] + opened_needs
        size = plan.sizes[t]
        lo, hi = _feasible(needs, size, touch_slots)
        hi = min(hi, k - used)
        for x in range(lo, hi + 1):
            nxt = list(needs)
            for s, _ in touch_slots:
                nxt[s] -= x
            chosen.append(x)
            if search(t + 1, [nxt[s] for s in keep], used + x):
                return True
            chosen.pop()
        return False

    if not search(0, [], 0):
        raise InconsistentPositionError("no solution with the chosen mine count")  # cannot happen after a count
    cells: list[int] = []
    for t, x in enumerate(chosen):
        cells.extend(component.supercells[plan.order[t]][:x])
    return cells


def is_consistent(observation: Observation) -> tuple[bool, frozenset[int] | None]:
    """(True, a witness layout) if some layout produces the position, else (False, None)."""
    result = check_consistency(observation)
    return result.consistent, result.witness
