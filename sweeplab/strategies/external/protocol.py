"""The arena's protocol: the JSON lines sweeplab writes to an outside player and reads back (``docs/arena.md``).

sweeplab writes one object per line: ``{"type": "game", ...}`` when a game starts, ``{"type": "turn", ...}`` when it
wants moves (the position in JSMinesweeper's text format, the cells revealed since the last turn). The program
answers each turn with one line, ``{"moves": [["reveal", x, y], ...]}``, optionally with ``"probabilities"``
(``[[x, y, p], ...]``, p the chance of a mine) and a short ``"reason"``. An answer that breaks these rules
raises :class:`Forfeit`: the game is the program's loss, with the reason (one of :data:`FORFEITS`) kept as its outcome.

>>> parse_answer(b'{"moves": [["reveal", 1, 0]], "reason": "safest"}', 3, 1)
Answer(moves=[('reveal', 1)], reason='safest', probabilities={})
"""

from __future__ import annotations

import json
from typing import Any, NamedTuple

from sweeplab.core.errors import SweeplabError
from sweeplab.strategies.base import StrategyError

PROTOCOL = 1  #: the protocol's version, sent in every game message

#: Why a program lost a game by forfeit: the outcome ``games.csv`` and the leaderboard show.
EXITED = "forfeit: the program exited"
MOVE_TIME = "forfeit: over the move time limit"
GAME_TIME = "forfeit: over the game time limit"
GARBLED = "forfeit: not the protocol"
ILLEGAL = "forfeit: an illegal move"
ENDLESS = "forfeit: too many moves"
FORFEITS = (EXITED, MOVE_TIME, GAME_TIME, GARBLED, ILLEGAL, ENDLESS)

ACTIONS = frozenset(("reveal", "flag", "unflag", "chord"))
MAX_REASON = 500  #: characters of a reason kept (a longer one is cut, not refused)


class Forfeit(StrategyError):
    """An outside program lost the game by breaking the protocol or its limits; ``outcome`` is one of
    :data:`FORFEITS` and the message says what happened (with the end of the program's stderr, where it has any)."""

    def __init__(self, outcome: str, message: str) -> None:
        self.outcome = outcome
        super().__init__(message)


class ProgramFailed(SweeplabError):
    """An outside program failed the run's first game: its command is taken as wrong (bad input), and the run stops
    with its reason and the end of its stderr."""


class Answer(NamedTuple):
    """One answer: its moves as (action, cell), its reason ('' for none) and its probabilities (cell -> p(mine))."""

    moves: list[tuple[str, int]]
    reason: str
    probabilities: dict[int, float]


def game_message(width: int, height: int, mines: int, rule: str, seed: int | None) -> bytes:
    """The line that starts a game."""
    message = {"type": "game", "protocol": PROTOCOL, "width": width, "height": height, "mines": mines, "rule": rule}
    message["seed"] = seed
    return (json.dumps(message, separators=(",", ":")) + "\n").encode()


def turn_message(position: str, revealed: str, moves: int) -> bytes:
    """The line that asks for moves: the position's text (digits, ``H``, ``F``, ``x`` and newlines only), the cells
    revealed since the last turn (``revealed``: ``[x,y,number]`` items joined by commas) and how many moves the game
    has had; written by hand, as ``json.dumps`` would, for speed.

    >>> json.loads(turn_message("2x1x1\\n1H\\n", "[0,0,1]", 1))["revealed"]
    [[0, 0, 1]]
    """
    return turn_line(position.replace("\n", "\\n").encode(), revealed.encode(), moves)


def turn_line(position: bytes, revealed: bytes, moves: int) -> bytes:
    """:func:`turn_message` from bytes: ``position`` with each newline already written as JSON's ``\\n``."""
    return b'{"type":"turn","moves":%d,"position":"%b","revealed":[%b]}\n' % (moves, position, revealed)


def _cell(item: Any, width: int, height: int, what: str) -> int:
    x, y = item
    if type(x) is not int or type(y) is not int or not (0 <= x < width and 0 <= y < height):
        raise Forfeit(GARBLED, f"{what} names the cell ({x!r}, {y!r}), which is not on the {width}x{height} board")
    return y * width + x


def parse_answer(line: bytes, width: int, height: int) -> Answer:
    """The answer in ``line`` (one line the program wrote, without its newline), checked against the board's size;
    anything else raises :class:`Forfeit` (``GARBLED``) saying what is wrong."""
    try:
        data = json.loads(line)
    except (ValueError, UnicodeDecodeError):
        raise Forfeit(GARBLED, f"the answer is not a JSON object: {_shown(line)}") from None
    if not isinstance(data, dict):
        raise Forfeit(GARBLED, f"the answer is not a JSON object: {_shown(line)}")
    raw = data.get("moves")
    if not isinstance(raw, list) or not raw:
        raise Forfeit(GARBLED, f'the answer has no "moves" list (at least one move): {_shown(line)}')
    try:  # every move right, in one pass; anything else is looked at move by move below, to say what is wrong
        moves = [
            (action, y * width + x)
            for action, x, y in raw
            if action in ACTIONS and type(x) is int and type(y) is int and 0 <= x < width and 0 <= y < height
        ]
    except (TypeError, ValueError):
        moves = []
    if len(moves) != len(raw):
        _refuse_moves(raw, width, height)
    reason = data.get("reason", "")
    if not isinstance(reason, str):
        raise Forfeit(GARBLED, f'the answer\'s "reason" is not a string: {_shown(line)}')
    probabilities: dict[int, float] = {}
    given = data.get("probabilities")
    if given is not None:
        if not isinstance(given, list) or len(given) > width * height:
            raise Forfeit(GARBLED, 'the answer\'s "probabilities" is not a list of [x, y, p] (one per cell at most)')
        for item in given:
            if not (isinstance(item, list) and len(item) == 3 and isinstance(item[2], int | float)):
                raise Forfeit(GARBLED, f"the probability {_shown(json.dumps(item).encode())} is not [x, y, p]")
            if not 0 <= item[2] <= 1:
                raise Forfeit(GARBLED, f"the probability {item[2]!r} is not between 0 and 1")
            probabilities[_cell(item[:2], width, height, "a probability")] = float(item[2])
    return Answer(moves, reason[:MAX_REASON], probabilities)


def _refuse_moves(raw: list[Any], width: int, height: int) -> None:
    """Raise :class:`Forfeit` naming the first move of ``raw`` that is not ``[ACTION, x, y]`` on the board."""
    for item in raw:
        if not (type(item) is list and len(item) == 3 and isinstance(item[0], str) and item[0] in ACTIONS):
            raise Forfeit(GARBLED, f'{_shown(json.dumps(item).encode())} is not a move such as ["reveal", x, y]')
        _cell(item[1:], width, height, f"the move {item[0]}")


def _shown(line: bytes, limit: int = 120) -> str:
    text = line[:limit].decode("utf-8", "replace")
    return repr(text) + (f" (and {len(line) - limit} more bytes)" if len(line) > limit else "")


__all__ = [
    "FORFEITS", "PROTOCOL", "Answer", "Forfeit", "ProgramFailed", "game_message", "parse_answer", "turn_line", "turn_message",
]  # fmt: skip
