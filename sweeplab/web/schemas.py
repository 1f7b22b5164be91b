"""The web API's request schemas (pydantic): every field checked at the edge, each refusal a message naming the field.

Boards stay within what the page can draw (:data:`PAGE_MAX_CELLS`, :data:`PAGE_MAX_SIDE`), well inside the engine's
own limits; strategy specs come from the registry; cells are checked against their board where the board is known
(:func:`cell_of`).
"""

from __future__ import annotations

import base64
import binascii
from typing import Annotated, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, field_validator, model_validator

from sweeplab.core.errors import BoardSpecError
from sweeplab.core.geometry import MAX_CELLS, Board
from sweeplab.core.observation import Observation
from sweeplab.core.rules import FIRST_CLICK_RULES, Rules, make_rules, parse_board
from sweeplab.strategies.registry import checked_spec, split_specs
from sweeplab.web.benchcost import check_run

PAGE_MAX_SIDE = 200  #: the longest side the page draws (the engine allows 1024)
PAGE_MAX_CELLS = 10_000  #: the most cells the page draws (the engine allows 65,536): beyond this the page would crawl
SEED_MAX = 2**64 - 1  #: seeds are 0 .. 2**64 - 1, as the CLI prints them
POSITION_MAX_CHARS = 2 * PAGE_MAX_CELLS + 64 * PAGE_MAX_SIDE  #: longest position text accepted
MBF_MAX_BYTES = 4 + 2 * PAGE_MAX_CELLS  #: longest MBF layout accepted (header + two bytes per mine)
BENCH_MAX_GAMES = 2000  #: games per strategy in one benchmark run from the page
BENCH_MAX_STRATEGIES = 6

Rule = Literal["unsafe", "safe", "xp", "zero", "hint", "noguess"]
assert set(Rule.__args__) == set(FIRST_CLICK_RULES)  # type: ignore[attr-defined]


def _no_bool(value: object) -> object:
    """JSON's true and false are not numbers (Python's bool is an int, so pydantic would take true as 1)."""
    if isinstance(value, bool):
        raise ValueError("a number is expected, not true or false")
    return value


Int = Annotated[int, BeforeValidator(_no_bool)]  #: an integer, or a string of digits (seeds pass 2**53), never a bool
Coordinate = Annotated[Int, Field(ge=0, le=1023, description="0-based; x across, y down")]


def check_page_size(width: int, height: int) -> None:
    """Refuse a board too large for the page, with the reason (the engine's own limits are checked by ``Board``)."""
    Board(width, height)
    if width > PAGE_MAX_SIDE or height > PAGE_MAX_SIDE or width * height > PAGE_MAX_CELLS:
        raise BoardSpecError(
            f"a {width}x{height} board is too large for the page: it draws at most {PAGE_MAX_CELLS} cells and "
            f"{PAGE_MAX_SIDE} a side (use the command line, `sweeplab play` or `sweeplab analyze`, for larger boards)"
        )


def checked_board(board: str) -> str:
    """A board text (preset or ``WxHxM``) that the engine accepts and the page can draw.

    Library errors are ``ValueError`` subclasses, which pydantic reports as the field's message."""
    width, height, _ = parse_board(board)
    check_page_size(width, height)
    return board


def strategy_spec(text: str) -> str:
    """A strategy spec checked against the registry (:func:`~sweeplab.strategies.registry.checked_spec`: an option out
    of its range is the request's error, not the server's), in canonical form."""
    return checked_spec(text)


class Strict(BaseModel):
    """Unknown fields are refused, so a misspelt field is an error rather than silently ignored."""

    model_config = ConfigDict(extra="forbid")


class NewGame(Strict):
    """A new game: a board (preset or ``WxHxM``) and first-click rule, an optional seed (random when absent);
    or ``mbf``, a Minesweeper X layout (base64), played as it is (no first-click rule applies to a fixed layout)."""

    board: str = Field("beginner", max_length=40)
    rule: Rule = "safe"
    seed: Int | None = Field(None, ge=0, le=SEED_MAX)
    mbf: str | None = Field(None, max_length=4 * MBF_MAX_BYTES // 3 + 8, description="an MBF layout, base64-encoded")

    @field_validator("board")
    @classmethod
    def _board(cls, board: str) -> str:
        return checked_board(board)

    @field_validator("mbf")
    @classmethod
    def _mbf(cls, mbf: str | None) -> str | None:
        if mbf is not None:
            try:
                base64.b64decode(mbf, validate=True)
            except (binascii.Error, ValueError):
                raise ValueError("not valid base64 (the page sends the file's bytes base64-encoded)") from None
        return mbf

    @model_validator(mode="after")
    def _rules_fit(self) -> NewGame:
        if self.mbf is None:
            self.rules()  # a board too dense for its rule is refused here, with the reason
        return self

    def rules(self) -> Rules:
        return make_rules(self.board, self.rule)

    def mbf_bytes(self) -> bytes:
        """The MBF layout's bytes (only when ``mbf`` is given)."""
        assert self.mbf is not None
        return base64.b64decode(self.mbf, validate=True)


class MoveRequest(Strict):
    """A player's move on one cell."""

    kind: Literal["reveal", "flag", "unflag", "chord"]
    x: Coordinate
    y: Coordinate


class StepRequest(Strict):
    """One move of a strategy (a registry name, with options in brackets if any)."""

    strategy: str = Field("exact", max_length=200)

    @field_validator("strategy")
    @classmethod
    def _spec(cls, strategy: str) -> str:
        return strategy_spec(strategy)


class HintRequest(Strict):
    """Which of the helper's three levels to ask (seed 002)."""

    level: Annotated[Literal[1, 2, 3], BeforeValidator(_no_bool)] = 3


class Position(Strict):
    """A position as a grid: per cell -1 hidden, -2 flagged or a number 0-8, row by row."""

    width: Int = Field(ge=1, le=PAGE_MAX_SIDE)
    height: Int = Field(ge=1, le=PAGE_MAX_SIDE)
    mines: Int = Field(ge=0, le=PAGE_MAX_CELLS)
    view: list[Annotated[int, Field(ge=-2, le=8)]] = Field(max_length=MAX_CELLS)  # the page limit is checked below

    @field_validator("view", mode="before")
    @classmethod
    def _no_bools(cls, view: object) -> object:  # one pass over the list (a validator per cell costs 3x as much)
        if isinstance(view, list) and any(isinstance(v, bool) for v in view):
            raise ValueError("a number is expected, not true or false")
        return view

    @model_validator(mode="after")
    def _shape(self) -> Position:
        check_page_size(self.width, self.height)
        cells = self.width * self.height
        if len(self.view) != cells:
            raise ValueError(f"view has {len(self.view)} cells but a {self.width}x{self.height} board has {cells}")
        if self.mines > cells:
            raise ValueError(f"{self.mines} mines do not fit on a {self.width}x{self.height} board of {cells} cells")
        return self

    def observation(self) -> Observation:
        return Observation(Board(self.width, self.height), self.mines, tuple(self.view))


class PositionText(Strict):
    """A position in JSMinesweeper's text format."""

    text: str = Field(max_length=POSITION_MAX_CHARS)


class BenchRequest(Strict):
    """A small paired benchmark: strategies (the first is the one every other is compared with) on one board."""

    strategies: list[Annotated[str, Field(max_length=200)]] = Field(min_length=1, max_length=BENCH_MAX_STRATEGIES)
    board: str = Field("beginner", max_length=40)
    rule: Rule = "safe"
    games: Int = Field(100, ge=1, le=BENCH_MAX_GAMES)
    seed: Int = Field(0, ge=0, le=SEED_MAX)

    @field_validator("strategies")
    @classmethod
    def _specs(cls, specs: list[str]) -> list[str]:
        out = [strategy_spec(part) for text in specs for part in split_specs(text)]
        if not out:
            raise ValueError("give at least one strategy")
        if len(set(out)) != len(out):
            raise ValueError(f"a strategy is named twice: {', '.join(out)}")
        if len(out) > BENCH_MAX_STRATEGIES:
            raise ValueError(f"at most {BENCH_MAX_STRATEGIES} strategies in one run from the page")
        return out

    @field_validator("board")
    @classmethod
    def _board(cls, board: str) -> str:
        return checked_board(board)

    @model_validator(mode="after")
    def _rules_fit(self) -> BenchRequest:
        rules = self.rules()
        check_run(self.strategies, rules.width, rules.height, self.games)  # past the page's bound: refused, with why
        return self

    def rules(self) -> Rules:
        return make_rules(self.board, self.rule)
