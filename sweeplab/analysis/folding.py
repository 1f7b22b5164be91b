"""Wide components counted in floating point and folded against the rest of the position: exact up to rounding.

A component too wide for the exact count in integers (whose states are keyed by the mines so far and the needs of
the open numbers, and whose backward pass carries a row per final mine count) is counted here by the chain's C
kernel as one block (``_chain.fold``): states keyed by the needs alone, each holding a vector over the mines so far,
in doubles rescaled layer by layer; each final mine count k weighted by h(k), the ways the rest of the position (the
other components and the free cells) completes a layout with k mines in this component; then a backward pass gives
each super-cell's expected mines under that weighting, which is its probability times its size. The rest's h needs
the other wide components' weights per count, which the same count gives: the costliest is folded once, after the
others' weights are known, and the others twice. Components that do not fold in the time planned for them
(:attr:`Folds.left`) are left to the chain, beside the weights of those that do.

The result is exact up to floating-point rounding (tested against exact integer counts), so it is reported as
``exact=False`` with the error :data:`~sweeplab.analysis.probabilities.ROUNDING`, as are exact counts weighed in
floating point. It claims no certain cell: a probability of 0 or 1 in floating point is no proof (on large boards the
single-point and subset passes settle the certain cells before the count).

Each component is counted in the cheaper of two orders of its super-cells, by the predicted time of its fold
(:func:`_cost`, from the states and entries that ``_chain.plan_states`` counts, keys only): the count's banded
order, and a greedy one that keeps the open numbers' ranges of mine counts narrow (``_chain.greedy_order``).
Neither is always the better: on the 34 wide components of 256x256 with 16,384 mines and a fifth of the safe cells
revealed (seed 1), the greedy order's count holds from a twelfth to fourteen times the banded one's states. The
planning runs in rounds under a cap on the predicted time that grows fourfold, so the quick components are planned
first and a hopeless one costs little; it stops at :data:`PLAN_SHARE` of the planned time."""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from functools import partial
from typing import TypeVar

from sweeplab.analysis import batches as runs
from sweeplab.analysis.chain import completions
from sweeplab.analysis.components import Component
from sweeplab.analysis.counting import Tally, _order
from sweeplab.analysis.kernel import CHAIN
from sweeplab.analysis.weighting import _lowest_count, _weigh_numeric

_FOLD = getattr(CHAIN, "fold_keep", None) and getattr(CHAIN, "fold", None)  # None without the C chain (or an old one)
FOLD_STATES = 1 << 20  # needs states one step of a fold may hold (its hash table: 8 MiB of ints)
ENTRY_BYTES = 8  # a fold keeps one double per entry of its weight vectors (and two layers of completions)
# a fold's time, predicted from its count's states and their vectors' entries (fitted ad hoc to 40 folds of the
# components of 256x256 and 512x128 with 16,384 mines and 1024x64 with 14,417: 290 ns a state and 16 ns an entry,
# every fold within 1.05 times the fit); a slower machine runs past the share of the budget planned for it, into
# the chain's, but not past the deadline
STATE_SECONDS = 3e-7
ENTRY_SECONDS = 1.6e-8
PLAN_SHARE = 0.35  # the share of the planned time that choosing the orders may take (it fails fast: the chain's time)
QUICK_SECONDS = 0.002  # a component whose fold in the banded order is predicted this quick is not ordered again
WEIGHTS_ONLY = 0.7  # the share of that a fold for the weights alone takes (no backward pass: fitted, 250 and 9 ns)
BACK_ONLY = 0.25  # ... and its backward pass alone, from the layers kept by the fold for its weights (ad hoc: 0.15-0.2)
KEEP = 2  # the layers kept between a fold's two passes, all folds together, may hold this many times max_bytes
STATE_BYTES = 36  # what a kept state holds beside its vector: its offsets and its transitions (about two and a half)

R = TypeVar("R")
Plan = tuple[list[int], list[int], list, list[int]]  # the order of the super-cells, their sizes, the steps, the needs
Counted = tuple[int, list[float], float, list[float]]  # _chain.fold's (low, weights, log_scale, means per step)


def available() -> bool:
    """Whether folds can run: the C chain is built, with ``fold``."""
    return _FOLD is not None


class Folds:
    """The folds of some components: each planned in the cheaper order when its predicted time fits (the others,
    :attr:`left`, do not fold in time), then folded for its weights per count (:meth:`weights`, which the rest's
    completions of the others need) and against the rest (:meth:`finish`)."""

    def __init__(self, components: list[Component], max_bytes: int, planned: float, deadline: float) -> None:
        self.components = components
        self.deadline = deadline
        self.max_entries = max(max_bytes // ENTRY_BYTES, 1)
        self.plans: dict[int, Plan] = {}
        self.costs: dict[int, float] = {}
        self.bytes: dict[int, int] = {}  # what each planned fold's layers would hold, kept
        self.counted: dict[int, Counted] = {}
        self.kept: dict[int, object] = {}  # the layers kept by the folds for their weights, for their backward passes
        self.keep_bytes = KEEP * max_bytes
        self.proof: int | None = None  # a component no layout fits, when a fold found one
        self.threads = max(1, min(runs.THREADS, runs.cores()))
        start = time.perf_counter()
        give_up = start + PLAN_SHARE * (planned - start)
        orders: dict[int, list[Plan | None]] = {}  # per component: its plan in the banded order, then the greedy one
        pending = sorted(range(len(components)), key=lambda i: -len(components[i].cells))
        for i in pending:
            orders[i] = [None, None]
        cap = QUICK_SECONDS
        # rounds over the components still unplanned, each under a cap on the predicted time four times the last's:
        # the quick ones are planned first, and one too wide for its orders costs no more than its cap each round;
        # a round plans its components in the threads at once (their counts of states run without the GIL)
        while pending and time.perf_counter() < give_up:
            room = planned - time.perf_counter() - self.cost()
            limit = min(cap, room)
            if limit <= 0:
                break
            found = _parallel(partial(self._plan_one, orders, limit, give_up), pending, self.threads)
            for i, plan in zip(pending, found, strict=True):
                if plan is not None:
                    self.plans[i], self.costs[i], self.bytes[i] = plan
            pending = [i for i, plan in zip(pending, found, strict=True) if plan is None]
            # planned at once, the round's plans may together pass the time planned: the costliest go to the chain
            while self.costs and self.cost() > planned - time.perf_counter():
                drop = max(self.costs, key=lambda i: self.costs[i])
                del self.plans[drop], self.costs[drop], self.bytes[drop]
            if cap >= room:
                break
            cap *= 4
        self.left = [i for i in range(len(components)) if i not in self.plans]

    def _plan_one(
        self, orders: dict[int, list[Plan | None]], limit: float, give_up: float, i: int
    ) -> tuple[Plan, float, int] | None:
        """Component ``i``'s plan in the cheaper order within ``limit`` (:func:`_cheaper_plan`)."""
        return _cheaper_plan(self.components[i], orders[i], self.max_entries, limit, give_up)

    def _keeping(self, which: list[int]) -> set[int]:
        """Those of ``which`` (not yet counted) whose folds for their weights keep their layers: the costliest first,
        while the layers kept in all fit in :data:`KEEP` times ``max_bytes``."""
        room = self.keep_bytes - sum(self.bytes[i] for i in self.kept)
        keep = set()
        for i in sorted(which, key=lambda i: -self.costs[i]):
            if self.bytes[i] <= room:
                keep.add(i)
                room -= self.bytes[i]
        return keep

    def _schedule(self) -> tuple[set[int], int | None]:
        """How :meth:`finish` folds the planned components not yet counted: those whose layers are kept (for their
        weights first, then their backward passes), and the costliest of the others, folded once, alone, against
        the rest (the others are folded twice)."""
        missing = [i for i in self.plans if i not in self.counted]
        keep = self._keeping(missing)
        rest = [i for i in missing if i not in keep]
        return keep, max(rest, key=lambda i: self.costs[i]) if rest else None

    def _against_cost(self, i: int, keep: set[int]) -> float:
        return self.costs[i] * (BACK_ONLY if i in keep or i in self.kept else 1.0)

    def cost(self) -> float:
        """The predicted wall time of :meth:`finish`, in the threads: the planned folds for their weights (keeping
        their layers where :meth:`_schedule` keeps them), the costliest of the others alone, then every other
        against the rest (its backward pass alone where its layers are kept)."""
        keep, big = self._schedule()
        first = [self.costs[i] * WEIGHTS_ONLY for i in self.plans if i != big and i not in self.counted]
        last = [self._against_cost(i, keep) for i in self.plans if i != big]
        return _wall(first, self.threads) + (self.costs[big] if big is not None else 0.0) + _wall(last, self.threads)

    def finish_cost(self) -> float:
        """The predicted wall time of :meth:`finish` once every planned component's weights are counted."""
        return _wall([self._against_cost(i, set()) for i in self.plans], self.threads)

    def weights(self, which: list[int]) -> bool:
        """Fold the components ``which`` for their weights per count alone, in the threads at once, keeping their
        layers where they fit (:meth:`_keeping`); False when the time ran out or one holds no layout
        (:attr:`proof`)."""
        keep = self._keeping(which)
        which = sorted(which, key=lambda i: -self.costs[i])
        found = _parallel(partial(self._weigh, keep), which, self.threads)
        return all(found)

    def _weigh(self, keep: set[int], i: int) -> bool:
        """Fold component ``i`` for its weights (keeping its layers when in ``keep``); False as :meth:`weights`."""
        plan, left = self.plans[i], self.deadline - time.perf_counter()
        if left <= 0:
            return False
        assert CHAIN is not None  # folds run only with the C chain
        if i in keep:
            out = CHAIN.fold_keep(plan[1], plan[2], plan[3], FOLD_STATES, self.max_entries, left)
            if out is not None and out[3] is not None:
                self.kept[i] = out[3]
            counted: Counted | None = None if out is None else (out[0], out[1], out[2], [])
        else:
            counted = _run(plan, None, self.max_entries, self.deadline)
        if counted is None:
            return False
        if not counted[1]:
            self.proof = i
            return False
        self.counted[i] = counted
        return True

    def tally(self, i: int) -> Tally:
        """Component ``i``'s weights per count (folded for them), as a tally the weighting reads."""
        return _weights(self.counted[i])

    def finish(
        self, rest: list[Tally], unconstrained: int, mines_left: int, deadline: float | None = None
    ) -> list[Tally | None] | None:
        """Every planned component folded against the rest of the position: the tallies ``rest`` and the other
        planned components' weights (folded for them first where not yet counted, but for the costliest, whose fold
        against the rest gives its own), by ``deadline`` when given (else the one the folds were planned for), in
        the threads at once. Returns a tally per component (None for those not planned); None when the time ran out
        or the rest completes no count one of them can hold; a component no layout fits gets an exact tally of no
        layouts (a proof), and the others none."""
        if deadline is not None:
            self.deadline = deadline
        try:
            return self._finish(rest, unconstrained, mines_left)
        finally:
            self.kept.clear()  # their memory: every backward pass is done

    def _finish(self, rest: list[Tally], unconstrained: int, mines_left: int) -> list[Tally | None] | None:
        planned = sorted(self.plans)
        keep, big = self._schedule()
        missing = [i for i in planned if i not in self.counted and i != big]
        if not self.weights(missing):
            return self.proved()
        tallies: dict[int, Tally] = {}
        if big is not None:  # alone: the others' rest needs its weights, which this fold gives
            weights = [self.tally(j) for j in planned if j != big]
            log_h = completions([*rest, *weights], len(self.components[big].cells), unconstrained, mines_left)
            if not self._against(big, log_h, tallies):
                return self.proved()
        others = sorted((j for j in planned if j != big), key=lambda j: -self._against_cost(j, keep))
        if others:  # the rest of each holds every other planned component's weights, now known
            comps = [self.components[j] for j in planned]
            found = _all_completions([self.counted[j] for j in planned], rest, comps, unconstrained, mines_left)
            log_hs = dict(zip(planned, found, strict=True))
            done = _parallel(lambda j: self._against(j, log_hs[j], tallies), others, self.threads)
            if not all(done):
                return self.proved()
        return [tallies.get(i) for i in range(len(self.components))]

    def _against(self, i: int, log_h: list[float], tallies: dict[int, Tally]) -> bool:
        """Fold component ``i`` against the rest's completions ``log_h``, its tally into ``tallies``; False when the
        time ran out, the rest completes no count it can hold, or no layout fits it (:attr:`proof`)."""
        if all(v == -math.inf for v in log_h):
            return False
        if i in self.kept:
            assert CHAIN is not None  # folds run only with the C chain
            left = self.deadline - time.perf_counter()
            out = CHAIN.fold_back(self.kept[i], log_h, left) if left > 0 else None
        else:
            out = _run(self.plans[i], log_h, self.max_entries, self.deadline)
        if out is None or not out[1]:
            if out is not None:
                self.proof = i
            return False
        self.counted[i] = out
        tallies[i] = _tally(self.plans[i], out, log_h)
        return True

    def proved(self) -> list[Tally | None] | None:
        """When a fold found a component that no layout fits, an exact tally of no layouts for it (a proof), and
        nothing for the others; else None."""
        if self.proof is None:
            return None
        return [Tally({}, {}) if j == self.proof else None for j in range(len(self.components))]


def _wall(costs: list[float], threads: int) -> float:
    """The predicted wall time of folds of these predicted times in ``threads`` threads at once."""
    return max(max(costs, default=0.0), sum(costs) / threads)


def _parallel(work: Callable[[int], R], items: list[int], threads: int) -> list[R]:
    """``work(item)`` for each item, in ``threads`` threads at once (this one among them), each taking the next item
    in the order given; the results in that order. An error in one is raised here once all have stopped, and no
    thread takes another item after it. The other threads free their kernel buffers as they end."""
    if threads <= 1 or len(items) <= 1:
        return [work(item) for item in items]
    results: list[R | None] = [None] * len(items)
    lock, stop = threading.Lock(), threading.Event()
    taken = iter(range(len(items)))
    errors: list[BaseException] = []

    def take() -> None:
        while not stop.is_set():
            with lock:
                k = next(taken, None)
            if k is None:
                return
            try:
                results[k] = work(items[k])
            except BaseException as error:  # raised again in the calling thread
                errors.append(error)
                stop.set()

    def helper() -> None:
        try:
            take()
        finally:
            assert CHAIN is not None  # folds run only with the C chain
            CHAIN.release()  # this thread's buffers

    helpers = [threading.Thread(target=helper, name=f"sweeplab-fold-{t}", daemon=True) for t in range(1, threads)]
    for thread in helpers:
        thread.start()
    try:
        take()
    finally:  # an interrupt here too: the others end with the item they hold (each fold stops by its deadline)
        stop.set()
        for thread in helpers:
            thread.join()
    if errors:
        raise errors[0]
    return results  # type: ignore[return-value]  # every item's result, with no error


def _all_completions(
    counted: list[Counted], others: list[Tally], components: list[Component], unconstrained: int, mines_left: int
) -> list[list[float]]:
    """log h(k) for k = 0..cells of each folded component, from one weighing of the rest with every fold's weights
    (as :func:`~sweeplab.analysis.chain.completions` gives it one component at a time: on a board of hundreds of
    components each such weighing takes a good part of a tenth of a second)."""
    import numpy as np  # as the numeric weighting does

    weights = [_weights(out) for out in counted]
    weighing = _weigh_numeric([*others, *weights], unconstrained, mines_left)
    out = []
    for i, (comp, tally) in enumerate(zip(components, weights, strict=True)):
        cells = len(comp.cells)
        g = weighing.g.get(len(others) + i)
        if g is None:  # one possible count: the rest weighs nothing against another
            out.append([0.0] * (cells + 1))
            continue
        lo = _lowest_count(tally.weight)
        values = np.zeros(cells + 1, dtype=g.dtype)
        values[lo : lo + len(g)] = g[: cells + 1 - lo]
        with np.errstate(divide="ignore"):  # log in extended precision; 0: -inf
            out.append(np.log(values).astype(float).tolist())
    return out


def _cheaper_plan(
    comp: Component, orders: list[Plan | None], max_entries: int, seconds: float, give_up: float
) -> tuple[Plan, float, int] | None:
    """The plan of the order (greedy or banded, each built once into ``orders``) whose fold is predicted quicker
    (:func:`_cost`), that time and the bytes its layers hold, kept; None when neither's weight vectors fit in
    ``max_entries`` or its predicted time in ``seconds``, or when ``give_up`` (a ``time.perf_counter`` value) passes
    first. The banded order (built in Python, a millisecond or more a component) is not tried when the greedy one
    (built in C) is predicted under :data:`QUICK_SECONDS`; its states are counted only up to the greedy one's time
    (one order's count may hold a thousand times the other's states)."""
    assert CHAIN is not None  # fold runs only with the C chain
    best: tuple[Plan, float, int] | None = None
    for k in (1, 0):
        limit = seconds if best is None else best[1]
        if limit <= 0 or (k == 0 and best is not None and best[1] < QUICK_SECONDS):
            break
        if orders[k] is None:
            sizes = [len(cells) for cells in comp.supercells]
            greedy = k == 1
            order = CHAIN.greedy_order(sizes, [(js, m) for js, m, _ in comp.constraints]) if greedy else _order(comp)
            orders[k] = _plan(comp, order)
        plan = orders[k]
        assert plan is not None
        entries = min(max_entries, int(limit / ENTRY_SECONDS))
        found = CHAIN.plan_states(
            plan[1], plan[2], plan[3], FOLD_STATES, entries, int(limit / STATE_SECONDS) + 1, give_up - time.perf_counter()
        )
        if found is not None and _cost(*found) <= limit:
            best = plan, _cost(*found), found[1] * ENTRY_BYTES + found[0] * STATE_BYTES
    return best


def _cost(states: int, entries: int) -> float:
    """A fold's predicted seconds, from its count's states and their vectors' entries."""
    return STATE_SECONDS * states + ENTRY_SECONDS * entries


def _plan(comp: Component, order: list[int]) -> Plan:
    """The count's steps over ``comp``'s super-cells in ``order`` (``_chain.plan``), and each number's need."""
    assert CHAIN is not None
    at = {j: t for t, j in enumerate(order)}
    sizes = [len(comp.supercells[j]) for j in order]
    steps = CHAIN.plan(sizes, [(tuple(sorted(at[j] for j in js)), i) for i, (js, _, _) in enumerate(comp.constraints)])
    return order, sizes, steps, [m for _, m, _ in comp.constraints]


def _run(plan: Plan, log_h: list[float] | None, max_entries: int, deadline: float) -> Counted | None:
    """``_chain.fold`` over a plan, within the time left (``log_h`` None: the weights alone)."""
    assert _FOLD is not None
    left = deadline - time.perf_counter()
    if left <= 0:
        return None
    return _FOLD(plan[1], plan[2], plan[3], log_h, FOLD_STATES, max_entries, left)


def _weights(out: Counted) -> Tally:
    """A fold's weights per count, as a tally the weighting reads (no expected rows). Every count from the lowest
    to the highest the count's paths reach is a key, those of weight 0 too (an unreachable count, or one whose weight
    fell below a double's range): its keys hold every count the component can hold, as a proof that no global count
    fits needs."""
    low, weights, log_scale, _ = out
    return Tally({low + q: w for q, w in enumerate(weights)}, {}, False, log_scale=log_scale, rounding=True)


def _tally(plan: Plan, out: Counted, log_h: list[float]) -> Tally:
    """A folded component's tally: its weights per count, and one expected row, at the count k0 that weighs most
    with the rest, scaled so that the weighting gives each super-cell the fold's expected mines: the weighting
    takes a row at k in proportion to h(k) over the sum of h times the weights, so the row is the expected mines
    times that sum over h(k0)."""
    order, means = plan[0], out[3]
    tally = _weights(out)
    weight = tally.weight
    weighs = [(k, w) for k, w in weight.items() if w > 0 and log_h[k] > -math.inf]
    k0 = max(weighs, key=lambda kw: math.log(kw[1]) + log_h[kw[0]])[0]
    top = math.log(weight[k0]) + log_h[k0]
    factor = sum(math.exp(math.log(w) + log_h[k] - top) for k, w in weighs) * weight[k0]
    row = [0.0] * len(order)
    for t, j in enumerate(order):
        row[j] = means[t] * factor
    tally.expected = {k0: row}
    return tally
