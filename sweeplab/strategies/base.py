"""The Strategy interface (Observation -> Move), guess records, and the loop that plays a strategy through a game.

With no callback watching the moves, :func:`play` lets the players' C game loop (``_exact_play.c``, loaded by
:mod:`sweeplab.strategies.loops`) make the moves of a strategy whose ``ahead`` answers (only ``exact`` itself), from
its first reveal (the game deals for it with ``Game.deal_at``). The loop gets the layout from the game (``Game.raw``)
to reveal cells and gives the reveals back (``Game.record_reveals``); the strategy never sees it. The loop stops, for
``choose`` to go on, at any position it cannot vouch for (a count past 128 bits, a probability too near a rounding
boundary); ``play``'s deadline, the bench's time limit on the thread's CPU clock, stops it at a move's end.
"""

from __future__ import annotations

import random
import time
from abc import ABC, abstractmethod
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, ClassVar

from sweeplab.analysis.exact.budget import Budget
from sweeplab.core.errors import SweeplabError
from sweeplab.core.game import Game, GameState, Move
from sweeplab.core.observation import COVERED, Observation
from sweeplab.core.rules import Rules
from sweeplab.strategies.loops import LOOPS

#: Guess kinds used across strategies (seed 000's log: craps shoot / educated / unconstrained).
GUESS_KINDS = ("first", "craps", "educated", "unconstrained", "random")


class StrategyError(SweeplabError):
    """A strategy broke the contract: an illegal move, or a game it would never finish."""


class StrategyLimitError(StrategyError):
    """A board a strategy declines up front, past a limit it names (e.g. more layouts than its search keeps in memory):
    the caller's choice of board or options, not a broken contract."""


@dataclass(frozen=True)
class Explanation:
    """Why a strategy chose a guess: one sentence in words, and the figures behind it (JSON-ready values: numbers,
    strings, lists and dicts of them), for ``play --explain``, ``analyze`` and the web UI.

    >>> Explanation("safest cell", {"safety": 0.8}).to_dict()
    {'text': 'safest cell', 'figures': {'safety': 0.8}}
    """

    text: str
    figures: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"text": self.text, "figures": self.figures}

    def __str__(self) -> str:
        return self.text


class LazyExplanation(Explanation):
    """An :class:`Explanation` worked out when it is first read (its text or figures), for a strategy whose
    explanation takes time that a benchmark, which never reads it, should not pay. ``build`` makes it once; a
    pickled copy is a plain :class:`Explanation`."""

    def __init__(self, build: Callable[[], Explanation]) -> None:  # no super().__init__: nothing is known yet
        object.__setattr__(self, "_build", build)
        object.__setattr__(self, "_made", None)

    def _explanation(self) -> Explanation:
        made: Explanation | None = self.__dict__["_made"]
        if made is None:
            made = self.__dict__["_build"]()
            object.__setattr__(self, "_made", made)
            object.__setattr__(self, "_build", None)  # drop what the builder held (a position, its analysis)
        return made

    @property  # type: ignore[override]
    def text(self) -> str:
        return self._explanation().text

    @property  # type: ignore[override]
    def figures(self) -> dict[str, Any]:
        return self._explanation().figures

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Explanation) and (self.text, self.figures) == (other.text, other.figures)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"LazyExplanation(text={self.text!r}, figures={self.figures!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (Explanation, (self.text, self.figures))


@dataclass
class Guess:
    """A move made without certainty: the cell, its kind, the strategy's estimated chance it is safe, and
    (filled in by :func:`play`) whether it was; ``explanation`` says why, where the strategy gives one."""

    cell: int
    kind: str
    safety: float | None = None
    outcome: bool | None = None
    move: int = 0
    explanation: Explanation | None = None
    protected: bool = False
    """True for a first reveal the first-click rule keeps mine-free (``safe``, ``xp``, ``zero``): the strategy
    recorded it as a guess, but it was certain (:func:`play_move` sets ``safety`` to 1.0 and reports it as no guess)."""


_PLAY_EXACT = getattr(LOOPS, "play_exact", None)  # the C game loop (None without the kernel)


class Strategy(ABC):
    """A player. It sees only :class:`Observation` objects and answers each with one :class:`Move`.

    One instance plays one game; ``seed`` fixes every random choice it makes. Subclasses set ``name``,
    ``source`` (the seed file and section it follows) and ``summary``, and may record guesses with
    :meth:`guess` so that calibration and loss-reason experiments can be built from them.
    """

    name: ClassVar[str] = ""
    source: ClassVar[str] = ""
    summary: ClassVar[str] = ""
    queue_first: ClassVar[bool] = False
    """True when :meth:`choose` begins by returning the next queued move whose cell is still covered (what
    :meth:`next_queued` does) and does nothing else while one is left: :func:`play` then plays such moves itself,
    without building an observation or calling :meth:`choose` (the same moves, faster). A subclass that overrides
    :meth:`choose` otherwise must set it back to False."""
    #: With :meth:`ahead`: the rule the C game loop guesses by, ``"exact"``'s or ``"pseq"``'s (its ties drawn from
    #: :attr:`rng`, as :meth:`choose` draws them).
    loop_rule: ClassVar[str] = "exact"

    def __init__(self, seed: int | None = None, **options: Any) -> None:
        if options:
            raise StrategyError(f"strategy {self.name!r} takes no option(s) {', '.join(sorted(options))}")
        self._seed = seed
        self._rng: random.Random | None = None  # made on first use: seeding costs, and many strategies never draw
        self.guesses: list[Guess] = []
        self.pending_guess: Guess | None = None
        self._queue: deque[Move] = deque()

    @property
    def rng(self) -> random.Random:
        """The strategy's generator, seeded with its ``seed`` (made on first use, so the same draws either way)."""
        if self._rng is None:
            self._rng = random.Random(self._seed)
        return self._rng

    @rng.setter
    def rng(self, value: random.Random) -> None:
        self._rng = value

    def begin(self, rules: Rules) -> None:
        """Told the game's public rules (board, mine count, first-click rule) before its first move; ignored by
        default. A strategy may use them, e.g. to open where the first-click rule makes an opening most likely."""
        return None

    def ahead(self, cells: int) -> tuple[bytearray, Budget] | None:
        """None by default. On a board of ``cells`` cells, a strategy whose moves the C game loop makes (the
        kernel's ``play_exact``: the exact strategy's decisions) answers with its proved mines (a bytearray the loop
        adds to) and its budget; :func:`play` then lets the loop play on, and hands its guesses to :meth:`took`."""
        return None

    def took(self, guesses: list[Guess], position: Callable[[int], Observation]) -> None:
        """The guesses the C game loop made for this strategy (see :meth:`ahead`); ``position(move)`` is the
        observation before a move, for explanations worked out later."""
        self.guesses.extend(guesses)

    @abstractmethod
    def choose(self, observation: Observation) -> Move:
        """The next move for this position (the game is still being played)."""

    def guess(
        self,
        observation: Observation,
        cell: int,
        kind: str,
        safety: float | None = None,
        explanation: Explanation | None = None,
    ) -> Move:
        """Reveal ``cell`` as a guess of ``kind`` with estimated success ``safety``; recorded for the log."""
        self.pending_guess = Guess(cell, kind, safety, move=observation.moves, explanation=explanation)
        return Move.reveal(cell)

    def queue(self, moves: Iterable[Move]) -> None:
        """Keep certain moves found in one look at the board, to play before looking again."""
        self._queue.extend(moves)

    def next_queued(self, observation: Observation) -> Move | None:
        """The next queued move whose cell is still covered (a certain move stays certain), or None."""
        view = observation.view
        while self._queue:
            move = self._queue.popleft()
            if view[move.cell] == COVERED:
                return move
        return None

    def random_covered(self, observation: Observation) -> int:
        """A covered, unflagged cell chosen uniformly with the strategy's generator."""
        covered = [i for i, v in enumerate(observation.view) if v == COVERED]
        if not covered:
            raise StrategyError(f"strategy {self.name!r} has no covered cell left to choose")
        return self.rng.choice(covered)


def play_move(strategy: Strategy, game: Game) -> tuple[Move, Guess | None]:
    """Let ``strategy`` make one move in ``game`` (still being played): (the move, its guess record or None).

    An illegal move raises :class:`StrategyError` naming the strategy and the move; a guess gets its outcome and
    joins ``strategy.guesses``. A first reveal the rule keeps mine-free is certain: its record (kept in
    ``strategy.guesses``, for the counts that skip it) is marked ``protected`` with safety 1.0, and it is returned
    as no guess. :func:`play` is this in a loop; the web UI's "step" calls it once.
    """
    protected = game.first_reveal_protected
    move = strategy.choose(game.observation())
    return move, _apply(strategy, game, move, protected)


def _apply(strategy: Strategy, game: Game, move: Move, protected: bool) -> Guess | None:
    """:func:`play_move` once the strategy has chosen ``move``; ``protected``: the rule kept this move's cell
    mine-free (the game's ``first_reveal_protected`` before it)."""
    try:
        game.apply(move)
    except SweeplabError as error:
        raise StrategyError(f"strategy {strategy.name!r} chose an illegal move: {error}") from None
    return _settle(strategy, move, protected, game.state is not GameState.LOST)


def _settle(strategy: Strategy, move: Move, protected: bool, outcome: bool) -> Guess | None:
    """The strategy's pending guess, if ``move`` made it, gets ``outcome`` and joins its guesses; returned unless
    ``protected``."""
    pending = strategy.pending_guess
    recorded = None
    if pending is not None:
        if move.kind == "reveal" and move.cell == pending.cell:
            pending.outcome = outcome
            strategy.guesses.append(pending)
            if protected:
                pending.protected, pending.safety = True, 1.0
            else:
                recorded = pending
        strategy.pending_guess = None
    return recorded


def _play_ahead(strategy: Strategy, game: Game, limit: int, deadline: float | None) -> None:
    """Let the C game loop play on for ``strategy`` (see :meth:`Strategy.ahead`) until the game ends, ``limit`` moves,
    the ``deadline`` (:func:`play`'s) or a position it leaves to the strategy. The loop reads the layout
    only to reveal cells, as the game does."""
    settings = strategy.ahead(game.board.cells)
    if settings is not None and _PLAY_EXACT is not None:
        _loop(strategy, game, limit, deadline, settings, game.raw(), -1)


def _open_ahead(strategy: Strategy, game: Game, limit: int, deadline: float | None) -> bool:
    """The first move of a game with no move made yet, where the C game loop makes it (see :meth:`Strategy.ahead`):
    the strategy chooses it as :func:`play_move` asks it, the game deals for it (:meth:`Game.deal_at`) and the loop
    reveals it, flood fill and all, then plays on. A move other than a reveal of a covered cell, or one chosen with
    more moves queued, is applied as :func:`play_move` applies it. False, having asked nothing, where the strategy
    has no loop."""
    settings = strategy.ahead(game.board.cells)
    if settings is None or _PLAY_EXACT is None:
        return False
    protected = game.first_reveal_protected
    move = strategy.choose(game.observation())
    cell = move.cell
    plain = move.kind == "reveal" and type(cell) is int and 0 <= cell < game.board.cells and game.is_covered(cell)
    if not plain or strategy._queue:  # a move it queued more with (certain cells, as on a hint) goes first
        _apply(strategy, game, move, protected)
        return True
    game.deal_at(cell)
    raw = game.raw()
    _settle(strategy, move, protected, not raw[0][cell])  # before the loop's guesses, as play_move would record it
    _loop(strategy, game, limit, deadline, settings, raw, cell)
    return True


def _loop(
    strategy: Strategy,
    game: Game,
    limit: int,
    deadline: float | None,
    settings: tuple[bytearray, Budget],
    raw: tuple[tuple[bool, ...], tuple[int, ...], list[int]],
    first: int,
) -> None:
    """The C game loop's run on ``raw`` (the game's :meth:`Game.raw`) with the strategy's ``settings``, revealing
    ``first`` (a cell, or -1) before anything else; the game and the strategy take back what it did."""
    assert _PLAY_EXACT is not None
    proved, budget = settings
    mine, number, view = raw
    board, start = game.board, game.moves
    pseq_rng = strategy.rng if strategy.loop_rule == "pseq" else None
    _, cells, made, opened = _PLAY_EXACT(
        mine, number, view, proved, board.width, board.height, game.rules.mines, start, limit,
        budget.max_states, budget.max_bytes, budget.seconds, first, 0.0 if deadline is None else deadline,
        0, pseq_rng,
    )  # fmt: skip
    game.record_reveals(cells, view, opened)
    guesses = []
    for unconstrained, cell, safety, move in made:
        outcome = not (game.exploded == cell and move == game.moves - 1)
        guesses.append(Guess(cell, "unconstrained" if unconstrained else "educated", safety, outcome, move))
    if guesses:
        strategy.took(guesses, game.observation_at)


def play(
    strategy: Strategy,
    game: Game,
    on_move: Callable[[Game, Move], None] | None = None,
    max_moves: int | None = None,
    *,
    deadline: float | None = None,
    told: Rules | None = None,
) -> Game:
    """Play ``strategy`` until the game ends; returns the game.

    Each move the strategy returns is applied to the game (:func:`play_move`); an illegal one raises
    :class:`StrategyError` naming the strategy and the move. ``max_moves`` (default ten per cell) stops a strategy
    that would loop forever, so no strategy can hang a run. ``deadline``, a reading of this thread's CPU clock
    (:func:`time.thread_time`), stops the game unfinished at the first move that ends past it (a long ``choose`` is
    not interrupted: the bench's timer does that). ``told``: the rules the strategy is told at the start (default the
    game's): ``evaluate`` plays fixed layouts, already dealt as the rule deals them, on games without a first-click
    rule of their own.
    """
    clock = time.thread_time
    limit = max_moves if max_moves is not None else 10 * game.board.cells + 10
    strategy.begin(told if told is not None else game.rules)
    queue = strategy._queue if strategy.queue_first else None
    covered = game.is_covered
    playing = GameState.PLAYING
    # the C game loop, where the strategy has one and nothing watches its moves (a callback, or a choose replaced on
    # the instance to record its decisions): again after each move it leaves to choose
    ahead = None
    if on_move is None and _PLAY_EXACT is not None and "choose" not in vars(strategy):
        ahead = 0 if type(strategy).ahead is not Strategy.ahead else None
    while game.state is playing:
        if deadline is not None and clock() > deadline:
            break
        if len(game.history) >= limit:  # game.moves, without the property's call
            raise StrategyError(f"strategy {strategy.name!r} made {game.moves} moves without finishing the game")
        if ahead is not None and len(game.history) >= ahead and not queue:
            if game.first_click is not None:
                _play_ahead(strategy, game, limit, deadline)
                ahead = len(game.history) + 1
                continue
            if not game.history and _open_ahead(strategy, game, limit, deadline):
                ahead = len(game.history) + 1
                continue
        if queue and on_move is None:  # certain reveals the strategy would return first, played by the game in a run
            try:
                game.reveal_queued(queue, limit)
            except SweeplabError as error:
                raise StrategyError(f"strategy {strategy.name!r} chose an illegal move: {error}") from None
            if not queue or game.state is not playing or len(game.history) >= limit:
                continue
        if queue:  # a certain move the strategy would return first (queue_first): played without asking it
            move = queue.popleft()
            if not covered(move.cell):
                continue
            try:
                game.apply(move)
            except SweeplabError as error:
                raise StrategyError(f"strategy {strategy.name!r} chose an illegal move: {error}") from None
        else:
            move, _ = play_move(strategy, game)
        if on_move is not None:
            on_move(game, move)
    return game
