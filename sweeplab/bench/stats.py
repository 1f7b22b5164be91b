"""Statistics for win rates: seed 000's sets-of-games standard error, Wilson intervals, paired differences."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class SetStats:
    """Seed 000's statistic: K sets of N/K games; the mean, variance and standard error of the set win rates."""

    sets: int
    mean: float
    variance: float
    sem: float


def set_stats(outcomes: Sequence[bool], sets: int) -> SetStats:
    """Split ``outcomes`` (in game order) into ``sets`` equal consecutive sets and summarise their win rates.

    >>> s = set_stats([True, False, True, True], 2)
    >>> s.mean, s.variance, round(s.sem, 4)
    (0.75, 0.125, 0.25)
    """
    n = len(outcomes)
    if sets < 2 or n % sets:
        raise ValueError(f"{n} games cannot be split into {sets} equal sets of at least one game (need >= 2 sets)")
    size = n // sets
    rates = [sum(outcomes[i * size : (i + 1) * size]) / size for i in range(sets)]
    mean = sum(rates) / sets
    variance = sum((r - mean) ** 2 for r in rates) / (sets - 1)
    return SetStats(sets, mean, variance, math.sqrt(variance / sets))


def binomial_se(wins: int, games: int) -> float:
    """The standard error of a win rate, sqrt(p(1-p)/n).

    >>> round(binomial_se(40, 100), 4)
    0.049
    """
    if games <= 0:
        raise ValueError("no games")
    p = wins / games
    return math.sqrt(p * (1 - p) / games)


def wilson(wins: int, games: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The Wilson score interval for a binomial proportion (95% by default).

    >>> tuple(round(v, 4) for v in wilson(8, 10))
    (0.4902, 0.9433)
    """
    if games <= 0:
        raise ValueError("no games")
    p = wins / games
    denom = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denom
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def paired_difference(a: Sequence[bool], b: Sequence[bool]) -> tuple[float, float]:
    """The mean of a_i - b_i over paired games and its standard error.

    >>> paired_difference([True, True, False, True], [True, False, False, False])
    (0.5, 0.2886751345948129)
    """
    if len(a) != len(b) or not a:
        raise ValueError("paired outcomes must be two non-empty sequences of equal length")
    d = [int(x) - int(y) for x, y in zip(a, b, strict=True)]
    n = len(d)
    mean = sum(d) / n
    if n < 2:
        return mean, float("nan")
    var = sum((x - mean) ** 2 for x in d) / (n - 1)
    return mean, math.sqrt(var / n)


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0-100) by linear interpolation.

    >>> percentile([1, 2, 3, 4], 50)
    2.5
    """
    if not values:
        raise ValueError("no values")
    s = sorted(values)
    pos = (len(s) - 1) * q / 100
    lo = math.floor(pos)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (pos - lo)
