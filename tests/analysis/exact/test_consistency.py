"""Consistency and the naming of a contradiction (sweeplab.analysis.exact.consistency), on small and large positions."""

import random

import pytest
from click.testing import CliRunner

from sweeplab.analysis.analyzer import analyze
from sweeplab.analysis.exact.budget import Budget
from sweeplab.analysis.exact.consistency import check_consistency, is_consistent
from sweeplab.cli import main
from sweeplab.core.errors import InconsistentPositionError, UndecidedError
from sweeplab.core.geometry import Board
from sweeplab.core.observation import COVERED, FLAGGED, Observation
from sweeplab.formats.position import format_position, parse_position
from tests.analysis.positions import SIZES, dealt, numbers_over, timed, with_contradiction, within


def test_inconsistent_positions_name_a_number():
    # the 2 at (0, 0) needs both cells below it; the 1 beside it allows only one of them
    obs = parse_position("4x2x2\n2111\nHHHH\n")
    with pytest.raises(InconsistentPositionError, match=r"the 2 at \(0, 0\) cannot hold together with the numbers"):
        analyze(obs)
    result = check_consistency(obs)
    assert not result.consistent and result.witness is None and "the 2 at (0, 0)" in result.reason
    assert is_consistent(obs) == (False, None)
    # two numbers over the same covered cells that disagree
    obs = parse_position("3x2x2\nH1H\nH3H\n")
    with pytest.raises(InconsistentPositionError, match=r"see the same covered cells but need"):
        analyze(obs)
    # the mine count: one mine is forced, two remain, nowhere else to put the second
    obs = parse_position("2x1x2\n1H\n")
    with pytest.raises(InconsistentPositionError, match="need between 1 and 1 mines in all, but 2 remain"):
        analyze(obs)
    assert not check_consistency(obs).consistent
    assert is_consistent(parse_position("3x1x2\n1HH\n"))[0]


def test_inconsistency_names_its_cells_for_a_board_to_show():
    """``cells`` holds the numbers to blame, the named one first (the web analyser marks it on the board)."""
    symbols = {"H": COVERED, "F": FLAGGED}

    def unchecked(text: str) -> Observation:  # parse_position refuses local contradictions itself
        header, *rows = text.split()
        width, height, mines = (int(v) for v in header.split("x"))
        return Observation(
            Board(width, height), mines, tuple(symbols[ch] if ch in symbols else int(ch) for row in rows for ch in row)
        )

    cases = [
        ("4x2x2 2111 HHHH", (0,)),  # joint: the 2 at (0, 0) first, then the numbers it conflicts with
        ("3x1x1 2HH", (0,)),  # local: more mines than covered neighbours
        ("3x2x2 1F1 FHH", (0,)),  # local: more flags than the number
        ("3x2x2 H1H H3H", (4, 1)),  # two numbers over the same cells
        ("2x1x2 1H", ()),  # the mine count: no single number to blame
    ]
    for text, first in cases:
        with pytest.raises(InconsistentPositionError) as caught:
            analyze(unchecked(text))
        assert caught.value.cells[: len(first)] == first, (text, caught.value.cells)
        if not first:
            assert caught.value.cells == ()


def test_consistency_past_the_budget_says_so_instead_of_guessing():

    from sweeplab.analysis.exact.budget import BudgetExceededError

    board = Board(30, 30)
    layout = set(random.Random(1).sample(range(board.cells), 180))
    revealed = {board.index(x, y) for y in range(1, 30, 2) for x in range(1, 30, 2)}
    obs = Observation(board, 180, numbers_over(layout, board, revealed))
    with pytest.raises(BudgetExceededError, match="too large to decide within the budget"):
        check_consistency(obs, Budget(seconds=0.5, max_states=2_000))


@pytest.mark.parametrize("size", [SIZES[0], SIZES[2], SIZES[5]], ids=lambda s: "x".join(map(str, s[:3])))
def test_consistency_of_large_true_positions_is_never_denied(size):
    obs, _ = dealt(*size)
    for seconds in (0.05, 20.0):
        outcome, cpu, wall = timed(check_consistency, obs, Budget(seconds=seconds))
        within(seconds, cpu, wall)
        if isinstance(outcome, UndecidedError):
            assert seconds < 1
            continue
        assert outcome.consistent, outcome.reason
        witness = outcome.witness
        assert len(witness) == obs.mines
        for cell, value in enumerate(obs.view):
            if value >= 0:
                assert cell not in witness and sum(n in witness for n in obs.board.neighbours[cell]) == value


@pytest.mark.parametrize("size", [SIZES[2], SIZES[5]], ids=lambda s: "x".join(map(str, s[:3])))
def test_proved_inconsistent_large_positions_are_still_inconsistent(size, tmp_path):
    obs, _ = dealt(*size)
    bad = with_contradiction(obs)
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
