"""The exact count per component (sweeplab.analysis.exact.counting): a long thin frontier is cheap, and the C kernel
counts large components exactly like Python."""

import random
import time

from sweeplab.analysis.analyzer import Analyzer, analyze
from sweeplab.analysis.exact.budget import Budget
from sweeplab.core.geometry import Board
from sweeplab.core.observation import COVERED, Observation
from tests.analysis.compiled import needs_kernel
from tests.analysis.positions import SIZES, dealt, numbers_over


def test_long_strip_frontier_is_exact_and_fast():
    # a 200-cell strip: numbers on row 0 over a random row 1; far too many solutions to enumerate one by one
    import random

    board = Board(200, 2)
    rng = random.Random(7)
    layout = {board.index(x, 1) for x in range(200) if rng.random() < 0.4}
    obs = Observation(board, len(layout), numbers_over(layout, board, set(range(200))))
    start = time.process_time()
    r = analyze(obs, Budget(seconds=30))
    assert r.exact and time.process_time() - start < 2.0
    assert sum(r.fraction(c) for c in obs.covered()) == len(layout)
    assert r.layouts >= 1


@needs_kernel
def test_kernel_counts_large_components_exactly_like_python():
    # components of several hundred cells: counted in 128-bit arithmetic or residues, equal to Python's integers
    obs, _ = dealt(*SIZES[2])
    a = Analyzer(Budget(seconds=60), use_kernel=True).analyze(obs)
    b = Analyzer(Budget(seconds=60), use_kernel=False).analyze(obs)
    assert a.exact and b.exact and a.layouts == b.layouts
    assert max(len(c.cells) for c in a.components) > 400
    for cell in obs.covered():
        assert a.fraction(cell) == b.fraction(cell)


@needs_kernel
def test_kernel_residue_arithmetic_on_components_with_huge_counts():
    # numbers on the middle row of a 400x3 board over random mines above and below: counts far above 2^128
    from sweeplab.core.geometry import Board

    board = Board(400, 3)
    rng = random.Random(5)
    layout = {c for c in range(board.cells) if c // 400 != 1 and rng.random() < 0.3}
    middle = set(range(400, 800))
    view = tuple(sum(n in layout for n in board.neighbours[c]) if c in middle else COVERED for c in range(board.cells))
    obs = Observation(board, len(layout), view)
    a = Analyzer(Budget(seconds=60), use_kernel=True).analyze(obs)
    b = Analyzer(Budget(seconds=60), use_kernel=False).analyze(obs)
    assert a.layouts == b.layouts and a.layouts.bit_length() > 140  # one component: its weight is the count
    assert all(a.fraction(c) == b.fraction(c) for c in obs.covered())


def _assert_pieces_start_least_connected(component, order):
    """What the banded order promises of its pieces: a permutation that lists each connected piece in one run,
    each run starting at the least-connected super-cell (fewest neighbours, then lowest index) not yet listed."""
    n = len(component.supercells)
    assert sorted(order) == list(range(n))
    neighbours = [set() for _ in range(n)]
    for js, _, _ in component.constraints:
        for j in js:
            neighbours[j] |= set(js) - {j}
    listed: set[int] = set()
    at = 0
    while at < n:
        first = order[at]
        assert first == min(set(range(n)) - listed, key=lambda j: (len(neighbours[j]), j))
        piece, todo = {first}, [first]
        while todo:
            grown = neighbours[todo.pop()] - piece
            piece |= grown
            todo.extend(grown)
        assert set(order[at : at + len(piece)]) == piece
        listed |= piece
        at += len(piece)


def test_the_banded_order_starts_each_piece_at_the_least_connected_and_is_fast():
    """The count's order (counting._order) on components of many pieces (the merged leftovers of a large
    board give thousands): each piece in one run from the least-connected super-cell left, and a merge of 8,000
    small pieces ordered in well under a second (a scan of every super-cell for each piece's start takes many
    seconds there)."""
    from sweeplab.analysis.analyzer import _merge
    from sweeplab.analysis.exact.components import build_components
    from sweeplab.analysis.exact.constraints import constraints_from
    from sweeplab.analysis.exact.counting import _order

    rng = random.Random(5)
    for width, height, mines in [(30, 16, 99), (40, 40, 250), (16, 16, 60)]:
        obs, _ = dealt(width, height, mines, 0.5, rng.randrange(100))
        components = build_components(constraints_from(obs).constraints)
        merged = _merge(components)
        _assert_pieces_start_least_connected(merged, _order(merged))
        for component in components:
            _assert_pieces_start_least_connected(component, _order(component))
    from sweeplab.analysis.exact.components import Component

    pair = Component([(0,), (1,)], [((0, 1), 1, 0)])  # two cells under a 1: the smallest piece a count meets
    pieces = _merge([pair] * 8000)
    start = time.process_time()
    order = _order(pieces)
    assert sorted(order) == list(range(len(pieces.supercells)))
    assert time.process_time() - start < 1.0
