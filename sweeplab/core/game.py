"""The game: a hidden mine layout dealt by rules and a seed, and the moves that reveal it."""

from __future__ import annotations

import enum
import math
import os
import random
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from sweeplab.core.errors import ArgumentError, IllegalMoveError, RuleError, SweeplabError, shown, whole_number
from sweeplab.core.geometry import MAX_CELLS, Board
from sweeplab.core.observation import COVERED, FLAGGED, Observation
from sweeplab.core.render import draw
from sweeplab.core.rules import DEALT_ELSEWHERE, Rules, dealer_for

HINT_RADIUS = 2  # the hinted game measures density over the 5x5 window around a cell


class GameState(enum.Enum):
    PLAYING = "playing"
    WON = "won"
    LOST = "lost"


@dataclass(frozen=True, slots=True)
class Move:
    """One action on one cell: ``reveal``, ``flag``, ``unflag`` or ``chord``."""

    kind: str
    cell: int

    KINDS = ("reveal", "flag", "unflag", "chord")

    def __post_init__(self) -> None:
        if not isinstance(self.kind, str) or self.kind not in Move.KINDS:
            raise IllegalMoveError(f"unknown move kind {shown(self.kind)}: use one of {', '.join(Move.KINDS)}")
        if type(self.cell) is not int:  # the game checks that the cell is on its board
            object.__setattr__(self, "cell", whole_number(self.cell, "a move's cell", error=IllegalMoveError))

    @staticmethod
    def reveal(cell: int) -> Move:
        """A reveal of ``cell``; for a cell of a board the same (immutable) object each time, built once."""
        if type(cell) is int and 0 <= cell < MAX_CELLS:
            if cell >= len(_REVEALS):
                _REVEALS.extend(Move("reveal", c) for c in range(len(_REVEALS), cell + 1))
            return _REVEALS[cell]
        return Move("reveal", cell)

    @staticmethod
    def flag(cell: int) -> Move:
        return Move("flag", cell)

    @staticmethod
    def unflag(cell: int) -> Move:
        return Move("unflag", cell)

    @staticmethod
    def chord(cell: int) -> Move:
        return Move("chord", cell)


@lru_cache(maxsize=64)
def _board(width: int, height: int) -> Board:
    """The board of a game (a board is immutable, so games of one size share it)."""
    return Board(width, height)


def _sample(rng: random.Random, population: list[int], k: int) -> list[int]:
    """``rng.sample(population, k)``, the same cells drawn the same way, without a method call per draw: CPython's
    algorithm (as 3.11 has it) where it keeps a pool (``population`` itself, left shuffled), the method itself where
    it keeps a set (a sparse board). The layouts of every seed depend on it; a test compares it with the
    interpreter's own ``sample``."""
    n = len(population)
    if not 0 <= k <= n or n > 21 + (4 ** math.ceil(math.log(k * 3, 4)) if k > 5 else 0):
        return rng.sample(population, k)
    if _SAMPLE is not None:
        return _SAMPLE(rng.getrandbits, population, k)
    getrandbits, pool = rng.getrandbits, population
    chosen = [0] * k
    for i in range(k):
        left = n - i  # a draw below left, as Random._randbelow makes it
        bits = left.bit_length()
        j = getrandbits(bits)
        while j >= left:
            j = getrandbits(bits)
        chosen[i] = pool[j]
        pool[j] = pool[left - 1]
    return chosen


#: The game's hot paths in C, lent by the players' C module when it loads (:mod:`sweeplab.strategies.loops`; core
#: has no C of its own), else None and their Python twins run: :meth:`Game.three_bv` ``(mine, number, width, height)
#: -> int``, :meth:`Game._set_layout`'s lists and the layout's 3BV ``(mines, cells, width) -> (mine, number,
#: three_bv)`` and :func:`_sample`'s pool branch ``(getrandbits, pool, k) -> list``.
_THREE_BV: Callable[[list[bool], list[int], int, int], int] | None = None
_NUMBERS: Callable[[Iterable[int], int, int], tuple[list[bool], list[int], int]] | None = None
_SAMPLE: Callable[[Callable[[int], int], list[int], int], list[int]] | None = None


def lend(module: Any) -> None:
    """Count 3BV, deal layouts and draw samples with ``module``'s C functions (``three_bv``, ``layout_numbers``,
    ``sample_pool``; one it lacks stays in Python); None: all in Python again."""
    global _THREE_BV, _NUMBERS, _SAMPLE
    _THREE_BV = getattr(module, "three_bv", None)
    _NUMBERS = getattr(module, "layout_numbers", None)
    _SAMPLE = getattr(module, "sample_pool", None)


_REVEALS: list[Move] = []  # Move.reveal's objects by cell (a move is immutable, so one object serves every game)


class Game:
    """One game of minesweeper.

    The layout is dealt from ``rules`` and ``seed`` (a ``random.Random`` seeded with it makes every
    random choice), lazily at the first reveal for the ``safe``, ``zero`` and ``noguess`` rules, which need to
    know the first click. ``noguess`` is dealt by the dealer :mod:`sweeplab.analysis.dealing.noguess` registers (core
    has no solver); without it, creating such a game raises :class:`RuleError` saying what to import. A
    ``layout`` (a collection of mine cells) plays that layout as it is: the dealer that wrote it has already
    applied any first-click rule, so none is applied again (``noguess`` is then checked as ``zero`` is).

    >>> g = Game(Rules(3, 1, 1, "unsafe"), layout=[2])
    >>> g.reveal(0), g.state
    ((0, 1), <GameState.WON: 'won'>)
    """

    def __init__(self, rules: Rules, seed: int | None = None, *, layout: Iterable[int] | None = None) -> None:
        if not isinstance(rules, Rules):
            raise ArgumentError(
                f"Game(rules): expected a Rules such as Rules(9, 9, 10) or make_rules('beginner'), not {shown(rules)}"
            )
        self.rules = rules
        self.board = _board(rules.width, rules.height)
        self.seed = whole_number(seed, "Game(seed)") if seed is not None else int.from_bytes(os.urandom(8), "big")
        self._rng = random.Random(self.seed)
        cells = self.board.cells
        self._view: list[int] = [COVERED] * cells
        self._mine: list[bool] | None = None
        self._number: list[int] = []
        self._three_bv: int | None = None  # the layout's 3BV, when the C deal counted it
        self._safe_left = cells - rules.mines
        self.state = GameState.PLAYING
        self.history: list[Move] = []
        self.exploded: int | None = None
        self.first_click: int | None = None
        self.hint: int | None = None
        self._rule_failure: str | None = None
        self._fixed = layout is not None
        self.deal_report: object | None = None  # what a registered dealer reported (noguess: time, rejects, moves)
        self._dealer = dealer_for(rules.first_click) if layout is None and rules.first_click in DEALT_ELSEWHERE else None
        if layout is not None:
            mines = self._layout_cells(layout)
            if len(mines) != rules.mines:
                raise RuleError(
                    f"the layout has {len(mines)} distinct mines but the rules ask for {rules.mines} "
                    f"(on a {self.board.width}x{self.board.height} board)"
                )
            self._set_layout(mines)
        elif rules.first_click in ("unsafe", "xp", "hint"):
            self._set_layout(_sample(self._rng, list(range(cells)), rules.mines))
            if rules.first_click == "hint":
                self.hint = self._choose_hint()
                self._open(self.hint)

    # ----- dealing -----
    def _layout_cells(self, layout: Iterable[int]) -> list[int]:
        """The distinct mine cells of a ``layout`` argument, each checked to be a whole number on the board."""
        if isinstance(layout, str | bytes) or not hasattr(layout, "__iter__"):
            raise ArgumentError(f"Game(layout): expected a collection of mine cells (ints), not {shown(layout)}")
        cells: set[int] = set()
        for position, value in enumerate(layout):
            try:
                cells.add(self.board.check(value, f"Game(layout): mine {position + 1}, cell"))
            except SweeplabError as error:
                raise ArgumentError(str(error)) from None
        return sorted(cells)

    def _set_layout(self, mines: Iterable[int]) -> None:
        if _NUMBERS is not None:
            self._mine, self._number, self._three_bv = _NUMBERS(mines, self.board.cells, self.board.width)
            return
        self._three_bv = None
        mine = [False] * self.board.cells
        number = [0] * self.board.cells
        neighbours = self.board.neighbours
        for c in mines:
            if not mine[c]:
                mine[c] = True
                for n in neighbours[c]:  # each mine adds one to its neighbours' numbers (cheaper than summing per cell)
                    number[n] += 1
        self._mine = mine
        self._number = number

    def _deal_around(self, cell: int) -> None:
        """Deal for the ``safe`` and ``zero`` rules once the first click is known.

        ``zero`` keeps the click and its neighbours mine-free. On a board so dense that the click's whole
        neighbourhood cannot stay free (the rules only check that a corner's can), it keeps just the click
        free, as the ``safe`` rule does, rather than refuse a legal click; :attr:`rule_kept` then tells whether the
        click still opened. ``noguess`` is dealt by its registered dealer with the game's generator.
        """
        if self._dealer is not None:
            mines, self.deal_report = self._dealer(self.rules, cell, self._rng)
            self._set_layout(mines)
            return
        keep = {cell}
        if self.rules.first_click == "zero" and self.board.cells - len(self.board.neighbours[cell]) - 1 >= self.rules.mines:
            keep.update(self.board.neighbours[cell])
        candidates = list(range(self.board.cells))
        for c in sorted(keep, reverse=True):  # the cells outside keep, in order (the highest removed first)
            del candidates[c]
        self._set_layout(_sample(self._rng, candidates, self.rules.mines))

    def _promise_failure(self, cell: int) -> str | None:
        """Why the layout breaks the first-click rule's promise at the first click ``cell``, or None if it keeps it."""
        assert self._mine is not None
        rule = self.rules.first_click
        if rule in ("safe", "xp", "zero", "noguess") and self._mine[cell]:
            return f"the layout has a mine under the first click {self.board.name(cell)}"
        if rule == "noguess" and not self._fixed and not getattr(self.deal_report, "kept", True):
            return str(getattr(self.deal_report, "failure", None) or "the dealer found no layout solvable without guessing")
        if rule in ("zero", "noguess") and self._number[cell] != 0:
            name = self.board.name(cell)
            if self._fixed:
                return f"the first click {name} shows {self._number[cell]}, not 0: the layout was not dealt around it"
            return (
                f"{self.rules.mines} mines leave no room to keep {name} and its {len(self.board.neighbours[cell])} "
                f"neighbours mine-free on a {self.board.width}x{self.board.height} board, so only the click was kept "
                f"safe (it shows {self._number[cell]})"
            )
        return None

    def _xp_move(self, cell: int) -> None:
        """Windows XP: a mine under the first click moves to the first free cell from the top-left."""
        assert self._mine is not None
        if not self._mine[cell]:
            return
        target = next(c for c in range(self.board.cells) if c != cell and not self._mine[c])
        mines = [c for c in range(self.board.cells) if self._mine[c] and c != cell] + [target]
        self._set_layout(mines)

    def _choose_hint(self) -> int:
        """Seed 000's hint: a safe cell whose 5x5 window (clipped to the board) has the lowest mine density.

        The paper says only "a location on the board where mine density is lowest"; we measure the
        density over the window of radius 2 so that a region, not a single cell, is judged, and break
        ties with the game's seeded generator.
        """
        assert self._mine is not None
        w, h = self.board.width, self.board.height
        best: list[int] = []
        best_density = 2.0
        for c in range(self.board.cells):
            if self._mine[c]:
                continue
            x, y = c % w, c // w
            xs = range(max(0, x - HINT_RADIUS), min(w, x + HINT_RADIUS + 1))
            ys = range(max(0, y - HINT_RADIUS), min(h, y + HINT_RADIUS + 1))
            count = sum(self._mine[yy * w + xx] for yy in ys for xx in xs)
            density = count / (len(xs) * len(ys))
            if density < best_density:
                best_density, best = density, [c]
            elif density == best_density:
                best.append(c)
        return self._rng.choice(best)

    # ----- moves -----
    def _check(self, cell: int, kind: str) -> int:
        """``cell`` as an int on the board, while the game is being played; else :class:`IllegalMoveError`."""
        if type(cell) is not int:
            if isinstance(cell, bool) or not hasattr(type(cell), "__index__"):
                raise IllegalMoveError(f"cannot {kind} {shown(cell)}: a cell is a whole number (y * width + x)")
            cell = type(cell).__index__(cell)  # type: ignore[attr-defined]
        if not 0 <= cell < len(self._view):  # an int here (Board.contains, without its type checks)
            raise IllegalMoveError(
                f"cannot {kind} cell {shown(cell)}: it is off the {self.board.width}x{self.board.height} board "
                f"(cells are 0 to {self.board.cells - 1})"
            )
        if self.state is not GameState.PLAYING:
            raise IllegalMoveError(f"cannot {kind} {self.board.name(cell)}: the game is over ({self.state.value})")
        return cell

    def apply(self, move: Move) -> tuple[int, ...]:
        """Play a move; returns the cells it revealed (empty for flags)."""
        if not isinstance(move, Move):
            raise ArgumentError(f"Game.apply(move): expected a Move such as Move.reveal(0), not {shown(move)}")
        if move.kind == "reveal":
            cell = move.cell
            view = self._view
            if (
                self.first_click is not None
                and self.state is GameState.PLAYING
                and 0 <= cell < len(view)
                and view[cell] == COVERED
            ):
                self.history.append(move)  # the common case, without the checks that name a fault
                return self._open(cell)
            return self._reveal(cell, move)
        return getattr(self, move.kind)(move.cell)

    def reveal_queued(self, moves: deque[Move], limit: int) -> None:
        """Play queued reveals in order (taking them off ``moves``), skipping those whose cell is no longer covered,
        until the queue is empty, its next move is not a reveal, the game is over or it has ``limit`` moves: what
        applying them one by one does (a player's certain reveals, without a call per move)."""
        view, history, open_ = self._view, self.history, self._open
        playing = GameState.PLAYING
        while moves and self.state is playing and len(history) < limit:
            move = moves[0]
            if move.kind != "reveal" or self.first_click is None:
                return  # for the caller's general path
            moves.popleft()
            cell = move.cell
            if view[cell] != COVERED:  # revealed since it was queued (or flagged)
                continue
            if cell < 0:
                self.apply(move)  # raises, naming the cell
            history.append(move)
            open_(cell)

    def reveal(self, cell: int) -> tuple[int, ...]:
        """Reveal a covered cell: flood-fills zeros; a mine loses the game."""
        return self._reveal(cell, None)

    def _reveal(self, cell: int, move: Move | None) -> tuple[int, ...]:
        """:meth:`reveal`; ``move`` (a reveal of ``cell``, whose cell is an int already) goes into the history as it is."""
        cell = self._check(cell, "reveal")
        v = self._view[cell]
        if v == FLAGGED:
            raise IllegalMoveError(f"cannot reveal {self.board.name(cell)}: it is flagged (unflag it first)")
        if v != COVERED:
            raise IllegalMoveError(f"cannot reveal {self.board.name(cell)}: it is already revealed (shows {v})")
        if self.first_click is None:
            self._first(cell)
        self.history.append(move if move is not None else Move("reveal", cell))
        return self._open(cell)

    def _first(self, cell: int) -> None:
        """The first reveal's dealing: ``cell`` becomes the first click and the rule deals or moves the layout."""
        self.first_click = cell
        if self._mine is None:
            self._deal_around(cell)
        elif self.rules.first_click == "xp" and not self._fixed:
            self._xp_move(cell)
        self._rule_failure = self._promise_failure(cell)

    def deal_at(self, cell: int) -> None:
        """Make ``cell`` the first click, dealing the layout as its reveal would, without revealing it: for a player
        written in C that reveals it on :meth:`raw`'s copies (:meth:`record_reveals` takes the reveal back). Only
        before the first reveal, on a covered cell."""
        cell = self._check(cell, "deal at")
        if self.first_click is not None or self._view[cell] != COVERED:
            raise IllegalMoveError(f"cannot deal at {self.board.name(cell)}: only before the first reveal, on a covered cell")
        self._first(cell)

    def _open(self, cell: int) -> tuple[int, ...]:
        mine, view, number, neighbours = self._mine, self._view, self._number, self.board.neighbours
        assert mine is not None
        if mine[cell]:
            self.state = GameState.LOST
            self.exploded = cell
            return ()
        value = view[cell] = number[cell]
        if value:  # a number: only the cell opens
            self._safe_left -= 1
            if not self._safe_left:
                self.state = GameState.WON
            return (cell,)
        opened = [cell]
        stack = [cell]  # a zero: flood-fill its region and the numbers around it
        while stack:
            for n in neighbours[stack.pop()]:
                if view[n] == COVERED:
                    view[n] = number[n]
                    opened.append(n)
                    if number[n] == 0:
                        stack.append(n)
        self._safe_left -= len(opened)
        if self._safe_left == 0:
            self.state = GameState.WON
        return tuple(opened)

    def flag(self, cell: int) -> tuple[int, ...]:
        cell = self._check(cell, "flag")
        if self._view[cell] != COVERED:
            what = "already flagged" if self._view[cell] == FLAGGED else "revealed"
            raise IllegalMoveError(f"cannot flag {self.board.name(cell)}: it is {what}")
        self._view[cell] = FLAGGED
        self.history.append(Move("flag", cell))
        return ()

    def unflag(self, cell: int) -> tuple[int, ...]:
        cell = self._check(cell, "unflag")
        if self._view[cell] != FLAGGED:
            raise IllegalMoveError(f"cannot unflag {self.board.name(cell)}: it is not flagged")
        self._view[cell] = COVERED
        self.history.append(Move("unflag", cell))
        return ()

    def chord(self, cell: int) -> tuple[int, ...]:
        """On a revealed number whose flagged neighbours equal it, reveal its other covered neighbours."""
        cell = self._check(cell, "chord")
        v = self._view[cell]
        if v < 0:
            raise IllegalMoveError(f"cannot chord {self.board.name(cell)}: it is not revealed")
        nbrs = self.board.neighbours[cell]
        flags = sum(self._view[n] == FLAGGED for n in nbrs)
        if flags != v:
            raise IllegalMoveError(f"cannot chord {self.board.name(cell)}: it shows {v} but has {flags} flagged neighbours")
        targets = [n for n in nbrs if self._view[n] == COVERED]
        if not targets:
            raise IllegalMoveError(f"cannot chord {self.board.name(cell)}: it has no covered unflagged neighbours")
        self.history.append(Move("chord", cell))
        opened: list[int] = []
        for n in targets:
            if self._view[n] == COVERED:
                opened.extend(self._open(n))
                if self.state is GameState.LOST:
                    break
        return tuple(opened)

    def raw(self) -> tuple[tuple[bool, ...], tuple[int, ...], list[int]]:
        """The layout (a mine flag per cell), its numbers and a copy of the view (-1 covered, -2 flagged, else the
        number shown): for a player written in C that plays on them; :meth:`record_reveals` takes its reveals back.
        Only once the layout is dealt."""
        if self._mine is None:
            raise IllegalMoveError("the layout is dealt at the first reveal under this rule; reveal a cell first")
        return tuple(self._mine), tuple(self._number), self._view.copy()

    def record_reveals(self, cells: list[int], view: list[int], opened: int) -> None:
        """Take back the reveals a player made on :meth:`raw`'s copy of the view, in order: ``cells`` (each covered
        when it was revealed, all but the last safe; the first may be the first click, dealt by :meth:`deal_at`),
        the view they left (it becomes the game's) and the number of cells they opened. The history gains a reveal
        per cell and the state follows: lost if the last cell is a mine, won when no safe cell is left."""
        if not cells:
            return
        assert self._mine is not None and self.state is GameState.PLAYING and self.first_click is not None
        Move.reveal(self.board.cells - 1)  # the shared reveal moves, grown to this board
        self.history.extend(map(_REVEALS.__getitem__, cells))
        self._view = view
        self._safe_left -= opened
        last = cells[-1]
        if self._mine[last]:
            self.state = GameState.LOST
            self.exploded = last
        elif not self._safe_left:
            self.state = GameState.WON

    def observation_at(self, move: int) -> Observation:
        """What the player saw before move ``move`` (0 for the start): the game replayed, dealt as it was (from its
        seed, or on its fixed layout), with its first ``move`` moves."""
        if not 0 <= move <= len(self.history):
            raise ArgumentError(f"Game.observation_at(move): {shown(move)} is not a move of this game (0 to {len(self.history)})")
        replay = Game(self.rules, layout=self.mine_cells()) if self._fixed else Game(self.rules, self.seed)
        for made in self.history[:move]:
            replay.apply(made)
        return replay.observation()

    # ----- what can be read -----
    def is_covered(self, cell: int) -> bool:
        """True when ``cell`` (an int on the board) is covered and not flagged: what a player sees, cheaply (no
        observation is built)."""
        return self._view[cell] == COVERED

    def observation(self) -> Observation:
        """What the player sees now."""
        return Observation._unchecked(self.board, self.rules.mines, tuple(self._view), len(self.history))

    def render(self, axes: bool = True) -> str:
        """The board as text: the player's view while playing (never the hidden layout), the mines once it is over."""
        over = self.over and self._mine is not None
        mines = self.mine_cells() if over else None
        return draw(self.board.width, self.board.height, self._view, mines, self.exploded if over else None, axes)

    def __str__(self) -> str:
        return self.render()

    def __repr__(self) -> str:
        moves = len(self.history)
        return (
            f"<Game {self.rules.spec()} {self.rules.first_click}, seed {self.seed}: {self.state.value}, "
            f"{moves} move{'s' if moves != 1 else ''}>"
        )

    @property
    def moves(self) -> int:
        return len(self.history)

    @property
    def over(self) -> bool:
        return self.state is not GameState.PLAYING

    @property
    def rule_kept(self) -> bool:
        """False when the first-click rule's promise could not be met (see :attr:`rule_failure` for why).

        The rules that can fail are ``zero`` on a board too dense for the click's whole neighbourhood to stay
        mine-free (the click is then only kept safe), ``noguess`` when its dealer gave up (a board too dense to
        clear without guessing; the report says why), and, for a fixed layout, any rule the layout does not obey
        at the click actually made. True before the first click.
        """
        return self._rule_failure is None

    @property
    def rule_failure(self) -> str | None:
        """Why the first-click rule's promise was not met, in words; None when it was (or no click yet)."""
        return self._rule_failure

    @property
    def first_reveal_protected(self) -> bool:
        """True while no cell has been revealed yet and the rule promises the first reveal is not a mine (``safe``,
        ``xp``, ``zero`` and ``noguess`` deal around it or move the mine away): that reveal is certain, not a guess.
        False for a game on a given layout (nothing is dealt or moved) and under ``unsafe`` and ``hint``."""
        protected = ("safe", "xp", "zero", "noguess")
        return self.first_click is None and not self._fixed and self.rules.first_click in protected

    @property
    def revealed(self) -> int:
        """How many cells show a number (0-8): the safe cells opened so far (a mine that was hit stays covered)."""
        return self.board.cells - self.rules.mines - self._safe_left

    @property
    def dealt(self) -> bool:
        """True once the mine layout exists (for ``safe``, ``zero`` and ``noguess`` only after the first reveal)."""
        return self._mine is not None

    def mine_cells(self) -> frozenset[int]:
        """The hidden layout: for the dealer, the scorer and the final rendering, never for a strategy."""
        if self._mine is None:
            raise IllegalMoveError("the layout is dealt at the first reveal under this rule; reveal a cell first")
        return frozenset(i for i, m in enumerate(self._mine) if m)

    def number(self, cell: int) -> int:
        """The true number under a non-mine cell (for rendering and scoring)."""
        cell = self.board.check(cell)
        if self._mine is None:
            raise IllegalMoveError("the layout is not dealt yet")
        return self._number[cell]

    def three_bv(self) -> int:
        """3BV: the least number of clicks that clears the board (openings plus isolated numbers); in C when a
        player's C module has lent its twins (:func:`lend`), counted as the layout was dealt."""
        if self._mine is None:
            raise IllegalMoveError("the layout is not dealt yet")
        if self._three_bv is not None:
            return self._three_bv
        if _THREE_BV is not None:
            return int(_THREE_BV(self._mine, self._number, self.board.width, self.board.height))
        return self.three_bv_in_python()

    def three_bv_in_python(self) -> int:
        """:meth:`three_bv` in Python (what the C twin is tested against)."""
        if self._mine is None:
            raise IllegalMoveError("the layout is not dealt yet")
        mine, number, neighbours = self._mine, self._number, self.board.neighbours
        marked = [False] * self.board.cells
        clicks = 0
        for c in range(self.board.cells):
            if mine[c] or number[c] != 0 or marked[c]:
                continue
            clicks += 1
            marked[c] = True
            stack = [c]
            while stack:
                for n in neighbours[stack.pop()]:
                    if not marked[n]:
                        marked[n] = True
                        if number[n] == 0:
                            stack.append(n)
        return clicks + sum(1 for c in range(self.board.cells) if not mine[c] and not marked[c])

    @classmethod
    def replay(cls, rules: Rules, seed: int, moves: Iterable[Move]) -> Game:
        """A new game with the same rules and seed and the given moves applied."""
        game = cls(rules, seed)
        if isinstance(moves, str | bytes) or not hasattr(moves, "__iter__"):
            raise ArgumentError(f"Game.replay(moves): expected a sequence of Move, not {shown(moves)}")
        for move in moves:
            game.apply(move)
        return game
