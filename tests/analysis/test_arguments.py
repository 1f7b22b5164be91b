"""The analysis entry points check their arguments (issue 8): junk gets sweeplab's ArgumentError naming the
argument, never a raw AttributeError from deep inside the engine."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

from sweeplab.analysis import Analyzer, Budget, analyze, check_consistency
from sweeplab.core.errors import ArgumentError
from sweeplab.core.game import Game
from sweeplab.core.observation import Observation
from sweeplab.core.rules import make_rules
from tests.core.test_errors import JUNK


@settings(max_examples=60, deadline=None)
@given(junk=JUNK.filter(lambda v: not isinstance(v, Observation)))
def test_every_entry_point_names_a_wrong_observation(junk):
    for call, name in (
        (lambda: analyze(junk), "analyze(observation)"),
        (lambda: Analyzer().analyze(junk), "Analyzer.analyze(observation)"),
        (lambda: check_consistency(junk), "check_consistency(observation)"),
    ):
        with pytest.raises(ArgumentError, match=r"expected an Observation") as caught:
            call()
        assert name in str(caught.value)


def test_a_wrong_budget_is_named_and_a_right_call_still_works():
    observation = Game(make_rules("beginner", "safe"), 1).observation()
    with pytest.raises(ArgumentError, match=r"analyze\(budget\)"):
        analyze(observation, budget=3)  # type: ignore[arg-type]
    assert analyze(observation, Budget(seconds=1.0)).exact
