"""Kaye's consistency problem: a position in, :class:`Consistency` out (with a witness layout, found by a memoised
depth-first search over exact counts), and the naming of the number an unsatisfiable component cannot hold."""

from __future__ import annotations

import time
from array import array
from dataclasses import dataclass
from typing import Any

from sweeplab.analysis.exact.budget import _CHECK_EVERY, DEFAULT_BUDGET, Budget, _check, _Clock, _OutOfTime, _TooBig
from sweeplab.analysis.exact.components import Component, build_components
from sweeplab.analysis.exact.constraints import _observation, constraints_from, describe
from sweeplab.analysis.exact.counting import Tally, _feasible, _Plan, count
from sweeplab.analysis.exact.kernel import KERNEL
from sweeplab.core.errors import InconsistentPositionError, UndecidedError
from sweeplab.core.observation import Observation


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
