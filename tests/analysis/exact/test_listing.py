"""The layout listing against enumeration: every consistent layout once, a refusal past the limit, no recursion."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from sweeplab.analysis import analyze
from sweeplab.analysis.exact.listing import list_layouts
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
