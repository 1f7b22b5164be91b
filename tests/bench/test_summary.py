import math

import pytest

from sweeplab.bench.runner import GameResult, GuessRecord
from sweeplab.bench.summary import OUTCOMES, outcome, outcome_counts, paired, summarize
from sweeplab.core.rules import Rules


def result(index: int, won: bool, guesses=(), timed_out=False, protected=False, cpu=0.001) -> GameResult:
    return GameResult(index, won, 10, cpu, 5, 20, tuple(guesses), timed_out, None, protected)


def g(kind: str, outcome_: bool, move: int = 3, safety: float | None = 0.5) -> GuessRecord:
    return GuessRecord(0, kind, safety, outcome_, move)


def test_outcome_categories_follow_figure_6():
    assert outcome(result(0, True)) == "won without guessing"
    assert outcome(result(0, True, [g("first", True, 0)])) == "won without guessing"
    assert outcome(result(0, True, [g("random", True, 0)], protected=True)) == "won without guessing"
    assert outcome(result(0, True, [g("random", True, 0)])) == "won with guessing"
    assert outcome(result(0, False, [g("educated", True), g("craps", False)])) == "lost on a craps shoot"
    assert outcome(result(0, False, [g("educated", False)])) == "lost on an educated guess"
    assert outcome(result(0, False, [g("unconstrained", False)])) == "lost on another guess"
    assert outcome(result(0, False, [g("random", False)])) == "lost on another guess"
    assert outcome(result(0, False)) == "lost without a recorded guess"
    assert outcome(result(0, False, timed_out=True)) == "timed out"


def test_outcome_counts_list_every_category():
    counts = outcome_counts([result(0, True), result(1, False, [g("craps", False)]), result(2, False, timed_out=True)])
    assert list(counts) == list(OUTCOMES)
    assert counts["won without guessing"] == 1 and counts["lost on a craps shoot"] == 1 and counts["timed out"] == 1
    assert sum(counts.values()) == 3


def test_summarize_by_hand():
    rules = Rules(9, 9, 10, "safe")
    wins = [True, True, False, False, True, True, True, True, False, False]
    results = [result(i, w, cpu=0.001 * (i + 1), timed_out=(i == 9)) for i, w in enumerate(wins)]
    s = summarize(results, "x", rules, 0, sets=5, wall_seconds=2.0)
    # sets of two: 1.0, 0.0, 1.0, 1.0, 0.0 -> mean 0.6, variance 0.3, SE sqrt(0.3 / 5)
    assert (s.games, s.wins, s.timeouts, s.win_rate) == (10, 6, 1, 0.6)
    assert s.set_variance == pytest.approx(0.3) and s.sem == pytest.approx(math.sqrt(0.3 / 5))
    assert s.cpu_mean == pytest.approx(0.0055) and s.cpu_median == pytest.approx(0.0055)
    assert s.games_per_second == 5.0
    assert "won 6/10 = 60.00% ± 24.49% (SE over 5 sets; 95% Wilson" in s.line()
    assert "1 timed out" in s.line()


def test_summarize_falls_back_to_the_binomial_error():
    rules = Rules(9, 9, 10, "safe")
    s = summarize([result(i, i < 3) for i in range(7)], "x", rules, 0)
    assert s.sets is None and s.sem == pytest.approx(math.sqrt(3 / 7 * 4 / 7 / 7))
    assert "binomial SE" in s.line()


def test_paired_difference_counts_discordant_games():
    a = [result(i, w) for i, w in enumerate([True, True, False, True])]
    b = [result(i, w) for i, w in enumerate([True, False, True, False])]
    d = paired("a", a, "b", b)
    assert d.difference == pytest.approx(0.25) and (d.a_only, d.b_only) == (2, 1)
    assert d.se == pytest.approx(math.sqrt(sum((x - 0.25) ** 2 for x in (0, 1, -1, 1)) / 3 / 4))
    with pytest.raises(ValueError):
        paired("a", a, "b", b[:3])
