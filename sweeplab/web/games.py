"""Live games in the server's memory, keyed by a random id; a bounded count and an idle age keep memory bounded.

A :class:`LiveGame` holds the hidden layout (inside its :class:`~sweeplab.core.game.Game`), which auto-solver plays
it (kept in a :mod:`sweeplab.web.solvers` process) and its timer. :meth:`LiveGame.payload` is the only place the web
layer reads the layout, and it does so only when the game is over.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sweeplab.bench.runner import game_seeds
from sweeplab.core.errors import IllegalMoveError, SweeplabError
from sweeplab.core.game import Game, Move
from sweeplab.core.observation import FLAGGED
from sweeplab.core.rules import Rules
from sweeplab.strategies.base import Guess, StrategyError
from sweeplab.strategies.registry import get, parse_spec
from sweeplab.web.payloads import cells_xy, xy
from sweeplab.web.solvers import SolverPool, play_step

MAX_GAMES = 200  #: live games kept at once; a new game beyond this ends the least recently used one
MAX_IDLE_SECONDS = 6 * 3600  #: a game untouched this long is forgotten


class UnknownGameError(SweeplabError):
    """A game id the server does not hold (never issued, or expired)."""


@dataclass
class LiveGame:
    """One game being played in the browser: the game, how to deal it again, its auto-solver and its clock."""

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
    lock: threading.Lock = field(default_factory=threading.Lock)

    def __post_init__(self) -> None:
        self.restart()

    def restart(self) -> None:
        """Deal the same game again (same rules and seed, or the same layout); the auto-solver starts afresh.

        Seed S deals game 0 of ``sweeplab bench --seed S``, the game ``sweeplab play --seed S`` plays, and the
        auto-solver gets that game's strategy seed, so a game seen here can be replayed from the command line."""
        layout_seed, self.strategy_seed = game_seeds(self.seed if self.seed is not None else 0, 0)
        if self.layout is not None:
            self.game = Game(self.rules, layout=self.layout)
        else:
            self.game = Game(self.rules, layout_seed)
        self.started = self.ended = None
        self.player_spec = None
        self.used = self.clock()

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
        return self._timed(lambda: self.game.apply(Move(kind, cell)))

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
            "strategy": self.player_spec,
        }
        if game.over:
            mines = game.mine_cells()
            out["layout"] = cells_xy(board, sorted(mines))
            out["exploded"] = xy(board, game.exploded) if game.exploded is not None else None
            out["wrong_flags"] = cells_xy(board, [c for c, v in enumerate(observation.view) if v == FLAGGED and c not in mines])
        return out


class GameStore:
    """Live games by id. At most ``max_games`` (a new one ends the least recently used); a game idle for
    ``max_idle`` seconds is forgotten. Ids are 128-bit random (``secrets``), so one game cannot be guessed from
    another."""

    def __init__(
        self, max_games: int = MAX_GAMES, max_idle: float = MAX_IDLE_SECONDS, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.max_games = max_games
        self.max_idle = max_idle
        self.clock = clock
        self._games: OrderedDict[str, LiveGame] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._games)

    def _expire(self) -> None:
        cutoff = self.clock() - self.max_idle
        for key in [k for k, g in self._games.items() if g.used < cutoff]:
            del self._games[key]

    def new(self, rules: Rules, seed: int | None, layout: tuple[int, ...] | None = None) -> LiveGame:
        live = LiveGame(secrets.token_urlsafe(16), rules, seed, layout, clock=self.clock)
        with self._lock:
            self._expire()
            while len(self._games) >= self.max_games:
                self._games.popitem(last=False)
            self._games[live.id] = live
        return live

    def get(self, game_id: str) -> LiveGame:
        with self._lock:
            self._expire()
            live = self._games.get(game_id)
            if live is None:
                raise UnknownGameError(
                    f"no game {game_id!r} here: it may have ended when the server restarted or after "
                    f"{self.max_idle / 3600:g} hours idle (at most {self.max_games} games are kept); start a new game"
                )
            self._games.move_to_end(game_id)
            live.used = self.clock()
            return live


__all__ = ["MAX_GAMES", "MAX_IDLE_SECONDS", "GameStore", "LiveGame", "UnknownGameError"]
