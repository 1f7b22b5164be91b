"""Stage two for a component too wide to count: a Markov chain over its solutions, a :class:`Component` in and an
estimated :class:`Tally` out, weighted by the rest of the position (the other components' exact counts and the
unconstrained cells), so the global mine count is respected.

The chain's state is one solution: mines per super-cell. A move picks a block of super-cells, fixes every other
super-cell, and redraws the block from its exact
conditional distribution: dynamic programming over the block's super-cells (as
:func:`~sweeplab.analysis.exact.counting.count` does, merging equal partial states), each final block count k weighted by
h(K_out + k), the completions of the rest of the position for that many mines in the component, then a backward
pass and a forward draw (in C, ``_chain.c``, when it is built; :meth:`_Chain.move` is its pure-Python twin). Every
move keeps the numbers satisfied, and a block moves many mines at once, so the chain mixes on frontiers of
thousands of cells where a sequential count's partial states explode (a frontier that is wide in both directions:
revealed cells strewn over a board).

When the board's width is known (as the analyzer gives it) the blocks are strips of :data:`STRIP` rows, across the
component's longer side and across its shorter side, each direction in two tilings offset by half a strip
(:meth:`~sweeplab.analysis.estimate.blocks.Blocks.strips`): counted along its length, a strip keeps few numbers open however
long it is, so one move redraws more than a quarter of a 128x128 board, and in each direction a super-cell is
averaged only from the strip whose inner half holds it, where the fixed rest sways its conditional mean least. A
structure that can only change as a whole (a long chain of cells each the other's opposite, say) mixes only in a
strip that holds all of it: 36 rows hold more of them than 24 (strewn 256x256 at 2 s: a stated error of at most
0.006 on 6 positions of 10, against 1; ``results/large/README.md``), and a column cut by rows lies whole in a strip
of the other direction, whose mean :mod:`~sweeplab.analysis.estimate.batches` then prefers. The first solution is
then drawn strip by strip (:meth:`_Chain.first`). Without the width, or without the C move, the blocks are balls
of :data:`BLOCK` around random super-cells and the first solution comes from :meth:`Blocks.first <Blocks.first>`.

With strips, :data:`~sweeplab.analysis.estimate.batches.THREADS` chains run at once from the first solution, each in its own
thread (:mod:`~sweeplab.analysis.estimate.batches`, which also cuts their moves into batches and builds the tally).

The estimate averages, over the moves after a burn-in, each block's expected mines per super-cell and its count's
distribution given the rest (the backward pass gives both: Rao-Blackwellised, far less spread than the drawn
state); the moves are cut into batches whose spread gives the stated error (two standard errors of the batch
means): with strips, batches of whole sweeps (every strip once), as many as the sweeps made allow. The averages
estimate the posterior itself, so the tally is built to reproduce them under the weighting:
``weight[k]`` is the share at count k divided by h(k), and ``expected`` holds one row (at the most frequent count)
scaled so that the weighting returns the averaged mines per super-cell. The component's own number of solutions is
not estimated: the result's ``layouts`` is then a scale, not a count.
"""

from __future__ import annotations

import copy
import math
import random
import time

from sweeplab.analysis.estimate import batches as runs
from sweeplab.analysis.estimate.blocks import PACKED, Blocks
from sweeplab.analysis.estimate.kernel import CHAIN
from sweeplab.analysis.exact.components import Component
from sweeplab.analysis.exact.counting import _BINOM, Tally, _feasible, _successors
from sweeplab.analysis.exact.weighting import _weigh_numeric

BLOCK = 48  # super-cells in a block at first; halved while a block's partial states pass STATES, grown back after
CENTERS_EVERY = 8  # blocks are balls around one super-cell in this many (their plans are built once each)
CENTERS_MIN = 256  # but around at least this many
POST_SECONDS = 0.7e-6  # seconds per cell and batch kept back for the tally and the weighting of the batches (measured: 0.65e-6)
STEEP = 10.0  # the log-penalty per mine an impossible count lies from the possible ones
STATES = 3000  # partial states a block's count may hold in one step (in C: needs, and twice as many entries; see STRIP_STATES)
STRIP = 36  # rows (or columns) of a strip at first, when the board's width is known
STRIP_LOWER = 24  # ... while too wide: this many (the height used before 36), then 4 fewer each time
MIN_SWEEPS = 3  # taller strips become STRIP_LOWER in the burn-in when fewer sweeps of them fit in the time left ...
TWIN_SWEEPS = 2  # ... or fewer than this many per chain when chains run at once (their batches add up)
TWIN_SECONDS = 1.0  # chains run at once only when at least this long is left for them (else each makes too few sweeps)
STRIP_STATES = 20_000  # partial states a strip's count may hold in one step: in C, states of needs, and twice as many
# (mines, needs) entries (each state holds its weight per mines so far, gaps included); Python counts (mines, needs)
SPLIT_ROWS = 12  # a strip too wide to count is cut in two if it has this many rows or more
FIRST_STRIP = 8  # rows of the strips drawn in turn for the first solution
FIRST_STATES = 100_000  # partial states their counts may hold in one step
FIRST_AHEAD = (4, 0)  # rows of the next strip drawn with each (then none, while the count is too wide)


def completions(others: list[Tally], cells: int, unconstrained: int, mines_left: int) -> list[float]:
    """log h(k) for k = 0..cells: the (scaled) weighted ways the rest of the position (the tallies ``others`` and
    ``unconstrained`` free cells) completes a solution of the component holding k mines; -inf where none does."""
    import numpy as np  # as the numeric weighting does: only when a position needs an estimate

    dummy = Tally({k: 1.0 for k in range(cells + 1)}, {}, False)
    weighing = _weigh_numeric([*others, dummy], unconstrained, mines_left, last_only=True)
    g = weighing.g.get(len(others))
    if g is None:  # the component can hold a single count (no cells): h is that count's weight alone
        return [0.0] * (cells + 1)
    values = np.zeros(cells + 1, dtype=g.dtype)
    values[: min(len(g), cells + 1)] = g[: cells + 1]
    with np.errstate(divide="ignore"):  # the log in extended precision (g may lie below the smallest float); 0: -inf
        return np.log(values).astype(float).tolist()


def _steepen(log_h: list[float]) -> list[float]:
    """log h with every impossible count given a steep finite penalty instead of -inf (by its distance to the
    possible ones), so a first solution at an impossible count is pulled to the possible ones; nothing is averaged
    at an impossible count."""
    possible = [k for k, v in enumerate(log_h) if v > -math.inf]
    low, high = min(possible), max(possible)
    floor = min(log_h[k] for k in possible)
    return [v if v > -math.inf else floor - STEEP * (low - k if k < low else k - high) for k, v in enumerate(log_h)]


class _Chain(Blocks):
    """The chain: :class:`Blocks` whose moves redraw a block from its conditional distribution under ``log_h``."""

    def __init__(
        self, component: Component, log_h: list[float], rng: random.Random, use_kernel: bool = True, width: int | None = None
    ) -> None:
        super().__init__(component, rng, BLOCK)
        import numpy as np  # only when a position needs an estimate

        self.log_h = _steepen(log_h)
        self.log_h_array = np.array(self.log_h)  # the C move's log weights, a window of it at a time
        self.possible = [v > -math.inf for v in log_h]
        self.kernel = CHAIN if use_kernel else None
        self.width = width if self.kernel is not None and PACKED is not None and STRIP >= 8 else None
        self.height = STRIP
        self.strip_turned: list[bool] = []  # per strip: whether it runs across the shorter side
        self.direction = 0  # the direction of the strip the last move redrew (1: across the shorter side)
        self.failed = 0  # strips too wide to count at this height
        self.strip_list = self._all_strips() if self.width is not None else None
        self._strip_plans: dict[int, tuple[bytes, bytes, int]] = {}
        self.centers = self._cover() if self.strip_list is None else []
        self.queue: list[int] = []
        self.sweep_started = 0.0  # when the current sweep of the strips began (perf_counter)
        self.sweep_planning = 0.0  # of which spent building strips' plans (later sweeps reuse them)
        self.min_sweeps = MIN_SWEEPS  # lower_if_slow's sweeps (TWIN_SWEEPS when chains run at once)
        self.halted = False  # set from another thread: stop moving (the caller has met an error)

    def first(self, component: Component, deadline: float, patience: int = 2) -> bool:
        """A first solution: strip by strip in C when the strips are known (:meth:`_first_by_strips`), else (or when
        that meets a dead end) :meth:`Blocks.first <sweeplab.analysis.estimate.blocks.Blocks.first>`'s search in Python."""
        if self.strip_list is not None and self.width is not None and self._first_by_strips(deadline):
            return True
        self.assign(list(range(len(self.x))), [0] * len(self.x))
        return super().first(component, deadline, patience)

    def twin(self, rng: random.Random) -> _Chain:
        """A second chain at this one's state, with its own ``rng`` and its own copies of everything a move changes
        (the assignment, the strips, their plans and the sweep's queue); the component's structure is shared."""
        self.structure()  # built once, here, so that the twins share it
        other = copy.copy(self)
        other.rng = rng
        other.x, other.residual = list(self.x), list(self.residual)
        other.queue, other.centers = list(self.queue), list(self.centers)
        other.strip_list = None if self.strip_list is None else list(self.strip_list)
        other.strip_turned = list(self.strip_turned)
        other._strip_plans, other._prepared, other._banded = dict(self._strip_plans), dict(self._prepared), dict(self._banded)
        return other

    def _first_by_strips(self, deadline: float) -> bool:
        """Draw the strips of one tiling in turn, across the board, each by the C move together with its fringe (the
        later super-cells that share a number with it) under the numbers that lie wholly within the strips drawn so
        far, the strip, its fringe and the next strip's first rows: every number touching the strip then holds, and
        the rows ahead (:data:`FIRST_AHEAD`), drawn again with the next strip, make it likely that the rest can be
        completed. On a dead end (a strip with no solution given those before it, or one too wide) the strip's numbers
        are left out of the later strips' counts and mended at the end by
        :meth:`~sweeplab.analysis.estimate.blocks.Blocks.repair` (in C: a few hundred dead numbers take milliseconds, so a
        count with 4 rows ahead, which meets more dead ends than one with 8, is the quicker way to a solution).
        False past ``deadline``."""
        assert self.width is not None
        along, across = self.axes(self.width)
        n = len(self.x)
        done = bytearray(n)
        touching, cons = self.touching, self.cons
        given_up = bytearray(len(cons))
        strips = [block for block, _ in self.strips(self.width, FIRST_STRIP, tilings=1)]
        for at, block in enumerate(strips):
            inside = set(block)
            fringe = {k for j in block for i in touching[j] for k in cons[i][0] if not done[k] and k not in inside}
            later = strips[at + 1] if at + 1 < len(strips) else []
            start = min((across[j] for j in later), default=0)
            for rows in FIRST_AHEAD:  # less of the next strip while the count is too wide
                if time.perf_counter() > deadline:
                    return False
                ahead = fringe | {j for j in later if across[j] < start + rows}
                whole = sorted(inside | ahead, key=lambda j: (along[j], across[j]))
                plan, ids, cells = self.packed(whole, done, given_up)  # the numbers within the done and the whole
                assert self.kernel is not None  # strips are used only with the C chain
                weights = [1.0] * (cells + 1)
                try:
                    out = self.kernel.move(
                        None, plan, self.packed_needs(ids), weights, FIRST_STATES, self.rng.getrandbits(64) | 1
                    )
                except ValueError:  # more open numbers than the C move's keys hold
                    out = None
                if out is not None:
                    self.assign(whole, out[0])
                    break
            else:  # a dead end: the strip keeps what it holds, and its numbers are left to the repair
                for j in block:
                    for i in touching[j]:
                        given_up[i] = 1
            for j in block:
                done[j] = 1
        return not any(self.residual) or self.repair(deadline)

    def _cover(self) -> list[int]:
        """The centres of the blocks: enough that every super-cell lies in some ball (a super-cell no ball covers
        yet becomes a centre, in a random order), then random ones up to one in :data:`CENTERS_EVERY` (at least
        :data:`CENTERS_MIN`) for overlap."""
        n = len(self.sizes)
        order = list(range(n))
        self.rng.shuffle(order)
        covered = [False] * n
        centers = []
        for j in order:
            if not covered[j]:
                centers.append(j)
                for k in self.ball(j, self.block):
                    covered[k] = True
        chosen = set(centers)
        extra = [j for j in order if j not in chosen]
        centers.extend(extra[: max(min(n, max(CENTERS_MIN, n // CENTERS_EVERY)) - len(centers), 0)])
        return sorted(centers)

    def move(self, total: int) -> tuple[list[int], list[float], dict[int, float], int] | None:
        """Redraw one block; returns (the block, each of its super-cells' expected mines given the rest, the
        distribution of the component's count given the rest, the new count), or None when the block's count passed
        :data:`STATES` partial states in a step (the block is then made smaller). The expectations, taken before the
        draw, are the Rao-Blackwellised averages: as unbiased as the state itself and far less spread."""
        if self.strip_list is not None:
            return self._strip_move(total)
        x = self.x
        if not self.queue:  # a sweep: every centre once, in a fresh random order
            self.queue = list(self.centers)
            self.rng.shuffle(self.queue)
        block, plan, ids = self.prepared(self.queue.pop(), self.block)
        inside = 0
        for j in block:
            inside += x[j]
        if self.kernel is not None:
            moved = self._move_in_c(block, plan.sizes, plan.steps, plan.cells, self.needs(ids), total - inside, STATES)
            if moved is None:
                self.block = max(self.block // 2, 2)
                return None
            if self.block < BLOCK and self.rng.random() < 0.05:
                self.block += 1
            expected, counts, count = moved
            return block, expected, counts, count
        steps, sizes = self.steps(plan, ids), plan.sizes
        alpha: list[dict[tuple, float]] = [{(0,): 1.0}]
        for t, (_n_active, opened_needs, touch_slots, keep) in enumerate(steps):
            binom = _BINOM[sizes[t]]
            new: dict[tuple, float] = {}
            get = new.get
            for key, w in alpha[t].items():
                for v, nk in _successors(key, opened_needs, sizes[t], touch_slots, keep):
                    new[nk] = get(nk, 0.0) + w * binom[v]
            if len(new) > STATES:
                self.block = max(self.block // 2, 2)
                return None
            peak = max(new.values())
            for key in new:
                new[key] /= peak
            alpha.append(new)
        outside = total - inside
        log_h = self.log_h
        finals = {key: log_h[outside + key[0]] for key, w in alpha[-1].items() if w > 0}
        top = max(finals.values())
        beta: dict[tuple, float] = {key: math.exp(lh - top) for key, lh in finals.items()}
        z = sum(beta[key] * alpha[-1][key] for key in beta)
        counts = {outside + key[0]: beta[key] * alpha[-1][key] / z for key in beta}
        betas = [beta]
        means = [0.0] * len(block)
        for t in range(len(steps) - 1, -1, -1):
            _n_active, opened_needs, touch_slots, keep = steps[t]
            binom = _BINOM[sizes[t]]
            below = betas[-1]
            previous: dict[tuple, float] = {}
            weighted = total_mines = 0.0
            for key, a in alpha[t].items():
                needs = [*key[1:], *opened_needs]
                lo, hi = _feasible(needs, sizes[t], touch_slots)
                k = key[0]
                b = 0.0
                for v in range(lo, hi + 1):
                    for s, _ in touch_slots:
                        needs[s] -= v
                    bn = below.get((k + v, *[needs[s] for s in keep]), 0.0)
                    for s, _ in touch_slots:
                        needs[s] += v
                    if bn:
                        c = binom[v] * bn
                        b += c
                        weighted += a * c
                        total_mines += a * c * v
                previous[key] = b
            peak = max(previous.values())
            if peak > 0:
                for key in previous:
                    previous[key] /= peak
            means[plan.order[t]] = total_mines / weighted if weighted > 0 else 0.0
            betas.append(previous)
        betas.reverse()  # betas[t]: completions of each partial state before step t
        key = (0,)
        values = [0] * len(block)
        for t, (_n_active, opened_needs, touch_slots, keep) in enumerate(steps):
            binom = _BINOM[sizes[t]]
            needs = [*key[1:], *opened_needs]
            lo, hi = _feasible(needs, sizes[t], touch_slots)
            options = []
            for v in range(lo, hi + 1):
                nxt = list(needs)
                for s, _ in touch_slots:
                    nxt[s] -= v
                nk = (key[0] + v, *[nxt[s] for s in keep])
                bn = betas[t + 1].get(nk, 0.0)
                if bn:
                    options.append((nk, v, binom[v] * bn))
            nk, v, _ = _draw(self.rng, options)
            values[plan.order[t]] = v
            key = nk
        self.assign(block, values)
        if self.block < BLOCK and self.rng.random() < 0.05:
            self.block += 1
        return block, means, counts, outside + key[0]

    def _all_strips(self) -> list[tuple[list[int], list[int]]]:
        """The strips of :meth:`~sweeplab.analysis.estimate.blocks.Blocks.strips` at the current height in both directions:
        across the component's longer side and across its shorter side. A structure that runs across the strips of
        one direction further than half a strip (a long column of cells each the other's opposite, cut by rows)
        moves whole in the other's, and :mod:`~sweeplab.analysis.estimate.batches` weighs each super-cell's means from the
        two directions by how steady they are."""
        assert self.width is not None
        out = self.strips(self.width, self.height)
        self.strip_turned = [False] * len(out)
        out += self.strips(self.width, self.height, turned=True)
        self.strip_turned += [True] * (len(out) - len(self.strip_turned))
        return out

    def lower_if_slow(self, deadline: float) -> bool:
        """At the end of a sweep: when fewer than :data:`MIN_SWEEPS` (:data:`TWIN_SWEEPS` for chains that run at
        once) more sweeps at its pace (less the time it spent building plans, which later sweeps reuse) fit before
        ``deadline`` and the strips are taller than :data:`STRIP_LOWER`, make them that height (faster sweeps, so
        that the batches behind the stated error get enough of them); whether it did."""
        now = time.perf_counter()
        if self.strip_list is None or self.queue or self.height <= STRIP_LOWER:
            return False
        if deadline - now >= self.min_sweeps * (now - self.sweep_started - self.sweep_planning):
            return False
        self._set_height(STRIP_LOWER)
        return True

    def _set_height(self, height: int) -> None:
        """Strips of ``height`` rows from the next move on (a fresh sweep, plans built anew); below 8 rows, balls."""
        self.height, self.failed = height, 0
        self.queue, self._strip_plans = [], {}
        if height < 8:
            self.strip_list = None
            self.centers = self._cover()
        else:
            self.strip_list = self._all_strips()

    def _split(self, k: int) -> bool:
        """Strip ``k`` cut across into two that overlap by a third of its rows (its first two thirds and its last
        two thirds: a structure a third of a strip high that crosses the cut lies whole in one of them, as one half a
        strip high lies whole in a strip of one tiling or the other), each keeping the super-cells of the strip's
        inner half on its side of the middle (so the inner halves still hold every super-cell once), both drawn
        again in this sweep; False when the strip has fewer than :data:`SPLIT_ROWS` rows."""
        assert self.strip_list is not None and self.width is not None
        block, inner = self.strip_list[k]
        turned = self.strip_turned[k]
        across = self.axes(self.width, turned)[1]
        low, high = min(across[j] for j in block), max(across[j] for j in block)
        rows = high - low + 1
        if rows < SPLIT_ROWS:
            return False
        middle, reach = low + rows // 2, (2 * rows + 2) // 3
        held = {block[p] for p in inner}
        self._strip_plans.pop(k, None)
        first = [j for j in block if across[j] < low + reach]
        second = [j for j in block if across[j] > high - reach]
        self.strip_list[k] = (first, [p for p, j in enumerate(first) if j in held and across[j] < middle])
        self.strip_list.append((second, [p for p, j in enumerate(second) if j in held and across[j] >= middle]))
        self.strip_turned.append(turned)
        self.queue += [k, len(self.strip_list) - 1]
        return True

    def _strip_move(self, total: int) -> tuple[list[int], list[float], dict[int, float], int] | None:
        """:meth:`move` over the strips (:meth:`~sweeplab.analysis.estimate.blocks.Blocks.strips`): a sweep redraws every
        strip of both directions and tilings once, in a random order; the means returned are those of the strip's
        inner half, and :attr:`direction` says which direction it runs in. A
        strip whose count passes :data:`STRIP_STATES` partial states in a step is cut in two (:meth:`_split`); one
        too low to cut, or more failures than an eighth of the strips, makes every strip lower (:data:`STRIP_LOWER`
        rows, then 4 fewer each time), and below 8 rows the chain goes back to balls."""
        assert self.strip_list is not None and self.width is not None
        if not self.queue:
            self.queue = list(range(len(self.strip_list)))
            self.rng.shuffle(self.queue)
            self.sweep_started, self.sweep_planning = time.perf_counter(), 0.0
        k = self.queue.pop()
        block, inner = self.strip_list[k]
        got = self._strip_plans.get(k)
        if got is None:
            planning = time.perf_counter()
            got = self._strip_plans[k] = self.packed(block)
            self.sweep_planning += time.perf_counter() - planning
        plan, ids, cells = got
        x = self.x
        inside = 0
        for j in block:
            inside += x[j]
        moved = self._move_in_c(block, None, plan, cells, self.packed_needs(ids), total - inside, STRIP_STATES)
        if moved is None:
            self.failed += 1
            if self.failed <= max(2, len(self.strip_list) // 8) and self._split(k):
                return None
            self._set_height(min(self.height - 4, STRIP_LOWER))  # many too wide (or one too low to cut): all lower
            return None
        expected, counts, count = moved
        self.direction = int(self.strip_turned[k])
        return [block[p] for p in inner], [expected[p] for p in inner], counts, count

    def _move_in_c(
        self,
        block: list[int],
        sizes: list[int] | None,
        steps: list | bytes,
        cells: int,
        needs: list[int],
        outside: int,
        states: int,
    ) -> tuple[list[float], dict[int, float], int] | None:
        """:meth:`move`'s count, backward pass and draw by the C kernel (``_chain.move``) over a plan's steps (a
        :class:`~sweeplab.analysis.exact.counting._Plan`'s with their ``sizes``, or packed by
        :meth:`~sweeplab.analysis.estimate.blocks.Blocks.packed`) holding indices into ``needs``, the block holding ``cells``
        cells: the block's expected mines per super-cell, the component's count's distribution and its new count;
        None past ``states`` partial states in a step (or more open numbers than C holds)."""
        window = self.log_h_array[outside : outside + cells + 1]  # log weights: C scales them to the counts reached
        assert self.kernel is not None  # move calls this only when the C chain is built
        try:
            out = self.kernel.move(sizes, steps, needs, window, states, self.rng.getrandbits(64) | 1, True)
        except ValueError:  # a step with more open numbers than the C move's keys hold
            return None
        if out is None:
            return None
        drawn, expected, shares, count = out
        self.assign(block, drawn)
        return expected, {outside + k: p for k, p in enumerate(shares) if p > 0}, outside + count


def _draw(rng: random.Random, options: list[tuple[tuple, int, float]]) -> tuple[tuple, int, float]:
    """One of (key, value, weight) options, in proportion to weight."""
    point = rng.random() * sum(option[2] for option in options)
    for option in options:
        point -= option[2]
        if point < 0:
            return option
    return options[-1]


def estimate(
    component: Component,
    others: list[Tally],
    unconstrained: int,
    mines_left: int,
    deadline: float,
    seed: int = 0,
    use_kernel: bool = True,
    width: int | None = None,
) -> Tally | None:
    """Estimate a component's tally by the chain until ``deadline`` (deterministic for a seed, given the time).

    ``others`` are the exact tallies of the position's other components, ``unconstrained`` the number of covered
    cells no number touches and ``mines_left`` the mines to place; the moves run in C (``_chain.c``) when it is built
    and ``use_kernel``, else in pure Python (the same moves, slower); with strips, from the first solution on,
    :data:`~sweeplab.analysis.estimate.batches.THREADS` chains move at once where the cores allow and at least
    :data:`TWIN_SECONDS` are left for them. Once a first solution is found, every batch has at least one move even
    past the deadline (a late move costs about a millisecond), so a short budget still gives an estimate, with a
    large error. Returns None when no first solution was found in time, when some super-cell was in no move's block
    (less than a sweep: the batches would all hold its one state and call it certain), or the moves kept at counts
    the rest of the position does not allow: that proves nothing about consistency."""
    start = time.perf_counter()
    cells = len(component.cells)
    log_h = completions(others, cells, unconstrained, mines_left)
    if all(v == -math.inf for v in log_h):
        return None
    chain = _Chain(component, log_h, random.Random(seed), use_kernel, width)
    if not chain.first(component, deadline - POST_SECONDS * cells * 4):  # time to tally and weigh two batches
        return None
    deadline -= POST_SECONDS * cells * (runs.BATCHES + 2)  # the time the tally and the weighting of the batches take
    chains = [chain]
    if chain.strip_list is not None and deadline - time.perf_counter() >= TWIN_SECONDS:  # the C move frees the GIL
        twins = min(runs.THREADS, runs.cores()) - 1
        chains += [chain.twin(random.Random(chain.rng.getrandbits(64))) for _ in range(twins)]
    if len(chains) > 1:  # every chain's sweeps count towards the batches: each needs fewer
        for one in chains:
            one.min_sweeps = TWIN_SWEEPS
    batches = runs.run_chains(chains, sum(chain.x), start, deadline)
    if len(batches) < 2 or not all(any(column) for column in zip(*(b[1] for b in batches), strict=True)):
        return None  # too few batches, or a super-cell no move visited: its state is one draw, its spread unknown
    return runs.tally_of(batches, chain, log_h)
