"""Exact evaluation of a strategy over every dealt layout: agrees with bench, counts the deal right, names failures."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from sweeplab.bench.evaluate import EvaluationError, evaluate, opening_move
from sweeplab.bench.executors import LocalExecutor
from sweeplab.bench.runner import run
from sweeplab.core.game import Move
from sweeplab.core.observation import Observation
from sweeplab.core.rules import Rules
from sweeplab.strategies import registry
from sweeplab.strategies.base import Strategy


def test_exact_evaluation_agrees_with_a_bench_estimate():
    """`exact` uses no randomness, so bench's per-game strategy seeds change nothing and the two must agree."""
    rules = Rules(4, 4, 4, "safe")
    exact = evaluate("exact", rules)
    games = 1500
    results = run("exact", rules, games, seed=11)
    rate = sum(r.won for r in results) / games
    se = math.sqrt(rate * (1 - rate) / games)
    assert abs(rate - float(exact.value)) < 4 * se, (rate, se, exact.value)
    assert exact.layouts == math.comb(15, 4) and exact.first_click == 0  # exact opens in the top-left corner


def test_unsafe_first_click_can_lose_and_safe_is_conditioned_on_it():
    unsafe = evaluate("exact", Rules(3, 3, 2, "unsafe"))
    safe = evaluate("exact", Rules(3, 3, 2, "safe"))
    assert (unsafe.layouts, safe.layouts) == (36, 28)
    # exact plays the same after a surviving first click, so the two differ by the survival chance 7/9
    assert unsafe.value == safe.value * Fraction(7, 9)


def test_xp_counts_each_way_of_dealing():
    result = evaluate("exact", Rules(3, 3, 2, "xp"))
    assert result.layouts == 36 and result.games < 36  # layouts reached by moving a mine are played once, counted twice


def test_parallel_chunks_give_the_same_number():
    rules = Rules(4, 4, 5, "zero")
    one = evaluate("single-point", rules)
    with LocalExecutor(2) as ex:
        two = evaluate("single-point", rules, executor=ex)
    assert one.value == two.value and one.games == two.games


def test_harness_first_click():
    result = evaluate("exact", Rules(3, 3, 1, "safe"), first_click=4)
    assert result.harness_click and result.first_click == 4 and result.layouts == 8


def test_refuses_too_many_layouts():
    with pytest.raises(EvaluationError, match="has 635,376 layouts, more than the 1,000"):
        evaluate("exact", Rules(8, 8, 4, "unsafe"), max_layouts=1000)


class FickleStrategy(Strategy):
    """Opens at a different cell in every game: not one deterministic player for a seed."""

    name = "test-fickle"
    games = 0

    def choose(self, observation: Observation) -> Move:
        if observation.is_start():
            FickleStrategy.games += 1
            return Move.reveal(FickleStrategy.games % len(observation.view))
        return Move.reveal(observation.covered()[0])


class BuggyStrategy(Strategy):
    name = "test-buggy"

    def choose(self, observation: Observation) -> Move:
        if not observation.is_start():
            raise ZeroDivisionError("a bug")
        return Move.reveal(0)


def test_failures_name_the_layout(monkeypatch):
    monkeypatch.setitem(registry._BUILTIN, "test-fickle", "tests.bench.test_evaluate:FickleStrategy")
    monkeypatch.setitem(registry._BUILTIN, "test-buggy", "tests.bench.test_evaluate:BuggyStrategy")
    with pytest.raises(EvaluationError, match="not one deterministic player"):
        evaluate("test-fickle", Rules(3, 3, 1, "safe"))
    with pytest.raises(EvaluationError, match=r"crashed on the layout with mines at \[\d+\]: ZeroDivisionError"):
        evaluate("test-buggy", Rules(3, 3, 1, "safe"))


def test_opening_move_applies_flags_first(test_strategies):
    with pytest.raises(EvaluationError, match="crashed on the empty board"):
        opening_move("test-crash", Rules(3, 3, 1, "safe"), 0)
    assert opening_move("exact", Rules(3, 3, 1, "safe"), 0) == 0
