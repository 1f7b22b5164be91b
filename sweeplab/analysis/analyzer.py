"""The front of the exact probability engine: :class:`Analyzer` and :func:`analyze` give every covered cell's mine
probability, weighted by the global mine count, running the stages within a :class:`Budget`, with the C kernel when it
is built.

The stages, each in its own module (named as in minesweepr; :mod:`sweeplab.analysis` re-exports the public names):
constraints (:mod:`~sweeplab.analysis.exact.constraints`) -> super-cells (frontier cells that touch exactly the same
numbers) and independent components (:mod:`~sweeplab.analysis.exact.components`) -> a per-component count of weighted
solutions by mine count k (:mod:`~sweeplab.analysis.exact.counting`: dynamic programming over super-cells, merging
equal partial states, so a long thin frontier costs little; a forward pass of weights, then a backward pass for each
super-cell's expected mines), or, for the components the count cannot finish in time (a frontier wide in both
directions), a fold in floating point or an estimate by a Markov chain over their solutions
(:mod:`sweeplab.analysis.estimate`) -> weighting by C(U, R - K), the ways to put the remaining R - K mines among the
U covered cells no number touches, where K sums the components' counts (:mod:`~sweeplab.analysis.exact.weighting`)
-> :class:`Probabilities` (:mod:`~sweeplab.analysis.exact.probabilities`). All of it in exact integers when every
component is counted: the result is then the true posterior under a uniformly random layout, equal to brute force
over every layout. :func:`~sweeplab.analysis.exact.consistency.check_consistency` decides Kaye's consistency problem
with a witness layout.

The budget is a promise (:class:`Budget`, :mod:`~sweeplab.analysis.exact.budget`): ``Analyzer.analyze`` returns within
``seconds`` plus a small overhead (:data:`OVERHEAD_SECONDS`), with the best answer it has. Every stage checks the
clock (constraints, components, the count, in the C kernel too, the estimate, the weighting, the witness search).
On boards of :data:`~sweeplab.analysis.analyzer.FIX_CELLS` cells or more, the cells the single-point pass decides
are settled before the count (safe cells leave it, mines count as flags, and the settled cells form one component of
their own), and so are those that subset simplification decides in the large components the count's probe
leaves: a frontier with numbers strewn all over then falls into hundreds of small components instead of one too
wide to count. Exact counts whose weighing in exact integers would take longer than the time left are weighed in
floating point at once (``exact=False``, ``error`` :data:`ROUNDING`). The exact count may use the first
:data:`EXACT_SHARE` of the budget; the components still uncounted then (too many partial states, too much memory, or
no time) are counted in floating point, folded against the rest of the position, when their predicted time fits
(:mod:`~sweeplab.analysis.estimate.folding`: states keyed by the needs alone, each holding a vector over the mines so far;
exact up to rounding, so ``exact=False`` and ``error`` :data:`ROUNDING` again, with no certain cell claimed among
them); on boards probed before the count, the probe's leftovers are folded before the full count, which then runs
only to make the answer exact when most of its time is left. Components that do not fold in time (too many states
even so) are merged into one and estimated by the chain in the rest, beside the folds of the others, weighted
by the exact counts of the others and the unconstrained cells (so the global mine count holds), and the result says
``exact=False`` with an estimated error (two standard errors of the chain's batch means; ``layouts`` is then a scale,
not a count). The estimate improves with time: its error falls roughly as one over the square root of the seconds
given. A position is called
inconsistent (:class:`InconsistentPositionError`) only when that is proved: a number that cannot hold, a
component counted exactly with no solution, or exact counts that no global mine count fits. When even an
estimate cannot be had in time (the chain found no first solution, or made too few moves), :class:`UndecidedError`
says so and that more time would help; it never means "inconsistent".
"""

from __future__ import annotations

import time
from array import array
from dataclasses import replace
from typing import TYPE_CHECKING

from sweeplab.analysis.exact.budget import (
    DEFAULT_BUDGET,
    ESTIMATE_RESERVE,
    EXACT_AFTER_FOLD,
    FOLD_SHARE,
    MIXED_SHARE,
    PATIENCE,
    PROBE_CELLS,
    PROBE_CPU,
    PROBE_SHARE,
    PROBE_STATES,
    PROMISING_SHARE,
    PROMISING_SUPERCELLS,
    WIDE_SHARE,
    WIDE_SUPERCELLS,
    Budget,
    _Clock,
    _TooBig,
    collector_paused,
)
from sweeplab.analysis.exact.components import Component, build_components
from sweeplab.analysis.exact.constraints import Constraint, _observation, constraints_from
from sweeplab.analysis.exact.counting import Tally, count
from sweeplab.analysis.exact.kernel import _PACK, KERNEL
from sweeplab.analysis.exact.probabilities import Probabilities, _combine
from sweeplab.analysis.exact.single_point import obvious
from sweeplab.analysis.exact.subsets import simplify
from sweeplab.analysis.exact.weighting import _weigh_numeric
from sweeplab.core.errors import ArgumentError, InconsistentPositionError, UndecidedError, shown
from sweeplab.core.observation import COVERED, FLAGGED, Observation

if TYPE_CHECKING:
    from sweeplab.analysis.estimate import folding

# beside a chain, the share of the budget kept for the folds' last pass beyond its predicted time, and for the answer
# with their many tallies (ad hoc: 0.1 to 0.2 s past the estimate's reserve on 256x256 with 16,384 mines at 2 s)
FINISH_SHARE = 0.06
WEIGH_TIMED = 50  # with more exact components beside an estimate, the time its batches' weighing takes is kept back
CHAIN_SHARE = 0.2  # the share of the budget a chain beside folds needs at least (else the folds may take its time)
SUBSET_CELLS = 250  # ... and in a component of more cells that the probe leaves uncounted, subset simplification too
FIX_CELLS = 4096  # on boards of this many cells or more, the cells the single-point pass decides are fixed first
KNOWN_SAFE = -3 & 0xFF  # a covered cell known safe, in the kernel's view bytes: no unknown, and no number


class Analyzer:
    """Analyses positions within a :class:`Budget`. It counts with the C kernel when it is built
    (``sweeplab.analysis.exact._kernel``) and in pure Python otherwise or when ``SWEEPLAB_PURE_PYTHON`` is set; both give
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
        with collector_paused():
            if self.use_kernel:
                return self._analyze_with_kernel(observation, clock)
            return self._analyze_in_python(observation, clock)

    def _analyze_in_python(self, observation: Observation, clock: _Clock) -> Probabilities:
        """:meth:`analyze` without the C kernel: the constraints, components and counts in Python."""
        try:
            problem = constraints_from(observation, deadline=clock.end)
        except UndecidedError as error:
            raise UndecidedError(f"{error} (budget {clock.seconds:g} s)") from None
        value = _single_point(observation, use_kernel=False) if observation.board.cells >= FIX_CELLS else {}
        constraints = _settled(problem.constraints, value) if value else problem.constraints
        components = build_components(constraints, deadline=clock.end)
        tallies: list[Tally | None] = []
        for comp in components:
            tallies.append(self._cache.get(comp.key()))
        if value:
            component, tally = _fixed(value)
            components.append(component)
            tallies.append(tally)
        components, tallies = self._count(
            components, tallies, clock, len(problem.unconstrained), problem.mines_left, observation.board.width
        )
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
            with collector_paused():
                return self._analyze_with_kernel(observation, _Clock.starting(self.budget), explain=False)
        except InconsistentPositionError:
            return None

    def _count(
        self,
        components: list[Component],
        tallies: list[Tally | None],
        clock: _Clock,
        unconstrained: int,
        mines_left: int,
        width: int | None = None,
    ) -> tuple[list[Component], list[Tally | None]]:
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
        return self._estimate(components, tallies, left, clock, unconstrained, mines_left, width)

    def _estimate(
        self,
        components: list[Component],
        tallies: list[Tally | None],
        which: list[int],
        clock: _Clock,
        unconstrained: int,
        mines_left: int,
        width: int | None = None,
        fold: bool | folding.Folds = True,
    ) -> tuple[list[Component], list[Tally | None]]:
        """Count the components ``which`` in floating point, folded against the rest, where they fold in time
        (:meth:`_folds`; ``fold`` false: a fold of them was already tried; or the folds already planned), and
        estimate the others together by the chain over their solutions, weighted by the others' counts
        (:func:`~sweeplab.analysis.estimate.chain.estimate`): they become one merged component, placed last, so one chain
        respects the global mine count across them. Beside a chain, the folded components are folded first for
        their weights per count (the chain's completions need them), then against the rest once the chain's
        estimate is had (its batches' spread then shows in their probabilities too)."""
        if not which:
            return components, tallies
        from sweeplab.analysis.estimate import folding  # loaded only for a position that needs an estimate
        from sweeplab.analysis.estimate.chain import estimate

        chosen = set(which)
        kept = [i for i in range(len(components)) if i not in chosen]
        others = [tallies[i] for i in kept]
        end = clock.end - ESTIMATE_RESERVE * clock.seconds
        tally = None
        # a component counted to no layout proves the position inconsistent: _combine says so, and the weighting of
        # the chain's completions has no count to start from
        possible = all(t is not None and any(t.weight.values()) for t in others)
        counted = [t for t in others if t is not None]
        if isinstance(fold, folding.Folds):
            folds: folding.Folds | None = fold
        else:
            folds = self._folds(components, tallies, which, clock, unconstrained, mines_left) if possible and fold else None
        if folds is not None and not folds.left:
            return components, tallies  # every one folded (or a proof)
        folded = [] if folds is None else sorted(folds.plans)
        beside = counted + [folds.tally(j) for j in folded] if folds is not None else counted
        merged = _merge([components[which[j]] for j in (folds.left if folds is not None else range(len(which)))])
        if folds is not None:  # time to fold them against the rest after the chain, which may run a move past its end
            end -= folds.cost() + FINISH_SHARE * clock.seconds
        if possible:  # the error weighs every batch with all of them: time for it
            end -= _weighing(beside, unconstrained, mines_left)
        if possible and time.perf_counter() < end:
            tally = estimate(merged, beside, unconstrained, mines_left, end, use_kernel=self.use_kernel, width=width)
        finished: list[Tally | None] = [None] * len(which)
        if folds is not None and tally is not None:
            late = clock.end - ESTIMATE_RESERVE * clock.seconds / 2  # half the reserve too, if the chain ran late
            finished = folds.finish([*counted, tally], unconstrained, mines_left, late) or finished
        return (
            [components[i] for i in kept] + [components[which[j]] for j in folded] + [merged],
            [*others, *(finished[j] for j in folded), tally],
        )

    def _folds(
        self,
        components: list[Component],
        tallies: list[Tally | None],
        which: list[int],
        clock: _Clock,
        unconstrained: int,
        mines_left: int,
    ) -> folding.Folds | None:
        """:meth:`_estimate`'s folds: every component of ``which`` folded (their tallies filled in, or the proof
        that one holds no layout), with no :attr:`~sweeplab.analysis.estimate.folding.Folds.left`; or those that fold in
        time folded for their weights, beside the others left to the chain; None when none folds (or the time ran
        out), or without the C kernels."""
        from sweeplab.analysis.estimate import folding

        if not self.use_kernel or not folding.available():
            return None
        chosen = set(which)
        counted = [t for i, t in enumerate(tallies) if i not in chosen and t is not None]
        now = time.perf_counter()
        end = clock.end - ESTIMATE_RESERVE * clock.seconds
        planned, mixed = (now + share * (end - now) for share in (FOLD_SHARE, MIXED_SHARE))
        if end - mixed < _weighing(counted, unconstrained, mines_left) + (FINISH_SHARE + CHAIN_SHARE) * clock.seconds:
            mixed = planned  # the chain would not have its time beside the folds: they may take it
        folds = folding.Folds([components[i] for i in which], self.budget.max_bytes, planned, end, mixed)
        if folds.proof is None and not folds.left:
            done = folds.finish(counted, unconstrained, mines_left)
        elif folds.proof is None and folds.counted:
            return folds  # some folded for their weights: the chain estimates the others beside them
        else:
            done = folds.proved()
        if done is None:
            return None
        for i, tally in zip(which, done, strict=True):
            tallies[i] = tally
        folds.left = []
        return folds

    def _probe(
        self, raw: bytes, width: int, height: int, clock: _Clock
    ) -> tuple[tuple, dict[int, int], tuple[bytes, float, float] | None]:
        """The kernel's count within the exact share. On a board of :data:`PROBE_CELLS` cells or more, a probe
        first: the count under :data:`PROBE_STATES` partial states a step. Its answer stands when it counted every
        component but those too wide for the kernel at any limit; when it gave up within :data:`PROBE_CPU` CPU
        seconds (a frontier wide from its start, which the full count is likely to give up on too, only later) the
        full count has :data:`PROBE_SHARE` of the budget instead of the exact share, so that the estimate gets the
        rest (so too when it left more super-cells uncounted than :data:`PROMISING_SUPERCELLS` a second of budget);
        else (a frontier narrow for long, as on a long board, whose count is likely to finish) until
        :data:`PROMISING_SHARE` of it, probe included: the rest is enough for the estimate of what it leaves (a few
        narrow components, quick to estimate by strips) even on a loaded machine. Before the full count, the cells
        that subset simplification decides in the probe's large uncounted components are settled too
        (:func:`_subset_settled`).

        Returns the count, those cells with their values, and the full count still to run (the view, its end and
        its length), if any: where the counts in floating point run, the probe is run again on the view with those
        cells settled and its leftovers are folded (:meth:`_folds`) before the full count, which then makes the
        answer exact when it finishes by its end; when only some fold, the chain estimates the others at once,
        beside them; when none folds, the full count has its length from then, as it would have without folds."""
        assert KERNEL is not None  # _analyze_with_kernel runs only with the kernel
        budget, start = self.budget, time.perf_counter()
        end = clock.exact
        if width * height < PROBE_CELLS or budget.max_states <= PROBE_STATES:
            return self._full(raw, width, height, end), {}, None
        cpu = time.process_time()
        out = KERNEL.tally(raw, width, height, PROBE_STATES, budget.max_bytes, max(end - start, 0.0))
        if out[0] == "local" or all(item[2] == "wide" or isinstance(item[2], tuple) for item in out[0]):
            return out, {}, None  # counted, or too wide for the kernel's keys at any limit on the states
        if time.perf_counter() > end:
            return out, {}, None
        now = time.perf_counter()
        if time.process_time() - cpu < PROBE_CPU or _uncounted(out) > PROMISING_SUPERCELLS * clock.seconds:
            end = now + PROBE_SHARE * clock.seconds
        else:
            end = clock.start + PROMISING_SHARE * clock.seconds
        more = _subset_settled(out[0]) if width * height >= FIX_CELLS else {}
        raw = _settled_view(raw, more)
        from sweeplab.analysis.estimate import folding  # a position too wide to count at once: folds may answer

        if self.use_kernel and folding.available():
            if more:
                out = KERNEL.tally(raw, width, height, PROBE_STATES, budget.max_bytes, max(end - time.perf_counter(), 0.0))
            return out, more, (raw, end, end - now)
        return self._full(raw, width, height, end), more, None

    def _full(self, raw: bytes, width: int, height: int, end: float) -> tuple:
        """The kernel's full count of a view, until ``end``."""
        assert KERNEL is not None
        return KERNEL.tally(
            raw, width, height, self.budget.max_states, self.budget.max_bytes, max(end - time.perf_counter(), 0.0)
        )

    def _analyze_with_kernel(self, observation: Observation, clock: _Clock, explain: bool = True) -> Probabilities:
        if KERNEL is None:  # use_kernel is only true when the kernel is built
            raise RuntimeError("the C kernel is not built (sweeplab.analysis.exact._kernel) or SWEEPLAB_PURE_PYTHON is set")
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
        value = _single_point(observation) if board.cells >= FIX_CELLS else {}
        raw = _settled_view(raw, value)
        out, more, full = self._probe(raw, board.width, board.height, clock)
        value.update(more)
        mines_left = observation.mines - flags
        found = self._found(out, value, clock, observation, explain)
        fold: bool | folding.Folds = True
        if full is not None and found[2]:  # the probe's leftovers folded, then the full count if it is in time
            components, tallies, left, unconstrained = found
            folds = self._folds(components, tallies, left, clock, len(unconstrained), mines_left)
            folded = folds is not None and not folds.left
            if folded:
                found = (components, tallies, [], unconstrained)
            now = time.perf_counter()
            # folded: the full count only if most of its time is left (it makes the answer exact, and a quick fold
            # often means a count that finishes; else the folded answer comes at once); some folded: the chain for
            # the rest at once, beside them; none: the full count for its length, then the chain
            if folded:
                end = full[1] if full[1] - now >= EXACT_AFTER_FOLD * full[2] else now
            else:
                end = now if folds is not None else max(full[1], now + full[2])
                fold = folds if folds is not None else False
            if now < end:  # exact when the full count finishes; else it may leave the chain less
                counted = self._full(full[0], board.width, board.height, end)
                if counted[0] == "local" or (_uncounted(counted) == 0 if folded else _uncounted(counted) < _uncounted(out)):
                    found = self._found(counted, value, clock, observation, explain)
        components, tallies, left, unconstrained = found
        components, tallies = self._estimate(
            components, tallies, left, clock, len(unconstrained), mines_left, board.width, fold=fold
        )
        try:
            return _combine(observation, unconstrained, mines_left, components, tallies, clock, explain)
        except InconsistentPositionError:
            if explain:
                constraints_from(observation)  # two numbers over the same cells that disagree: say it in those words
            raise

    def _found(
        self, out: tuple, value: dict[int, int], clock: _Clock, observation: Observation, explain: bool
    ) -> tuple[list[Component], list[Tally | None], list[int], tuple[int, ...]]:
        """The components of the kernel's count ``out`` and their tallies (the settled cells ``value`` as one more),
        the pure-Python count of those too wide for the kernel's keys where it can, the indices of the components
        left uncounted, and the unconstrained cells. Raises :class:`InconsistentPositionError` when the count found
        a number that cannot hold."""
        if out[0] == "local":
            if explain:
                constraints_from(observation)  # raises, naming the number in its own words
            raise InconsistentPositionError(f"the number at {observation.board.name(out[1])} cannot hold", cells=(out[1],))
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
        if value:
            component, tally = _fixed(value)
            components.append(component)
            tallies.append(tally)
        for i in wide:  # more open constraints than the kernel's keys hold: Python may still count a small one, but
            if len(components[i].supercells) > WIDE_SUPERCELLS:  # rarely can, so it has a short share, and the
                left.append(i)  # estimate the rest; a large one (a strewn board) goes straight to the estimate
                continue
            try:
                limit = min(clock.exact, time.perf_counter() + WIDE_SHARE * clock.seconds)
                tallies[i] = count(components[i], self.budget, limit)
            except _TooBig:
                left.append(i)
        return components, tallies, left, unconstrained


def _single_point(observation: Observation, use_kernel: bool = True) -> dict[int, int]:
    """The covered cells the single-point pass decides, each with its value (1: a mine); none when the pass finds a
    number that cannot hold (the count names it). Settled before the count, they no longer couple the numbers around
    them: on a board with numbers strewn all over, one component of 25,000 frontier cells falls into about a
    thousand of at most a few hundred, each counted at once."""
    mines = bytearray(observation.board.cells)
    safe = obvious(observation, mines, use_kernel)
    if safe is None:
        return {}
    value = dict.fromkeys(safe, 0)
    view = observation.view
    value.update((c, 1) for c, m in enumerate(mines) if m and view[c] == COVERED)
    return value


def _subset_settled(found: list) -> dict[int, int]:
    """The cells that subset simplification (:func:`~sweeplab.analysis.exact.subsets.simplify`) decides in the components
    of more than :data:`SUBSET_CELLS` cells that the kernel's probe left uncounted (``found``: its items), each with
    its value; none when their constraints contradict each other (the count says so). Settled too, they split those
    components further (ad hoc, 64 positions of density 0.2 to 0.25 with a fifth or more revealed: 40 within 0.02 at
    2 s against 32)."""
    equations = []
    for supercells, constraints, counted in found:
        if isinstance(counted, tuple) or sum(len(cells) for cells in supercells) <= SUBSET_CELLS:
            continue
        for js, need, _ in constraints:
            equations.append((tuple(sorted(c for j in js for c in supercells[j])), need))
    if not equations:
        return {}
    try:
        safe, mines, _ = simplify(equations)
    except InconsistentPositionError:
        return {}
    return dict.fromkeys(safe, 0) | dict.fromkeys(mines, 1)


def _weighing(tallies: list[Tally], unconstrained: int, mines_left: int) -> float:
    """The time kept back for weighing an estimate's batches with ``tallies`` beside it: :data:`BATCHES` and two more
    weighings, timed on one when there are more than :data:`WEIGH_TIMED` (else none: it is quick)."""
    if len(tallies) <= WEIGH_TIMED:
        return 0.0
    import numpy  # noqa: F401  # loaded by the weighing on its first call: in a fresh process, not a weighing's time

    from sweeplab.analysis.estimate.batches import BATCHES

    start = time.perf_counter()
    _weigh_numeric(tallies, unconstrained, mines_left)
    return (BATCHES + 2) * (time.perf_counter() - start)


def _uncounted(out: tuple) -> int:
    """The super-cells a kernel's count (not a proof of inconsistency) left uncounted."""
    return sum(len(item[0]) for item in out[0] if not isinstance(item[2], tuple))


def _settled_view(raw: bytes, value: dict[int, int]) -> bytes:
    """The kernel's view bytes with the cells of ``value`` settled: safes as no unknown, mines as flags."""
    if not value:
        return raw
    view = bytearray(raw)
    for cell, mine in value.items():
        view[cell] = FLAGGED & 0xFF if mine else KNOWN_SAFE
    return bytes(view)


def _fixed(value: dict[int, int]) -> tuple[Component, Tally]:
    """The settled cells as one component (one-cell super-cells, each under a constraint that it holds its value,
    its source the cell itself) and its tally: one layout, holding their mines."""
    decided = sorted(value.items())
    mines = sum(m for _, m in decided)
    component = Component([(c,) for c, _ in decided], [((j,), m, c) for j, (c, m) in enumerate(decided)])
    return component, Tally({mines: 1}, {mines: [m for _, m in decided]})


def _settled(constraints: tuple[Constraint, ...], value: dict[int, int]) -> list[Constraint]:
    """``constraints`` over the cells ``value`` leaves open: each less its settled cells and their mines (one with
    none left is dropped: the pass that settled them left every number able to hold)."""
    out = []
    for con in constraints:
        open_cells = tuple(c for c in con.cells if c not in value)
        if open_cells:
            out.append(Constraint(open_cells, con.mines - sum(value.get(c, 0) for c in con.cells), con.source))
    return out


def analyze(observation: Observation, budget: Budget = DEFAULT_BUDGET) -> Probabilities:
    """Exact mine probabilities for a position (a fresh :class:`Analyzer`; strategies keep their own for reuse)."""
    observation = _observation(observation, "analyze(observation)")
    if not isinstance(budget, Budget):
        raise ArgumentError(f"analyze(budget): expected a Budget such as Budget(seconds=2.0), not {shown(budget)}")
    return Analyzer(budget).analyze(observation)


def _merge(components: list[Component]) -> Component:
    """One component holding the super-cells and constraints of ``components`` (indices shifted)."""
    if len(components) == 1:
        return components[0]
    supercells: list[tuple[int, ...]] = []
    constraints: list[tuple[tuple[int, ...], int, int]] = []
    for comp in components:
        base = len(supercells)
        supercells.extend(comp.supercells)
        constraints.extend((tuple(base + j for j in js), m, src) for js, m, src in comp.constraints)
    return Component(supercells, constraints)
