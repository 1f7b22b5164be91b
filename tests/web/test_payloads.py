"""The helper's three levels and the analysis payload, on positions whose answers are known."""

from fractions import Fraction

import pytest

from sweeplab.analysis import analyze
from sweeplab.formats.position import parse_position
from sweeplab.strategies.levels import average_probabilities
from sweeplab.web.payloads import analysis_payload, hint_payload


def test_level_1_is_single_point_reasoning():
    hint = hint_payload(parse_position("3x2x1\n1HH\n1HH\n"), 1)
    assert hint["safe"] == [] and hint["mines"] == [] and "No trivial pattern" in hint["text"]
    hint = hint_payload(parse_position("3x1x1\n1HH\n"), 1)
    assert hint["mines"] == [[1, 0]] and hint["safe"] == []
    hint = hint_payload(parse_position("3x2x1\n1FH\nHHH\n"), 1)
    assert hint["safe"] == [[0, 1], [1, 1]] and "2 cell(s) safe" in hint["text"]


def test_level_2_shows_seed_002s_averages_and_its_guess():
    # seed 002's 5x5 example: a 1 at square 6 and a 3 at square 17
    view = "5x5x4\nHHHHH\nH1HHH\nHHHHH\nHH3HH\nHHHHH\n"
    observation = parse_position(view)
    hint = hint_payload(observation, 2)
    values = {tuple(v["cell"]): v["p"] for v in hint["values"]}
    assert values[(0, 0)] == pytest.approx(1 / 8) and values[(1, 2)] == pytest.approx(1 / 4)
    assert values[(3, 2)] == pytest.approx(3 / 8)
    expected = average_probabilities([((0, 1, 2, 5, 7, 10, 11, 12), 1), ((11, 12, 13, 16, 18, 21, 22, 23), 3)])
    assert len(values) == len(expected) and expected[0] == Fraction(1, 8)
    assert hint["guess"]["kind"] == "educated" and hint["guess"]["safety"] == pytest.approx(7 / 8)
    assert len(hint["guess"]["cells"]) == 6  # the six cells only the 1 touches, at 1/8 each


def test_level_3_is_the_exact_engine():
    observation = parse_position("5x3x3\n121HH\nHHHHH\nHHHHH\n")
    hint = hint_payload(observation, 3)
    assert hint["safe"] == [[3, 0], [1, 1], [3, 1]] and hint["mines"] == [[0, 1], [2, 1]] and hint["guess"] is None
    guess = hint_payload(parse_position("3x2x1\n01H\n01H\n"), 3)
    assert guess["guess"] == {"cells": [[2, 0]], "kind": "educated", "safety": pytest.approx(0.5)}
    assert "2 cells tie" in guess["text"]


def test_level_1_and_2_see_less_than_level_3():
    observation = parse_position("5x3x3\n121HH\nHHHHH\nHHHHH\n")
    one, two, three = (hint_payload(observation, level) for level in (1, 2, 3))
    assert one["safe"] == one["mines"] == two["safe"] == two["mines"] == []
    assert three["safe"] and three["mines"]


def test_analysis_payload_matches_the_engine_and_the_exact_strategys_move():
    observation = parse_position("4x4x3\n1HHH\nHHHH\nHH2H\nHHHH\n")
    result = analyze(observation)
    payload = analysis_payload(observation, result)
    for cell, p in enumerate(payload["probabilities"]):
        assert p == (None if observation.view[cell] >= 0 else pytest.approx(result.probability(cell)))
    best = payload["best"]
    p = min(q for _, q in result.covered())
    assert best["certain"] is False and best["probability"] == pytest.approx(p)
    assert payload["unconstrained"]["cells"] == len(result.unconstrained)
