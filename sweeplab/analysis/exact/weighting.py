"""Stage three, weighting: the components' tallies in, each count's weight C(U, R - K) over the whole position out
(exact integers, or extended-precision floats when time runs short), with the certain cells found without weighing
and the per super-cell shares."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, NoReturn

from sweeplab.analysis.exact.budget import _check
from sweeplab.analysis.exact.components import Component
from sweeplab.analysis.exact.counting import Tally
from sweeplab.core.errors import InconsistentPositionError
from sweeplab.core.observation import Observation


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
        weight = t.weight
        ks = list(weight) if 0 not in weight.values() else [k for k, w in weight.items() if w]
        if len(ks) == 1:
            fixed.append(i)
            top -= ks[0]
        else:
            multi.append(i)
            top -= min(ks)
    return multi, fixed, top


def _lowest_count(weight: dict[int, Any]) -> int:
    """The lowest mine count of a tally with a non-zero weight."""
    return min(weight) if 0 not in weight.values() else min(k for k, w in weight.items() if w)


#: :func:`_forward`'s result: (multi-count components, single-count ones, top, their polynomials, F_0..F_m, C row)
Forward = tuple[list[int], list[int], int, list[list[int]], list[list[int]], list[int]]


def _forward(tallies: list[Tally], U: int, R: int, deadline: float | None) -> Forward:
    """The forward pass of :func:`_weigh_exact`: the multi-count components' polynomials, their running products
    F_0..F_m and the row of C(U, top - s)."""
    multi, fixed, top = _polys(tallies, R)
    polys = []
    for i in multi:
        weight = tallies[i].weight
        lo, hi = _lowest_count(weight), max(weight)
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


EXACT_SECONDS = 5e-11  # seconds per unit of _exact_work (measured on 157 to 590 multi-count components: 2.4e-11 to
# 7.7e-11 on this 2-core machine; the exact weighing of 590 took 44 s)


def _exact_work(tallies: list[Tally], R: int) -> int:
    """The size of :func:`_weigh_exact`'s work: the multi-count components times the cube of the span of their
    counts added up (each pass multiplies every row of the running product, whose integers grow with it)."""
    multi, _, _ = _polys(tallies, R)
    span = 1 + sum(max(tallies[i].weight) - _lowest_count(tallies[i].weight) for i in multi)
    return len(multi) * span**3


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
        row = []
        for k in range(len(p)):  # the clock between rows: one is a sum over the whole product, of huge integers
            row.append(sum(fa * d[a + k] for a, fa in enumerate(f) if fa))
            _check(deadline)
        g[multi[index]] = row
        if index:  # D_0 itself is not needed (Z comes from the forward pass)
            size = len(d) - len(p) + 1
            shorter: list[int] = []
            for start in range(0, size, 256):
                shorter.extend(sum(pk * d[s + k] for k, pk in enumerate(p) if pk) for s in range(start, min(start + 256, size)))
                _check(deadline)
            d = shorter
    final = forward[-1]
    Z = sum(fa * ca for fa, ca in zip(final, c, strict=True))
    un_num = sum(fa * ca * (top - a) for a, (fa, ca) in enumerate(zip(final, c, strict=True))) if U else 0
    layouts = Z * _fixed_product(tallies, fixed)
    return _Weighing(g, dict.fromkeys(multi, Z), (un_num, U * Z if U else 1), layouts, Z == 0)


def _weigh_numeric(tallies: list[Tally], U: int, R: int, last_only: bool = False) -> _Weighing:
    """The same weighting in extended-precision floating point (numpy ``longdouble``), each vector rescaled to its
    maximum as it goes: fast on any position, used for estimates and when exact integers run out of time.
    ``last_only``: g and z of the last component alone (the backward pass stops after it: the chain's completions
    need nothing else, and on a board of hundreds of components the other rows are most of the work)."""
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
        top_g = gi.max()
        if top_g > 0:  # each g only counts relative to itself (over z): kept in a float's range, not below it
            gi = gi / top_g
        g[multi[index]] = gi
        z[multi[index]] = float((gi * p).sum())
        if last_only:
            break
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
    """Whether one count per component leaves between 0 and U of the R mines for the unconstrained cells (the sums
    reachable so far as a bit set, bit s for a sum of s: a thousand components in milliseconds)."""
    if R < 0:
        return False
    limit = (1 << (R + 1)) - 1
    sums = 1
    for ks in counts:
        sums = _sumset(sums, [k for k in ks if k <= R]) & limit
        if not sums:
            return False
    return bool(sums >> max(R - U, 0))


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
        weight = t.weight
        ks = list(weight) if 0 not in weight.values() else [k for k, w in weight.items() if w]
        counts.append(ks)
        if len(ks) > 1:
            multi += 1
            total += len(ks)
    U = len(unconstrained)
    # C(U, r) < 2**U, so the weights' size needs a look only when U passes LIGHT_BITS
    if multi > LIGHT_MULTI or total > LIGHT_COUNTS or (U > LIGHT_BITS and _binomial_bits(U, min(max(R, 0), U)) > LIGHT_BITS):
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
            before, after = prefix[i], suffix
            if after.bit_count() < before.bit_count():
                before, after = after, before
            while before:  # the sums of the other components' counts: prefix[i] + suffix, one set bit of the sparser at a time
                lowest = before & -before
                others |= after << (lowest.bit_length() - 1)
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
        # Each count's expected mines e_k of a super-cell are at most w_k |sc| (no layout has more mines there than
        # cells), so the sums over the completed counts are equal exactly when e_k = w_k |sc| for every one of them:
        # the super-cells that pass the first count are tested on the next, and so on, with no big sums.
        found: list[int] = []
        for comp, t, ks in zip(self.components, self.tallies, self.completed, strict=True):
            supercells = comp.supercells
            weight, expected = t.weight, t.expected
            w = weight[ks[0]]
            if not w:
                continue
            row = expected[ks[0]]
            full = [j for j, e in enumerate(row) if e and e == w * len(supercells[j])]
            for k in ks[1:]:
                if not full:
                    break
                w, row = weight[k], expected[k]
                full = [j for j in full if row[j] == w * len(supercells[j])]
            for j in full:
                found.extend(supercells[j])
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
        lo = _lowest_count(t.weight)
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
    """Two standard errors of the estimated probabilities over the chain's batches (the largest over the cells): each
    batch weighed with the exact tallies, as :func:`_cell_shares` does numerically, the exact tallies' expected rows
    scaled to floats once for all the batches."""
    runs = min(len(t.batches) for t in tallies if not t.exact and not t.rounding)
    estimates = _batch_estimates(components, tallies, U, R)
    if len(estimates) < 2 or not sum(len(row) for row in estimates[0]):
        return 0.5 if runs <= 1 else 1e-12  # a single run says nothing of its spread
    return max(max(float(spread.max()) for spread in _spreads(estimates) if len(spread)), 1e-12)


def _cell_spreads(components: list[Component], tallies: list[Tally], U: int, R: int) -> list[Any]:
    """Per component, each super-cell's two standard errors of its probability over the batches (the terms whose
    largest :func:`_batch_error` states), as a numpy array; empty arrays when fewer than two batches weigh."""
    import numpy as np

    estimates = _batch_estimates(components, tallies, U, R)
    if len(estimates) < 2:
        return [np.zeros(0) for _ in components]
    return _spreads(estimates)


def _spreads(estimates: list[list[Any]]) -> list[Any]:
    """Per component, two standard errors over the batches' estimates (at least two)."""
    import numpy as np

    rows = len(estimates)
    return [np.array([e[i] for e in estimates]).std(axis=0, ddof=1) * 2 / math.sqrt(rows) for i in range(len(estimates[0]))]


def _batch_estimates(components: list[Component], tallies: list[Tally], U: int, R: int) -> list[list[Any]]:
    """Per batch of the chain (whose weighing is not zero), each component's probabilities per super-cell: the
    batch weighed with the exact tallies."""
    import numpy as np

    runs = min(len(t.batches) for t in tallies if not t.exact and not t.rounding)
    sizes = [np.array([len(cells) for cells in comp.supercells], dtype=float) for comp in components]
    scaled = {i: _scaled_rows(t) for i, t in enumerate(tallies) if t.exact or t.rounding}
    estimates = []
    for b in range(runs):
        per = [t if t.exact or t.rounding else t.batches[b] for t in tallies]
        weighing = _weigh_numeric(per, U, R)
        if weighing.zero:
            continue
        row = []
        for i, t in enumerate(per):
            ks, matrix = scaled[i] if i in scaled else _scaled_rows(t)
            g = weighing.g.get(i)
            if g is None:  # one possible count: that row alone, over its weight
                k = next(k for k, w in t.weight.items() if w)
                factors = (ks == k) * (max(t.weight.values()) / t.weight[k])
            else:
                at = ks - _lowest_count(t.weight)
                inside = at < len(g)
                factors = np.where(inside, np.asarray(g, dtype=float)[np.where(inside, at, 0)], 0.0) / weighing.z[i]
            row.append(np.clip(factors @ matrix, 0.0, sizes[i]) / sizes[i])
        estimates.append(row)
    return estimates


def _scaled_rows(tally: Tally) -> tuple[Any, Any]:
    """A tally's counts and its expected rows over its largest weight, as floats (the terms of the numeric shares)."""
    import numpy as np

    biggest = max(tally.weight.values())
    ks = np.array(list(tally.expected), dtype=np.int64)
    return ks, np.array([[e / biggest for e in row] for row in tally.expected.values()], dtype=float).reshape(len(ks), -1)
