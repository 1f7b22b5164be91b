"""Errors raised by sweeplab: ``ValueError`` subclasses whose messages name the cell, line or argument and the reason."""

from __future__ import annotations


class SweeplabError(ValueError):
    """Base of every error sweeplab raises on bad input or an illegal move."""


class BoardSpecError(SweeplabError):
    """A board size, preset name or mine count that cannot be played."""


class RuleError(SweeplabError):
    """An unknown first-click rule, or a board the rule cannot deal."""


class IllegalMoveError(SweeplabError):
    """A move off the board, on a revealed cell, or after the game ended."""


class PositionFormatError(SweeplabError):
    """A position text that cannot be read (names the line and the cell)."""


class LayoutFormatError(SweeplabError):
    """A mine layout file (MBF) that cannot be read."""


class InconsistentPositionError(SweeplabError):
    """A position whose numbers no mine layout can produce."""


class UnknownStrategyError(SweeplabError):
    """A strategy name that is not in the registry."""
