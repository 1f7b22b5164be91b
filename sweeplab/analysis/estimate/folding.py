"""Wide components counted in floating point and folded against the rest of the position: exact up to rounding.

A component too wide for the exact count in integers (whose states are keyed by the mines so far and the needs of
the open numbers, and whose backward pass carries a row per final mine count) is counted here by the chain's C
kernel as one block (``_chain.fold``): states keyed by the needs alone, each holding a vector over the mines so far,
in doubles rescaled layer by layer; each final mine count k weighted by h(k), the ways the rest of the position (the
other components and the free cells) completes a layout with k mines in this component; then a backward pass gives
each super-cell's expected mines under that weighting, which is its probability times its size. The rest's h needs
the other wide components' weights per count, which a fold for the weights alone gives: each component is folded for
its weights first, keeping its layers (``_chain.fold_keep``, where they fit in :data:`KEEP` times the budget's
``max_bytes``), then against the rest by its backward pass alone (``_chain.fold_back``, a fifth of the time; a
component whose layers were not kept is folded again). The folds run in the chain's threads at once. Components
that do not fold in the time given them (:attr:`Folds.left`) are left to the chain, beside the weights of those
that do.

The result is exact up to floating-point rounding (tested against exact integer counts), so it is reported as
``exact=False`` with the error :data:`~sweeplab.analysis.exact.probabilities.ROUNDING`, as are exact counts weighed in
floating point. It claims no certain cell: a probability of 0 or 1 in floating point is no proof (on large boards the
single-point and subset passes settle the certain cells before the count).

The folds for the weights run in rounds, smallest component first, each fold under a time cap four times the last
round's: the quick ones fold first, and one too wide costs no more than its cap each round. The order a component is
counted in decides its cost, by up to a hundred times. A component is first folded in a greedy order that keeps the
open numbers' ranges of mine counts narrow (``_chain.greedy_order``), which folds the many small ones at once; if
that gives up, in its spectral orders (:func:`spectral_order`: the super-cells along the component's length, by an
approximate Fiedler vector, after 8 and after 1 steps of inverse iteration) and their reverses; later rounds use
whichever looked quickest by the steps it did before it gave up, and when fewer components are left than threads,
the idle threads race others, the quickest-looking one of the other direction second (the first to fold stops the
others). On the widest components of the densest large boards, folds in the spectral orders take from a few times
to a hundred times less than in the greedy or the count's banded order (which remains, with the greedy one, for
components past :data:`SPECTRAL_MAX` super-cells). Beside the chain, the rounds stop at the time planned for that
(``mixed``); they go on to the time planned for folds alone only while every component left looks as if it folds in
time.

A fold whose vectors would hold more than 2^20 entries (8 MiB) is thinned in C: it keeps the vectors of about twice
the square root of its layers, and its backward pass replays the others from them, to the bit. The widest
components that fold in seconds then hold tens of MiB rather than a GiB, and their folds for the weights are quicker
(they write to far less fresh memory); their backward passes take longer (:data:`THIN_BACK_SHARE`)."""

from __future__ import annotations

import itertools
import math
import threading
import time
from collections.abc import Callable
from functools import partial
from typing import TypeVar

from sweeplab.analysis.estimate import batches as runs
from sweeplab.analysis.estimate.kernel import CHAIN
from sweeplab.analysis.exact.components import Component
from sweeplab.analysis.exact.counting import Tally, _order
from sweeplab.analysis.exact.weighting import _lowest_count, _weigh_numeric

_FOLD = getattr(CHAIN, "fold_keep", None) and getattr(CHAIN, "fold", None)  # None without the C chain (or an old one)
FOLD_STATES = 1 << 20  # needs states one step of a fold may hold (its hash table: 8 MiB of ints)
ENTRY_BYTES = 8  # a fold keeps one double per entry of its weight vectors (and two layers of completions)
QUICK_SECONDS = 0.002  # the first round's time for each component's fold for its weights (four times more each round)
# a fold against the rest, predicted from its fold for the weights (ad hoc, on the largest components of 1024x64 with
# 14,417 mines and 40 % revealed: 0.22 to 0.25 of its time from kept layers, 1.25 times it without)
BACK_SHARE = 0.35
WHOLE_SHARE = 1.5
# the same for a thinned fold (past 2^20 entries, it keeps some layers alone and replays the others): on the 60 thinned
# folds of results/large/thinned/orders-after (12 components of 563 to 2,207 super-cells, every order), the backward
# pass took 0.43 to 1.98 times the fold for the weights, median 1.09, and 1.28 for the 34 folds over 50 ms
THIN_BACK_SHARE = 1.6
THIN_WHOLE_SHARE = 1 + THIN_BACK_SHARE
# to go past the time planned beside the chain, the folds left must look as if they take at most 1 / GUESS_SLACK of the
# time to the end of the time planned for folds alone (a fold that gave up early once had to have done 80 % of its
# steps too; since its guess weighs its steps, ad hoc on 21 dense positions three times in turn, 131 of 147 within
# 0.02 without that condition, 121 with it)
GUESS_SLACK = 2
# how much a fold's step costs, to guess its whole time from the steps it did (_progress): STEP_BASE to the power of
# the numbers open after it (its states grow about geometrically with them) times the cells counted by then to the power
# CELLS_POWER (its vectors over the mines so far grow with them). Ad hoc, on the 27 components of 500 to 3,000
# super-cells that 9 dense positions hand to their folds, each in its four spectral orders, capped at 0.008, 0.032 and
# 0.128 s: the median factor between the guess and the whole fold's time was 1.55 (2.1 with every step costing the
# same), and the order that looked quickest at a cap was the quickest in 21 of 32 comparisons (13)
STEP_BASE = 1.6
CELLS_POWER = 0.5
KEEP = 2  # the layers kept between a fold's two passes, all folds together, may hold this many times max_bytes
# components of up to this many super-cells are also folded in their spectral orders, each built by a few solves of
# SPECTRAL_STEPS steps of conjugate gradients (ad hoc: about 1 ms a solve at 800 super-cells, growing with them)
SPECTRAL_MAX = 10_000
SPECTRAL_STEPS = 200
# the orders a component may be folded in (_kinds): the greedy and banded ones, and the spectral ones, forwards and
# backwards, after INVERSE_STEPS[k] steps of inverse iteration
ORDERS = range(6)
GREEDY, BANDED, SPECTRAL, REVERSED, ROUGH, ROUGH_REVERSED = ORDERS
INVERSE_STEPS = {SPECTRAL: 8, ROUGH: 1}
BACKWARDS = {REVERSED: SPECTRAL, ROUGH_REVERSED: ROUGH}
DIRECTED = {*INVERSE_STEPS, *BACKWARDS}  # the orders that run one way or the other along the component

R = TypeVar("R")
T = TypeVar("T")
Plan = tuple[list[int], list[int], list, list[int]]  # the order of the super-cells, their sizes, the steps, the needs
Counted = tuple[int, list[float], float, list[float]]  # _chain.fold's (low, weights, log_scale, means per step)


def available() -> bool:
    """Whether folds can run: the C chain is built, with ``fold``."""
    return _FOLD is not None


class Folds:
    """The folds of some components: each folded for its weights per count in the cheaper-looking order where it
    folds in the time planned (the others, :attr:`left`, do not fold in time), its layers kept where they fit, then
    against the rest (:meth:`finish`: its backward pass alone where its layers are kept)."""

    def __init__(
        self, components: list[Component], max_bytes: int, planned: float, deadline: float, mixed: float = math.inf
    ) -> None:
        """Fold ``components`` for their weights by ``planned`` (a ``time.perf_counter`` value; by ``mixed`` when
        some look as if they do not fold), the time their folds against the rest are predicted to take kept back;
        ``deadline``: the end of every fold, :meth:`finish` included."""
        self.components = components
        self.deadline = deadline
        self.max_entries = max(max_bytes // ENTRY_BYTES, 1)
        self.keep_bytes = KEEP * max_bytes
        self.plans: dict[int, Plan] = {}  # the order each component was folded in
        self.costs: dict[int, float] = {}  # the seconds each one's fold for its weights took
        self.thinned: set[int] = set()  # those whose folds were thinned (their backward passes replay layers)
        self.counted: dict[int, Counted] = {}
        self.kept: dict[int, object] = {}  # the layers kept by the folds for their weights, for their backward passes
        self.kept_bytes = 0
        self.proof: int | None = None  # a component no layout fits, when a fold found one
        self.threads = max(1, min(runs.THREADS, runs.cores()))
        self._lock = threading.Lock()
        # (component, order): how long its fold looked when it gave up
        self._guess: dict[tuple[int, int], float] = {}
        self._built: dict[int, list[Plan | None]] = {i: [None] * len(ORDERS) for i in range(len(components))}  # _orders
        # per component, a flag its folds read in C: set once it is folded, it stops the race's other folds of it
        self._stop = {i: bytearray(1) for i in range(len(components))}
        pending = sorted(range(len(components)), key=lambda i: len(components[i].cells))
        cap = QUICK_SECONDS
        # rounds over the components not yet folded, smallest first, in the threads at once, each fold for the
        # weights under a time cap four times the last round's; past ``mixed`` only while every component left looks
        # as if it folds in the time left (else the chain estimates those beside the folds, and needs the rest)
        while pending and self.proof is None:
            now = time.perf_counter()
            stop = planned if self._all_fold(pending, planned - now) else min(mixed, planned)
            room = stop - now - self.cost()
            if room <= 0:
                break
            work = self._work(pending)
            _parallel(partial(self._first_fold, cap, now + room), work, self.threads)
            pending = [i for i in pending if i not in self.counted and self.proof is None]
            if cap >= room:
                break
            cap *= 4
        self.left = [i for i in range(len(components)) if i not in self.counted]

    def _work(self, pending: list[int]) -> list[tuple[int, int | None]]:
        """A round's folds: each pending component in the order :meth:`_first_fold` chooses (None); but when fewer
        components are pending than there are threads, and each has been folded in all its first orders, each in
        as many of its later orders at once as the threads allow, those whose folds looked quickest first (a race:
        the first to fold wins and stops the others), as the threads would otherwise idle."""
        if len(pending) >= self.threads or any((i, k) not in self._guess for i in pending for k in _kinds(self.components[i])[0]):
            return [(i, None) for i in pending]
        each = self.threads // len(pending)
        return [(i, k) for i in pending for k in self._raced(i)[:each]]

    def _ranked(self, i: int) -> list[int]:
        """Component ``i``'s later orders, those whose folds looked quickest (by the steps each did before it gave up)
        first."""
        return sorted(_kinds(self.components[i])[1], key=lambda k: self._guess[i, k])

    def _raced(self, i: int) -> list[int]:
        """:meth:`_ranked`, but with the quickest-looking order of the other direction second (a spectral order
        run forwards or backwards): a guess from the first steps can miss by ten times, and the two directions meet
        their widest steps at opposite ends, so the guesses of one say little of the other (256x256 with 16,384 mines
        and 40 % revealed, seed 5: a component guessed at 0.33 and 0.39 s forwards folds in 0.05 s backwards, guessed
        at 0.55 s)."""
        ranked = self._ranked(i)
        other = [k for k in ranked[1:] if (k in BACKWARDS) != (ranked[0] in BACKWARDS)]
        if not other or ranked[0] not in DIRECTED:
            return ranked
        return [ranked[0], other[0], *(k for k in ranked[1:] if k != other[0])]

    def _first_fold(self, seconds: float, end: float, item: tuple[int, int | None]) -> bool:
        """Fold component ``i`` for its weights within ``seconds`` and by ``end`` (a ``time.perf_counter`` value),
        keeping its layers where they fit; True when it folded, or found no layout fits it (:attr:`proof`). In order
        ``k`` when ``item`` is ``(i, k)``; for ``(i, None)``, the first time, in each of its first orders
        (:func:`_kinds`) until one folds; after that, only in the one of its later orders whose fold looks quickest,
        by the steps each did before it gave up. Not at all in an order whose fold looks longer than the time left,
        or once the component is folded (in another order, by another thread)."""
        assert CHAIN is not None  # folds run only with the C chain
        i, given = item
        ks = [given] if given is not None else [k for k in _kinds(self.components[i])[0] if (i, k) not in self._guess]
        if not ks:
            ks = self._ranked(i)[:1]
        if (i, ks[0]) in self._guess and self._guess[i, ks[0]] > end - time.perf_counter():
            return False
        for k in ks:
            if i in self.counted or self.proof is not None:
                return i in self.counted
            left = min(seconds, end - time.perf_counter())
            if left <= 0:
                return False
            plan = _orders(self.components[i], self._built[i], k)
            start = time.perf_counter()
            out = CHAIN.fold_keep(plan[1], plan[2], plan[3], FOLD_STATES, self.max_entries, left, self._stop[i])
            took = time.perf_counter() - start
            if isinstance(out, int):  # gave up after out steps: the whole fold would take about this long, or more
                if i in self.counted:  # stopped: another thread folded it, and no guess is wanted
                    continue
                done = _progress(self.components[i], plan)
                self._guess[i, k] = took * done[-1] / done[out - 1] if out else math.inf
                continue
            if not out[1]:
                self.proof = i
                return True
            low, weights, log_scale, kept, nbytes, thinned = out
            with self._lock:
                if i in self.counted:  # another thread folded it first (in another order)
                    return True
                if self.kept_bytes + nbytes <= self.keep_bytes:
                    self.kept[i] = kept
                    self.kept_bytes += nbytes
                if thinned:
                    self.thinned.add(i)
                self.plans[i], self.costs[i], self.counted[i] = plan, took, (low, weights, log_scale, [])
                self._stop[i][0] = 1
            return True
        return False

    def _all_fold(self, pending: list[int], seconds: float) -> bool:
        """Whether every component of ``pending`` looks as if it folds in ``seconds`` with :data:`GUESS_SLACK` to
        spare, in the threads, by how long its quicker-looking fold looked when it gave up (False for one not yet
        tried)."""
        guesses = [min(self._guess.get((i, k), math.inf) for k in _kinds(self.components[i])[1]) for i in pending]
        return _wall(guesses, self.threads) * GUESS_SLACK <= seconds

    def cost(self) -> float:
        """The predicted wall time of :meth:`finish`, in the threads: each folded component against the rest (its
        backward pass alone where its layers are kept)."""
        return _wall([self._against_cost(i) for i in self.counted], self.threads)

    def _against_cost(self, i: int) -> float:
        """The predicted time of folding component ``i`` against the rest: from its fold for the weights, its
        backward pass alone where its layers are kept, else the whole fold again (each longer where it was
        thinned)."""
        if i in self.thinned:
            return self.costs[i] * (THIN_BACK_SHARE if i in self.kept else THIN_WHOLE_SHARE)
        return self.costs[i] * (BACK_SHARE if i in self.kept else WHOLE_SHARE)

    def tally(self, i: int) -> Tally:
        """Component ``i``'s weights per count (folded for them), as a tally the weighting reads."""
        return _weights(self.counted[i])

    def finish(
        self, rest: list[Tally], unconstrained: int, mines_left: int, deadline: float | None = None
    ) -> list[Tally | None] | None:
        """Every folded component against the rest of the position: the tallies ``rest`` and the other folded
        components' weights, by ``deadline`` when given (else the one the folds were planned for), in the threads at
        once. Returns a tally per component (None for those not folded); None when the time ran out or the rest
        completes no count one of them can hold; a component no layout fits gets an exact tally of no layouts (a
        proof), and the others none."""
        if deadline is not None:
            self.deadline = deadline
        try:
            if self.proof is not None:
                return self.proved()
            folded = sorted(self.counted)
            comps = [self.components[j] for j in folded]
            found = _all_completions([self.counted[j] for j in folded], rest, comps, unconstrained, mines_left)
            log_hs = dict(zip(folded, found, strict=True))
            tallies: dict[int, Tally] = {}
            order = sorted(folded, key=lambda j: -self._against_cost(j))
            if not all(_parallel(lambda j: self._against(j, log_hs[j], tallies), order, self.threads)):
                return self.proved()
            return [tallies.get(i) for i in range(len(self.components))]
        finally:
            self.kept.clear()  # their memory: every backward pass is done

    def _against(self, i: int, log_h: list[float], tallies: dict[int, Tally]) -> bool:
        """Fold component ``i`` against the rest's completions ``log_h`` (from its kept layers, the backward pass
        alone), its tally into ``tallies``; False when the time ran out, the rest completes no count it can hold,
        or no layout fits it (:attr:`proof`)."""
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


def _parallel(work: Callable[[T], R], items: list[T], threads: int) -> list[R]:
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
    (as :func:`~sweeplab.analysis.estimate.chain.completions` gives it one component at a time: on a board of hundreds of
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


def _kinds(comp: Component) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The orders ``comp`` is folded in: those of its first fold, in the order they are tried, and those its later
    folds choose from. Up to :data:`SPECTRAL_MAX` super-cells, the greedy order first (it folds the many small
    components at once), then the spectral orders, and later only those: on the widest components they fold from a
    few times to a hundred times quicker, and the greedy order's guess from the first round's few steps is too rough
    to overrule that (ad hoc, on 10 of the densest positions of ``benchmarks/large/large_positions.py`` at 2 s: with the
    greedy order among the later ones, one of them chose it and did not fold in time). Past it, the greedy and banded
    orders."""
    if len(comp.supercells) <= SPECTRAL_MAX:
        spectral = (SPECTRAL, REVERSED, ROUGH, ROUGH_REVERSED)
        return (GREEDY, *spectral), spectral
    return (GREEDY, BANDED), (GREEDY, BANDED)


def _orders(comp: Component, orders: list[Plan | None], k: int) -> Plan:
    """``comp``'s plan in an order (``k``): :data:`GREEDY` (``_chain.greedy_order``, built in C), :data:`BANDED`
    (built in Python, a millisecond or more a component), a spectral one (:func:`spectral_order`, after
    :data:`INVERSE_STEPS` steps) or one of those backwards (:data:`BACKWARDS`), each built once into ``orders``."""
    plan = orders[k]
    if plan is None:
        assert CHAIN is not None  # folds run only with the C chain
        if k == GREEDY:
            order = CHAIN.greedy_order(*_graph(comp))
        elif k in INVERSE_STEPS:
            order = spectral_order(comp, INVERSE_STEPS[k])
        elif k in BACKWARDS:
            order = _orders(comp, orders, BACKWARDS[k])[0][::-1]
        else:
            order = _order(comp)
        plan = orders[k] = _plan(comp, order)
    return plan


def spectral_order(comp: Component, inverse: int = INVERSE_STEPS[SPECTRAL]) -> list[int]:
    """``comp``'s super-cells by a smooth coordinate along the component (``_chain.spectral_order``, in C): an
    approximate Fiedler vector of its graph (super-cells joined where they share a number), by ``inverse`` steps of
    inverse iteration from the breadth-first distance to a far super-cell, each solved by :data:`SPECTRAL_STEPS` steps
    of conjugate gradients. Sorting by the Fiedler vector lays a graph out along its length, so few numbers are open at
    each step of a count in that order: on the widest components of 65,536-cell boards with a quarter of mines and 40 %
    of the safe cells revealed, folds in this order (or its reverse) take from a few times to a hundred times less than
    in the greedy or banded orders.

    Which number of steps folds quickest varies by component, by over ten times either way, so a component is folded
    after 8 steps and after 1 (:data:`INVERSE_STEPS`). Ad hoc, on the 99 components of 300 super-cells or more of 15
    dense positions (65,536 cells, 30 to 50 % revealed), the quicker of each order and its reverse, folds capped at
    1.5 s: after 1, 2, 4 or 8 steps, 13.6, 6.9, 5.8 and 3.2 s in all (4, 1, 1 and 0 not folded); the quickest after 1
    or 8 steps, 2.1 s in all, the slowest 0.47 s; after any of the four, 2.0 s. A dense solve gave no quicker folds, and
    grows as the cube of the super-cells."""
    assert CHAIN is not None  # folds run only with the C chain
    return CHAIN.spectral_order(*_graph(comp), inverse, SPECTRAL_STEPS)


def _graph(comp: Component) -> tuple[list[int], list[tuple[tuple[int, ...], int]]]:
    """``comp`` as the C orders read it: its super-cells' sizes, and its numbers as (super-cells, mines)."""
    return [len(cells) for cells in comp.supercells], [(js, m) for js, m, _ in comp.constraints]


def _plan(comp: Component, order: list[int]) -> Plan:
    """The count's steps over ``comp``'s super-cells in ``order`` (``_chain.plan``), and each number's need."""
    assert CHAIN is not None
    at = {j: t for t, j in enumerate(order)}
    sizes = [len(comp.supercells[j]) for j in order]
    steps = CHAIN.plan(sizes, [(tuple(sorted(map(at.__getitem__, js))), i) for i, (js, _, _) in enumerate(comp.constraints)])
    return order, sizes, steps, [m for _, m, _ in comp.constraints]


def _run(plan: Plan, log_h: list[float] | None, max_entries: int, deadline: float) -> Counted | None:
    """``_chain.fold`` over a plan, within the time left (``log_h`` None: the weights alone)."""
    assert _FOLD is not None
    left = deadline - time.perf_counter()
    if left <= 0:
        return None
    return _FOLD(plan[1], plan[2], plan[3], log_h, FOLD_STATES, max_entries, left)


def _progress(comp: Component, plan: Plan) -> list[float]:
    """The predicted cost of a fold of ``comp`` in ``plan``'s order by the end of each step, in a unit of its own:
    each step costs :data:`STEP_BASE` to the power of the numbers open after it, times the cells counted by then to
    the power :data:`CELLS_POWER` (in numpy: a component may hold thousands of numbers)."""
    import numpy as np  # as the numeric weighting does

    order, sizes = plan[0], plan[1]
    at = np.empty(len(order), dtype=np.int64)
    at[order] = np.arange(len(order))
    numbers = [js for js, _, _ in comp.constraints if js]
    lengths = [len(js) for js in numbers]
    change = np.zeros(len(order) + 1, dtype=np.int64)
    if lengths:
        steps = at[np.fromiter(itertools.chain.from_iterable(numbers), np.int64)]
        starts = np.cumsum([0, *lengths[:-1]])
        np.add.at(change, np.minimum.reduceat(steps, starts), 1)
        np.add.at(change, np.maximum.reduceat(steps, starts), -1)
    open_after = np.cumsum(change[:-1])
    cells = np.cumsum(sizes)
    return np.cumsum(STEP_BASE**open_after * cells**CELLS_POWER).tolist()


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
