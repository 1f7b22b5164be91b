import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sweeplab.core.errors import PositionFormatError
from sweeplab.core.game import Game, Move
from sweeplab.core.observation import COVERED, FLAGGED
from sweeplab.core.rules import Rules
from sweeplab.formats.position import format_position, parse_position, read_position


def test_parse_simple():
    obs = parse_position("3x2x1\n1HH\nF1H\n")
    assert (obs.width, obs.height, obs.mines) == (3, 2, 1)
    assert obs.view == (1, COVERED, COVERED, FLAGGED, 1, COVERED)


def test_byte_order_mark_is_ignored(tmp_path):
    assert parse_position("\ufeff2x1x1\nhf\n").view == (COVERED, FLAGGED)
    path = tmp_path / "bom.txt"
    path.write_bytes(b"\xef\xbb\xbf2x1x1\nhf\n")
    assert read_position(path).view == (COVERED, FLAGGED)


def test_lowercase_and_trailing_blank_lines():
    assert parse_position("2x1x1\nhf\n\n\n").view == (COVERED, FLAGGED)


@settings(max_examples=100, deadline=None)
@given(
    st.integers(1, 12), st.integers(1, 12), st.floats(0, 0.4), st.integers(0, 2**32), st.lists(st.integers(0, 999), max_size=20)
)
def test_round_trip_of_real_positions(w, h, density, seed, picks):
    game = Game(Rules(w, h, int(w * h * density), "unsafe"), seed)
    for pick in picks:
        if game.over:
            break
        covered = game.observation().covered()
        if not covered:
            break
        cell = covered[pick % len(covered)]
        if cell in game.mine_cells():
            game.flag(cell)
        else:
            game.apply(Move.reveal(cell))
    obs = game.observation()
    text = format_position(obs)
    again = parse_position(text)
    assert again.view == obs.view and again.mines == obs.mines and again.board == obs.board
    assert format_position(again) == text


@pytest.mark.parametrize(
    "text,message",
    [
        ("", "empty"),
        ("3by3\nHHH\n", "line 1: expected a WIDTHxHEIGHTxMINES header"),
        ("3x2x1\nHHH\nHH\n", "line 3: row 1 has 2 cells but the header says the board is 3 wide"),
        ("3x2x1\nHHH\n", "promises 2 rows but 1 follow"),
        ("3x1x1\nH?H\n", r"line 2, cell \(1, 0\): unexpected '\?'"),
        ("3x3x3\n31H\nHHH\nHHH\n", r"line 2, cell \(0, 0\): shows 3 but only 2 of its 3 neighbours.*cannot be right"),
        ("3x1x1\n0F1\n", r"cell \(0, 0\): shows 0 but 1 of its neighbours are flagged"),
        ("2x2x5\nHH\nHH\n", "5 mines do not fit"),
        ("2x1x0\nFH\n", "1 cells are flagged but the header says there are 0 mines"),
        ("3x1x2\nF1F\n", r"cell \(1, 0\): shows 1 but 2 of its neighbours are flagged"),
        ("0x1x0\n\n", "line 1: board width 0 is out of range"),
    ],
)
def test_bad_positions_name_line_cell_and_reason(text, message):
    with pytest.raises(PositionFormatError, match=message):
        parse_position(text)


def test_read_missing_file(tmp_path):
    with pytest.raises(PositionFormatError, match="cannot read it"):
        read_position(tmp_path / "nope.txt")


def test_read_file(tmp_path):
    p = tmp_path / "pos.txt"
    p.write_text("2x1x1\n1H\n")
    assert read_position(p).view == (1, COVERED)
