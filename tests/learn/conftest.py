import pytest

from sweeplab.core.game import Game, GameState
from sweeplab.core.rules import Rules
from sweeplab.strategies import make
from sweeplab.strategies.base import play


def beginner_wins(factory, games=100, seed=1000):
    """Wins of ``factory(seed)`` on ``games`` beginner layouts (the same layouts for every player)."""
    won = 0
    for s in range(seed, seed + games):
        game = play(factory(s), Game(Rules(9, 9, 10, "safe"), s))
        won += game.state is GameState.WON
    return won


@pytest.fixture(scope="session")
def random_wins():
    return beginner_wins(lambda s: make("random", seed=s))
