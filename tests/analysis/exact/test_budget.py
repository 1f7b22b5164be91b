"""The budget (sweeplab.analysis.exact.budget): its values are checked, and the clock splits it between count and estimate."""

import pytest

from sweeplab.analysis.exact.budget import EXACT_SHARE, Budget, _check, _Clock, _OutOfTime
from sweeplab.core.errors import SweeplabError


@pytest.mark.parametrize("seconds", [0, -1, float("inf"), float("nan"), "2"])
def test_a_budget_needs_finite_seconds_above_zero(seconds):
    with pytest.raises(SweeplabError, match="finite number of seconds above 0"):
        Budget(seconds=seconds)


@pytest.mark.parametrize("name", ["max_states", "samples", "max_bytes"])
@pytest.mark.parametrize("value", [0, -5, 1.5, True])
def test_a_budgets_limits_are_positive_integers(name, value):
    with pytest.raises(SweeplabError, match=f"a budget's {name} must be a positive integer"):
        Budget(**{name: value})


def test_the_clock_gives_the_exact_count_its_share_and_stages_stop_past_a_deadline():
    clock = _Clock.starting(Budget(seconds=10.0))
    assert clock.exact - clock.start == pytest.approx(EXACT_SHARE * 10.0)
    assert clock.end - clock.start == pytest.approx(10.0)
    _check(None)
    _check(clock.end)
    with pytest.raises(_OutOfTime):
        _check(clock.start - 1.0)
