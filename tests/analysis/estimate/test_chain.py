"""The chain over a wide component's solutions (sweeplab.analysis.estimate.chain): exact when one block holds the whole
component, its C move the twin of the Python one, and close to the exact answer on a component it must sample."""

import math
import random
import time

import pytest

from sweeplab.analysis.estimate import batches, chain
from sweeplab.analysis.estimate.kernel import CHAIN
from sweeplab.analysis.exact.budget import Budget, _Clock
from sweeplab.analysis.exact.components import build_components
from sweeplab.analysis.exact.constraints import constraints_from
from sweeplab.analysis.exact.counting import count
from sweeplab.analysis.exact.probabilities import _combine
from sweeplab.analysis.exact.weighting import _batch_error, _cell_spreads
from tests.analysis.compiled import needs_chain
from tests.analysis.positions import strewn

KERNELS = [True, False] if CHAIN is not None else [False]


def _expert():
    """An expert board with a fifth of its safe cells revealed: one component of about 220 cells, counted exactly
    in a moment, and the exact tallies of the others."""
    obs, layout = strewn(30, 16, 99, 0.2)
    problem = constraints_from(obs)
    components = sorted(build_components(problem.constraints), key=lambda c: -len(c.cells))
    tallies = [count(c) for c in components]
    exact = _combine(obs, problem.unconstrained, problem.mines_left, components, tallies, _Clock.starting(Budget(seconds=60)))
    return obs, layout, problem, components, tallies, exact


def _estimated(obs, problem, components, tallies, seconds, use_kernel, seed=0):
    tally = chain.estimate(
        components[0],
        tallies[1:],
        len(problem.unconstrained),
        problem.mines_left,
        time.perf_counter() + seconds,
        seed,
        use_kernel,
    )
    assert tally is not None and not tally.exact and len(tally.batches) >= 2
    clock = _Clock.starting(Budget(seconds=60))
    return _combine(obs, problem.unconstrained, problem.mines_left, components, [tally, *tallies[1:]], clock)


@pytest.mark.parametrize("use_kernel", KERNELS)
def test_a_block_holding_the_whole_component_gives_the_exact_answer(monkeypatch, use_kernel):
    obs, _, problem, components, tallies, exact = _expert()
    assert len(components[0].cells) > 200
    monkeypatch.setattr(chain, "BLOCK", 10_000)
    result = _estimated(obs, problem, components, tallies, 0.5, use_kernel)
    for c in obs.covered():
        assert result.probability(c) == pytest.approx(exact.probability(c), abs=1e-9)
    assert sum(result.probability(c) for c in obs.covered()) == pytest.approx(obs.mines_left, rel=1e-9)


@pytest.mark.parametrize("use_kernel", KERNELS)
def test_the_estimate_is_close_to_the_exact_answer(use_kernel):
    obs, layout, problem, components, tallies, exact = _expert()
    result = _estimated(obs, problem, components, tallies, 1.5 if use_kernel else 3.0, use_kernel)
    worst = max(abs(result.probability(c) - exact.probability(c)) for c in obs.covered())
    # the budget is wall-clock: on a loaded machine the chain makes fewer moves, and then its stated error (two
    # standard errors at the worst cell) is wider and must still cover the truth
    assert worst < max(0.06 if use_kernel else 0.15, result.error), (worst, result.error)
    assert result.error < 0.35, result.error
    assert result.error > 0 and not result.exact
    assert sum(result.probability(c) for c in obs.covered()) == pytest.approx(obs.mines_left, rel=1e-6)
    assert not set(result.safe) & layout and set(result.mines) <= layout


@needs_chain
def test_the_c_move_is_the_twin_of_the_python_move():
    _, _, problem, components, tallies, _ = _expert()
    component = components[0]
    log_h = chain.completions(tallies[1:], len(component.cells), len(problem.unconstrained), problem.mines_left)
    in_c = chain._Chain(component, log_h, random.Random(3), True)
    assert in_c.first(component, time.perf_counter() + 30)
    in_python = chain._Chain(component, log_h, random.Random(3), False)
    in_python.assign(list(range(len(in_c.x))), list(in_c.x))
    total = sum(in_c.x)
    for _ in range(40):
        state = list(in_c.x)
        center = in_c.rng.randrange(len(state))
        in_c.rng = random.Random(center)
        in_python.rng = random.Random(center)
        a, b = in_c.move(total), in_python.move(total)
        assert a is not None and b is not None
        assert a[0] == b[0]
        assert a[1] == pytest.approx(b[1], rel=1e-9, abs=1e-12)
        assert a[2].keys() == b[2].keys() and all(a[2][k] == pytest.approx(b[2][k], rel=1e-9) for k in a[2])
        for done in (in_c, in_python):  # each drew its own block values: every number still holds
            assert not any(done.residual)
        in_python.assign(list(range(len(state))), list(in_c.x))
        total = a[3]
        assert total == sum(in_c.x)


def test_completions_weigh_by_the_unconstrained_cells():
    # no other component: h(k) is C(U, R - k), up to a constant
    log_h = chain.completions([], 6, 10, 4)
    ratios = [log_h[k] - math.log(math.comb(10, 4 - k)) for k in range(5)]
    assert all(r == pytest.approx(ratios[0]) for r in ratios)
    assert log_h[5] == log_h[6] == -math.inf  # more than the 4 mines left


def test_completions_stay_possible_far_below_the_smallest_float():
    # 4,404 free cells and 8,000 mines: C(4404, r) spans thousands of orders of magnitude, yet every count that
    # leaves between 0 and 4,404 mines outside stays possible
    log_h = chain.completions([], 11_228, 4_404, 8_000)
    possible = [k for k, v in enumerate(log_h) if v > -math.inf]
    assert possible == list(range(8_000 - 4_404, 8_001))
    assert log_h[8_000 - 2_202] - log_h[8_000] == pytest.approx(math.lgamma(4405) - 2 * math.lgamma(2203), rel=1e-6)


@needs_chain
@pytest.mark.parametrize("size", [(128, 128, 2000, 0.1), (256, 64, 2000, 0.15)])
def test_the_first_solution_drawn_strip_by_strip_holds_every_number(size):
    obs, _ = strewn(*size)
    problem = constraints_from(obs)
    component = max(build_components(problem.constraints), key=lambda c: len(c.cells))
    log_h = chain.completions([], len(component.cells), len(problem.unconstrained), problem.mines_left)
    for seed in range(3):
        drawn = chain._Chain(component, log_h, random.Random(seed), True, obs.board.width)
        assert drawn.strip_list is not None
        assert drawn.first(component, time.perf_counter() + 30)
        for js, m, _ in component.constraints:
            assert sum(drawn.x[j] for j in js) == m
        assert all(0 <= v <= len(sc) for v, sc in zip(drawn.x, component.supercells, strict=True))


@needs_chain
@pytest.mark.parametrize("threads", [1, 2])
def test_the_strip_estimate_states_an_honest_error_against_the_exact_answer(monkeypatch, threads):
    """A 48x48 board with a tenth of its safe cells revealed, estimated by the strips (the board's width given) in
    a second although it counts exactly in a moment, by one chain or two at once: the stated error (two standard
    errors at the worst cell) holds for nearly every cell, the worst is within twice it, and it is small."""
    monkeypatch.setattr(batches, "THREADS", threads)
    obs, layout = strewn(48, 48, 350, 0.1)
    problem = constraints_from(obs)
    components = sorted(build_components(problem.constraints), key=lambda c: -len(c.cells))
    tallies = [count(c) for c in components]
    clock = _Clock.starting(Budget(seconds=60))
    exact = _combine(obs, problem.unconstrained, problem.mines_left, components, tallies, clock)
    assert len(components[0].cells) > 400
    U, R = len(problem.unconstrained), problem.mines_left
    tally = chain.estimate(components[0], tallies[1:], U, R, time.perf_counter() + 1.0, 0, True, obs.board.width)
    assert tally is not None and not tally.exact and len(tally.batches) >= 2
    result = _combine(obs, problem.unconstrained, R, components, [tally, *tallies[1:]], clock)
    errors = [abs(result.probability(c) - exact.probability(c)) for c in obs.covered()]
    assert 0 < result.error <= 0.05, result.error
    assert sum(e <= result.error for e in errors) >= 0.95 * len(errors), (max(errors), result.error)
    assert max(errors) <= 2 * result.error, (max(errors), result.error)
    assert not set(result.safe) & layout and set(result.mines) <= layout


@needs_chain
def test_the_c_move_scales_log_weights_to_the_counts_the_block_reaches():
    """Log weights over a strip of hundreds of cells that fall by 20 a mine: as plain weights, scaled to the largest,
    every count the block can reach underflows to 0 and the move finds no weight; as log weights (scaled to the
    largest the block reaches) it moves, and on a gentle slope both forms make the same move."""
    obs, _ = strewn(64, 48, 450, 0.1)
    problem = constraints_from(obs)
    component = max(build_components(problem.constraints), key=lambda c: len(c.cells))
    blocks = chain._Chain(component, [0.0] * (len(component.cells) + 1), random.Random(0), True, obs.board.width)
    assert blocks.first(component, time.perf_counter() + 30)
    block = max((block for block, _ in blocks.strips(obs.board.width, 24)), key=len)
    steps, ids, cells = blocks.packed(block)
    needs = blocks.packed_needs(ids)
    steep = [-20.0 * k for k in range(cells + 1)]
    reached = CHAIN.move(None, steps, needs, [1.0] * (cells + 1), 100_000, 3)[3]
    assert reached > 50  # exp(-20 k) underflows for every count past 37
    assert CHAIN.move(None, steps, needs, [math.exp(v) for v in steep], 100_000, 3) is None
    assert CHAIN.move(None, steps, needs, steep, 100_000, 3, True) is not None
    gentle = [-0.01 * k for k in range(cells + 1)]
    plain = CHAIN.move(None, steps, needs, [math.exp(v) for v in gentle], 100_000, 3)
    logged = CHAIN.move(None, steps, needs, gentle, 100_000, 3, True)
    assert logged[0] == plain[0] and logged[3] == plain[3]
    assert logged[1] == pytest.approx(plain[1]) and logged[2] == pytest.approx(plain[2])


@needs_chain
def test_a_strip_too_wide_is_cut_into_two_overlapping_parts_that_keep_its_inner_half():
    obs, _ = strewn(128, 128, 2000, 0.1)
    problem = constraints_from(obs)
    component = max(build_components(problem.constraints), key=lambda c: len(c.cells))
    drawn = chain._Chain(component, [0.0] * (len(component.cells) + 1), random.Random(0), True, obs.board.width)
    assert drawn.strip_list is not None
    strips = len(drawn.strip_list)
    block, _ = drawn.strip_list[3]
    assert drawn._split(3)
    assert len(drawn.strip_list) == strips + 1 and sorted(drawn.queue[-2:]) == [3, strips]
    first, second = drawn.strip_list[3][0], drawn.strip_list[-1][0]
    assert set(first) | set(second) == set(block)
    across = drawn.axes(obs.board.width, drawn.strip_turned[3])[1]
    rows = max(across[j] for j in block) - min(across[j] for j in block) + 1
    shared = {across[j] for j in set(first) & set(second)}  # the rows of its middle third
    assert len(shared) >= rows // 3 and max(across[j] for j in first) < max(across[j] for j in block)
    assert _inner_halves_hold_each_super_cell_once_per_direction(drawn)  # as before the cut


@pytest.mark.parametrize("empty", [{}, {0: 0, 1: 0}])
def test_a_component_counted_to_no_layout_makes_the_position_inconsistent_not_a_crash(empty):
    """A look-ahead can build a position whose small component has no layout while a wide one needs the estimate:
    the weighting of the chain's completions has no count to start from, so the estimate is not tried and the
    position is proved inconsistent (it was a ValueError from the weighting, seen in a bench of ``best`` on a
    starved machine)."""
    from sweeplab.analysis.analyzer import Analyzer
    from sweeplab.analysis.exact.counting import Tally
    from sweeplab.core.errors import InconsistentPositionError

    obs, _, problem, components, tallies, _ = _expert()
    assert len(components) > 1
    broken = [None, Tally(dict(empty), {k: [] for k in empty}), *tallies[2:]]
    clock = _Clock.starting(Budget(seconds=5))
    merged, estimated = Analyzer()._estimate(
        components, broken, [0], clock, len(problem.unconstrained), problem.mines_left, obs.board.width
    )
    assert estimated[-1] is None  # the wide component: not estimated
    with pytest.raises(InconsistentPositionError):
        _combine(obs, problem.unconstrained, problem.mines_left, merged, estimated, clock, explain=False)


@needs_chain
def test_strips_too_wide_at_their_first_height_fall_to_the_lower_height_then_by_four(monkeypatch):
    """A strip count past its state limit makes the strips lower: from STRIP straight to STRIP_LOWER (the heights
    between rarely count where the first does not), then 4 rows at a time; every super-cell stays in one inner half
    of each direction's strips."""
    obs, _ = strewn(128, 128, 2000, 0.1)
    problem = constraints_from(obs)
    component = max(build_components(problem.constraints), key=lambda c: len(c.cells))
    drawn = chain._Chain(component, [0.0] * (len(component.cells) + 1), random.Random(0), True, obs.board.width)
    assert drawn.first(component, time.perf_counter() + 30)
    assert drawn.height == chain.STRIP > chain.STRIP_LOWER
    monkeypatch.setattr(chain, "STRIP_STATES", 1)  # every strip's count is too wide
    monkeypatch.setattr(drawn, "_split", lambda k: False)  # and none can be cut: the height falls at once
    total = sum(drawn.x)
    assert drawn.move(total) is None and drawn.height == chain.STRIP_LOWER
    assert drawn.move(total) is None and drawn.height == chain.STRIP_LOWER - 4
    assert _inner_halves_hold_each_super_cell_once_per_direction(drawn)


def _inner_halves_hold_each_super_cell_once_per_direction(drawn):
    assert drawn.strip_list is not None and len(drawn.strip_turned) == len(drawn.strip_list)
    for turned in (False, True):
        strips = [strip for strip, t in zip(drawn.strip_list, drawn.strip_turned, strict=True) if t == turned]
        assert sorted(b[p] for b, positions in strips for p in positions) == list(range(len(drawn.x)))
    return True


@needs_chain
def test_tall_strips_give_way_to_lower_ones_when_too_few_sweeps_of_them_fit():
    """At the end of a sweep, fewer than MIN_SWEEPS more sweeps at its pace (plans left out) before the deadline
    make the strips STRIP_LOWER rows high; with time for more, or mid-sweep, or already low, nothing changes."""
    obs, _ = strewn(128, 128, 2000, 0.1)
    problem = constraints_from(obs)
    component = max(build_components(problem.constraints), key=lambda c: len(c.cells))
    drawn = chain._Chain(component, [0.0] * (len(component.cells) + 1), random.Random(0), True, obs.board.width)
    assert drawn.first(component, time.perf_counter() + 30)
    total = sum(drawn.x)
    while True:  # one whole sweep
        moved = drawn.move(total)
        total = moved[3] if moved is not None else total
        if not drawn.queue:
            break
    now = time.perf_counter()
    pace = now - drawn.sweep_started - drawn.sweep_planning
    assert pace > 0
    assert not drawn.lower_if_slow(now + (chain.MIN_SWEEPS + 1) * pace + 1.0)
    assert drawn.height == chain.STRIP
    assert drawn.lower_if_slow(now + 0.5 * pace)
    assert drawn.height == chain.STRIP_LOWER and not drawn.queue
    assert not drawn.lower_if_slow(time.perf_counter())  # already at the lower height
    drawn.move(total)
    drawn.height = chain.STRIP  # mid-sweep: never
    assert drawn.queue and not drawn.lower_if_slow(time.perf_counter())


def _first_strips(width=64, height=64, mines=600, seed=0):
    """A strip chain at its first solution on a strewn board, and its component."""
    obs, _ = strewn(width, height, mines, 0.1)
    problem = constraints_from(obs)
    component = max(build_components(problem.constraints), key=lambda c: len(c.cells))
    drawn = chain._Chain(component, [0.0] * (len(component.cells) + 1), random.Random(seed), True, obs.board.width)
    assert drawn.strip_list is not None and drawn.first(component, time.perf_counter() + 30)
    return drawn, component


@needs_chain
def test_the_c_move_gives_the_same_moves_in_two_threads_at_once():
    """The C move runs without the GIL, each thread on its own buffers: strip moves made in two threads at once,
    three rounds each, are exactly the moves made one after another with the same seeds."""
    import threading

    drawn, _ = _first_strips()
    total = sum(drawn.x)
    calls = []
    for k, (block, _) in enumerate(drawn.strip_list[:8]):
        plan, ids, cells = drawn.packed(block)
        inside = sum(drawn.x[j] for j in block)
        window = drawn.log_h_array[total - inside : total - inside + cells + 1]
        calls.append((None, plan, drawn.packed_needs(ids), window, chain.STRIP_STATES, 2 * k + 1, True))
    expected = [CHAIN.move(*call) for call in calls]
    assert sum(out is not None for out in expected) >= 6
    got: dict[int, list] = {}

    def work(t):
        got[t] = [CHAIN.move(*call) for _ in range(3) for call in calls]
        CHAIN.release()

    threads = [threading.Thread(target=work, args=(t,)) for t in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert got[0] == got[1] == expected * 3


@needs_chain
def test_a_twin_chain_shares_the_structure_and_copies_what_a_move_changes():
    drawn, _ = _first_strips()
    twin = drawn.twin(random.Random(7))
    assert twin.x == drawn.x and twin.residual == drawn.residual and twin.strip_list == drawn.strip_list
    assert twin.structure() is drawn.structure()
    total = sum(twin.x)
    before = list(drawn.x), list(drawn.residual), list(drawn.strip_list), dict(drawn._strip_plans)
    for _ in range(len(twin.strip_list)):
        moved = twin.move(total)
        total = moved[3] if moved is not None else total
    assert twin.x != drawn.x
    assert (drawn.x, drawn.residual, drawn.strip_list, drawn._strip_plans) == before
    assert all(r == 0 for r in twin.residual)  # every number still holds in the twin's own state


@needs_chain
def test_an_error_in_one_chain_stops_the_others_at_their_next_move():
    """A chain that fails (as a game's time limit interrupts it) halts its twins: the error comes back at once, not
    at the deadline, and no chain thread is left running."""
    import threading

    drawn, _ = _first_strips()
    twin = drawn.twin(random.Random(1))
    moves = 0

    def failing(total):
        nonlocal moves
        moves += 1
        if moves > 3:
            raise RuntimeError("interrupted")
        return chain._Chain.move(drawn, total)

    drawn.move = failing
    start = time.perf_counter()
    with pytest.raises(RuntimeError, match="interrupted"):
        batches.run_chains([drawn, twin], sum(drawn.x), start, start + 60)
    assert time.perf_counter() - start < 10
    assert not [t for t in threading.enumerate() if t.name.startswith("sweeplab-chain")]


def test_each_cells_spread_is_two_standard_errors_of_its_batches_and_the_largest_is_the_stated_error():
    obs, _, problem, components, tallies, _ = _expert()
    tally = chain.estimate(
        components[0], tallies[1:], len(problem.unconstrained), problem.mines_left, time.perf_counter() + 0.3, 0, False
    )
    assert tally is not None and len(tally.batches) >= 2
    U, R = len(problem.unconstrained), problem.mines_left
    spreads = _cell_spreads(components, [tally, *tallies[1:]], U, R)
    assert [len(s) for s in spreads] == [len(c.supercells) for c in components]
    assert all(not s.any() for s in spreads[1:])  # the exact components do not move from batch to batch
    clock = _Clock.starting(Budget(seconds=60))
    by_batch = [_combine(obs, problem.unconstrained, R, components, [b, *tallies[1:]], clock) for b in tally.batches]
    for j, cells in enumerate(components[0].supercells):
        values = [r.probability(cells[0]) for r in by_batch]
        mean = sum(values) / len(values)
        spread = 2 * math.sqrt(sum((v - mean) ** 2 for v in values) / (len(values) - 1) / len(values))
        assert spreads[0][j] == pytest.approx(spread, abs=1e-9)
    assert max(spreads[0]) > 0
    assert _batch_error(components, [tally, *tallies[1:]], U, R) == pytest.approx(max(spreads[0]), abs=1e-12)
