"""The single-point pass: sound against the exact analysis, the same cells in C and in Python, and bad input refused."""

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import sweeplab.analysis.exact.single_point as single_point
from sweeplab.analysis.analyzer import Analyzer
from sweeplab.analysis.exact.single_point import _obvious_python, obvious
from sweeplab.core.game import Game
from sweeplab.core.geometry import Board
from sweeplab.core.observation import COVERED, FLAGGED, Observation
from sweeplab.core.rules import Rules
from sweeplab.formats.position import parse_position
from tests.analysis.compiled import needs_kernel
from tests.analysis.positions import arbitrary_positions


@st.composite
def game_positions(draw):
    """A position of a real game on a random board (random safe reveals, some flags on mines), its layout, and some of
    its mines as the caller's known mines."""
    w, h = draw(st.integers(2, 12)), draw(st.integers(2, 10))
    m = draw(st.integers(1, w * h // 3 + 1))
    game = Game(Rules(w, h, m, "unsafe"), draw(st.integers(0, 2**32)))
    layout = game.mine_cells()
    for _ in range(draw(st.integers(1, 12))):
        covered = game.observation().covered()
        if game.over or not covered:
            break
        c = draw(st.sampled_from(covered))
        if c in layout:
            if draw(st.booleans()):
                game.flag(c)
        else:
            game.reveal(c)
    assume(not game.over)
    obs = game.observation()
    known = bytearray(w * h)
    for c in draw(st.lists(st.sampled_from(sorted(layout)), max_size=4)):
        known[c] = 1
    return obs, layout, known


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(game_positions())
def test_the_pass_is_sound_and_weaker_than_the_exact_analysis(case):
    obs, layout, known = case
    mines = bytearray(known)
    freed = obvious(obs, mines)
    assert freed is not None  # a real game's position always holds locally
    assert list(freed) == sorted(set(freed))
    assert all(obs.view[c] == COVERED and c not in layout for c in freed)
    found = {c for c, b in enumerate(mines) if b}
    assert found >= {c for c, b in enumerate(known) if b} and found <= layout
    if not any(known):  # with no outside knowledge the exact analysis proves everything the pass does
        result = Analyzer().analyze(obs)
        assert set(freed) <= set(result.safe)
        assert found <= set(result.mines)


@needs_kernel
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(st.one_of(game_positions(), arbitrary_positions().map(lambda obs: (obs, None, bytearray(obs.board.cells)))))
def test_kernel_and_python_find_the_same_cells(case):
    obs, _, known = case
    a, b = bytearray(known), bytearray(known)
    assert single_point._OBVIOUS is not None
    assert single_point._OBVIOUS(obs.view, obs.board.width, obs.board.height, a) == _obvious_python(obs, b)
    assert a == b  # the same mines learned (none written when a number cannot hold)


def test_a_chain_is_followed_to_its_end():
    # the 1 at (0, 0) with its mine known frees (1, 1); no number says more, so the pass stops there
    obs = parse_position("4x2x2\n1HHH\nHHHH\n")
    mines = bytearray(8)
    mines[1] = 1
    assert obvious(obs, mines) == (4, 5)
    # along a row of 1s over a wall of covered cells: a known first mine decides the whole row, mine, safe, safe, mine, safe
    obs = parse_position("5x2x2\n11111\nHHHHH\n")
    mines = bytearray(10)
    mines[5] = 1
    assert obvious(obs, mines) == (6, 7, 9)
    assert [c for c, b in enumerate(mines) if b] == [5, 8]
    # one more 1 on that row cannot hold: the pass leaves it to the full analysis
    obs = parse_position("6x2x2\n111111\nHHHHHH\n")
    mines = bytearray(12)
    mines[6] = 1
    assert obvious(obs, mines) is None


def test_flags_count_as_mines_and_a_number_that_cannot_hold_gives_none():
    obs = parse_position("3x2x1\n1FH\nHHH\n")
    assert obvious(obs, bytearray(6)) == (3, 4)
    h, f = COVERED, FLAGGED
    assert obvious(Observation(Board(2, 2), 2, (1, f, f, h)), bytearray(4)) is None  # two flags by a 1
    assert obvious(Observation(Board(3, 1), 2, (h, 3, h)), bytearray(3)) is None  # a 3 with two neighbours
    mines = bytearray(6)
    mines[3] = mines[4] = 1
    assert obvious(parse_position("3x2x2\n1HH\nHHH\n"), mines) is None  # the caller's two mines by a 1


def test_the_mines_must_fit_the_board():
    obs = Observation(Board(3, 2), 1, (1, COVERED, COVERED, COVERED, COVERED, FLAGGED))
    with pytest.raises(ValueError, match="mines has 5 bytes for 6 cells"):
        obvious(obs, bytearray(5))


@needs_kernel
def test_the_kernel_refuses_a_view_that_is_not_a_board():
    kernel = single_point._OBVIOUS
    assert kernel is not None
    with pytest.raises(ValueError, match="sizes disagree"):
        kernel((0, 0, 0), 2, 2, bytearray(4))
    with pytest.raises(ValueError, match="cell 1 holds 9"):
        kernel((0, 9, 0, 0), 2, 2, bytearray(4))
    with pytest.raises(TypeError):
        kernel((0, 0, 0, 0), 2, 2, bytes(4))  # the mines must be writable


@needs_kernel
@settings(max_examples=150, deadline=None)
@given(st.integers(2, 14), st.integers(2, 10), st.integers(0, 2**32), st.data())
def test_a_pass_with_seen_finds_what_a_full_pass_finds_at_every_step_of_a_game(w, h, seed, data):
    m = data.draw(st.integers(1, w * h // 4 + 1))
    game = Game(Rules(w, h, m, "unsafe"), seed)
    layout = sorted(game.mine_cells())
    full, step, seen = bytearray(w * h), bytearray(w * h), bytearray(2 * w * h + 1)
    for _ in range(12):
        covered = [c for c in game.observation().covered() if c not in layout]
        if game.over or not covered:
            break
        action = data.draw(st.sampled_from(["reveal", "reveal", "flag", "learn", "nothing"]))
        if action == "reveal":
            game.reveal(data.draw(st.sampled_from(covered)))
        elif action == "flag" and [c for c in layout if game.observation().view[c] == COVERED]:
            game.flag(data.draw(st.sampled_from([c for c in layout if game.observation().view[c] == COVERED])))
        elif action == "learn":  # a mine proved elsewhere (as an analysis's result adds it)
            cell = data.draw(st.sampled_from(layout))
            full[cell] = step[cell] = 1
        obs = game.observation()
        assert obvious(obs, step, seen=seen) == obvious(obs, full)  # freed cells left covered are found again
        assert step == full


def test_seen_of_the_wrong_size_is_refused_and_the_python_pass_marks_it_stale():
    obs = Observation(Board(2, 1), 1, (1, COVERED))
    with pytest.raises(ValueError, match="seen has 3 bytes for 2 cells"):
        obvious(obs, bytearray(2), seen=bytearray(3))
    seen = bytearray(5)
    seen[-1] = 1
    assert obvious(obs, bytearray(2), use_kernel=False, seen=seen) == () and seen[-1] == 0
