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


def test_cpu_stats_by_hand():
    from sweeplab.bench.stats import cpu_stats

    s = cpu_stats([0.1, 0.4, 0.2, 0.3])
    assert s.mean == pytest.approx(0.25) and s.median == pytest.approx(0.25)
    # p99 of 4 values: position 0.99 * 3 = 2.97 between 0.3 and 0.4
    assert s.p99 == pytest.approx(0.3 + 0.97 * 0.1)


def test_default_sets():
    from sweeplab.bench.stats import default_sets

    assert default_sets(10_000) == 10
    assert default_sets(50) == 10
    assert default_sets(12) == 6
    assert default_sets(13) is None
    assert default_sets(4) == 2


def test_logistic_fit_recovers_a_known_curve():
    from sweeplab.bench.stats import fit_logistic, logistic

    xs = [0.05, 0.1, 0.15, 0.2, 0.25, 0.3]
    games = [10_000] * len(xs)
    wins = [round(10_000 * logistic(x, 0.18, 25.0)) for x in xs]
    mid, slope = fit_logistic(xs, wins, games)
    assert mid == pytest.approx(0.18, abs=1e-3) and slope == pytest.approx(25.0, rel=1e-2)


def test_logistic_fit_symmetric_data_by_hand():
    from sweeplab.bench.stats import fit_logistic

    # 80% and 20% wins at 0.1 and 0.3: midpoint 0.2 and slope ln(4) / 0.1
    mid, slope = fit_logistic([0.1, 0.3], [80, 20], [100, 100])
    assert mid == pytest.approx(0.2) and slope == pytest.approx(math.log(4) / 0.1)


def test_logistic_fit_survives_perfect_separation():
    from sweeplab.bench.stats import fit_logistic

    mid, slope = fit_logistic([0.1, 0.2, 0.3], [20, 0, 0], [20, 20, 20])
    assert 0.1 < mid < 0.2 and slope > 10


def test_exponential_fit_by_hand():
    from sweeplab.bench.stats import fit_exponential

    scale, rate = fit_exponential([10, 20, 30], [0.01 * math.exp(0.2 * x) for x in (10, 20, 30)])
    assert scale == pytest.approx(0.01) and rate == pytest.approx(0.2)
    with pytest.raises(ValueError):
        fit_exponential([1], [1.0])


def test_calibration_bins_by_hand():
    from sweeplab.bench.stats import calibration

    guesses = [("educated", 0.82, True)] * 3 + [("educated", 0.84, False)] + [("craps", 0.5, True), ("craps", 0.5, False)]
    guesses += [("educated", 1.0, True)]
    bins = calibration(guesses)
    assert [(b.kind, b.low, b.high, b.observations, b.successes) for b in bins] == [
        ("craps", 0.5, 0.55, 2, 1),
        ("educated", 0.8, 0.85, 4, 3),
        ("educated", 0.95, 1.0, 1, 1),
    ]
    craps, educated, certain = bins
    assert craps.z == 0.0
    assert educated.mean_estimate == pytest.approx(0.825)
    assert educated.se == pytest.approx(math.sqrt(0.75 * 0.25 / 4))
    assert educated.z == pytest.approx((0.75 - 0.825) / math.sqrt(0.825 * 0.175 / 4))
    assert certain.z == 0.0
    lucky = calibration([("educated", 0.9, True)] * 4)[0]
    assert lucky.se == 0.0 and lucky.z == pytest.approx(0.1 / math.sqrt(0.09 / 4))
