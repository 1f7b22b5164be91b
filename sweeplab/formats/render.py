"""Plain-text rendering of a position or a game, for terminals (the drawing itself is :func:`sweeplab.core.render.draw`)."""

from __future__ import annotations

from sweeplab.core.errors import ArgumentError, shown
from sweeplab.core.game import Game
from sweeplab.core.observation import Observation
from sweeplab.core.render import LEGEND, draw

__all__ = ["LEGEND", "render_game", "render_observation"]


def render_observation(observation: Observation, axes: bool = True) -> str:
    """The player's view."""
    if not isinstance(observation, Observation):
        raise ArgumentError(f"render_observation(observation): expected an Observation, not {shown(observation)}")
    b = observation.board
    return draw(b.width, b.height, observation.view, axes=bool(axes))


def render_game(game: Game, axes: bool = True) -> str:
    """The player's view, with the mines shown once the game is over (the same text as ``str(game)``)."""
    if not isinstance(game, Game):
        raise ArgumentError(f"render_game(game): expected a Game, not {shown(game)}")
    return game.render(axes=bool(axes))
