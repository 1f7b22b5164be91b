"""A sampled estimate of a component's tally, a :class:`Component` in and an estimated :class:`Tally` out (the count's
steps over resampled partial states; several runs give the error). The analyzer estimates with the chain
(:mod:`~sweeplab.analysis.estimate.chain`) instead: on a frontier wide in both directions every resampled state dies."""

from __future__ import annotations

import math
import random
import time

from sweeplab.analysis.exact.budget import _CHECK_EVERY, Budget
from sweeplab.analysis.exact.components import Component
from sweeplab.analysis.exact.counting import _BINOM, PY_ENTRY_BYTES, Tally, _feasible, _Plan
from sweeplab.analysis.exact.kernel import KERNEL


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
