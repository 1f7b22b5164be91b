"""The sampled estimate (sweeplab.analysis.estimate.sampling): a frontier too large to count is estimated within the budget."""

import time

import pytest

from sweeplab.analysis.analyzer import analyze
from sweeplab.analysis.exact.budget import OVERHEAD_SECONDS, Budget
from sweeplab.analysis.exact.constraints import constraints_from
from sweeplab.core.geometry import Board
from sweeplab.core.observation import Observation
from tests.analysis.positions import numbers_over


def test_budget_on_a_monster_frontier_returns_in_time():
    # every other cell of every other row revealed over a random layout: a 2-D frontier of hundreds of cells
    import random

    board = Board(30, 30)
    rng = random.Random(1)
    layout = set(rng.sample(range(board.cells), 180))
    revealed = {board.index(x, y) for y in range(1, 30, 2) for x in range(1, 30, 2)}
    obs = Observation(board, 180, numbers_over(layout, board, revealed))
    assert len(constraints_from(obs).frontier) >= 200
    # the wall clock, as the budget promises: CPU time would add up the estimate's threads (two chains on two cores
    # spend up to twice the wall time), and a loaded machine stops the estimate sooner, not later
    start = time.perf_counter()
    # 5 s: at 3 s this position's estimate lands at the deadline on this 2-core machine and may stop undecided
    r = analyze(obs, Budget(seconds=5.0, max_states=5_000, samples=5_000))
    assert time.perf_counter() - start < 5.0 + OVERHEAD_SECONDS + 1.0
    assert not r.exact and r.error > 0 and r.safe == () and r.mines == ()
    probs = [p for _, p in r.covered()]
    assert all(0 <= p <= 1 for p in probs)
    assert sum(probs) == pytest.approx(180, rel=1e-6)  # revealed cells hold no mine, so all 180 are covered
    with pytest.raises(ValueError, match="estimated"):
        r.fraction(0)
