"""The optimal strategy played through the engine on every layout reaches the search's value."""

from __future__ import annotations

from fractions import Fraction

import pytest

from sweeplab.analysis.optimal.search import OptimalSearch
from sweeplab.bench.evaluate import evaluate
from sweeplab.core.game import Game
from sweeplab.core.rules import Rules
from sweeplab.strategies import make, play
from sweeplab.strategies.base import StrategyError


@pytest.mark.parametrize("w,h,mines,rule", [(3, 3, 2, "unsafe"), (3, 3, 2, "xp"), (4, 3, 3, "safe"), (4, 4, 3, "zero")])
def test_plays_the_optimal_value(w, h, mines, rule):
    rules = Rules(w, h, mines, rule)
    played = evaluate(f"optimal[rule={rule}]", rules)
    assert played.value == OptimalSearch(w, h, mines).solve(rule).value


def test_at_least_as_good_as_exact_on_every_small_board():
    rules = Rules(4, 3, 4, "safe")
    assert evaluate("optimal", rules).value >= evaluate("exact", rules).value


def test_explains_its_guesses():
    player = make("optimal", seed=0, rule="unsafe")
    game = play(player, Game(Rules(3, 3, 2, "unsafe"), 5))
    assert game.over
    first = player.guesses[0]
    assert first.kind == "first" and first.explanation is not None
    assert first.explanation.figures["win_probability"] == str(Fraction(2, 3))


def test_ignores_flags():
    rules = Rules(3, 3, 1, "safe")
    game = Game(rules, 3)
    game.flag(8)
    play(make("optimal", seed=0), game)
    assert game.over


def test_refuses_what_it_cannot_play():
    with pytest.raises(StrategyError, match="rule 'hint' is not one it can play"):
        make("optimal", rule="hint")
    player = make("optimal", seed=0)
    with pytest.raises(StrategyError, match="layouts, more than the 1,000,000 this search keeps"):
        player.choose(Game(Rules(9, 9, 10, "safe"), 0).observation())
    xp = make("optimal", seed=0, rule="xp")
    game = Game(Rules(3, 3, 1, "xp"), 0)
    game.reveal(4)
    with pytest.raises(StrategyError, match="must make the first click itself"):
        xp.choose(game.observation())
