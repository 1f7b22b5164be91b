"""The rollouts against brute force: a candidate's played-out win rate is the mean over every layout that fits."""

from __future__ import annotations

import random

import pytest

from sweeplab.analysis import DEFAULT_BUDGET, analyze
from sweeplab.analysis.exact.listing import LayoutSampler
from sweeplab.formats.position import parse_position
from sweeplab.strategies.search.rollouts import Arm, Rollouts, halve, paired
from tests.analysis.compiled import needs_loops
from tests.strategies.best.brute import consistent_layouts

pytestmark = needs_loops

POSITION = "6x4x6\nH2HH10\nHH3210\nHHH100\nHHH100\n"


class Fixed(LayoutSampler):
    """Draws the listed layouts in turn: every layout once per pass."""

    def __init__(self, cells: int, layouts: list[frozenset[int]]) -> None:
        self.cells, self.listed, self.k = cells, layouts, 0

    def draw(self, rng: random.Random) -> bytearray:
        mine = bytearray(self.cells)
        for c in self.listed[self.k % len(self.listed)]:
            mine[c] = 1
        self.k += 1
        return mine


def exact_value(observation, layouts, cell: int, horizon: int) -> float:
    """The candidate's value over every layout, each played out once (the mean the rollouts estimate)."""
    rollouts = Rollouts(
        observation, Fixed(observation.board.cells, layouts), frozenset(), random.Random(0), DEFAULT_BUDGET, horizon
    )
    rollouts.draw(len(layouts))
    return sum(rollouts.play(cell, k) for k in range(len(layouts))) / len(layouts)


@pytest.mark.parametrize("horizon", [0, 1])
def test_rollouts_on_exact_draws_estimate_the_mean_over_every_layout(horizon):
    observation = parse_position(POSITION)
    layouts = sorted(consistent_layouts(observation), key=sorted)
    result = analyze(observation)
    sampler = LayoutSampler.build(result)
    assert sampler is not None and sampler.layouts == len(layouts)
    covered = [c for c, v in enumerate(observation.view) if v == -1]
    for cell in covered[:6]:
        truth = exact_value(observation, layouts, cell, horizon)
        rollouts = Rollouts(observation, sampler, frozenset(result.mines), random.Random(cell), DEFAULT_BUDGET, horizon)
        rollouts.draw(3000)
        outcomes = [rollouts.play(cell, k) for k in range(3000)]
        mean = sum(outcomes) / len(outcomes)
        se = (sum((x - mean) ** 2 for x in outcomes) / (len(outcomes) - 1) / len(outcomes)) ** 0.5
        assert abs(mean - truth) <= 4 * se + 1e-9, (observation.board.name(cell), mean, truth, se)


def test_a_mine_scores_nothing_and_a_horizon_scores_the_next_safety():
    observation = parse_position(POSITION)
    layouts = sorted(consistent_layouts(observation), key=sorted)
    covered = [c for c, v in enumerate(observation.view) if v == -1]
    rollouts = Rollouts(observation, Fixed(observation.board.cells, layouts), frozenset(), random.Random(0), DEFAULT_BUDGET, 1)
    rollouts.draw(len(layouts))
    for k, layout in enumerate(layouts):
        for cell in covered:
            value = rollouts.play(cell, k)
            if cell in layout:
                assert value == 0.0
            else:
                assert 0.0 <= value <= 1.0


def test_halving_keeps_the_incumbent_and_plays_every_arm_on_the_same_layouts():
    observation = parse_position(POSITION)
    result = analyze(observation)
    sampler = LayoutSampler.build(result)
    covered = [c for c, v in enumerate(observation.view) if v == -1][:8]
    rollouts = Rollouts(observation, sampler, frozenset(result.mines), random.Random(1), DEFAULT_BUDGET)
    arms = halve(rollouts, covered, covered[-1], 400)
    assert covered[-1] in [a.cell for a in arms] and 2 <= len(arms) < len(covered)
    assert len({len(a.outcomes) for a in arms}) == 1
    assert 300 <= rollouts.played <= 400  # about the budget, never over it


def test_paired_difference_and_its_error():
    a, b = Arm(0, [1, 1, 0, 1]), Arm(1, [0, 1, 0, 0])
    mean, se = paired(a, b)
    assert mean == pytest.approx(0.5) and se == pytest.approx((1 / 3 / 4) ** 0.5)
    assert paired(Arm(0, [1]), Arm(1, [0]))[1] == float("inf")
