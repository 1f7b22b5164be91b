"""The runs of :mod:`~sweeplab.analysis.estimate.chain`'s chain once it holds a first solution: a burn-in, then batches of its
moves (whole sweeps of the strips, or spans of time for the balls), one chain per thread where the cores allow, and
the estimated :class:`~sweeplab.analysis.exact.counting.Tally` the batches make.

With strips, :data:`THREADS` chains (where the process has that many cores, and at least
:data:`~sweeplab.analysis.estimate.chain.TWIN_SECONDS` are left for them) run at once from the first solution, each in its own
thread with its own random moves: the C move releases the GIL, so the chains get about 1.7 times the CPU time
(256x256 at 2 s: 3.3 s against 1.95 s), and the batches of independent chains show a structure each froze
differently, which one chain's consecutive batches hide (``results/large/threads/``, ``threads-seed3/``). An error in
one chain (a game's time limit, an interrupt) halts the others at their next move.

The strips run in two directions, and each direction gives every super-cell a mean per sweep (from the strip whose
inner half holds it). The batch means weigh the two by how steady each is (:func:`_weights`): strips that cut a
structure moving as a whole see the cell fixed by the rest, flipping from sweep to sweep, while strips that hold it
see a steady mean (256x256 at 2 s: 29 of 30 runs within 0.02, against 14 of 30 with the two directions averaged
alike, on square boards only; ``results/large/directions/``).
"""

from __future__ import annotations

import math
import os
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from sweeplab.analysis.estimate.kernel import CHAIN
from sweeplab.analysis.exact.counting import Tally

BATCHES = 10  # batches of moves whose spread gives the error (in all: each of n chains makes at most BATCHES // n)
BURN_IN = 0.15  # the share of the chain's time spent before averaging starts
MOVES_PER_BATCH = 20  # balls: fewer batches when the moves expected would give fewer per batch
LATE_SECONDS = 0.1  # the strips' batches may run this long past the deadline to make two whole sweeps
DIRECTIONS = 2  # strips across the longer side, and across the shorter
FLOOR = 1e-4  # added to each direction's variance (a probability's variance from sweep to sweep) before it is inverted
THREADS = 2  # chains over the strips run at once, each in its own thread from the first solution, where the cores allow


Batch = tuple[list[float], list[int], dict[int, float], list[int]]  # sums (or means) and visits per super-cell, P(count), state


class Moving(Protocol):
    """What the batches need of a chain (:class:`~sweeplab.analysis.estimate.chain._Chain` is one): its solution's
    mines per super-cell and their sizes, the strips (None for balls) and the blocks queued in the sweep, the
    direction of the last strip, which final counts are possible, a move, a way to take fewer sweeps when moves are
    slow, and a flag another thread sets to stop it."""

    x: list[int]
    sizes: list[int]
    strip_list: list[Any] | None
    queue: list[int]
    direction: int
    possible: list[bool]
    halted: bool

    def move(self, total: int) -> tuple[list[int], list[float], dict[int, float], int] | None: ...

    def lower_if_slow(self, deadline: float) -> bool: ...


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def run_chains(chains: Sequence[Moving], total: int, start: float, deadline: float) -> list[Batch]:
    """The batches of every chain (:func:`_run`, all starting from the same solution holding ``total`` mines), the
    first in this thread and each other in its own (their C moves run at once); an error in one is raised here once
    all have ended. Each makes at most :data:`BATCHES` // n batches (at least 2), so that the batches in all, and
    the time their tally takes, stay within :data:`BATCHES`."""
    most = max(2, BATCHES // len(chains))
    if len(chains) == 1:
        return _finished([_run(chains[0], total, start, deadline, most)], chains[0].sizes)
    results: list[list[Batch] | Sweeps] = [[] for _ in chains]
    errors: list[BaseException] = []

    def work(t: int) -> None:
        try:
            results[t] = _run(chains[t], total, start, deadline, most)
        except BaseException as error:  # raised again in the calling thread, once the others have stopped
            errors.append(error)
            for chain in chains:
                chain.halted = True
        finally:
            assert CHAIN is not None  # twins exist only with the C move
            CHAIN.release()  # this thread's move buffers

    threads = [threading.Thread(target=work, args=(t,), name=f"sweeplab-chain-{t}", daemon=True) for t in range(1, len(chains))]
    for thread in threads:
        thread.start()
    try:
        results[0] = _run(chains[0], total, start, deadline, most)
    except BaseException:  # an interrupt (a game's time limit, Ctrl-C): the others stop at their next move
        for twin in chains[1:]:
            twin.halted = True
        raise
    finally:
        for thread in threads:  # each ends by the deadline (plus a late sweep's end), or once halted
            thread.join()
    if errors:
        raise errors[0]
    return _finished(results, chains[0].sizes)


def _finished(results: list[list[Batch] | Sweeps], sizes: list[int]) -> list[Batch]:
    """The batches of every chain: the balls' as they are, the strips' weighed together (:func:`_weighed`)."""
    done = [batch for result in results if isinstance(result, list) for batch in result]
    return done + _weighed([result for result in results if isinstance(result, Sweeps)], sizes)


def _run(chain: Moving, total: int, start: float, deadline: float, most: int) -> list[Batch] | Sweeps:
    """One chain's moves from its state (holding ``total`` mines): a burn-in of :data:`BURN_IN` of the time since
    ``start``, then its batches until ``deadline``."""
    possible = chain.possible
    burning = time.perf_counter()
    averaging = burning + BURN_IN * (deadline - start)
    moves = 0
    while True:  # with strips, until a sweep ends (the batches are whole sweeps)
        now = time.perf_counter()
        if now > deadline or (now > averaging and (chain.strip_list is None or not chain.queue)) or chain.halted:
            break
        moved = chain.move(total)
        if moved is not None:
            total = moved[3]
            moves += 1
        chain.lower_if_slow(deadline)
    if chain.strip_list is not None:
        return _by_sweeps(chain, total, deadline, possible, most)
    return _by_time(chain, total, deadline, possible, moves, burning, most)


def _by_time(
    chain: Moving, total: int, deadline: float, possible: list[bool], moves: int, burning: float, most: int
) -> list[Batch]:
    """The balls' batches: the time left cut into as many batches as the burn-in's pace gives :data:`MOVES_PER_BATCH`
    moves each (2 to ``most``); a batch has at least one move, late or not."""
    x, n = chain.x, len(chain.x)
    now = time.perf_counter()
    expected = moves * (deadline - now) / max(now - burning, 1e-6)
    n_batches = max(2, min(most, int(expected // MOVES_PER_BATCH)))
    span = max(deadline - now, 0.0) / n_batches
    batches: list[Batch] = []
    tries = 0
    while len(batches) < n_batches and tries < 4 * n_batches and not chain.halted:
        tries += 1
        end = deadline - (n_batches - 1 - len(batches)) * span
        sums = [0.0] * n
        visits = [0] * n
        by_count: dict[int, float] = {}
        while (not by_count or time.perf_counter() < end) and not chain.halted:
            moved = chain.move(total)
            if moved is None:
                if time.perf_counter() > end:
                    break
                continue
            block, means, counts, total = moved
            for j, mean in zip(block, means, strict=True):
                sums[j] += mean
                visits[j] += 1
            for k, p in counts.items():
                if possible[k]:
                    by_count[k] = by_count.get(k, 0.0) + p
        if by_count:
            batches.append((sums, visits, by_count, list(x)))
    return batches


@dataclass
class Sweeps:
    """A chain's sweeps of the strips, grouped into batches: per batch, the sums of each direction's means and its
    visits per super-cell (DIRECTIONS x n), P(count) and the state at its end; the spread each direction's moves
    left (``left``: the sum of q (1 - q) over its moves, q a cell's conditional probability given the rest) and the
    moments of each direction's means over the whole sweeps (``moments``: the sweeps that visited a super-cell, the
    sum of their means and of their squares, 3 x DIRECTIONS x n), which weigh the directions (:func:`_weights`)."""

    groups: list[tuple[Any, Any, dict[int, float], list[int]]]
    left: Any
    moments: Any


def _by_sweeps(chain: Moving, total: int, deadline: float, possible: list[bool], most: int) -> Sweeps:
    """The strips' batches: the moves until ``deadline`` (or, short of two whole sweeps, up to :data:`LATE_SECONDS`
    past it) recorded sweep by sweep (every strip once, which visits every super-cell in each direction), then
    grouped into batches of equally many consecutive sweeps, as many as ``most`` while at most a tenth of
    the sweeps (the earliest) are left out for it; a sweep cut short by the deadline joins the last batch (or,
    after a single whole sweep, is the second, its unvisited super-cells taking the state). Whole sweeps make every
    batch cover every super-cell, and the batches' count follows the sweeps actually made, not a pace guessed from
    the burn-in. The strips of each direction keep their own means."""
    import numpy as np

    x, n = chain.x, len(chain.x)
    sweeps: list[tuple[Any, Any, dict[int, float], list[int]]] = []
    sums, visits = np.zeros((DIRECTIONS, n)), np.zeros((DIRECTIONS, n), dtype=np.int64)
    by_count: dict[int, float] = {}
    size, left, moments = np.array(chain.sizes, dtype=float), np.zeros((DIRECTIONS, n)), np.zeros((3, DIRECTIONS, n))
    while True:
        now = time.perf_counter()
        if (now > deadline and (len(sweeps) >= 2 or now > deadline + LATE_SECONDS)) or chain.halted:
            break
        moved = chain.move(total)
        if moved is None:
            continue
        block, means, counts, total = moved
        at = np.array(block, dtype=np.int64)
        sums[chain.direction, at] += means
        visits[chain.direction, at] += 1
        q = np.asarray(means) / size[at]
        left[chain.direction, at] += q * (1 - q)
        for k, p in counts.items():
            if possible[k]:
                by_count[k] = by_count.get(k, 0.0) + p
        if not chain.queue and by_count:  # a sweep ends
            mean = sums / np.maximum(visits, 1) / size
            moments += (visits > 0, mean, mean * mean)
            sweeps.append((sums, visits, by_count, list(x)))
            sums, visits, by_count = np.zeros((DIRECTIONS, n)), np.zeros((DIRECTIONS, n), dtype=np.int64), {}
    whole = len(sweeps)
    record = Sweeps([], left, moments)
    if by_count:
        sweeps.append((sums, visits, by_count, list(x)))
    if whole < 2:
        groups = [[sweep] for sweep in sweeps]
    else:
        n_batches = next(b for b in range(min(most, whole), 1, -1) if whole % b <= whole // 10 or b == 2)
        skip, per = whole % n_batches, whole // n_batches
        groups = [sweeps[skip + g * per : skip + (g + 1) * per] for g in range(n_batches)]
        groups[-1].extend(sweeps[whole:])
    for group in groups:
        merged: dict[int, float] = {}
        for _, _, counted, _ in group:
            for k, p in counted.items():
                merged[k] = merged.get(k, 0.0) + p
        record.groups.append((sum(g[0] for g in group), sum(g[1] for g in group), merged, group[-1][3]))
    return record


def _weighed(records: list[Sweeps], sizes: list[int]) -> list[Batch]:
    """The batches of the chains' ``records``, each super-cell's mean in a batch its directions' means weighed by
    :func:`_weights` (one set of weights for all the chains: a direction whose means differ between the chains
    weighs little)."""
    import numpy as np

    if not records:
        return []
    sums = sum(group[0] for record in records for group in record.groups)
    visits = sum(group[1] for record in records for group in record.groups)
    moments = sum(record.moments for record in records)
    weights = _weights(moments, sums, visits, sum(record.left for record in records), sizes)
    batches: list[Batch] = []
    for record in records:
        for by_direction, visited, merged, state in record.groups:
            w = weights * (visited > 0)
            seen = w.sum(axis=0)
            mean = (w * by_direction / np.maximum(visited, 1)).sum(axis=0) / np.where(seen > 0, seen, 1)
            batches.append((mean.tolist(), (seen > 0).astype(np.int64).tolist(), merged, state))
    return batches


def _weights(moments: Any, sums: Any, visits: Any, left: Any, sizes: list[int]) -> Any:
    """Each direction's weight for each super-cell (DIRECTIONS x n): the inverse of the variance of its mean from
    sweep to sweep, plus :data:`FLOOR`. That variance is the larger of two estimates: the spread of its means over
    the whole sweeps (``moments``, as :class:`Sweeps` holds them), and p (1 - p) less the spread its moves left
    (``left``: the sum of q (1 - q) over its moves, q a cell's conditional probability given the rest; p the cell's
    probability, the directions' means over all the moves, ``sums`` and ``visits``, weighed by the first estimate),
    which a single sweep shows. Strips that cut a structure moving as a whole (a column of cells each the other's opposite, cut
    by rows) find the cell fixed by the rest (q 0 or 1, flipping from sweep to sweep: p (1 - p) is left to the
    spread of the means), while strips holding the structure leave the whole p (1 - p) to q and see the mean
    steady: weighed, the mean is the steady one's (``results/large/directions/``)."""
    import numpy as np

    size = np.array(sizes, dtype=float)
    count, total, squares = moments
    between = np.where(count >= 2, np.maximum(squares - total * total / np.maximum(count, 1), 0.0), 0.0)
    between /= np.maximum(count - 1, 1)
    first = np.where(visits > 0, 1.0 / (between + FLOOR), 0.0)
    p = (first * sums / np.maximum(visits, 1)).sum(axis=0) / np.maximum(first.sum(axis=0), 1e-300) / size
    variance = np.maximum(between, p * (1 - p) - left / np.maximum(visits, 1))
    return np.where(visits > 0, 1.0 / (variance + FLOOR), 0.0)


def tally_of(batches: list[Batch], chain: Moving, log_h: list[float]) -> Tally:
    """The estimated tally of the batches (see the module's docstring): per batch, weight[k] = P(k) / h(k) and one
    expected row at its most frequent count k0, the mean mines per super-cell divided by h(k0); their sum. A
    super-cell no move of a batch visited takes the chain's state at the batch's end (one draw: its spread over the
    batches shows in the error, as it should); the means are nudged (in proportion to each super-cell's spread) so
    that they add up to the batch's mean count, as the weighting needs."""
    sizes, n = chain.sizes, len(chain.sizes)
    rows = []
    for sums, visits, by_count, state in batches:
        whole = sum(by_count.values())
        p = {k: c / whole for k, c in sorted(by_count.items())}
        mean_k = sum(k * v for k, v in p.items())
        means = [sums[j] / visits[j] if visits[j] else float(state[j]) for j in range(n)]
        spread = [m * (sizes[j] - m) / sizes[j] for j, m in enumerate(means)]
        room = sum(spread)
        if room > 0:
            shift = (mean_k - sum(means)) / room
            means = [min(max(m + shift * s, 0.0), sizes[j]) for j, (m, s) in enumerate(zip(means, spread, strict=True))]
        rows.append((p, means))
    lift = max(math.log(v) - log_h[k] for p, _ in rows for k, v in p.items())
    parts = []
    for p, means in rows:
        weight = {k: math.exp(math.log(v) - log_h[k] - lift) for k, v in p.items()}
        k0 = max(p, key=lambda k: (p[k], -k))
        factor = math.exp(-log_h[k0] - lift)
        parts.append(Tally(weight, {k0: [m * factor for m in means]}, False))
    total_w: dict[int, float] = {}
    total_e: dict[int, list[float]] = {}
    for part in parts:
        for k, v in part.weight.items():
            total_w[k] = total_w.get(k, 0.0) + v
        for k, row in part.expected.items():
            acc = total_e.setdefault(k, [0.0] * n)
            for j, v in enumerate(row):
                acc[j] += v
    return Tally(dict(sorted(total_w.items())), total_e, False, parts)
