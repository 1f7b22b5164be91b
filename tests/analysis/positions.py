"""Positions the analysis tests share: Hypothesis strategies for small positions, numbers over a layout, and large
true positions dealt by the game engine with their openings revealed, with the checks on the time they take.

The budget is wall-clock, but the machine is shared and may be loaded many times over, so the bounds checked are
on CPU time (budget + overhead + a margin: what the engine itself spent, which a deadline it ignored would blow
by several times) and, far more loosely, on wall time (to catch a hang)."""

import random
import time
from fractions import Fraction

import pytest
from hypothesis import assume
from hypothesis import strategies as st

from sweeplab.analysis.exact.budget import OVERHEAD_SECONDS
from sweeplab.bench.layouts import strewn_position
from sweeplab.core.errors import UndecidedError
from sweeplab.core.game import Game
from sweeplab.core.geometry import Board
from sweeplab.core.observation import COVERED, FLAGGED, Observation
from sweeplab.core.rules import Rules


def numbers_over(layout, board, revealed):
    view = []
    for c in range(board.cells):
        if c in revealed and c not in layout:
            view.append(sum(n in layout for n in board.neighbours[c]))
        else:
            view.append(COVERED)
    return tuple(view)


MARGIN = 1.0  # CPU seconds of slack on top of budget + overhead


HANG = 30.0  # wall seconds past the budget that only a hang could explain, even on a loaded machine


SIZES = [
    (64, 64, 500, 1.0),
    (128, 128, 2000, 1.0),
    (256, 64, 2000, 1.0),
    (256, 64, 2000, 0.4),
    (512, 64, 4000, 0.6),
    (1024, 64, 8000, 1.0),
]


_CACHE: dict[tuple, tuple[Observation, frozenset[int]]] = {}


def dealt(width: int, height: int, mines: int, share: float, seed: int = 1) -> tuple[Observation, frozenset[int]]:
    """A real layout dealt by the game engine with ``share`` of its openings revealed (each by one click on a zero,
    in a seeded order), and the layout itself."""
    key = (width, height, mines, share, seed)
    if key not in _CACHE:
        game = Game(Rules(width, height, mines, "unsafe"), seed)
        layout = game.mine_cells()
        zeros = [c for c in range(width * height) if c not in layout and game.number(c) == 0]
        random.Random(seed).shuffle(zeros)
        opened: set[int] = set()
        for cell in zeros[: int(len(zeros) * share)]:
            if cell not in opened:
                opened.update(game.reveal(cell))
        _CACHE[key] = (game.observation(), layout)
    return _CACHE[key]


STREWN = [
    (128, 128, 2000, 0.1),
    (512, 64, 4000, 0.15),
    (1024, 64, 8000, 0.15),
    (256, 256, 8000, 0.1),
]


def strewn(width: int, height: int, mines: int, share: float, seed: int = 1) -> tuple[Observation, frozenset[int]]:
    """A real layout dealt by the game engine with ``share`` of its safe cells revealed, each by one click in a
    seeded random order (zeros flood as in play), and the layout itself: revealed numbers strewn over the whole
    board, so the frontier is one wide component of thousands of cells, too wide for the exact count."""
    key = ("strewn", width, height, mines, share, seed)
    if key not in _CACHE:
        _CACHE[key] = strewn_position(width, height, mines, share, seed)
    return _CACHE[key]


def timed(call, *args):
    """(result or UndecidedError, CPU seconds of the calling thread, wall seconds): the thread's own time, since the
    chain's twins run in threads of their own (the process's CPU time is then up to twice the wall time)."""
    cpu, wall = time.thread_time(), time.perf_counter()
    try:
        result = call(*args)
    except UndecidedError as error:
        result = error
    return result, time.thread_time() - cpu, time.perf_counter() - wall


def within(seconds: float, cpu: float, wall: float) -> None:
    assert cpu < seconds + OVERHEAD_SECONDS + MARGIN, f"{cpu:.2f} s of CPU for a budget of {seconds} s"
    assert wall < seconds + OVERHEAD_SECONDS + HANG, f"{wall:.2f} s of wall time for a budget of {seconds} s"


def check_against_layout(obs: Observation, result, layout: frozenset[int]) -> None:
    assert not set(result.safe) & layout, "a cell called certainly safe holds a mine"
    assert set(result.mines) <= layout, "a cell called a certain mine holds none"
    covered = obs.covered()
    probabilities = [result.probability(c) for c in covered]
    assert all(0 <= p <= 1 for p in probabilities)
    if result.exact:  # no true mine has probability 0, no safe cell 1, and the probabilities sum to the mines left
        assert all(result.probability(c) > 0 for c in covered if c in layout)
        assert all(result.probability(c) < 1 for c in covered if c not in layout)
        assert sum(result.fraction(c) for c in covered) == Fraction(obs.mines_left)
    else:  # an estimate (the machine was slow): a mixture of layouts, so still the right total
        assert result.error > 0 and sum(probabilities) == pytest.approx(obs.mines_left, rel=1e-6)


def with_contradiction(obs: Observation) -> Observation:
    """The position with 2 1 1 in its top-left corner over covered cells: the 2 needs both cells under it, so the
    1 beside it sees two mines. Every number holds locally; only counting the component proves it wrong."""
    view = list(obs.view)
    w = obs.board.width
    view[0:5] = [2, 1, 1, COVERED, COVERED]
    for row in (1, 2):
        view[row * w : row * w + 5] = [COVERED] * 5
    return Observation(obs.board, obs.mines, tuple(view))


@st.composite
def played_positions(draw):
    """Positions from real play on random small boards: random reveals of safe cells, some flags on mines."""
    w, h = draw(st.integers(1, 6)), draw(st.integers(1, 5))
    m = draw(st.integers(0, w * h))
    game = Game(Rules(w, h, m, "unsafe"), draw(st.integers(0, 2**32)))
    mines = game.mine_cells()
    for _ in range(draw(st.integers(0, 10))):
        covered = game.observation().covered()
        if game.over or not covered:
            break
        c = draw(st.sampled_from(covered))
        if c in mines:
            if draw(st.booleans()):
                game.flag(c)
        else:
            game.reveal(c)
    assume(not game.over)
    return game.observation()


@st.composite
def arbitrary_positions(draw):
    """Arbitrary views: any mix of numbers, flags and covered cells; consistent or not."""
    w, h = draw(st.integers(1, 5)), draw(st.integers(1, 5))
    view = tuple(
        draw(st.lists(st.sampled_from([COVERED, COVERED, COVERED, FLAGGED, 0, 1, 2, 3]), min_size=w * h, max_size=w * h))
    )
    mines = draw(st.integers(0, w * h))
    return Observation(Board(w, h), mines, view)


def answered_to_rounding(size: tuple, seconds: float = 2.0) -> None:
    """The strewn position of ``size`` is answered within ``seconds``, exactly or up to rounding (counts or weights
    in floating point), and the answer agrees with its true layout."""
    from sweeplab.analysis.analyzer import Analyzer
    from sweeplab.analysis.exact.budget import Budget
    from sweeplab.analysis.exact.probabilities import ROUNDING
    from sweeplab.core.errors import InconsistentPositionError

    obs, layout = strewn(*size)
    result, cpu, wall = timed(Analyzer(Budget(seconds=seconds)).analyze, obs)
    within(seconds, cpu, wall)
    assert not isinstance(result, UndecidedError | InconsistentPositionError), result
    assert result.exact or result.error == ROUNDING
    check_against_layout(obs, result, layout)
