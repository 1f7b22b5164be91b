"""What every claims experiment shares: a paper's claim that was never a number, tested with a verdict, and the
statistics behind the verdicts (z scores, ratios, chi-square homogeneity).

Every claims experiment (``seed000_claims``, ``seed002_claims``, ``seed003_claims``, ``seed004_claims``) plays its
points like the others (``sweeplab experiment NAME --out DIR``) and adds to its ``data.json`` a list of claims: the
paper's words, its number (when it gives one), the measured number with its standard error, the difference in
standard errors, a verdict and one sentence written from the data. The pages of docs/results/ print them
(:mod:`sweeplab.studies.pages.build`). A claim is "reproduced" when the measured value is within two standard errors
of the paper's (or, for a claim without a number, when the data meet the test its sentence states); otherwise "not
reproduced", and results/explanations.json must say why.
"""

from __future__ import annotations

import math
from abc import abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from sweeplab.bench.runner import GameResult
from sweeplab.bench.summary import Summary
from sweeplab.core.rules import Rules
from sweeplab.strategies.registry import format_spec, parse_spec
from sweeplab.studies.experiment import (
    Experiment,
    Plan,
    Point,
    Settings,
    header,
    markdown_table,
    rate_cell,
    write_csv,
)

REPRODUCED = "reproduced"
NOT_REPRODUCED = "not reproduced"
#: A claim of a gain whose interval of two standard errors holds 0: more games before anything is claimed.
UNDECIDED = "undecided"


@dataclass(frozen=True)
class Claim:
    """One claim of a paper against the data: ``key`` is the label results/explanations.json uses."""

    key: str
    source: str
    claim: str
    published: str
    measured: str
    z: float | None
    verdict: str
    sentence: str


def verdict(z: float | None, bound: float = 2.0) -> str:
    """Reproduced when the difference is within ``bound`` standard errors."""
    return REPRODUCED if z is not None and abs(z) <= bound else NOT_REPRODUCED


def gain_verdict(z: float | None) -> str:
    """A claim that one player wins more than another, from the paired difference in standard errors: reproduced
    above +2, not reproduced below -2, :data:`UNDECIDED` in between (the learned players' pages' rule).

    >>> gain_verdict(2.5), gain_verdict(-2.5), gain_verdict(1.0), gain_verdict(None)
    ('reproduced', 'not reproduced', 'undecided', 'undecided')
    """
    if z is not None and z > 2:
        return REPRODUCED
    if z is not None and z < -2:
        return NOT_REPRODUCED
    return UNDECIDED


#: "Nearly (or exactly) as accurate": a win-rate difference within this margin (1 percentage point), shown by
#: two one-sided tests at 5% each (TOST), the 90% interval of the difference inside the margin.
EQUIVALENCE_MARGIN = 0.01
_Z95 = 1.6448536269514722  # the one-sided 5% point of the normal


def equivalent(difference: float, se: float, margin: float = EQUIVALENCE_MARGIN) -> bool:
    """TOST: both one-sided tests reject a difference of ``margin`` or more, i.e. difference ± 1.645 SE lies
    strictly inside (-margin, margin).

    >>> equivalent(-0.0011, 0.0004), equivalent(-0.0011, 0.0060), equivalent(0.02, 0.001)
    (True, False, False)
    """
    return abs(difference) + _Z95 * se < margin


def equivalence_sentence(difference: float, se: float, margin: float = EQUIVALENCE_MARGIN) -> str:
    """The 90% interval of a difference against the equivalence margin, in points, as a clause."""
    low, high = 100 * (difference - _Z95 * se), 100 * (difference + _Z95 * se)
    inside = "inside" if equivalent(difference, se, margin) else "not inside"
    return (
        f"its 90% interval, {low:+.2f} to {high:+.2f} points, is {inside} the margin of ±{100 * margin:g} point "
        "(two one-sided tests at 5% each)"
    )


def zscore(value: float, se: float, target: float, target_se: float = 0.0) -> float | None:
    """(value - target) in combined standard errors; None when both errors are 0 and the values differ."""
    total = math.hypot(se, target_se)
    if total == 0:
        return 0.0 if value == target else None
    return (value - target) / total


def in_se(z: float | None) -> str:
    """A difference in standard errors as text ("undefined" when both errors are 0)."""
    return "an undefined number of SE" if z is None else f"{z:+.1f} SE"


def pp(value: float, se: float | None = None, digits: int = 1) -> str:
    """A rate as percent (with its SE)."""
    text = f"{100 * value:.{digits}f}"
    return text + (f" ± {100 * se:.{digits}f}" if se is not None else "") + "%"


def points_diff(value: float, se: float, digits: int = 1) -> str:
    """A difference of rates in percentage points, signed, with its SE."""
    return f"{100 * value:+.{digits}f} ± {100 * se:.{digits}f} points"


def spec_point(
    group: str,
    spec: str,
    rules: Rules,
    games: int,
    x: float | None = None,
    paper: str | None = None,
    published: float | None = None,
) -> Point:
    """A point playing the strategy spec ``NAME[key=value,...]``."""
    name, options = parse_spec(spec)
    shown = format_spec(name, options)
    return Point(group, shown, rules, games, x, paper, published, registry_name=name, options=tuple(sorted(options.items())))


def cpu_mean_se(results: Sequence[GameResult]) -> tuple[float, float]:
    """Mean CPU seconds per game and its standard error."""
    n = len(results)
    mean = sum(r.cpu_seconds for r in results) / n
    if n < 2:
        return mean, math.nan
    var = sum((r.cpu_seconds - mean) ** 2 for r in results) / (n - 1)
    return mean, math.sqrt(var / n)


def ratio_se(a: float, sa: float, b: float, sb: float) -> tuple[float, float]:
    """a / b and its standard error (first-order, a and b independent)."""
    r = a / b
    return r, abs(r) * math.hypot(sa / a if a else 0.0, sb / b if b else 0.0)


def chi_square_homogeneity(wins: Sequence[int], games: Sequence[int]) -> tuple[float, int, float]:
    """Pearson's chi-square test that several win rates are equal: (statistic, degrees of freedom, p-value).

    >>> stat, df, p = chi_square_homogeneity([50, 50], [100, 100])
    >>> stat, df, round(p, 6)
    (0.0, 1, 1.0)
    """
    total_w, total_n = sum(wins), sum(games)
    p = total_w / total_n
    stat = 0.0
    for w, n in zip(wins, games, strict=True):
        for observed, expected in ((w, n * p), (n - w, n * (1 - p))):
            if expected > 0:
                stat += (observed - expected) ** 2 / expected
    df = len(wins) - 1
    return stat, df, chi_square_sf(stat, df)


def chi_square_sf(x: float, k: int) -> float:
    """P(X > x) for a chi-square variable with ``k`` degrees of freedom (regularised upper incomplete gamma).

    >>> round(chi_square_sf(3.841458820694124, 1), 6)
    0.05
    """
    if x <= 0:
        return 1.0
    a, z = k / 2, x / 2
    if z < a + 1:  # series for the lower function
        term = total = 1.0 / a
        n = 0
        while abs(term) > 1e-15 * abs(total):
            n += 1
            term *= z / (a + n)
            total += term
        return max(0.0, 1.0 - total * math.exp(-z + a * math.log(z) - math.lgamma(a)))
    # continued fraction for the upper function (Lentz)
    tiny = 1e-300
    b = z + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return h * math.exp(-z + a * math.log(z) - math.lgamma(a))


class ClaimExperiment(Experiment):
    """An experiment whose points test claims; subclasses give the claims (and any extra tables and plots)."""

    @abstractmethod
    def claims(self, plan: Plan, results: list[list[GameResult]], summaries: list[Summary]) -> list[Claim]:
        """The claims tested by the played points."""

    def extra(
        self, plan: Plan, results: list[list[GameResult]], summaries: list[Summary], out: Path
    ) -> tuple[dict[str, Any], str, list[Path]]:
        """Extra data for data.json, extra Markdown for table.md and extra files (plots); none by default."""
        return {}, "", []

    def write(
        self, settings: Settings, plan: Plan, results: list[list[GameResult]], summaries: list[Summary], out: Path
    ) -> list[Path]:
        found = self.claims(plan, results, summaries)
        data, text_extra, files_extra = self.extra(plan, results, summaries, out)
        cpu = [cpu_mean_se(r) for r in results]
        data["cpu_se"] = [se for _, se in cpu]
        data["claims"] = [asdict(c) for c in found]
        files = self.write_summaries(plan, summaries, out, settings, data)
        files.append(write_outcomes(out / OUTCOMES, results))
        text = header(self.title, settings, plan.notes)
        rows = [
            [p.group, s.board, s.rule, s.strategy, s.games, rate_cell(s), f"{1000 * m:.2f} ± {1000 * se:.2f}", s.timeouts]
            for p, s, (m, se) in zip(plan.points, summaries, cpu, strict=True)
        ]
        text += (
            markdown_table(["group", "board", "rule", "strategy", "games", "win % ± SE", "CPU ms/game ± SE", "timeouts"], rows)
            + "\n\n"
        )
        text += text_extra
        text += "## Claims\n\n" + claims_markdown(found) + "\n"
        (out / "table.md").write_text(text)
        files.append(out / "table.md")
        return files + files_extra


#: Every game of a claims experiment, one row each, beside its data.json: paired differences recompute from it.
OUTCOMES = "outcomes.csv.gz"
OUTCOME_COLUMNS = ("point", "game", "won", "timed_out", "cpu_us")


def write_outcomes(path: Path, results: Sequence[Sequence[GameResult]]) -> Path:
    """One row per game: ``point`` (its place in data.json's ``points``), ``game`` (its index: the same index is the
    same layout for every strategy of a board), ``won`` and ``timed_out`` (0 or 1) and ``cpu_us`` (CPU microseconds)."""
    rows = [
        {"point": k, "game": g.index, "won": int(g.won), "timed_out": int(g.timed_out), "cpu_us": round(1e6 * g.cpu_seconds)}
        for k, games in enumerate(results)
        for g in games
    ]
    return write_csv(path, rows, OUTCOME_COLUMNS)


def read_outcomes(path: Path) -> dict[int, dict[int, tuple[bool, float]]]:
    """``write_outcomes``'s file as {point: {game: (won, cpu seconds)}}; ValueError naming the line that is not one."""
    import csv
    import gzip

    found: dict[int, dict[int, tuple[bool, float]]] = {}
    with gzip.open(path, "rt", newline="") as handle:
        reader = csv.DictReader(handle)
        if tuple(reader.fieldnames or ()) != OUTCOME_COLUMNS:
            raise ValueError(f"{path}: expected the columns {', '.join(OUTCOME_COLUMNS)}, found {reader.fieldnames}")
        for line, row in enumerate(reader, start=2):
            try:
                point, game, won, cpu = int(row["point"]), int(row["game"]), int(row["won"]), int(row["cpu_us"])
            except (TypeError, ValueError):
                raise ValueError(f"{path}, line {line}: not a game's outcome: {row}") from None
            if won not in (0, 1):
                raise ValueError(f"{path}, line {line}: won must be 0 or 1, not {won}")
            found.setdefault(point, {})[game] = (bool(won), cpu / 1e6)
    return found


def paired_difference(
    pairs: Sequence[tuple[dict[int, tuple[bool, float]], dict[int, tuple[bool, float]]]],
) -> tuple[float, float, int]:
    """Mean of won(a) - won(b) pooled over the games both points of each pair played (the same index, the same
    layout), its standard error over those games and their number."""
    diffs = []
    for a, b in pairs:
        diffs += [int(a[g][0]) - int(b[g][0]) for g in sorted(set(a) & set(b))]
    n = len(diffs)
    if n == 0:
        raise ValueError("no game in common: the points were not played on the same layouts")
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else math.nan
    return mean, math.sqrt(var / n), n


def claims_markdown(found: Sequence[Claim]) -> str:
    """The claims as a table, then one sentence each."""
    rows = [[c.source, c.claim, c.published, c.measured, "-" if c.z is None else f"{c.z:+.1f}", c.verdict] for c in found]
    text = markdown_table(["source", "claim", "published", "measured", "difference / SE", "verdict"], rows) + "\n\n"
    text += "\n".join(f"- {c.key}: {c.sentence}" for c in found) + "\n"
    return text


def _lookup(
    plan: Plan, results: list[list[GameResult]], summaries: list[Summary]
) -> Callable[..., tuple[Summary, list[GameResult]]]:
    """find(group=..., strategy=..., board=..., rule=...) -> the one matching point's (summary, results)."""

    def find(**want: Any) -> tuple[Summary, list[GameResult]]:
        for p, s, r in zip(plan.points, summaries, results, strict=True):
            have = {"group": p.group, "strategy": p.strategy, "board": s.board, "rule": s.rule, "x": p.x}
            if all(have[k] == v for k, v in want.items()):
                return s, r
        raise KeyError(f"no point with {want}")

    return find
