import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sweeplab.core.errors import LayoutFormatError
from sweeplab.core.game import Game
from sweeplab.core.rules import Rules
from sweeplab.formats.mbf import Layout, load_mbf, read_mbf, save_mbf, write_mbf


def test_known_bytes():
    layout = Layout(30, 16, (0, 31))
    assert write_mbf(layout) == bytes([30, 16, 0, 2, 0, 0, 1, 1])


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 255), st.integers(1, 40), st.data())
def test_round_trip(w, h, data):
    mines = data.draw(st.sets(st.integers(0, w * h - 1), max_size=min(w * h, 300)))
    layout = Layout(w, h, tuple(sorted(mines)))
    assert read_mbf(write_mbf(layout)) == layout


def test_game_round_trip(tmp_path):
    g = Game(Rules(30, 16, 99, "unsafe"), 11)
    layout = Layout.of(g)
    save_mbf(layout, tmp_path / "a.mbf")
    again = load_mbf(tmp_path / "a.mbf")
    assert again.game().mine_cells() == g.mine_cells()


def test_big_count_is_big_endian():
    layout = Layout(255, 2, tuple(range(300)))
    data = write_mbf(layout)
    assert data[2:4] == (300).to_bytes(2, "big")
    assert read_mbf(data) == layout


@pytest.mark.parametrize(
    "data,message",
    [
        (b"\x03", "truncated: 1 bytes, but the MBF header alone is 4"),
        (bytes([3, 3, 0, 2, 0, 0]), "truncated: the header promises 2 mines"),
        (bytes([3, 3, 0, 1, 0, 0, 9]), "oversized: 1 bytes follow the 1 mines"),
        (bytes([0, 3, 0, 0]), "both sides must be at least 1"),
        (bytes([2, 2, 0, 5]), "5 mines do not fit"),
        (bytes([3, 3, 0, 1, 5, 0]), r"mine 1 at \(5, 0\) is off the 3x3 board"),
        (bytes([3, 3, 0, 2, 1, 1, 1, 1]), r"mine 2 repeats \(1, 1\)"),
    ],
)
def test_bad_mbf(data, message):
    with pytest.raises(LayoutFormatError, match=message):
        read_mbf(data, "x.mbf")


def test_write_rejects_big_board():
    with pytest.raises(LayoutFormatError):
        write_mbf(Layout(300, 1, ()))


def test_load_missing(tmp_path):
    with pytest.raises(LayoutFormatError, match="cannot read"):
        load_mbf(tmp_path / "none.mbf")
