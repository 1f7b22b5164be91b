"""Live games in the server's memory, by browser and random id, bounded by a count per browser, a count of browsers
and an idle age. Only :meth:`LiveGame.payload` reads a layout, and only once the game is over."""

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
from sweeplab.strategies.registry import get, parse_spec
from sweeplab.web.gamestats import game_statistics
from sweeplab.web.payloads import cells_xy, xy
from sweeplab.web.solvers import SolverPool, play_step

MAX_GAMES_PER_CLIENT = 20  #: live games kept for one browser; a new one beyond this ends its least recently used
MAX_CLIENTS = 500  #: browsers whose games are kept; a new one beyond this ends the least recently active one's
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

    def __post_init__(self) -> None:
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

    def step(self, spec: str, solvers: SolverPool) -> tuple[Move, Guess | None]:
        """One move of strategy ``spec``, played in a solver process that keeps the strategy between steps (seeded
        as `sweeplab play --seed` seeds it, so the moves are that command's)."""
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
            args = (key, get(name), options, self.strategy_seed, self.game)
            (game, played, guess), index = solvers.run(play_step, *args, what=f"a step of {spec}", worker=worker)
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


@dataclass
class _Client:
    """One browser's games (most recently used last) and whether its cookie has come back."""

    games: OrderedDict[str, LiveGame] = field(default_factory=OrderedDict)
    returned: bool = False
    used: float = 0.0


class GameStore:
    """Live games by browser (the ``client`` the page's cookie names) and id. Each browser keeps its ``per_client``
    most recently used games, so no browser can push out another's; at most ``max_clients`` browsers are held (past
    that, the least recently active goes, first one whose cookie never came back: a script that keeps no cookie
    pushes out only its own kind). A game idle for ``max_idle`` seconds is forgotten. A game let go is remembered
    as expired, so its browser is told why. Ids are 128-bit random (``secrets``): one cannot be guessed from another.
    """

    def __init__(
        self,
        per_client: int = MAX_GAMES_PER_CLIENT,
        max_clients: int = MAX_CLIENTS,
        max_idle: float = MAX_IDLE_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.per_client = per_client
        self.max_clients = max_clients
        self.max_idle = max_idle
        self.clock = clock
        self._clients: OrderedDict[str, _Client] = OrderedDict()  # least recently active first
        self._expired: OrderedDict[tuple[str, str], str] = OrderedDict()  # (client, game id) -> why it went
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return sum(len(entry.games) for entry in self._clients.values())

    def _let_go(self, client: str, games: list[str], why: str) -> None:
        for game_id in games:
            self._expired[(client, game_id)] = why
        while len(self._expired) > EXPIRED_KEPT:
            self._expired.popitem(last=False)

    def _expire(self) -> None:
        cutoff = self.clock() - self.max_idle
        why = f"it was left untouched for {self.max_idle / 3600:g} hours"
        while self._clients:
            client, entry = next(iter(self._clients.items()))
            if entry.used >= cutoff:
                break
            del self._clients[client]
            self._let_go(client, list(entry.games), why)

    def _client(self, client: str, returned: bool) -> _Client:
        """The browser's entry, made if new (pushing out one of more than ``max_clients``), marked used."""
        entry = self._clients.get(client)
        if entry is None:
            entry = self._clients[client] = _Client()
            others = [key for key in self._clients if key != client]
            while len(self._clients) > self.max_clients:
                victim = next((key for key in others if not self._clients[key].returned), others[0])
                others.remove(victim)
                self._let_go(
                    client=victim,
                    games=list(self._clients.pop(victim).games),
                    why=f"the server keeps games for {self.max_clients} browsers and this one had been idle longest",
                )
        entry.returned |= returned
        entry.used = self.clock()
        self._clients.move_to_end(client)
        return entry

    def new(
        self, rules: Rules, seed: int | None, layout: tuple[int, ...] | None = None, *, client: str = "", returned: bool = True
    ) -> LiveGame:
        """A new game for browser ``client`` (``returned``: its cookie came with the request); the browser's least
        recently used game goes if it holds ``per_client`` already."""
        live = LiveGame(secrets.token_urlsafe(16), rules, seed, layout, clock=self.clock)
        with self._lock:
            self._expire()
            entry = self._client(client, returned)
            while len(entry.games) >= self.per_client:
                old, _ = entry.games.popitem(last=False)
                why = f"this browser started newer games, and the server keeps the {self.per_client} it used last"
                self._let_go(client, [old], why)
            entry.games[live.id] = live
        return live

    def get(self, game_id: str, *, client: str = "", returned: bool = True) -> LiveGame:
        """Browser ``client``'s game ``game_id``; :class:`ExpiredGameError` says why one it had is gone."""
        with self._lock:
            self._expire()
            entry = self._clients.get(client)
            live = entry.games.get(game_id) if entry is not None else None
            if entry is not None and live is not None and live.used < self.clock() - self.max_idle:
                del entry.games[game_id]
                self._let_go(client, [game_id], f"it was left untouched for {self.max_idle / 3600:g} hours")
                live = None
            if live is None:
                why = self._expired.get((client, game_id))
                if why is not None:
                    raise ExpiredGameError(f"this game has expired: {why}; start a new game")
                raise UnknownGameError(
                    f"no game {game_id!r} here: it may have ended when the server restarted, or it was started in "
                    "another browser; start a new game"
                )
            entry = self._client(client, returned)
            entry.games.move_to_end(game_id)
            live.used = self.clock()
            return live


__all__ = [
    "MAX_CLIENTS",
    "MAX_GAMES_PER_CLIENT",
    "MAX_IDLE_SECONDS",
    "ExpiredGameError",
    "GameStore",
    "LiveGame",
    "UnknownGameError",
]
