import math

import pytest

from sweeplab.bench.stats import binomial_se, paired_difference, percentile, set_stats, wilson


def test_set_stats_by_hand():
    # sets: [1,1,0,0] -> 0.5, [1,1,1,1] -> 1.0, [0,0,0,0] -> 0.0
    outcomes = [True, True, False, False] + [True] * 4 + [False] * 4
    s = set_stats(outcomes, 3)
    assert s.mean == pytest.approx(0.5)
    assert s.variance == pytest.approx(((0.0) ** 2 + 0.5**2 + 0.5**2) / 2)
    assert s.sem == pytest.approx(math.sqrt(0.25 / 3))


def test_set_stats_rejects_uneven_split():
    with pytest.raises(ValueError, match="cannot be split into 3 equal sets"):
        set_stats([True] * 10, 3)


def test_wilson_by_hand():
    low, high = wilson(0, 10)
    assert low == 0.0 and high == pytest.approx(0.2775, abs=1e-4)
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)


def test_binomial_se_and_percentile():
    assert binomial_se(1, 4) == pytest.approx(math.sqrt(0.25 * 0.75 / 4))
    assert percentile([3, 1, 2], 0) == 1 and percentile([3, 1, 2], 100) == 3
    assert percentile(list(range(101)), 99) == pytest.approx(99)


def test_paired_difference():
    mean, se = paired_difference([True, False], [False, False])
    assert mean == 0.5 and se == pytest.approx(0.5)
