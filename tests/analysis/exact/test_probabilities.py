"""The result (sweeplab.analysis.exact.probabilities): golden positions and seed 000's craps shoots."""

from fractions import Fraction

import pytest

from sweeplab.analysis.analyzer import analyze
from sweeplab.formats.position import parse_position


def test_one_two_one():
    # the classic 1-2-1 along a wall: the cells under the 1s are mines, the one under the 2 is safe
    for text in ("3x2x2\n121\nHHH\n", "3x3x3\n121\nHHH\nHHH\n"):
        obs = parse_position(text)
        r = analyze(obs)
        assert (r.fraction(3), r.fraction(4), r.fraction(5)) == (1, 0, 1)
        assert set(r.safe) >= {4} and set(r.mines) >= {3, 5}
    # with a third row, the one remaining mine is uniform over the three unconstrained cells
    assert r.unconstrained_probability == pytest.approx(1 / 3)


def test_fifty_fifty_is_a_craps_shoot():
    # two covered cells at the right edge sharing one mine, walled in by revealed numbers
    obs = parse_position("3x2x1\n01H\n01H\n")
    r = analyze(obs)
    assert r.fraction(2) == Fraction(1, 2) and r.fraction(5) == Fraction(1, 2)
    assert len(r.craps) == 1 and set(r.craps[0].cells) == {2, 5} and r.craps[0].safety == 0.5


def test_not_a_craps_shoot_when_a_covered_neighbour_is_outside():
    obs = parse_position("4x2x2\n01HH\n01HH\n")
    assert analyze(obs).craps == ()
