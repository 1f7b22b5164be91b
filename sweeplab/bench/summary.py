"""From game results to the numbers a paper reports: win rate with its errors, CPU time, outcome reasons."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from sweeplab.bench.runner import OUTCOMES, GameResult
from sweeplab.bench.stats import binomial_se, cpu_stats, default_sets, paired_difference, set_stats, wilson
from sweeplab.core.rules import Rules


@dataclass(frozen=True)
class Summary:
    """One strategy on one board and rule: seed 000's statistics plus a Wilson interval and CPU times.

    ``sem`` is the standard error of the mean over ``sets`` equal sets (seed 000) or, when the games cannot be
    split into sets (``sets`` is None), the binomial standard error. Timed-out games count as not won.
    ``rule_unmet`` counts the games whose first-click rule could not keep its promise (the ``zero`` rule on a board
    too dense for an opening: the first click was only kept safe). ``forfeits`` counts the games an outside program
    lost by breaking the protocol or its limits (their reasons are the games' outcomes).
    """

    strategy: str
    board: str
    rule: str
    seed: int
    games: int
    wins: int
    timeouts: int
    win_rate: float
    sets: int | None
    set_variance: float | None
    sem: float
    wilson_low: float
    wilson_high: float
    cpu_mean: float
    cpu_median: float
    cpu_p99: float
    guesses_per_game: float
    wall_seconds: float | None = None
    rule_unmet: int = 0
    forfeits: int = 0

    @property
    def games_per_second(self) -> float | None:
        return self.games / self.wall_seconds if self.wall_seconds else None

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["games_per_second"] = self.games_per_second
        return data

    def line(self, workers: str | None = None) -> str:
        """The one-line human summary (`make demo` prints it)."""
        se_text = f"SE over {self.sets} sets" if self.sets else "binomial SE"
        text = (
            f"{self.strategy} on {self.board} ({self.rule}), seed {self.seed}: won {self.wins}/{self.games} = "
            f"{self.win_rate:.2%} ± {self.sem:.2%} ({se_text}; 95% Wilson {self.wilson_low:.2%}-{self.wilson_high:.2%})"
        )
        if self.games_per_second is not None:
            text += f"; {self.games_per_second:.1f} games/s"
            if workers:
                text += f" on {workers}"
        text += f", {self.cpu_mean * 1000:.2f} ms CPU per game"
        if self.timeouts:
            text += f"; {self.timeouts} timed out"
        if self.forfeits:
            text += f"; {self.forfeits} lost by forfeit (games.csv's outcome says why)"
        if self.rule_unmet:
            text += f"; in {self.rule_unmet} games the '{self.rule}' rule could not be met (the first click was only kept safe)"
        return text


def summarize(
    results: Sequence[GameResult],
    strategy: str,
    rules: Rules,
    seed: int,
    sets: int | None = None,
    wall_seconds: float | None = None,
) -> Summary:
    """Summarise results; ``sets`` None picks :func:`default_sets` (binomial SE if the games do not split)."""
    games = len(results)
    if games == 0:
        raise ValueError("no games to summarise")
    outcomes = [r.won for r in results]
    wins = sum(outcomes)
    k = sets if sets is not None else default_sets(games)
    if k is not None:
        st = set_stats(outcomes, k)
        sem, variance = st.sem, st.variance
    else:
        sem, variance = binomial_se(wins, games), None
    low, high = wilson(wins, games)
    cpu = cpu_stats([r.cpu_seconds for r in results])
    return Summary(
        strategy=strategy,
        board=rules.spec(),
        rule=rules.first_click,
        seed=seed,
        games=games,
        wins=wins,
        timeouts=sum(1 for r in results if r.timed_out),
        win_rate=wins / games,
        sets=k,
        set_variance=variance,
        sem=sem,
        wilson_low=low,
        wilson_high=high,
        cpu_mean=cpu.mean,
        cpu_median=cpu.median,
        cpu_p99=cpu.p99,
        guesses_per_game=sum(r.guess_count for r in results) / games,
        wall_seconds=wall_seconds,
        rule_unmet=sum(1 for r in results if not r.rule_kept),
        forfeits=sum(1 for r in results if r.outcome.startswith("forfeit")),
    )


@dataclass(frozen=True)
class Paired:
    """Strategy a minus strategy b over the same games (same layouts): the win-rate difference and its SE."""

    a: str
    b: str
    games: int
    difference: float
    se: float
    a_only: int
    b_only: int

    def line(self) -> str:
        return (
            f"paired {self.a} - {self.b}: {self.difference:+.2%} ± {self.se:.2%} over {self.games} games "
            f"(only {self.a} won {self.a_only}, only {self.b} won {self.b_only})"
        )


def paired(a: str, ra: Sequence[GameResult], b: str, rb: Sequence[GameResult]) -> Paired:
    """Compare two strategies' results game by game (they must be the same game indices)."""
    if [r.index for r in ra] != [r.index for r in rb]:
        raise ValueError("paired results must cover the same games")
    wa, wb = [r.won for r in ra], [r.won for r in rb]
    diff, se = paired_difference(wa, wb)
    return Paired(
        a,
        b,
        len(wa),
        diff,
        se,
        sum(x and not y for x, y in zip(wa, wb, strict=True)),
        sum(y and not x for x, y in zip(wa, wb, strict=True)),
    )


def outcome(result: GameResult) -> str:
    """Why a game was won or lost (seed 000, Figure 6): one of :data:`OUTCOMES` (see :func:`runner.classify`)."""
    return result.outcome


def outcome_counts(results: Sequence[GameResult]) -> dict[str, int]:
    """How many games fall in each :data:`OUTCOMES` category (every category present, zeros included)."""
    counts = Counter(outcome(r) for r in results)
    return {name: counts.get(name, 0) for name in OUTCOMES}


__all__ = ["OUTCOMES", "Paired", "Summary", "outcome", "outcome_counts", "paired", "summarize"]
