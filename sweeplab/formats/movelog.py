"""Move logs: a game as JSON lines (what ``sweeplab play --log`` writes and ``sweeplab replay`` reads back).

A log is UTF-8 text, one JSON object per line:

- line 1, the game: ``{"log": "sweeplab-moves", "version": 1, "board": "9x9x10", "rule": "safe", "seed": 7,
  "strategy": "exact", "play_seed": 3}``: ``seed`` is the one ``Game`` deals the layout with; ``strategy`` (may be
  null) the player's spec; ``play_seed`` (may be null or absent) the ``--seed`` given to ``sweeplab play``;
- one line per move: ``{"move": 1, "kind": "reveal", "x": 0, "y": 0, "certain": false, "guess": "first",
  "safety": 0.877, "explanation": {"text": ..., "figures": {...}}, "state": "playing"}``. ``certain`` is true for a
  move the player made without guessing; for a guess, ``guess`` is its kind (``first``, ``educated``, ...),
  ``safety`` the player's estimated chance it is safe (null if it gave none) and ``explanation`` why, where the
  player said (null otherwise). ``state`` is the game's state after the move;
- a last line once the game is over: ``{"end": "won", "moves": 41, "mines": [[x, y], ...]}``.

The game is rebuilt from the board, rule and seed (the seed fixes the layout), so :func:`replay` checks every
logged state, and the mines, against the rebuilt game: an edited log, or one written by a version of sweeplab
that deals differently, is refused with the line that disagrees. A log without its end line (a game cut short)
is read as far as it goes.

>>> log = MoveLog(GameRecord("3x1x1", "unsafe", 5, None), (LoggedMove(1, "reveal", 0, 0, True, state="won"),))
>>> read_move_log(format_move_log(log, end=("won", ((2, 0),)))) == log
True
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from sweeplab.core.errors import ArgumentError, SweeplabError, shown
from sweeplab.core.game import Game, GameState, Move
from sweeplab.core.rules import make_rules

LOG_NAME = "sweeplab-moves"
LOG_VERSION = 1
MAX_LOG_BYTES = 256 * 1024 * 1024  #: a log larger than this is refused (ten moves per cell of the largest board fit)
STATES = tuple(state.value for state in GameState)


class MoveLogError(SweeplabError):
    """A move log that cannot be read, or whose moves do not replay as logged (names the line and the reason)."""


@dataclass(frozen=True)
class GameRecord:
    """The game a log is of: the board as ``WxHxM``, the first-click rule, the layout's seed, the player (or None)
    and the seed ``sweeplab play`` was given (or None)."""

    board: str
    rule: str
    seed: int
    strategy: str | None = None
    play_seed: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"log": LOG_NAME, "version": LOG_VERSION, "board": self.board, "rule": self.rule, "seed": self.seed,
                "strategy": self.strategy, "play_seed": self.play_seed}  # fmt: skip

    def new_game(self) -> Game:
        return Game(make_rules(self.board, self.rule), self.seed)


@dataclass(frozen=True)
class LoggedMove:
    """One move: its number (from 1), kind, cell as x, y, whether it was certain, and for a guess its kind, estimated
    safety and explanation (a dict with ``text`` and ``figures``); ``state`` is the game's state after it."""

    number: int
    kind: str
    x: int
    y: int
    certain: bool
    guess: str | None = None
    safety: float | None = None
    explanation: dict[str, Any] | None = field(default=None, compare=False)
    state: str = "playing"
    line: int = field(default=0, compare=False)  #: where it was read from (0 if not read from a file)

    def to_dict(self) -> dict[str, Any]:
        return {"move": self.number, "kind": self.kind, "x": self.x, "y": self.y, "certain": self.certain,
                "guess": self.guess, "safety": self.safety, "explanation": self.explanation, "state": self.state}  # fmt: skip


@dataclass(frozen=True)
class MoveLog:
    """A read log: the game, its moves, and how it ended (``won``/``lost``, or None for a log cut short)."""

    game: GameRecord
    moves: tuple[LoggedMove, ...]
    end: str | None = field(default=None, compare=False)
    mines: tuple[tuple[int, int], ...] | None = field(default=None, compare=False)
    end_line: int = field(default=0, compare=False)


class MoveLogWriter:
    """Writes a log line by line, flushing each, so that a game interrupted or crashed keeps every move made. A
    write that fails (a full disk) is a :class:`MoveLogError` naming ``name``."""

    def __init__(self, stream: IO[str], game: GameRecord, name: str = "move log") -> None:
        self.stream = stream
        self.name = name
        self._line(game.to_dict())

    def move(self, move: LoggedMove) -> None:
        self._line(move.to_dict())

    def end(self, game: Game) -> None:
        """The end line of a finished game: its state, move count and mines."""
        mines = [list(game.board.xy(c)) for c in sorted(game.mine_cells())] if game.dealt else []
        self._line({"end": game.state.value, "moves": game.moves, "mines": mines})

    def _line(self, record: dict[str, Any]) -> None:
        try:
            self.stream.write(json.dumps(record, allow_nan=False) + "\n")
            self.stream.flush()
        except (OSError, ValueError) as error:
            raise MoveLogError(f"{self.name}: cannot write it ({error.__class__.__name__}: {error})") from None


def format_move_log(log: MoveLog, end: tuple[str, tuple[tuple[int, int], ...]] | None = None) -> str:
    """A whole log as text (the writer's lines); ``end`` is the (state, mines as (x, y)) of a finished game."""
    lines = [log.game.to_dict()] + [m.to_dict() for m in log.moves]
    if end is not None:
        lines.append({"end": end[0], "moves": len(log.moves), "mines": [list(xy) for xy in end[1]]})
    return "".join(json.dumps(line, allow_nan=False) + "\n" for line in lines)


def _field(record: dict[str, Any], key: str, kinds: tuple[type, ...], where: str, optional: bool = False) -> Any:
    if key not in record:
        if optional:
            return None
        raise MoveLogError(f"{where}: missing {key!r}")
    value = record[key]
    if value is None and optional:
        return None
    if (isinstance(value, bool) and bool not in kinds) or not isinstance(value, kinds):
        names = " or ".join(k.__name__ for k in kinds) + (" or null" if optional else "")
        raise MoveLogError(f"{where}: {key!r} must be {names}, not {shown(value)}")
    return value


def _records(text: str, source: str) -> Iterator[tuple[int, dict[str, Any]]]:
    for number, line in enumerate(text.removeprefix("\ufeff").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except (ValueError, RecursionError) as error:
            raise MoveLogError(
                f"{source}, line {number}: not JSON ({error.__class__.__name__}: {shown(str(error), 80)})"
            ) from None
        if not isinstance(record, dict):
            raise MoveLogError(f"{source}, line {number}: expected a JSON object, not {shown(record)}")
        yield number, record


def _game_record(record: dict[str, Any], where: str) -> GameRecord:
    if record.get("log") != LOG_NAME:
        raise MoveLogError(f'{where}: not a sweeplab move log (the first line must have "log": "{LOG_NAME}")')
    version = record.get("version")
    if version != LOG_VERSION:
        raise MoveLogError(f"{where}: log version {shown(version)}; this sweeplab reads version {LOG_VERSION}")
    game = GameRecord(
        _field(record, "board", (str,), where),
        _field(record, "rule", (str,), where),
        _field(record, "seed", (int,), where),
        _field(record, "strategy", (str,), where, optional=True),
        _field(record, "play_seed", (int,), where, optional=True),
    )
    try:
        make_rules(game.board, game.rule)
    except SweeplabError as error:
        raise MoveLogError(f"{where}: {error}") from None
    return game


def _move(record: dict[str, Any], where: str, line: int, expected: int, width: int, height: int) -> LoggedMove:
    number = _field(record, "move", (int,), where)
    if number != expected:
        raise MoveLogError(f"{where}: move {number} where move {expected} was expected (moves are numbered 1, 2, ...)")
    kind = _field(record, "kind", (str,), where)
    if kind not in Move.KINDS:
        raise MoveLogError(f"{where}: unknown move kind {shown(kind)}; use one of {', '.join(Move.KINDS)}")
    x, y = _field(record, "x", (int,), where), _field(record, "y", (int,), where)
    if not (0 <= x < width and 0 <= y < height):
        raise MoveLogError(f"{where}: cell ({shown(x)}, {shown(y)}) is off the {width}x{height} board")
    certain = _field(record, "certain", (bool,), where)
    guess = _field(record, "guess", (str,), where, optional=True)
    safety = _field(record, "safety", (int, float), where, optional=True)
    if safety is not None and not (math.isfinite(safety) and 0 <= safety <= 1):
        raise MoveLogError(f"{where}: 'safety' must be a probability from 0 to 1, not {shown(safety)}")
    if certain and (guess is not None or safety is not None):
        raise MoveLogError(f"{where}: a certain move has no guess kind or safety")
    if not certain and guess is None:
        raise MoveLogError(f"{where}: a move that is not certain needs its guess kind ('guess')")
    explanation = _field(record, "explanation", (dict,), where, optional=True)
    if explanation is not None and not isinstance(explanation.get("text"), str):
        raise MoveLogError(f"{where}: an explanation needs its 'text'")
    state = _field(record, "state", (str,), where)
    if state not in STATES:
        raise MoveLogError(f"{where}: unknown state {shown(state)}; use one of {', '.join(STATES)}")
    safety = None if safety is None else float(safety)
    return LoggedMove(number, kind, x, y, certain, guess, safety, explanation, state, line=line)


def read_move_log(text: str, source: str = "move log") -> MoveLog:
    """Parse a log; a malformed line is a :class:`MoveLogError` naming the source, the line and the reason."""
    if not isinstance(text, str):
        raise ArgumentError(f"read_move_log(text): expected the log as text (str), not {shown(text)}")
    records = _records(text, source)
    first = next(records, None)
    if first is None:
        raise MoveLogError(f"{source}: empty; a move log starts with a line naming the game")
    game = _game_record(first[1], f"{source}, line {first[0]}")
    rules = make_rules(game.board, game.rule)
    width, height = rules.width, rules.height
    moves: list[LoggedMove] = []
    end: str | None = None
    mines: tuple[tuple[int, int], ...] | None = None
    end_line = 0
    for number, record in records:
        where = f"{source}, line {number}"
        if end is not None:
            raise MoveLogError(f"{where}: a line after the end line")
        if "end" in record:
            end = _field(record, "end", (str,), where)
            if end not in ("won", "lost"):
                raise MoveLogError(f"{where}: 'end' must be won or lost, not {shown(end)}")
            count = _field(record, "moves", (int,), where)
            if count != len(moves):
                raise MoveLogError(f"{where}: the end line counts {shown(count)} moves but the log has {len(moves)}")
            if moves and moves[-1].state != end:
                raise MoveLogError(f"{where}: the game ends {end} but the last move left it {moves[-1].state}")
            raw = _field(record, "mines", (list,), where)
            if not all(isinstance(xy, list) and len(xy) == 2 and all(type(v) is int for v in xy) for xy in raw):
                raise MoveLogError(f"{where}: 'mines' must be a list of [x, y] pairs")
            mines = tuple((xy[0], xy[1]) for xy in raw)
            end_line = number
            continue
        if moves and moves[-1].state != "playing":
            raise MoveLogError(f"{where}: a move after the game was over ({moves[-1].state} at move {moves[-1].number})")
        moves.append(_move(record, where, number, len(moves) + 1, width, height))
    return MoveLog(game, tuple(moves), end, mines, end_line)


def load_move_log(path: str | Path) -> MoveLog:
    """Read a log file; an unreadable or malformed file is a :class:`MoveLogError` naming it."""
    if not isinstance(path, str | Path) or str(path) == "":
        raise ArgumentError(f"load_move_log(path): expected a file name, not {shown(path)}")
    path = Path(path)
    try:
        with path.open("rb") as file:
            data = file.read(MAX_LOG_BYTES + 1)
    except (OSError, ValueError) as error:
        raise MoveLogError(f"{path}: cannot read it ({error.__class__.__name__}: {error})") from None
    if len(data) > MAX_LOG_BYTES:
        raise MoveLogError(f"{path}: more than {MAX_LOG_BYTES} bytes, larger than any game's log")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise MoveLogError(f"{path}: not UTF-8 text ({error})") from None
    return read_move_log(text, str(path))


def replay(log: MoveLog, source: str = "move log") -> Iterator[tuple[Game, LoggedMove]]:
    """Rebuild the logged game and play its moves, yielding the game after each; a move that is illegal, or that
    leaves the game in another state than logged, is a :class:`MoveLogError` naming the line (moves are on lines
    2, 3, ...)."""
    game = log.game.new_game()
    for move in log.moves:
        where = f"{source}, line {move.line or move.number + 1}"
        try:
            game.apply(Move(move.kind, game.board.index(move.x, move.y)))
        except SweeplabError as error:
            raise MoveLogError(f"{where}: the move does not replay: {error}") from None
        if game.state.value != move.state:
            raise MoveLogError(
                f"{where}: the log says the game was {move.state} after move {move.number} but it replays as "
                f"{game.state.value} (the log was edited, or written by a sweeplab that deals this seed differently)"
            )
        yield game, move
    if log.mines is not None and game.dealt:
        logged = {game.board.index(x, y) for x, y in log.mines if 0 <= x < game.board.width and 0 <= y < game.board.height}
        if logged != game.mine_cells() or len(logged) != len(log.mines):
            raise MoveLogError(
                f"{source}, line {log.end_line or len(log.moves) + 2}: the logged mines are not the ones the seed deals "
                "(the log was edited, or written by a sweeplab that deals this seed differently)"
            )
