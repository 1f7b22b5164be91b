"""The public entry points of ``sweeplab.core`` check their arguments: junk gets one of sweeplab's own errors
(``SweeplabError``, a ``ValueError``), never a raw ``TypeError``, ``AttributeError`` or ``IndexError``."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sweeplab.core import COVERED, Board, Game, Move, Observation, Rules, make_rules, parse_board
from sweeplab.core.errors import ArgumentError, IllegalMoveError, RuleError, SweeplabError, shown, whole_number
from sweeplab.core.render import draw


def fresh_game() -> Game:
    return Game(Rules(4, 3, 2, "safe"), seed=5)


def played_game() -> Game:
    game = fresh_game()
    game.reveal(0)
    return game


#: Arguments a careless caller might pass: wrong types, bools for ints, negative, huge, nan/inf, odd text and
#: containers, plus a few valid objects so that the calls also get past their first check.
JUNK: st.SearchStrategy[Any] = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 20),
    st.integers(),
    st.sampled_from([2**70, -(2**70), 10**5000]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([math.nan, math.inf, -math.inf, 1.5, 3.0]),
    st.text(max_size=12),
    st.sampled_from(["safe", "zero", "lucky", "beginner", "3x3x2", "4x3x2", "", "H", "reveal", "1" * 5000 + "x1x1"]),
    st.binary(max_size=12),
    st.lists(st.integers(-3, 20), max_size=14),
    st.lists(st.one_of(st.none(), st.booleans(), st.floats(), st.text(max_size=2)), max_size=4),
    st.tuples(st.integers(-3, 9), st.integers(-3, 9)),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=3),
    st.just(object()),
    st.sampled_from([(COVERED,) * 12, (0,) * 12, (9,) * 12, (COVERED,) * 11]),
    st.builds(lambda: Board(4, 3)),
    st.builds(lambda: Rules(4, 3, 2, "safe")),
    st.builds(fresh_game),
    st.builds(played_game),
    st.builds(lambda: Move.reveal(1)),
    st.builds(lambda: Observation(Board(4, 3), 2, (COVERED,) * 12)),
)

#: Every public entry point of sweeplab.core, as (name, a function taking the drawn arguments, how many to draw).
ENTRY_POINTS: list[tuple[str, Callable[..., Any], int]] = [
    ("Board", Board, 2),
    ("Board.index", lambda x, y: Board(4, 3).index(x, y), 2),
    ("Board.check", lambda c: Board(4, 3).check(c), 1),
    ("Board.xy", lambda c: Board(4, 3).xy(c), 1),
    ("Board.contains", lambda c: Board(4, 3).contains(c), 1),
    ("Board.is_corner", lambda c: Board(4, 3).is_corner(c), 1),
    ("Board.is_edge", lambda c: Board(4, 3).is_edge(c), 1),
    ("Board.edge_distance", lambda c: Board(4, 3).edge_distance(c), 1),
    ("Board.name", lambda c: Board(4, 3).name(c), 1),
    ("Rules", Rules, 4),
    ("Rules(3 args)", Rules, 3),
    ("parse_board", parse_board, 1),
    ("make_rules", make_rules, 2),
    ("Game", Game, 2),
    ("Game(layout)", lambda rules, seed, layout: Game(rules, seed, layout=layout), 3),
    ("Game(layout) on 4x3x2", lambda layout: Game(Rules(4, 3, 2, "unsafe"), layout=layout), 1),
    ("Game.reveal", lambda c: fresh_game().reveal(c), 1),
    ("Game.reveal after a click", lambda c: played_game().reveal(c), 1),
    ("Game.flag", lambda c: fresh_game().flag(c), 1),
    ("Game.unflag", lambda c: fresh_game().unflag(c), 1),
    ("Game.chord", lambda c: played_game().chord(c), 1),
    ("Game.apply", lambda m: fresh_game().apply(m), 1),
    ("Game.number", lambda c: played_game().number(c), 1),
    ("Game.render", lambda axes: played_game().render(axes), 1),
    ("Game.replay", Game.replay, 3),
    ("Move", Move, 2),
    ("Move.reveal", Move.reveal, 1),
    ("Move.flag", Move.flag, 1),
    ("Observation", Observation, 3),
    ("Observation(moves)", Observation, 4),
    ("Observation.is_revealed", lambda c: Observation(Board(4, 3), 2, (COVERED,) * 12).is_revealed(c), 1),
    ("Observation.at", lambda x, y: Observation(Board(4, 3), 2, (COVERED,) * 12).at(x, y), 2),
    ("draw", draw, 3),
    ("draw(mines, exploded)", lambda v, m, e: draw(4, 3, v, m, e), 3),
    ("whole_number", lambda v: whole_number(v, "value"), 1),
]


@settings(max_examples=600, deadline=None)
@given(st.data())
def test_junk_arguments_get_sweeplab_errors_only(data):
    name, function, arity = data.draw(st.sampled_from(ENTRY_POINTS), label="entry point")
    args = [data.draw(JUNK, label=f"argument {i + 1}") for i in range(arity)]
    try:
        function(*args)
    except SweeplabError as error:
        assert str(error), f"{name} raised an empty message"
    except Exception as error:  # anything else is a bug: report which call raised what
        pytest.fail(f"{name}({', '.join(shown(a) for a in args)}) raised {error.__class__.__name__}: {error}")


@pytest.mark.parametrize(
    "call, error, message",
    [
        (lambda: Game(None), ArgumentError, r"Game\(rules\): expected a Rules .* not None"),
        (lambda: Game(Rules(9, 9, 1), seed=True), ArgumentError, r"Game\(seed\) must be a whole number, not True"),
        (lambda: Game(Rules(9, 9, 1), seed=1.5), ArgumentError, r"Game\(seed\) must be a whole number, not 1.5"),
        (lambda: Game(Rules(9, 9, 1), layout=5), ArgumentError, r"Game\(layout\): expected a collection of mine cells"),
        (lambda: Game(Rules(9, 9, 1), layout=["a"]), ArgumentError, r"mine 1, cell must be a whole number, not 'a'"),
        (lambda: Rules(9, 9, True), SweeplabError, r"mine count must be a whole number, not True"),
        (lambda: Rules(9, 9, 10, None), RuleError, r"unknown first-click rule None"),
        (lambda: Rules(9.0, 9, 10), SweeplabError, r"board width must be a whole number, not 9.0"),
        (lambda: fresh_game().reveal(True), IllegalMoveError, r"cannot reveal True: a cell is a whole number"),
        (lambda: fresh_game().reveal(-1), IllegalMoveError, r"cell -1: it is off the 4x3 board \(cells are 0 to 11\)"),
        (lambda: fresh_game().reveal(12), IllegalMoveError, r"cell 12: it is off the 4x3 board"),
        (lambda: fresh_game().apply("reveal 0"), ArgumentError, r"Game.apply\(move\): expected a Move"),
        (lambda: Move("reveal", "3"), IllegalMoveError, r"a move's cell must be a whole number, not '3'"),
        (lambda: Observation(Board(3, 3), 1, (COVERED,) * 8), ArgumentError, r"view\): has 8 cells but the 3x3 board has 9"),
        (lambda: Observation(Board(3, 3), 1, (COVERED,) * 8 + (9,)), ArgumentError, r"cell 8 \(2, 2\) holds 9"),
        (lambda: Observation(None, 1, ()), ArgumentError, r"Observation\(board\): expected a Board"),
        (lambda: Observation(Board(3, 3), 10, (COVERED,) * 9), ArgumentError, r"mines\) must be at most 9, not 10"),
        (lambda: Board(3, 3).xy(-1), SweeplabError, r"cell -1 is off the 3x3 board"),
        (lambda: parse_board(None), ArgumentError, r"board must be text"),
        (lambda: parse_board("9" * 5000 + "x1x1"), SweeplabError, r"more than 12 digits"),
    ],
)
def test_bad_arguments_name_the_argument_and_the_reason(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_argument_errors_are_also_type_errors():
    # code written against Python's built-in convention keeps working
    with pytest.raises(TypeError):
        Game(None)
    with pytest.raises(ValueError):
        Game(None)


def test_layout_off_the_board_names_the_cell():
    with pytest.raises(ArgumentError, match=r"Game\(layout\): mine 1, cell 100 is off the 9x9 board \(cells are 0 to 80\)"):
        Game(Rules(9, 9, 1), layout=[100])
    with pytest.raises(RuleError, match="the layout has 2 distinct mines but the rules ask for 1"):
        Game(Rules(9, 9, 1), layout=[3, 4, 4])


def test_numpy_style_integers_are_accepted():
    class Index:  # what numpy's integer scalars offer: __index__
        def __init__(self, value: int) -> None:
            self.value = value

        def __index__(self) -> int:
            return self.value

    game = Game(Rules(4, 3, 2, "unsafe"), seed=Index(3), layout=[Index(0), Index(1)])
    assert game.seed == 3 and game.mine_cells() == {0, 1}
    assert game.reveal(Index(11)) and type(game.history[0].cell) is int
    observation = Observation(Board(2, 1), Index(1), [Index(1), COVERED])
    assert observation.view == (1, COVERED) and observation.mines == 1
    import numpy as np

    from_array = Observation(Board(2, 1), np.int64(1), np.array([1, COVERED]))
    assert from_array.view == (1, COVERED) and all(type(v) is int for v in from_array.view)
