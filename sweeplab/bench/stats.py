"""Statistics for win rates: seed 000's sets-of-games standard error, Wilson intervals, paired differences and
McNemar's test."""

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


def paired_difference(a: Sequence[float], b: Sequence[float]) -> tuple[float, float]:
    """The mean of a_i - b_i over paired games and its standard error (outcomes as booleans, or as numbers: a
    player's mean over several passes of the same game).

    >>> mean, se = paired_difference([True, True, False, True], [True, False, False, False])
    >>> mean, round(se, 12)
    (0.5, 0.288675134595)
    """
    if len(a) != len(b) or not a:
        raise ValueError("paired outcomes must be two non-empty sequences of equal length")
    d = [float(x) - float(y) for x, y in zip(a, b, strict=True)]
    n = len(d)
    mean = sum(d) / n
    if n < 2:
        return mean, float("nan")
    var = sum((x - mean) ** 2 for x in d) / (n - 1)
    return mean, math.sqrt(var / n)


def mcnemar(a_only: int, b_only: int) -> float:
    """McNemar's two-sided p-value for paired wins: the exact binomial test on the discordant games (won by one
    player only), or, past 100,000 of them, the chi-square test with continuity correction.

    >>> mcnemar(0, 0), round(mcnemar(10, 2), 4), round(mcnemar(2, 10), 4)
    (1.0, 0.0386, 0.0386)
    """
    n, k = a_only + b_only, min(a_only, b_only)
    if n == 0:
        return 1.0
    if n > 100_000:
        chi2 = max(0.0, abs(a_only - b_only) - 1.0) ** 2 / n
        return math.erfc(math.sqrt(chi2 / 2))
    log_half = n * math.log(0.5)
    lgamma_n = math.lgamma(n + 1)
    tail = sum(math.exp(lgamma_n - math.lgamma(i + 1) - math.lgamma(n - i + 1) + log_half) for i in range(k + 1))
    return min(1.0, 2 * tail)


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


@dataclass(frozen=True)
class CpuStats:
    """CPU seconds per game: mean, median and 99th percentile (seed 000's Figure 5 reports the mean)."""

    mean: float
    median: float
    p99: float


def cpu_stats(seconds: Sequence[float]) -> CpuStats:
    """Summarise per-game CPU times.

    >>> cpu_stats([1.0, 2.0, 3.0, 10.0])
    CpuStats(mean=4.0, median=2.5, p99=9.79)
    """
    if not seconds:
        raise ValueError("no games")
    return CpuStats(sum(seconds) / len(seconds), percentile(seconds, 50), round(percentile(seconds, 99), 12))


def default_sets(games: int, preferred: int = 10) -> int | None:
    """The number of equal sets used when none is asked for: ``preferred`` if it divides ``games``, else the largest
    divisor of ``games`` between 2 and ``preferred`` that leaves at least two games per set; None if there is none.

    >>> default_sets(1000), default_sets(21), default_sets(7), default_sets(1)
    (10, 7, None, None)
    """
    for k in range(min(preferred, games // 2), 1, -1):
        if games % k == 0:
            return k
    return None


def logistic(x: float, midpoint: float, slope: float) -> float:
    """The falling logistic curve ``1 / (1 + exp(slope * (x - midpoint)))`` used to fit win rate against density.

    >>> logistic(0.2, 0.2, 30.0)
    0.5
    """
    z = slope * (x - midpoint)
    if z > 700:
        return 0.0
    return 1.0 / (1.0 + math.exp(z))


def fit_logistic(x: Sequence[float], wins: Sequence[int], games: Sequence[int], iterations: int = 100) -> tuple[float, float]:
    """Maximum-likelihood fit of binomial win counts to :func:`logistic`; returns (midpoint, slope).

    Newton-Raphson on the log-likelihood of ``p = 1 / (1 + exp(a + b x))`` with a tiny ridge term so that data
    that are perfectly separated (all wins then all losses) still give a finite, steep curve.

    >>> xs = [0.1, 0.2, 0.3]
    >>> mid, slope = fit_logistic(xs, [90, 50, 10], [100, 100, 100])
    >>> round(mid, 6), round(slope, 3)
    (0.2, 21.972)
    """
    if not (len(x) == len(wins) == len(games)) or len(x) < 2:
        raise ValueError("a logistic fit needs at least two points with wins and games for each")
    a, b = 0.0, 0.0
    ridge = 1e-9
    for _ in range(iterations):
        ga = gb = haa = hab = hbb = 0.0
        for xi, wi, ni in zip(x, wins, games, strict=True):
            p = 1.0 / (1.0 + math.exp(min(700.0, a + b * xi)))  # win probability
            r = ni * p - wi  # d loglik / da for p = 1 / (1 + exp(a + b x))
            ga += r
            gb += r * xi
            w = ni * p * (1 - p)
            haa += w
            hab += w * xi
            hbb += w * xi * xi
        ga -= ridge * a
        gb -= ridge * b
        haa += ridge
        hbb += ridge
        det = haa * hbb - hab * hab
        if det <= 0:
            break
        da = (hbb * ga - hab * gb) / det
        db = (haa * gb - hab * ga) / det
        a, b = a + da, b + db
        if abs(da) < 1e-12 and abs(db) < 1e-12:
            break
    if b == 0:
        return math.nan, 0.0
    return -a / b, b


def fit_exponential(x: Sequence[float], y: Sequence[float]) -> tuple[float, float]:
    """Least-squares fit of ``y = scale * exp(rate * x)`` on log y (seed 000's Figure 9 trend line); returns (scale, rate).

    >>> scale, rate = fit_exponential([0, 1, 2], [1.0, math.e, math.e**2])
    >>> round(scale, 9), round(rate, 9)
    (1.0, 1.0)
    """
    pts = [(xi, math.log(yi)) for xi, yi in zip(x, y, strict=True) if yi > 0]
    if len(pts) < 2:
        raise ValueError("an exponential fit needs at least two positive points")
    n = len(pts)
    mx = sum(p[0] for p in pts) / n
    my = sum(p[1] for p in pts) / n
    sxx = sum((p[0] - mx) ** 2 for p in pts)
    if sxx == 0:
        raise ValueError("an exponential fit needs two distinct x values")
    rate = sum((p[0] - mx) * (p[1] - my) for p in pts) / sxx
    return math.exp(my - rate * mx), rate


@dataclass(frozen=True)
class CalibrationBin:
    """Guesses whose estimated success lies in [low, high): how many, how many succeeded, and the comparison."""

    kind: str
    low: float
    high: float
    observations: int
    successes: int
    mean_estimate: float

    @property
    def rate(self) -> float:
        return self.successes / self.observations

    @property
    def se(self) -> float:
        return binomial_se(self.successes, self.observations)

    @property
    def z(self) -> float:
        """(observed - estimated) / the standard error the rate would have if the estimate were right,
        sqrt(e (1 - e) / n): the test of calibration, finite even when every guess in the bin succeeded."""
        e = self.mean_estimate
        diff = self.rate - e
        se = math.sqrt(e * (1 - e) / self.observations)
        if se == 0:
            return 0.0 if abs(diff) < 1e-12 else math.copysign(math.inf, diff)
        return diff / se


#: Bin edges for calibration tables: tenths, with the 0.5 and 0.8-0.9 regions split as seed 000's tables do.
CALIBRATION_EDGES = (0.0, 0.1, 0.2, 0.3, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 1.0)


def calibration(guesses: Sequence[tuple[str, float, bool]], edges: Sequence[float] = CALIBRATION_EDGES) -> list[CalibrationBin]:
    """Bin (kind, estimated success, outcome) triples by kind and estimate; empty bins are left out.

    The last bin is closed ([0.95, 1.0]); every other is half-open.

    >>> [(b.kind, b.low, b.observations, b.successes) for b in calibration([("craps", 0.5, True), ("craps", 0.52, False)])]
    [('craps', 0.5, 2, 1)]
    """
    cells: dict[tuple[str, int], list[tuple[float, bool]]] = {}
    last = len(edges) - 2
    for kind, estimate, outcome in guesses:
        k = last
        for i in range(len(edges) - 1):
            if estimate < edges[i + 1]:
                k = i
                break
        cells.setdefault((kind, max(0, k)), []).append((estimate, outcome))
    out = []
    for (kind, k), items in sorted(cells.items()):
        n = len(items)
        out.append(CalibrationBin(kind, edges[k], edges[k + 1], n, sum(1 for _, o in items if o), sum(e for e, _ in items) / n))
    return out
