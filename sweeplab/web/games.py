"""Live games in the server's memory, by browser and random id, bounded by a count per browser, a count and an
estimated memory of browsers by class (those that have played, new ones), and an idle age. Only
:meth:`LiveGame.payload` reads a layout, and only once the game is over."""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sweeplab.analysis.dealing.noguess import NoGuessReport
from sweeplab.bench.runner import game_seeds
from sweeplab.core.errors import IllegalMoveError, SweeplabError
from sweeplab.core.game import Game, Move
from sweeplab.core.observation import FLAGGED
from sweeplab.core.rules import Rules
from sweeplab.strategies.base import Guess, StrategyError
from sweeplab.strategies.registry import get, parse_spec, programs
from sweeplab.web.gamestats import game_statistics
from sweeplab.web.payloads import cells_xy, xy
from sweeplab.web.solvers import SolverPool, play_step

MAX_GAMES_PER_CLIENT = 20  #: live games kept for one browser; a new one beyond this ends its least recently used
MAX_CLIENTS = 500  #: browsers that have played whose games are kept (new browsers: a quarter as many)
MAX_BYTES = 384 * 2**20  #: estimated memory of the games of browsers that have played (new browsers: a quarter)
GAME_BASE_BYTES = 8 * 1024  #: a held game's estimated memory: this much ...
GAME_CELL_BYTES = 48  #: ... and this much a cell
MAX_IDLE_SECONDS = 6 * 3600  #: a game untouched this long is forgotten
EXPIRED_KEPT = 10_000  #: games let go that are remembered, to tell their browser why


class UnknownGameError(SweeplabError):
    """A game id this browser holds no game under (never issued, issued elsewhere, or before a restart)."""


class ExpiredGameError(UnknownGameError):
    """A game this browser had and the server has let go (idle too long, or pushed out by its newer games)."""


@dataclass
class LiveGame:
    """One game being played in the browser: the game (with its hidden layout), how to deal it again, which
    auto-solver plays it (the solver itself is kept in a :mod:`sweeplab.web.solvers` process) and its clock."""

    id: str
    rules: Rules
    seed: int | None  # None for a layout loaded from an MBF file
    layout: tuple[int, ...] | None  # the MBF layout (kept to restart it); never sent before the game ends
    game: Game = field(init=False)
    clock: Callable[[], float] = time.monotonic
    used: float = 0.0
    started: float | None = None
    ended: float | None = None
    player_spec: str | None = None  # the auto-solver playing it, if any
    player_round: int = 0  # counts the auto-solvers it has had: a new one after a player's move, a restart or a new spec
    player_worker: tuple[int, int] | None = None  # the solver process keeping it: (number, generation)
    strategy_seed: int = 0
    clicks: int = 0  # moves played in this deal, undone ones included (the efficiency's denominator)
    undos: int = 0  # moves taken back in this deal: a game with one is "assisted"
    solver_moves: int = 0  # moves the auto-solver played in this deal: such a game is "assisted" too
    lock: threading.Lock = field(default_factory=threading.Lock)
    bytes: int = 0  # what holding it is estimated to cost (game_bytes)

    def __post_init__(self) -> None:
        self.bytes = game_bytes(self.rules)
        self.restart()

    def restart(self) -> None:
        """Deal the same game again (same rules and seed, or the same layout); the auto-solver starts afresh.

        Seed S deals game 0 of ``sweeplab bench --seed S``, the game ``sweeplab play --seed S`` plays, and the
        auto-solver gets that game's strategy seed, so a game seen here can be replayed from the command line."""
        self.game = self._deal()
        self.started = self.ended = None
        self.player_spec = None
        self.clicks = self.undos = self.solver_moves = 0
        self.used = self.clock()

    def _deal(self) -> Game:
        layout_seed, self.strategy_seed = game_seeds(self.seed if self.seed is not None else 0, 0)
        if self.layout is not None:
            return Game(self.rules, layout=self.layout)
        return Game(self.rules, layout_seed)

    def undo(self) -> Move:
        """Take back the last move, a player's or the auto-solver's (a lost game plays on): the same deal with
        every move but the last replayed. The clock keeps running from the first move; the undo is counted and
        marks the game as assisted. :class:`IllegalMoveError` when no move has been played."""
        history = self.game.history
        if not history:
            raise IllegalMoveError("nothing to undo: no move has been played in this game yet")
        game = self._deal()
        for played in history[:-1]:
            game.apply(played)
        last = history[-1]
        self.game, self.ended, self.player_spec = game, None, None
        self.undos += 1
        if not game.history:
            self.started = None
        return last

    def _timed(self, apply: Callable[[], Any]) -> Any:
        if self.game.over:
            raise IllegalMoveError(f"the game is over ({self.game.state.value}): start a new game or restart this one")
        before = self.game.moves
        result = apply()
        now = self.clock()
        if self.started is None and self.game.moves > before:
            self.started = now
        if self.game.over and self.ended is None:
            self.ended = now
        return result

    def move(self, kind: str, cell: int) -> tuple[int, ...]:
        """A player's move; the auto-solver, if any, starts afresh from the new position next time."""
        self.player_spec = None
        opened: tuple[int, ...] = self._timed(lambda: self.game.apply(Move(kind, cell)))
        self.clicks += 1
        return opened

    def step(self, spec: str, solvers: SolverPool, queue: str = "") -> tuple[Move, Guess | None]:
        """One move of strategy ``spec``, played in a solver process that keeps the strategy between steps (seeded
        as `sweeplab play --seed` seeds it, so the moves are that command's), queued in line ``queue``."""
        limit = 10 * self.game.board.cells + 10
        if self.game.moves >= limit:
            raise StrategyError(f"strategy {spec!r}: {self.game.moves} moves without finishing the game; stopped")
        if self.player_spec != spec:
            self.player_spec, self.player_round, self.player_worker = spec, self.player_round + 1, None
        name, options = parse_spec(spec)
        kept = self.player_worker
        worker = kept[0] if kept is not None and solvers.generation(kept[0]) == kept[1] else None

        def apply() -> tuple[Move, Guess | None]:
            key = f"{self.id}/{self.player_round}"
            player = name if name in programs() else get(name)  # an outside program is made by name, in the worker
            args = (key, player, options, self.strategy_seed, self.game)
            (game, played, guess), index = solvers.run(play_step, *args, what=f"a step of {spec}", worker=worker, client=queue)
            self.game, self.player_worker = game, (index, solvers.generation(index))
            return played, guess

        result: tuple[Move, Guess | None] = self._timed(apply)
        self.solver_moves += 1
        return result

    def elapsed(self) -> float:
        if self.started is None:
            return 0.0
        return (self.ended if self.ended is not None else self.clock()) - self.started

    def payload(self) -> dict[str, Any]:
        """The game as the page sees it: the player's view and, only once the game is over, the layout."""
        game, board = self.game, self.game.board
        observation = game.observation()
        out: dict[str, Any] = {
            "id": self.id,
            "board": self.rules.spec(),
            "width": board.width,
            "height": board.height,
            "mines": self.rules.mines,
            "rule": self.rules.first_click if self.layout is None else None,
            "seed": str(self.seed) if self.seed is not None else None,  # a string: 64-bit seeds exceed JavaScript's integers
            "source": "mbf" if self.layout is not None else "seed",
            "state": game.state.value,
            "over": game.over,
            "view": list(observation.view),
            "moves": game.moves,
            "flags": observation.flag_count,
            "mines_left": observation.mines_left,
            "elapsed": round(self.elapsed(), 3),
            "hint_cell": xy(board, game.hint) if game.hint is not None else None,
            "rule_kept": game.rule_kept,
            "rule_failure": game.rule_failure,
            "deal": game.deal_report.describe() if isinstance(game.deal_report, NoGuessReport) else None,
            "strategy": self.player_spec,
            "undos": self.undos,
            "assisted": self.undos > 0 or self.solver_moves > 0,
        }
        if game.over:
            mines = game.mine_cells()
            out["layout"] = cells_xy(board, sorted(mines))
            out["exploded"] = xy(board, game.exploded) if game.exploded is not None else None
            out["wrong_flags"] = cells_xy(board, [c for c, v in enumerate(observation.view) if v == FLAGGED and c not in mines])
            out["stats"] = game_statistics(game, self.elapsed(), self.clicks, self.undos, self.solver_moves)
        return out


def game_bytes(rules: Rules) -> int:
    """What one held game costs the server, estimated from its board: about 8 KiB and 48 bytes a cell (measured with
    tracemalloc on boards from 9x9 to 100x100 after a first reveal; its history adds a few bytes a move)."""
    return GAME_BASE_BYTES + GAME_CELL_BYTES * rules.width * rules.height


@dataclass
class _Client:
    """One browser's games (most recently used last), what they are estimated to hold, and whether it has played."""

    games: OrderedDict[str, LiveGame] = field(default_factory=OrderedDict)
    played: bool = False
    used: float = 0.0
    bytes: int = 0


class _Class:
    """The browsers of one class (players, or newcomers), least recently active first, within a count and bytes."""

    def __init__(self, name: str, max_clients: int, max_bytes: int) -> None:
        self.name = name
        self.max_clients = max_clients
        self.max_bytes = max_bytes
        self.clients: OrderedDict[str, _Client] = OrderedDict()
        self.bytes = 0

    def full(self) -> bool:
        return len(self.clients) > self.max_clients or self.bytes > self.max_bytes


class GameStore:
    """Live games by browser (the ``client`` its signed cookie names) and id, held within a count and an estimate of
    the memory they take (:func:`game_bytes`).

    Browsers come in two classes, each with its own budget, least recently active first within it: *players*
    (a browser that has played a move, :meth:`played`) and *newcomers* (every other: a new page, a script, a made-up
    cookie). A newcomer's game can push out only another newcomer's games (their budget is a quarter of the players'),
    so a flood of new browsers never ends a game of a browser that has played. Each browser keeps its ``per_client``
    most recently used games. A game idle for ``max_idle`` seconds is forgotten. A game let go is remembered as
    expired, so its browser is told why. Ids are 128-bit random (``secrets``): one cannot be guessed from another.
    """

    def __init__(
        self,
        per_client: int = MAX_GAMES_PER_CLIENT,
        max_clients: int = MAX_CLIENTS,
        max_idle: float = MAX_IDLE_SECONDS,
        clock: Callable[[], float] = time.monotonic,
        max_bytes: int = MAX_BYTES,
    ) -> None:
        self.per_client = per_client
        self.max_clients = max_clients
        self.max_bytes = max_bytes
        self.max_idle = max_idle
        self.clock = clock
        self._players = _Class("browsers that have played", max_clients, max_bytes)
        self._newcomers = _Class("new browsers", max(1, max_clients // 4), max(1, max_bytes // 4))
        self._expired: OrderedDict[tuple[str, str], str] = OrderedDict()  # (client, game id) -> why it went
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return sum(len(entry.games) for kind in (self._players, self._newcomers) for entry in kind.clients.values())

    @property
    def bytes(self) -> int:
        """The estimated memory of every game held."""
        return self._players.bytes + self._newcomers.bytes

    def _let_go(self, client: str, games: list[str], why: str) -> None:
        for game_id in games:
            self._expired[(client, game_id)] = why
        while len(self._expired) > EXPIRED_KEPT:
            self._expired.popitem(last=False)

    def _find(self, client: str) -> tuple[_Class, _Client] | None:
        for kind in (self._players, self._newcomers):
            entry = kind.clients.get(client)
            if entry is not None:
                return kind, entry
        return None

    def _drop_game(self, kind: _Class, client: str, entry: _Client, game_id: str, why: str) -> None:
        live = entry.games.pop(game_id)
        entry.bytes -= live.bytes
        kind.bytes -= live.bytes
        self._let_go(client, [game_id], why)

    def _drop_client(self, kind: _Class, client: str, why: str) -> None:
        entry = kind.clients.pop(client)
        kind.bytes -= entry.bytes
        self._let_go(client, list(entry.games), why)

    def _expire(self) -> None:
        cutoff = self.clock() - self.max_idle
        why = f"it was left untouched for {self.max_idle / 3600:g} hours"
        for kind in (self._players, self._newcomers):
            while kind.clients:
                client, entry = next(iter(kind.clients.items()))
                if entry.used >= cutoff:
                    break
                self._drop_client(kind, client, why)

    def _make_room(self, kind: _Class, keep: str) -> None:
        """Push out the least recently active browsers of ``kind`` (never ``keep``) until it fits its budget."""
        why = (
            f"the server holds games for {kind.max_clients} {kind.name} within {kind.max_bytes / 2**20:g} MiB, "
            "and this browser had been idle longest"
        )
        others = (key for key in list(kind.clients) if key != keep)
        while kind.full():
            victim = next(others, None)
            if victim is None:
                return
            self._drop_client(kind, victim, why)

    def _touch(self, client: str) -> tuple[_Class, _Client]:
        """The browser's entry, made (as a newcomer) if new, marked used."""
        found = self._find(client)
        if found is None:
            kind, entry = self._newcomers, _Client()
            kind.clients[client] = entry
        else:
            kind, entry = found
        entry.used = self.clock()
        kind.clients.move_to_end(client)
        return kind, entry

    def new(self, rules: Rules, seed: int | None, layout: tuple[int, ...] | None = None, *, client: str = "") -> LiveGame:
        """A new game for browser ``client``; the browser's least recently used game goes if it holds ``per_client``
        already, and the least recently active browsers of its class if the class is past its budget."""
        live = LiveGame(secrets.token_urlsafe(16), rules, seed, layout, clock=self.clock)
        with self._lock:
            self._expire()
            kind, entry = self._touch(client)
            while len(entry.games) >= self.per_client:
                why = f"this browser started newer games, and the server keeps the {self.per_client} it used last"
                self._drop_game(kind, client, entry, next(iter(entry.games)), why)
            entry.games[live.id] = live
            entry.bytes += live.bytes
            kind.bytes += live.bytes
            self._make_room(kind, keep=client)
            while kind.bytes > kind.max_bytes and len(entry.games) > 1:  # its own older games, past what one may hold
                why = f"the server holds at most {kind.max_bytes / 2**20:g} MiB of games for {kind.name}"
                self._drop_game(kind, client, entry, next(iter(entry.games)), why)
        return live

    def played(self, client: str) -> None:
        """Browser ``client`` has played a move: from now on it is a player (pushed out only by other players)."""
        with self._lock:
            found = self._find(client)
            if found is None or found[1].played:
                return
            kind, entry = found
            entry.played = True
            del kind.clients[client]
            kind.bytes -= entry.bytes
            self._players.clients[client] = entry
            self._players.bytes += entry.bytes
            self._make_room(self._players, keep=client)

    def is_player(self, client: str) -> bool:
        found = self._find(client)
        return found is not None and found[1].played

    def get(self, game_id: str, *, client: str = "") -> LiveGame:
        """Browser ``client``'s game ``game_id``; :class:`ExpiredGameError` says why one it had is gone."""
        with self._lock:
            self._expire()
            found = self._find(client)
            live = found[1].games.get(game_id) if found is not None else None
            if found is not None and live is not None and live.used < self.clock() - self.max_idle:
                idle = f"it was left untouched for {self.max_idle / 3600:g} hours"
                self._drop_game(found[0], client, found[1], game_id, idle)
                live = None
            if live is None:
                why = self._expired.get((client, game_id))
                if why is not None:
                    raise ExpiredGameError(f"this game has expired: {why}; start a new game")
                raise UnknownGameError(
                    f"no game {game_id!r} here: it may have ended when the server restarted, or it was started in "
                    "another browser; start a new game"
                )
            _, entry = self._touch(client)
            entry.games.move_to_end(game_id)
            live.used = self.clock()
            return live


__all__ = [
    "MAX_BYTES",
    "MAX_CLIENTS",
    "MAX_GAMES_PER_CLIENT",
    "MAX_IDLE_SECONDS",
    "ExpiredGameError",
    "GameStore",
    "LiveGame",
    "UnknownGameError",
    "game_bytes",
]
