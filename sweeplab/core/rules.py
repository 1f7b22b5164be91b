"""Board presets and first-click rules: what game is dealt, and what the first click is promised."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sweeplab.core.errors import ArgumentError, BoardSpecError, RuleError, shown, whole_number
from sweeplab.core.geometry import MAX_SIDE, Board

#: Named boards as (width, height, mines).
PRESETS: dict[str, tuple[int, int, int]] = {
    "beginner": (9, 9, 10),
    "beginner-classic": (8, 8, 10),  # PGMS and seed 000's beginner
    "intermediate": (16, 16, 40),
    "intermediate-classic": (15, 13, 40),  # seed 000's intermediate
    "expert": (30, 16, 99),
}

#: First-click rules and what each promises.
FIRST_CLICK_RULES: dict[str, str] = {
    "unsafe": "the first click can hit a mine (PGMS 'hard rules', seed 000)",
    "safe": "the first-clicked cell is never a mine; mines are uniform among the other cells",
    "xp": "Windows XP: a mine under the first click moves to the top-left corner, or the next free cell to its right (seed 001)",
    "zero": "Vista/7: the first-clicked cell and its neighbours are mine-free, so it opens (seed 001)",
    "hint": "seed 000's hinted game: the game opens a safe cell in the least mine-dense region",
    "noguess": "no guessing: the first click opens (as under zero) and certain deductions alone clear the board",
}

#: A dealer for a rule that core cannot deal alone: ``dealer(rules, click, rng) -> (mine cells, report)``, where the
#: report (any object; the ``noguess`` dealer's says how long it took and what it rejected or moved) is kept as
#: :attr:`~sweeplab.core.game.Game.deal_report` and says through a ``kept`` attribute whether the promise was met.
Dealer = Callable[["Rules", int, random.Random], tuple[list[int], Any]]

#: Rules dealt by a registered :data:`Dealer` (they need a solver, which core may not import).
DEALT_ELSEWHERE: dict[str, str] = {"noguess": "sweeplab.analysis"}

_DEALERS: dict[str, Dealer] = {}


def register_dealer(rule: str, dealer: Dealer) -> None:
    """Deal ``rule`` with ``dealer`` (see :data:`Dealer`); the module named in :data:`DEALT_ELSEWHERE` calls this on
    import, so every game of that rule is dealt by it once the module is imported (every strategy imports it)."""
    if rule not in DEALT_ELSEWHERE:
        raise RuleError(f"the {rule!r} rule is dealt by core itself; only {', '.join(DEALT_ELSEWHERE)} take a dealer")
    _DEALERS[rule] = dealer


def dealer_for(rule: str) -> Dealer:
    """The registered dealer of ``rule``, or :class:`RuleError` naming the module to import."""
    dealer = _DEALERS.get(rule)
    if dealer is None:
        raise RuleError(
            f"the {rule!r} rule needs a solver to deal its layouts: import {DEALT_ELSEWHERE[rule]} "
            "(sweeplab.strategies and everything above it do) before creating a game with it"
        )
    return dealer


_SPEC = re.compile(r"^\s*(\d+)\s*[xX]\s*(\d+)\s*[xX/]\s*(\d+)\s*$")


@dataclass(frozen=True)
class Rules:
    """What is dealt: a board size, a mine count and a first-click rule."""

    width: int
    height: int
    mines: int
    first_click: str = "safe"

    def __post_init__(self) -> None:
        board = Board(self.width, self.height)  # validates the size
        object.__setattr__(self, "width", board.width)
        object.__setattr__(self, "height", board.height)
        if not isinstance(self.first_click, str) or self.first_click not in FIRST_CLICK_RULES:
            raise RuleError(f"unknown first-click rule {shown(self.first_click)}: choose one of {', '.join(FIRST_CLICK_RULES)}")
        object.__setattr__(self, "mines", whole_number(self.mines, "mine count", minimum=0, error=BoardSpecError))
        cells = self.width * self.height
        if self.mines > cells:
            raise BoardSpecError(f"{shown(self.mines)} mines do not fit on a {self.width}x{self.height} board of {cells} cells")
        if self.first_click in ("safe", "xp", "hint") and self.mines > cells - 1:
            raise RuleError(
                f"the {self.first_click!r} rule needs a mine-free cell, but {shown(self.mines)} mines fill all {cells} cells"
            )
        if self.first_click in ("zero", "noguess"):
            smallest = min(len(n) for n in self.board.neighbours) + 1
            if self.mines > cells - smallest:
                raise RuleError(
                    f"the {self.first_click!r} rule keeps the first click and its neighbours (at least {smallest} cells) "
                    f"mine-free, so at most {cells - smallest} mines fit on a {self.width}x{self.height} "
                    f"board, not {shown(self.mines)}"
                )

    @property
    def board(self) -> Board:
        return Board(self.width, self.height)

    @property
    def density(self) -> float:
        return self.mines / (self.width * self.height)

    def spec(self) -> str:
        """The board as ``WxHxM``."""
        return f"{self.width}x{self.height}x{self.mines}"


def parse_board(text: str) -> tuple[int, int, int]:
    """A preset name or ``WxHxM`` (width x height x mines) as (width, height, mines).

    >>> parse_board("expert"), parse_board("10x12x20")
    ((30, 16, 99), (10, 12, 20))
    """
    if not isinstance(text, str):
        raise ArgumentError(f"board must be text such as 'expert' or '30x16x99', not {shown(text)}")
    name = text.strip().lower()
    if name in PRESETS:
        return PRESETS[name]
    match = _SPEC.match(text)
    if not match:
        raise BoardSpecError(
            f"unknown board {shown(text)}: give a preset ({', '.join(PRESETS)}) or WIDTHxHEIGHTxMINES such as 30x16x99"
        )
    if any(len(g) > 12 for g in match.groups()):  # int() refuses over 4,300 digits; no board needs 13
        raise BoardSpecError(f"board {shown(text)} has a number of more than 12 digits: sides are 1 to {MAX_SIDE}")
    width, height, mines = (int(g) for g in match.groups())
    Board(width, height)
    if mines > width * height:
        raise BoardSpecError(f"{mines} mines do not fit on a {width}x{height} board of {width * height} cells")
    return width, height, mines


def make_rules(board: str, first_click: str = "safe") -> Rules:
    """Rules from a board text (preset or ``WxHxM``) and a first-click rule name."""
    width, height, mines = parse_board(board)
    return Rules(width, height, mines, first_click)
