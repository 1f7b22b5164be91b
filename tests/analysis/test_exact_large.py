"""The exact engine on large true positions (dealt by the game engine, openings revealed): never called
inconsistent, always answered within the budget plus the stated overhead; proved contradictions still are.

The budget is wall-clock, but the machine is shared and may be loaded many times over, so the bounds checked are
on CPU time (budget + overhead + a margin: what the engine itself spent, which a deadline it ignored would blow
by several times, the failure issue 8 reported) and, far more loosely, on wall time (to catch a hang).
"""

import random
import time
from fractions import Fraction

import pytest
from click.testing import CliRunner

from sweeplab.analysis import exact
from sweeplab.analysis.exact import (
    OVERHEAD_SECONDS,
    Analyzer,
    Budget,
    analyze,
    check_consistency,
)
from sweeplab.cli import main
from sweeplab.core.errors import InconsistentPositionError, UndecidedError
from sweeplab.core.game import Game
from sweeplab.core.observation import COVERED, Observation
from sweeplab.core.rules import Rules
from sweeplab.formats.position import format_position
from tests.analysis.compiled import needs_kernel

MARGIN = 1.0  # CPU seconds of slack on top of budget + overhead
HANG = 30.0  # wall seconds past the budget that only a hang could explain, even on a loaded machine

# (width, height, mines, share of the openings revealed): every size up to 1024x64, densities as in issue 8
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


def _timed(call, *args):
    """(result or UndecidedError, CPU seconds, wall seconds)."""
    cpu, wall = time.process_time(), time.perf_counter()
    try:
        result = call(*args)
    except UndecidedError as error:
        result = error
    return result, time.process_time() - cpu, time.perf_counter() - wall


def _within(seconds: float, cpu: float, wall: float) -> None:
    assert cpu < seconds + OVERHEAD_SECONDS + MARGIN, f"{cpu:.2f} s of CPU for a budget of {seconds} s"
    assert wall < seconds + OVERHEAD_SECONDS + HANG, f"{wall:.2f} s of wall time for a budget of {seconds} s"


def _check_against_layout(obs: Observation, result, layout: frozenset[int]) -> None:
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


@pytest.mark.parametrize("size", SIZES, ids=lambda s: "x".join(map(str, s[:3])) + f"@{s[3]}")
def test_true_large_positions_are_answered_within_the_budget(size):
    obs, layout = dealt(*size)
    assert len(exact.constraints_from(obs).constraints) > 400  # a large frontier, many components
    # each takes well under a second of CPU; the wall-clock budget is large only so that a loaded machine still
    # leaves it enough time, and the call returns as soon as it is done
    result, cpu, wall = _timed(Analyzer(Budget(seconds=20.0)).analyze, obs)
    assert not isinstance(result, UndecidedError), result
    assert cpu < 3.0, cpu
    _within(20.0, cpu, wall)
    _check_against_layout(obs, result, layout)


@pytest.mark.parametrize("seconds", [0.02, 0.3])
@pytest.mark.parametrize("size", [SIZES[1], SIZES[4], SIZES[5]], ids=lambda s: "x".join(map(str, s[:3])))
def test_small_budgets_are_kept_and_never_say_inconsistent(size, seconds):
    obs, layout = dealt(*size)
    for use_kernel in (True, False):
        result, cpu, wall = _timed(Analyzer(Budget(seconds=seconds), use_kernel=use_kernel).analyze, obs)
        _within(seconds, cpu, wall)
        if not isinstance(result, UndecidedError):
            _check_against_layout(obs, result, layout)


@pytest.mark.parametrize("size", [SIZES[0], SIZES[2], SIZES[5]], ids=lambda s: "x".join(map(str, s[:3])))
def test_consistency_of_large_true_positions_is_never_denied(size):
    obs, _ = dealt(*size)
    for seconds in (0.05, 20.0):
        outcome, cpu, wall = _timed(check_consistency, obs, Budget(seconds=seconds))
        _within(seconds, cpu, wall)
        if isinstance(outcome, UndecidedError):
            assert seconds < 1
            continue
        assert outcome.consistent, outcome.reason
        witness = outcome.witness
        assert len(witness) == obs.mines
        for cell, value in enumerate(obs.view):
            if value >= 0:
                assert cell not in witness and sum(n in witness for n in obs.board.neighbours[cell]) == value


def _with_contradiction(obs: Observation) -> Observation:
    """The position with 2 1 1 in its top-left corner over covered cells: the 2 needs both cells under it, so the
    1 beside it sees two mines. Every number holds locally; only counting the component proves it wrong."""
    view = list(obs.view)
    w = obs.board.width
    view[0:5] = [2, 1, 1, COVERED, COVERED]
    for row in (1, 2):
        view[row * w : row * w + 5] = [COVERED] * 5
    return Observation(obs.board, obs.mines, tuple(view))


@pytest.mark.parametrize("size", [SIZES[2], SIZES[5]], ids=lambda s: "x".join(map(str, s[:3])))
def test_proved_inconsistent_large_positions_are_still_inconsistent(size, tmp_path):
    obs, _ = dealt(*size)
    bad = _with_contradiction(obs)
    messages = set()
    for _ in range(2):  # the same number is blamed every time
        with pytest.raises(InconsistentPositionError, match=r"\(0, 0\)") as caught:
            analyze(bad, Budget(seconds=20.0))
        messages.add(str(caught.value))
    assert len(messages) == 1
    assert not check_consistency(bad, Budget(seconds=20.0)).consistent
    # the global count: more mines than the numbers and the unconstrained cells can hold
    too_many = Observation(obs.board, obs.mines + len(obs.covered()) // 2, obs.view)
    with pytest.raises(InconsistentPositionError, match="need between"):
        analyze(too_many, Budget(seconds=20.0))
    path = tmp_path / "bad.txt"
    path.write_text(format_position(bad))
    result = CliRunner().invoke(main, ["analyze", str(path), "--seconds", "20"])
    assert result.exit_code == 3, result.output
    assert "cannot hold" in result.output
    result = CliRunner().invoke(main, ["consistent", "--method", "exact", str(path), "--seconds", "20"])
    assert result.exit_code == 3, result.output


def _nothing_in_time(monkeypatch):
    """No time for the exact count and no estimate: the position can only be undecided."""
    monkeypatch.setattr(exact, "EXACT_SHARE", 0.0)
    monkeypatch.setattr(exact, "sample", lambda *args, **kwargs: None)


def test_undecided_is_its_own_answer_and_exit_status(monkeypatch, tmp_path):
    obs, _ = dealt(*SIZES[2])
    _nothing_in_time(monkeypatch)
    with pytest.raises(UndecidedError, match="not proved inconsistent") as caught:
        analyze(obs, Budget(seconds=0.5))
    assert not isinstance(caught.value, InconsistentPositionError)
    path = tmp_path / "big.txt"
    path.write_text(format_position(obs))
    result = CliRunner().invoke(main, ["analyze", str(path), "--seconds", "0.5"])
    assert result.exit_code == 4, result.output
    assert "undecided" in result.output


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
