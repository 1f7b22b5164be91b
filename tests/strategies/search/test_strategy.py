"""The search player: its options, its determinism, its first click on a small board, its rollouts' records."""

from __future__ import annotations

import pytest

from sweeplab.core.game import Game
from sweeplab.core.rules import Rules
from sweeplab.strategies.base import StrategyError, play
from sweeplab.strategies.registry import make_spec, names
from tests.analysis.compiled import needs_loops


def test_search_is_registered_and_checks_its_options():
    assert "search" in names()
    bad = (
        "search[width=1]",
        "search[rollouts=-1]",
        "search[margin=-0.5]",
        "search[ms=-1]",
        "search[horizon=-2]",
        "search[depth=2]",
    )
    for spec in bad:
        with pytest.raises(StrategyError, match="strategy 'search'"):
            make_spec(spec, seed=0)


def moves_of(spec: str, game_seed: int, seed: int) -> list:
    game = Game(Rules(16, 16, 40, "safe"), game_seed)
    game.reveal(0)
    play(make_spec(spec, seed=seed), game)
    return [(m.kind, m.cell) for m in game.history]


def test_the_same_seed_plays_the_same_game():
    spec = "search[rollouts=60]"
    for game_seed in (3, 4):
        assert moves_of(spec, game_seed, 7) == moves_of(spec, game_seed, 7)


@needs_loops
def test_rollouts_settle_guesses_and_are_recorded():
    strategy = make_spec("search[rollouts=80,margin=0]", seed=0)
    settled = 0
    for game_seed in range(6):
        game = Game(Rules(16, 16, 40, "safe"), game_seed)
        game.reveal(0)
        play(strategy, game)
    settled = strategy.decisions
    assert settled > 0 and strategy.played > 0
    assert strategy.switched <= settled


def test_the_first_click_on_a_small_board_is_searched_not_the_corner():
    """4x4 with 5 mines under ``unsafe``: the optimal first clicks are the edge cells beside the corners
    (results/optimal: (1,0), (2,0) and their images); a corner wins less."""
    game = Game(Rules(4, 4, 5, "unsafe"), 0)
    strategy = make_spec("search", seed=0)
    strategy.begin(game.rules)
    move = strategy.choose(game.observation())
    x, y = game.board.xy(move.cell)
    assert (x in (1, 2) and y in (0, 3)) or (y in (1, 2) and x in (0, 3))
    assert "endgame search" in strategy.pending_guess.explanation.text


def test_on_a_board_it_can_list_it_plays_optimally_under_every_rule():
    """4x4 with 4 mines: optimal play wins 961 of 1,820 layouts under ``unsafe`` (the published figure); under
    ``zero`` the optimal first click (1, 1) wins 34 of the 35 layouts dealt for it (results/optimal). ``search``
    reaches both through ``evaluate``, which tells it the rule."""
    from fractions import Fraction

    from sweeplab.bench.evaluate import evaluate

    unsafe = evaluate("search", Rules(4, 4, 4, "unsafe"))
    assert unsafe.value == Fraction(961, 1820)
    zero = evaluate("search", Rules(4, 4, 4, "zero"))
    assert zero.value == Fraction(34, 35) and zero.first_click == 5
