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
    """A position whose numbers no mine layout can produce.

    ``cells`` are the numbers the message blames (cell indices, the first the one named as failing), for callers
    that show the failure on a board; empty when no single number is to blame (e.g. the total mine count).

    >>> InconsistentPositionError("the 3 at (1, 0) cannot hold", cells=(1,)).cells
    (1,)
    """

    def __init__(self, message: str, *, cells: tuple[int, ...] = ()) -> None:
        super().__init__(message)
        self.cells = cells


class UndecidedError(SweeplabError):
    """A question the budget was too small to answer: neither proved inconsistent nor answered (not even estimated)."""


class UnknownStrategyError(SweeplabError):
    """A strategy name that is not in the registry."""


class ArgumentError(SweeplabError, TypeError):
    """An argument of the wrong type or out of range given to a public function; the message names the argument.

    It is also a ``TypeError``, so code that catches the built-in error for a wrong type keeps working.
    """


def shown(value: object, limit: int = 40) -> str:
    """``repr(value)`` cut to ``limit`` characters, for messages about arbitrary input (never raises: an integer
    too long to print is described by its size).

    >>> shown(10**5000), shown("x" * 50, limit=10)
    ('an integer of about 5001 digits', "'xxxxxx...")
    """
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**30:
        sign = "a negative" if value < 0 else "an"
        return f"{sign} integer of about {int(value.bit_length() * 0.30103) + 1} digits"
    try:
        text = repr(value)
    except Exception:  # a hostile __repr__, or a value too large to print
        return f"a {type(value).__name__}"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def whole_number(
    value: object,
    name: str,
    minimum: int | None = None,
    maximum: int | None = None,
    error: type[SweeplabError] = ArgumentError,
) -> int:
    """``value`` as an ``int`` (any integer type but ``bool``), checked to lie in [minimum, maximum]; else ``error``
    naming ``name`` and the reason.

    >>> whole_number(3, "mines", minimum=0)
    3
    >>> whole_number(True, "mines")
    Traceback (most recent call last):
    ...
    sweeplab.core.errors.ArgumentError: mines must be a whole number, not True
    """
    if isinstance(value, bool) or not hasattr(type(value), "__index__"):
        raise error(f"{name} must be a whole number, not {shown(value)}")
    number = type(value).__index__(value)  # type: ignore[attr-defined]
    if minimum is not None and number < minimum:
        raise error(f"{name} must be at least {minimum}, not {shown(number)}")
    if maximum is not None and number > maximum:
        raise error(f"{name} must be at most {maximum}, not {shown(number)}")
    return number
