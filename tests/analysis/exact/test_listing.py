"""The layout listing against enumeration: every consistent layout once, a refusal past the limit, no recursion."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from sweeplab.analysis import analyze
from sweeplab.analysis.exact.listing import LayoutSampler, list_layouts
from sweeplab.core.game import Game
from sweeplab.core.geometry import Board
from sweeplab.core.observation import COVERED, Observation
from sweeplab.core.rules import Rules
from sweeplab.formats.position import parse_position
from tests.strategies.best.brute import consistent_layouts


def blank(width: int, height: int, mines: int) -> Observation:
    return Observation(Board(width, height), mines, (COVERED,) * (width * height))


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.integers(3, 5), st.integers(3, 4), st.integers(2, 4))
def test_list_layouts_is_every_consistent_layout(seed, width, height, mines):
    game = Game(Rules(width, height, mines, "safe"), seed)
    game.reveal(0)
    if game.over:
        return
    observation = game.observation()
    listed = list_layouts(analyze(observation), 10**6)
    assert listed is not None
    covered, matrix = listed
    found = {frozenset(c for c, bit in zip(covered, row, strict=True) if bit) for row in matrix}
    assert len(found) == len(matrix)  # no layout twice
    assert found == set(consistent_layouts(observation))


def test_list_layouts_refuses_too_many():
    assert list_layouts(analyze(blank(5, 5, 5)), 1000) is None  # C(25, 5) = 53,130 layouts


def test_list_layouts_of_a_component_longer_than_the_recursion_limit():
    """A 1024x4 board, rows 0 and 2 open, rows 1 and 3 covered with a mine on every third cell from the second: the
    2,048 covered cells are one component of 2,048 super-cells with one layout. Listing it once overflowed Python's
    stack (found playing 100x100/2000)."""
    width = 1024
    mines = {(x, y) for y in (1, 3) for x in range(width) if x % 3 == 1}

    def number(x: int, y: int) -> str:
        return str(sum((x + dx, y + dy) in mines for dx in (-1, 0, 1) for dy in (-1, 0, 1)))

    rows = ["".join("H" if y % 2 else number(x, y) for x in range(width)) for y in range(4)]
    observation = parse_position(f"{width}x4x{len(mines)}\n" + "\n".join(rows) + "\n")
    result = analyze(observation)
    assert result.layouts == 1 and len(result.components) == 1 and len(result.components[0].supercells) == 2 * width
    listed = list_layouts(result, 1000)
    assert listed is not None
    covered, layouts = listed
    assert layouts.shape == (1, 2 * width)
    assert {observation.board.xy(c) for c, mine in zip(covered, layouts[0], strict=True) if mine} == mines


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**6), st.integers(3, 5), st.integers(3, 4), st.integers(2, 5))
def test_layout_sampler_draws_only_consistent_layouts_and_counts_them(seed, width, height, mines):
    game = Game(Rules(width, height, mines, "safe"), seed)
    game.reveal(0)
    if game.over:
        return
    observation = game.observation()
    truth = set(consistent_layouts(observation))
    sampler = LayoutSampler.build(analyze(observation))
    assert sampler is not None and sampler.layouts == len(truth)
    rng = random.Random(seed)
    for _ in range(50):
        drawn = sampler.draw(rng)
        assert frozenset(c for c, m in enumerate(drawn) if m) in truth


def test_layout_sampler_is_uniform_over_the_layouts():
    """On a position with several components, unequal super-cells and cells no number touches, 60,000 draws (a
    fixed seed) fall on every layout about equally: a chi-square test against the uniform, at a level the
    deterministic draws pass with margin. A sampler that weighed count vectors without their C(size, count), or the
    totals without C(U, R - total), fails it by far."""
    observation = parse_position("6x3x4\n1HHHHH\n1HHH2H\nHHHHHH\n")
    truth = sorted(sorted(layout) for layout in consistent_layouts(observation))
    sampler = LayoutSampler.build(analyze(observation))
    assert sampler is not None and sampler.layouts == len(truth) > 50
    rng = random.Random(0)
    index = {tuple(layout): i for i, layout in enumerate(truth)}
    seen = [0] * len(truth)
    draws = 60_000
    for _ in range(draws):
        seen[index[tuple(c for c, m in enumerate(sampler.draw(rng)) if m)]] += 1
    expected = draws / len(truth)
    chi2 = sum((k - expected) ** 2 / expected for k in seen)
    dof = len(truth) - 1
    assert chi2 < dof + 5 * (2 * dof) ** 0.5  # about five standard deviations of the chi-square above its mean


def test_layout_sampler_refuses_estimates_and_wide_components():
    assert LayoutSampler.build(analyze(blank(4, 4, 3)), cap=10) is not None  # no component: nothing to list
    observation = parse_position("8x2x5\n1111HHHH\nHHHHHHHH\n")
    assert LayoutSampler.build(analyze(observation), cap=1) is None
