"""sweeplab.core: the game engine, pure Python and stdlib-only."""

from sweeplab.core.errors import (
    BoardSpecError,
    IllegalMoveError,
    InconsistentPositionError,
    LayoutFormatError,
    PositionFormatError,
    RuleError,
    SweeplabError,
    UndecidedError,
    UnknownStrategyError,
)
from sweeplab.core.game import Game, GameState, Move
from sweeplab.core.geometry import Board
from sweeplab.core.observation import COVERED, FLAGGED, Observation
from sweeplab.core.rules import FIRST_CLICK_RULES, PRESETS, Rules, make_rules, parse_board

__all__ = [
    "COVERED",
    "FIRST_CLICK_RULES",
    "FLAGGED",
    "PRESETS",
    "Board",
    "BoardSpecError",
    "Game",
    "GameState",
    "IllegalMoveError",
    "InconsistentPositionError",
    "LayoutFormatError",
    "Move",
    "Observation",
    "PositionFormatError",
    "RuleError",
    "Rules",
    "SweeplabError",
    "UndecidedError",
    "UnknownStrategyError",
    "make_rules",
    "parse_board",
]
