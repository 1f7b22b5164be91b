"""The contract every registered strategy keeps: legal moves, determinism for a seed, no reading of the layout.

Parametrised over the registry, so a new strategy gets these checks for free (as Gymnasium's env checker does)."""

import ast
import inspect

import pytest

from sweeplab.core.game import Game, GameState
from sweeplab.core.rules import Rules
from sweeplab.strategies import get, make, names, play

GAMES = 200
FORBIDDEN = {"mine_cells", "_mine", "_number", "number", "exploded", "three_bv"}
#: Strategies that enumerate every layout play a board small enough for that instead of beginner.
SMALL_BOARD_ONLY = {"optimal": Rules(4, 4, 3, "safe")}


def _games(name, seeds):
    out = []
    rules = SMALL_BOARD_ONLY.get(name, Rules(9, 9, 10, "safe"))
    for seed in seeds:
        game = play(make(name, seed=seed), Game(rules, seed))
        assert game.state in (GameState.WON, GameState.LOST)
        out.append((game.state, tuple(game.history)))
    return out


@pytest.mark.parametrize("name", names())
def test_plays_200_beginner_games_legally_and_deterministically(name):
    first = _games(name, range(GAMES))
    assert _games(name, range(20)) == first[:20]
    wins = sum(state is GameState.WON for state, _ in first)
    if name != "random":
        assert wins > 0, f"{name} won none of {GAMES} beginner games"


@pytest.mark.parametrize("name", names())
def test_never_touches_the_hidden_layout(name):
    """A strategy's module never names the game's hidden state (the Observation it receives has none)."""
    module = inspect.getmodule(get(name))
    tree = ast.parse(inspect.getsource(module))
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in FORBIDDEN:
            raise AssertionError(f"{module.__name__} reads .{node.attr} at line {node.lineno}")
        if isinstance(node, ast.Name) and node.id == "Game":
            raise AssertionError(f"{module.__name__} uses Game at line {node.lineno}")


@pytest.mark.parametrize("name", names())
def test_metadata(name):
    cls = get(name)
    assert cls.name == name and cls.source and cls.summary


def test_play_move_is_one_step_of_play():
    """`play_move` (the web UI's "step") makes the same moves and guess records as `play`."""
    from sweeplab.strategies.base import play_move

    rules = Rules(9, 9, 10, "safe")
    whole = play(make("exact", seed=3), Game(rules, 3))
    player, game = make("exact", seed=3), Game(rules, 3)
    recorded = []
    while not game.over:
        _, guess = play_move(player, game)
        if guess is not None:
            recorded.append(guess)
    assert game.history == whole.history and game.state is whole.state
    assert recorded == [g for g in player.guesses if not g.protected]  # a protected first reveal is no guess
    assert all(g.outcome is not None for g in recorded)
