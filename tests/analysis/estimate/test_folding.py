"""Counts in floating point folded against the rest of the position (sweeplab.analysis.estimate.folding): the same
probabilities as the exact count, up to rounding, and a fold that gives up leaves nothing behind."""

import functools
import math
import random
import threading
import time

import pytest
from hypothesis import HealthCheck, example, given, settings

from sweeplab.analysis import analyzer as front
from sweeplab.analysis.analyzer import Analyzer
from sweeplab.analysis.estimate import batches as runs
from sweeplab.analysis.estimate import chain, folding
from sweeplab.analysis.estimate.kernel import CHAIN
from sweeplab.analysis.exact.budget import Budget
from sweeplab.analysis.exact.components import Component
from sweeplab.analysis.exact.counting import _order
from sweeplab.analysis.exact.probabilities import ROUNDING
from sweeplab.core.errors import InconsistentPositionError, UndecidedError
from sweeplab.core.geometry import Board
from sweeplab.core.observation import Observation
from tests.analysis.compiled import needs_chain, needs_kernel
from tests.analysis.positions import (
    answered_to_rounding,
    arbitrary_positions,
    check_against_layout,
    played_positions,
    strewn,
    timed,
    within,
)

pytestmark = [needs_kernel, needs_chain]


def _folded(obs, monkeypatch):
    """The analysis of ``obs`` with every component the kernel's probe leaves uncounted folded: a probe of two states
    a step on any board, no settling first, and no full count after the fold."""
    monkeypatch.setattr(front, "PROBE_CELLS", 0)
    monkeypatch.setattr(front, "PROBE_STATES", 2)
    monkeypatch.setattr(front, "FIX_CELLS", 10**9)
    monkeypatch.setattr(front, "EXACT_AFTER_FOLD", 10.0)
    try:
        return Analyzer(Budget(seconds=5)).analyze(obs)
    except InconsistentPositionError:
        return InconsistentPositionError


EXAMPLES = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


def _same_as_exact(obs, monkeypatch):
    with monkeypatch.context() as patched:
        got = _folded(obs, patched)
    try:
        exact = Analyzer(Budget(seconds=5)).analyze(obs)
    except InconsistentPositionError:
        assert got is InconsistentPositionError
        return
    assert got is not InconsistentPositionError
    assert got.exact or got.error == ROUNDING  # a fold's answer is exact up to rounding, and says so
    for c in obs.covered():
        assert abs(got.probability(c) - exact.probability(c)) < 1e-12, obs.board.name(c)
    assert set(got.safe) <= set(exact.safe) and set(got.mines) <= set(exact.mines)  # no certainty it cannot prove
    assert abs(got.layouts - exact.layouts) <= 1e-9 * exact.layouts


@EXAMPLES
@given(played_positions())
def test_folds_give_the_exact_probabilities_on_played_positions(monkeypatch, obs):
    _same_as_exact(obs, monkeypatch)


@EXAMPLES
@given(arbitrary_positions())
@example(Observation(Board(2, 4), 6, (-1, -1, -1, 1, 1, -1, -1, 0)))  # more mines than covered cells: a proof
def test_folds_give_the_exact_probabilities_or_the_proof_on_arbitrary_positions(monkeypatch, obs):
    _same_as_exact(obs, monkeypatch)


@functools.cache
def _wide():
    """64x64 with a tenth of its safe cells revealed, not settled first: one component of 1,232 cells, past the
    default count's 100,000 states a step, and a few small ones; and its exact answer, which a larger limit counts
    in about a second and a half."""
    obs, layout = strewn(64, 64, 600, 0.1)
    saved, front.FIX_CELLS = front.FIX_CELLS, 10**9
    try:
        exact = Analyzer(Budget(seconds=60, max_states=1_000_000, max_bytes=2**31)).analyze(obs)
    finally:
        front.FIX_CELLS = saved
    assert exact.exact
    return obs, layout, exact


def test_a_wide_component_folds_to_the_exact_probabilities(monkeypatch):
    """The wide component's fold, within the default budget, gives every probability within 1e-12 of the exact."""
    obs, layout, exact = _wide()
    monkeypatch.setattr(front, "FIX_CELLS", 10**9)
    result, cpu, wall = timed(Analyzer(Budget(seconds=2.0)).analyze, obs)
    within(2.0, cpu, wall)
    assert not isinstance(result, UndecidedError), result
    assert not result.exact and result.error == ROUNDING
    check_against_layout(obs, result, layout)
    assert max(abs(result.probability(c) - exact.probability(c)) for c in obs.covered()) < 1e-12


@pytest.mark.parametrize(
    "size", [(512, 128, 14417, 0.4), (1024, 64, 14417, 0.2, 2)], ids=["512x128x14417@0.4", "1024x64x14417@0.2"]
)
def test_dense_boards_with_many_numbers_revealed_are_answered_by_folds(size):
    """Boards denser than expert with a fifth or more of their safe cells revealed: settled, they keep components of
    hundreds of cells too wide for the exact count, which the chain estimated at 0.014 and 0.025 here in 2 s. They
    fold in a tenth of that, so the answer is exact up to rounding."""
    answered_to_rounding(size)


def test_components_that_do_not_fold_are_estimated_beside_those_that_do(monkeypatch):
    """The probe leaves every component of the wide position uncounted; the 1,232-cell one is made too costly to
    fold, so the chain estimates it beside the folds of the small ones (their weights first, then against the rest
    with the chain's estimate). The answer is an estimate, honest against the exact one, and the small components'
    cells are within its error too. Nothing is undecided when the chain returns a little late."""
    obs, layout, exact = _wide()
    monkeypatch.setattr(front, "PROBE_CELLS", 0)
    monkeypatch.setattr(front, "PROBE_STATES", 2)
    monkeypatch.setattr(front, "FIX_CELLS", 10**9)
    real, planned = folding.Folds._first_fold, []

    def refuse_the_wide_one(self, seconds, end, item):
        cells = len(self.components[item[0]].cells)
        folded = cells <= 1000 and real(self, seconds, end, item)
        planned.append((cells, folded))
        return folded

    monkeypatch.setattr(folding.Folds, "_first_fold", refuse_the_wide_one)
    chain_estimate = chain.estimate

    def late(*args, **kwargs):  # the chain may make a move past its deadline: the folds' last pass still has time
        tally = chain_estimate(*args, **kwargs)
        time.sleep(0.03)
        return tally

    monkeypatch.setattr(chain, "estimate", late)
    result, cpu, wall = timed(Analyzer(Budget(seconds=2.0)).analyze, obs)
    within(2.0, cpu, wall)
    assert {size for size, ok in planned if ok} and {size for size, ok in planned if not ok} == {1232}
    if isinstance(result, UndecidedError):  # a starved machine: the chain found no first solution in time
        assert cpu < 1.5, result
        return
    assert not result.exact and result.error > ROUNDING
    check_against_layout(obs, result, layout)
    worst = max(abs(result.probability(c) - exact.probability(c)) for c in obs.covered())
    assert worst <= 2 * result.error, (worst, result.error)


def test_a_chain_that_finds_nothing_beside_folds_says_so_and_that_more_time_would_help(monkeypatch):
    """The same position, the chain finding no first solution: the answer is undecided, and its message names what
    was left (the folded components wait on the chain's answer) and that more time would help."""
    obs, _, _ = _wide()
    monkeypatch.setattr(front, "PROBE_CELLS", 0)
    monkeypatch.setattr(front, "PROBE_STATES", 2)
    monkeypatch.setattr(front, "FIX_CELLS", 10**9)
    real = folding.Folds._first_fold
    monkeypatch.setattr(
        folding.Folds,
        "_first_fold",
        lambda self, seconds, end, item: len(self.components[item[0]].cells) <= 1000 and real(self, seconds, end, item),
    )
    monkeypatch.setattr(chain, "estimate", lambda *args, **kwargs: None)
    with pytest.raises(UndecidedError, match=r"left without probabilities in time .* more time would help"):
        Analyzer(Budget(seconds=2.0)).analyze(obs)


def _plan(comp):
    return folding._plan(comp, _order(comp))


def _grid_component(width, height, seed):
    """The covered cells of a width x height board with a quarter of its cells mines and a fifth of its safe cells
    revealed at random (numbers strewn all over, as on the dense boards that fold), one cell a super-cell, under the
    numbers their layout shows."""
    rng = random.Random(seed)
    mine = {(x, y): rng.random() < 0.25 for x in range(width) for y in range(height)}
    shown = {xy for xy, m in mine.items() if not m and rng.random() < 0.2}
    cells: dict[tuple[int, int], int] = {}
    constraints = []
    for x, y in sorted(shown):
        around = [(x + dx, y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx or dy) and (x + dx, y + dy) in mine]
        around = [a for a in around if a not in shown]
        if around:
            js = tuple(cells.setdefault(a, len(cells)) for a in around)
            constraints.append((js, sum(mine[a] for a in around), len(constraints)))
    return Component([(i,) for i in range(len(cells))], constraints)


def test_a_fold_stops_at_its_caps_and_a_fold_for_the_weights_alone_has_no_means():
    comp = _grid_component(20, 20, 1)
    order, sizes, steps, needs = _plan(comp)
    _, weights, _, means = CHAIN.fold(sizes, steps, needs, None, folding.FOLD_STATES, 10**9, 10.0)
    assert max(weights) == 1.0 and len(means) == len(order) and not any(means)  # weights alone: no backward pass
    assert CHAIN.fold(sizes, steps, needs, None, folding.FOLD_STATES, 100, 10.0) is None  # past its entries
    assert CHAIN.fold(sizes, steps, needs, None, 2, 10**9, 10.0) is None  # past its states in a step
    done = CHAIN.fold_keep(sizes, steps, needs, folding.FOLD_STATES, 100, 10.0)
    assert isinstance(done, int) and done < len(order)


def test_greedy_order_is_an_order_of_every_super_cell():
    comp = _grid_component(9, 7, 2)
    sizes = [len(cells) for cells in comp.supercells]
    order = CHAIN.greedy_order(sizes, [(js, m) for js, m, _ in comp.constraints])
    assert sorted(order) == list(range(len(sizes)))
    with pytest.raises(ValueError, match="out of range"):
        CHAIN.greedy_order(sizes, [((0, len(sizes)), 1)])


def test_a_fold_out_of_time_leaves_the_next_count_unchanged():
    """A fold stopped by its deadline in the middle of a layer (which the analyzer's time budget does) must leave
    the thread's hash table clean: the same count after it gives the same answer as before it."""
    big = _plan(_grid_component(40, 40, 3))  # about 10,000 states: the deadline is checked every 4,096
    small = _plan(_grid_component(12, 12, 4))
    log_h = [0.0] * 145
    before = CHAIN.fold(small[1], small[2], small[3], log_h, folding.FOLD_STATES, 10**8, 10.0)
    assert CHAIN.fold(big[1], big[2], big[3], [0.0] * 1601, folding.FOLD_STATES, 10**9, 1e-6) is None
    assert isinstance(CHAIN.fold_keep(big[1], big[2], big[3], folding.FOLD_STATES, 10**9, 1e-6), int)
    assert CHAIN.fold(small[1], small[2], small[3], log_h, folding.FOLD_STATES, 10**8, 10.0) == before


def test_a_component_no_layout_fits_gets_an_exact_tally_of_none():
    """Two numbers over the same two cells that disagree: the fold finds no layout, and says so with an exact tally
    of none (which the analyzer reports as a proof, naming a number)."""
    comp = Component([(0,), (1,)], [((0, 1), 1, 5), ((0, 1), 2, 6)])
    deadline = time.perf_counter() + 10
    folds = folding.Folds([comp], 2**20, deadline, deadline)
    assert folds.proof == 0 and not folds.counted
    tally = folds.finish([], 0, 2)[0]
    assert tally.exact and tally.weight == {}


def test_a_fold_that_would_not_fit_in_its_time_gives_up_at_once():
    comp = _grid_component(40, 40, 5)
    start = time.perf_counter()
    assert folding.Folds([comp], 2**30, start + 1e-4, start + 10).left == [0]
    assert time.perf_counter() - start < 0.5


def test_folds_in_two_threads_give_what_one_thread_gives(monkeypatch):
    """The folds of a dense board's many components run in two threads at once (their weights, then against the
    rest): the answer is the one thread's, up to rounding (a component may be folded in another order when its
    first fold gives up in the other run)."""
    obs, _ = strewn(1024, 64, 14417, 0.2, 2)
    answers, real = [], folding.Folds.finish
    for threads in (1, 2):
        monkeypatch.setattr(runs, "THREADS", threads)
        seen = []

        def finish(self, *args, seen=seen, **kwargs):
            seen.append((self.threads, len(self.plans)))
            return real(self, *args, **kwargs)

        monkeypatch.setattr(folding.Folds, "finish", finish)
        answers.append(Analyzer(Budget(seconds=10)).analyze(obs))
        assert seen and seen[0][0] == min(threads, runs.cores()) and seen[0][1] > 1, seen
    one, two = answers
    assert one.error == two.error == ROUNDING
    assert max(abs(one.probability(c) - two.probability(c)) for c in obs.covered()) < 1e-12


def test_parallel_work_keeps_the_order_and_raises_a_threads_error():
    assert folding._parallel(lambda i: i * i, list(range(50)), 2) == [i * i for i in range(50)]
    assert folding._parallel(lambda i: -i, [3], 2) == [-3]
    started = []

    def fail_on_seven(i):
        started.append(i)
        time.sleep(0.001)
        if i == 7:
            raise ValueError("seven")
        return i

    with pytest.raises(ValueError, match="seven"):
        folding._parallel(fail_on_seven, list(range(1000)), 2)
    assert len(started) < 20  # no thread takes another item once one has failed


def test_kept_layers_give_the_folds_answer_to_the_bit():
    """A fold for its weights that keeps its layers (fold_keep), then its backward pass alone from them (fold_back,
    twice, as two threads may), gives what one fold against the rest gives; a component no layout fits keeps none."""
    plan = _plan(_grid_component(24, 24, 6))
    order, sizes, steps, needs = plan
    log_h = [random.Random(6).uniform(-2, 0) - 0.3 * k for k in range(len(order) + 1)]
    whole = CHAIN.fold(sizes, steps, needs, log_h, folding.FOLD_STATES, 10**8, 10.0)
    weights = CHAIN.fold(sizes, steps, needs, None, folding.FOLD_STATES, 10**8, 10.0)
    low, ws, log_scale, kept, nbytes, thinned = CHAIN.fold_keep(sizes, steps, needs, folding.FOLD_STATES, 10**8, 10.0)
    assert (low, ws, log_scale) == weights[:3] and nbytes > 8 * len(ws) and not thinned
    assert CHAIN.fold_back(kept, log_h, 10.0) == whole
    assert CHAIN.fold_back(kept, log_h, 10.0) == whole
    assert CHAIN.fold_back(kept, [-math.inf] * len(log_h), 10.0) is None  # the rest completes no count
    none = _plan(Component([(0,), (1,)], [((0, 1), 1, 5), ((0, 1), 2, 6)]))
    assert CHAIN.fold_keep(none[1], none[2], none[3], folding.FOLD_STATES, 10**8, 10.0)[1:4:2] == ([], None)
    big = _plan(_grid_component(40, 40, 3))
    done = CHAIN.fold_keep(big[1], big[2], big[3], folding.FOLD_STATES, 10**9, 1e-6)  # out of time: the steps it did
    assert isinstance(done, int) and 0 < done < len(big[0])


def test_a_thinned_fold_replays_its_layers_to_the_bit():
    """A fold whose vectors would hold more entries than it may (2^20, or max_entries when lower) keeps some layers'
    vectors alone, and its backward passes replay the others: the same weights and means to the bit, in less memory;
    past max_entries even then, it gives up."""
    order, sizes, steps, needs = _plan(_grid_component(24, 24, 7))
    log_h = [random.Random(7).uniform(-2, 0) - 0.3 * k for k in range(len(order) + 1)]
    *weights, kept, nbytes, thinned = CHAIN.fold_keep(sizes, steps, needs, folding.FOLD_STATES, 2**16, 10.0)
    assert not thinned
    whole = CHAIN.fold(sizes, steps, needs, log_h, folding.FOLD_STATES, 2**16, 10.0)
    assert CHAIN.fold_back(kept, log_h, 10.0) == whole and whole[:3] == tuple(weights)
    *thin_weights, thin_kept, thin_bytes, thinned = CHAIN.fold_keep(sizes, steps, needs, folding.FOLD_STATES, 2**13, 10.0)
    assert thinned and thin_weights == weights and thin_bytes < nbytes / 4
    assert CHAIN.fold_back(thin_kept, log_h, 10.0) == whole
    assert CHAIN.fold(sizes, steps, needs, log_h, folding.FOLD_STATES, 2**13, 10.0) == whole  # thinned, not kept
    assert CHAIN.fold(sizes, steps, needs, None, folding.FOLD_STATES, 2**13, 10.0)[:3] == tuple(weights)
    assert isinstance(CHAIN.fold_keep(sizes, steps, needs, folding.FOLD_STATES, 2**10, 10.0), int)


def test_a_folds_progress_weighs_its_steps_by_the_numbers_open_and_the_cells_behind():
    """A fold's guess of its whole time from the steps it did: each step weighs STEP_BASE to the power of the numbers
    open after it, times the cells counted by then to the power CELLS_POWER."""
    # super-cells 0, 1, 2 (sizes 1, 2, 1): number a over 0 and 2, number b over 1 alone
    comp = Component([(0,), (1, 2), (3,)], [((0, 2), 1, 0), ((1,), 1, 1)])
    plan = folding._plan(comp, [0, 1, 2])
    base, power = folding.STEP_BASE, folding.CELLS_POWER
    # after step 0, a is open; after step 1, a still (b opened and closed at it); after step 2, none
    want = [base * 1**power, base * 3**power, 4**power]
    assert folding._progress(comp, plan) == pytest.approx([sum(want[: t + 1]) for t in range(3)])
    # the same steps in another order: a opens at step 0 and stays open while b is counted
    assert folding._progress(comp, folding._plan(comp, [0, 2, 1]))[-1] < folding._progress(comp, plan)[-1]


def test_a_fold_stops_once_another_thread_sets_its_flag():
    """A race's other folds of a component stop once it is folded: fold_keep reads a flag (the first byte of a
    writable buffer) where it reads its deadline, and gives up as if out of time."""
    order, sizes, steps, needs = _plan(_grid_component(120, 120, 9))  # far too wide to fold in seconds
    flag = bytearray(1)
    threading.Timer(0.05, flag.__setitem__, (0, 1)).start()
    start = time.perf_counter()
    done = CHAIN.fold_keep(sizes, steps, needs, folding.FOLD_STATES, 2**28, 30.0, flag)
    assert isinstance(done, int) and done < len(order) and time.perf_counter() - start < 5.0
    start = time.perf_counter()
    assert isinstance(CHAIN.fold_keep(sizes, steps, needs, folding.FOLD_STATES, 2**28, 30.0, flag), int)  # set before
    assert time.perf_counter() - start < 1.0
    with pytest.raises(ValueError, match="at least one byte"):
        CHAIN.fold_keep(sizes, steps, needs, folding.FOLD_STATES, 2**28, 30.0, bytearray())
    with pytest.raises(BufferError, match="not writable"):
        CHAIN.fold_keep(sizes, steps, needs, folding.FOLD_STATES, 2**28, 30.0, b"\x00")


def test_folds_beside_the_chain_stop_at_their_share_when_one_does_not_look_like_folding():
    """A component far too wide to fold beside a small one: the small one folds, and the rounds stop at the time
    planned for folds beside the chain (mixed), not at the time planned for folds alone, which is the chain's."""
    # 160 x 160: too wide by far for its guess to look like folding (120 x 120 folds in under a second on a quiet machine)
    big, small = _grid_component(160, 160, 9), _grid_component(12, 12, 4)
    start = time.perf_counter()
    folds = folding.Folds([big, small], 2**28, start + 5.0, start + 10.0, mixed=start + 0.3)
    took = time.perf_counter() - start
    assert folds.left == [0] and list(folds.counted) == [1]
    assert took < 1.0, took


def _shuffled(comp, seed):
    """``comp`` with its super-cells numbered in a random order (an order found from their numbering is no proof)."""
    n = len(comp.supercells)
    new = list(range(n))
    random.Random(seed).shuffle(new)
    supercells = [None] * n
    for j, sc in enumerate(comp.supercells):
        supercells[new[j]] = sc
    return Component(supercells, [(tuple(new[j] for j in js), m, s) for js, m, s in comp.constraints])


def _widest_open(comp, order):
    """The most numbers open at once in a count in ``order``: begun, not yet done."""
    at = {j: t for t, j in enumerate(order)}
    spans = [(min(at[j] for j in js), max(at[j] for j in js)) for js, _, _ in comp.constraints]
    return max(sum(1 for lo, hi in spans if lo <= t < hi) for t in range(len(order)))


def test_the_spectral_order_is_an_order_of_every_super_cell_piece_by_piece():
    """Pieces no number joins (a component has one; the kernel takes any): each is laid out whole, each from its
    least connected super-cell, the pieces by that super-cell's index; one no number names is a piece of its own."""
    sizes = [1] * 7
    constraints = [((0, 2), 1), ((2, 4), 1), ((1, 3, 5), 1)]
    order = CHAIN.spectral_order(sizes, constraints, 4, 200)
    assert sorted(order) == list(range(7))
    assert set(order[:3]) == {0, 2, 4} and order[1] == 2  # a path 0-2-4 along its length, then the triangle 1-3-5
    assert set(order[3:6]) == {1, 3, 5} and order[6] == 6
    assert CHAIN.spectral_order([], [], 4, 200) == []
    with pytest.raises(ValueError, match="spectral_order: a constraint names a super-cell out of range"):
        CHAIN.spectral_order(sizes, [((0, 7), 1)], 4, 200)


def test_the_spectral_order_lays_a_path_out_along_its_length():
    path = Component([(j,) for j in range(300)], [((j, j + 1, j + 2), 1, j) for j in range(298)])
    comp = _shuffled(path, 1)
    order = folding.spectral_order(comp)
    along = [comp.supercells[j][0] for j in order]
    assert along in (list(range(300)), list(range(299, -1, -1)))


def test_the_spectral_order_keeps_few_numbers_open_on_a_long_band():
    """A band 4 cells high and 150 long, numbered at random: the spectral order sweeps it end to end, so only the
    numbers over a few columns are open at once, where the greedy order, started at its least connected cell,
    leaves far more open."""
    cells = {(x, y): x * 4 + y for x in range(150) for y in range(4)}
    constraints = []
    for (x, y), _ in cells.items():
        around = tuple(cells[x + dx, y + dy] for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (x + dx, y + dy) in cells)
        constraints.append((around, 2, len(constraints)))
    comp = _shuffled(Component([(c,) for c in range(600)], constraints), 2)
    order = folding.spectral_order(comp)
    assert sorted(order) == list(range(600))
    assert _widest_open(comp, order) <= 20  # about three columns of four numbers
    assert _widest_open(comp, order[::-1]) <= 20


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_folds_in_every_order_give_the_same_weights(seed):
    """The order changes a fold's cost, never its answer: the weights per count in the spectral orders equal those
    in the greedy and banded ones (to rounding)."""
    comp = _grid_component(18, 18, seed)
    orders: list = [None] * len(folding.ORDERS)
    results = []
    for k in range(6):
        plan = folding._orders(comp, orders, k)
        assert sorted(plan[0]) == list(range(len(comp.supercells)))
        results.append(CHAIN.fold(plan[1], plan[2], plan[3], None, folding.FOLD_STATES, 10**9, 10.0))
    assert orders[folding.REVERSED][0] == orders[folding.SPECTRAL][0][::-1]
    assert orders[folding.ROUGH_REVERSED][0] == orders[folding.ROUGH][0][::-1]
    low, weights, log_scale, _ = results[0]
    for other in results[1:]:
        assert other[0] == low and len(other[1]) == len(weights)
        shift = other[2] - log_scale
        for a, b in zip(weights, other[1], strict=True):
            assert abs(a - b * math.exp(shift)) <= 1e-9 * max(weights)


def test_components_past_the_spectral_limit_fold_in_the_greedy_and_banded_orders(monkeypatch):
    comp = _grid_component(12, 12, 4)
    spectral = (folding.SPECTRAL, folding.REVERSED, folding.ROUGH, folding.ROUGH_REVERSED)
    assert folding._kinds(comp) == ((folding.GREEDY, *spectral), spectral)
    monkeypatch.setattr(folding, "SPECTRAL_MAX", 10)
    assert folding._kinds(comp) == ((folding.GREEDY, folding.BANDED), (folding.GREEDY, folding.BANDED))
    start = time.perf_counter()
    folds = folding.Folds([comp], 2**28, start + 5.0, start + 10.0)
    assert list(folds.counted) == [0] and folds.plans[0][0] in (
        folding._orders(comp, [None] * len(folding.ORDERS), folding.GREEDY)[0],
        folding._orders(comp, [None] * len(folding.ORDERS), folding.BANDED)[0],
    )


def test_idle_threads_race_a_components_later_orders_and_the_first_to_fold_wins():
    comp, other = _grid_component(12, 12, 4), _grid_component(10, 10, 5)
    start = time.perf_counter()
    folds = folding.Folds([comp, other], 2**28, start, start + 10)  # no time planned: no round runs
    folds.threads = 2
    assert folds.left == [0, 1] and folds._work([0]) == [(0, None)]  # its first orders not yet tried
    for k in folding._kinds(comp)[0]:
        folds._guess[0, k] = 0.01
    folds._guess[0, folding.ROUGH] = 0.005
    # one component, two threads: a race between the order whose fold looked quickest and the quickest-looking one
    # run the other way along the component (a guess misses most between the two directions)
    assert folds._work([0]) == [(0, folding.ROUGH), (0, folding.REVERSED)]
    folds._guess[0, folding.REVERSED] = 0.02
    assert folds._work([0]) == [(0, folding.ROUGH), (0, folding.ROUGH_REVERSED)]
    folds._guess[0, folding.ROUGH_REVERSED] = 0.004
    assert folds._work([0]) == [(0, folding.ROUGH_REVERSED), (0, folding.ROUGH)]
    folds.threads = 4  # room for every later order: after those two, the rest by their guesses
    assert folds._work([0]) == [(0, k) for k in (folding.ROUGH_REVERSED, folding.ROUGH, folding.SPECTRAL, folding.REVERSED)]
    folds.threads = 2
    assert folds._work([0, 1]) == [(0, None), (1, None)]  # as many components as threads: no race
    end = time.perf_counter() + 10
    assert not folds._stop[0][0] and folds._first_fold(10.0, end, (0, folding.SPECTRAL))
    assert folds._stop[0][0] and not folds._stop[1][0]  # the other folds of it stop
    won = folds.plans[0], folds.counted[0]
    assert folds._first_fold(10.0, end, (0, folding.REVERSED))  # folded already: the first one stands
    assert (folds.plans[0], folds.counted[0]) == won and won[0][0] == folds._built[0][folding.SPECTRAL][0]
