"""Exact optimal play on small boards: the highest probability any player can win, by searching what the player sees.

The model (stated once, used by the search, the ``optimal`` strategy and ``sweeplab evaluate``):

- The layouts are those the game deals for the first click under each rule (:func:`dealt_layouts`, in
  :mod:`sweeplab.analysis.optimal.layouts`; a multiset for ``xp``; ``hint`` is not modelled).
- The player only reveals: flags change nothing the player knows, so they cannot change a win probability. A game is
  won when every safe cell is revealed, lost at the first mine.
- An information state is what the player sees: the revealed cells and their numbers. The layouts still possible are
  those dealt (for the first click played) that agree with it, each with its dealing weight; a move's outcomes are
  grouped by what the player then sees.
- ``W(state)`` is the number of those layouts (counted with weight) that optimal play from the state wins, searched by
  :class:`sweeplab.analysis.optimal.gametree.InformationSearch` (its docstring says how the search is kept small, each step
  keeping every value exact; the tests check it against a plain game-tree search). The win probability is ``W``
  divided by the number of layouts: an exact fraction, integers throughout.
- After the first click, under ``unsafe``, ``safe`` and ``zero`` every layout that agrees with what is shown is equally
  likely (what the deal guaranteed, a free click or a free neighbourhood, is visible on the board), so one table of
  values serves all three rules and every first click; ``xp``'s weights depend on the first click, so its states are
  kept per first click (and its moves are not folded by symmetry: its dealing prefers the top-left). Under ``unsafe``
  and ``safe`` the first click's outcomes are the same, so the best first click is the same and the values differ by
  the factor ``cells / (cells - mines)``.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from sweeplab.analysis.optimal.gametree import KERNEL, InformationSearch, SearchBudgetExceeded, SearchError, Stats
from sweeplab.analysis.optimal.layouts import RULES, dealt_layouts, layout_masks, symmetries, xp_move, zero_keeps_neighbours
from sweeplab.core.geometry import Board
from sweeplab.core.numbers import count_text
from sweeplab.core.rules import Rules

__all__ = [
    "KERNEL",
    "MAX_LAYOUTS",
    "RULES",
    "FirstClick",
    "OptimalResult",
    "OptimalSearch",
    "SearchBudgetExceeded",
    "SearchError",
    "Stats",
    "dealt_layouts",
    "layout_masks",
    "symmetries",
    "xp_move",
    "zero_keeps_neighbours",
]

#: The most layouts a search may start from: their lists must fit in memory (about 40 bytes each, several copies).
MAX_LAYOUTS = 50_000_000


@dataclass(frozen=True)
class FirstClick:
    """One first click's result: the layouts it wins (counted with dealing weight) out of the layouts dealt for it.

    ``exact`` is False when the search stopped as soon as it proved the click no better than the best one found;
    ``wins`` is then an upper bound. ``cells`` lists the click and the cells a board symmetry maps it to (same value).
    """

    cell: int
    wins: int
    layouts: int
    exact: bool = True
    cells: tuple[int, ...] = ()

    @property
    def value(self) -> Fraction:
        return Fraction(self.wins, self.layouts)


@dataclass(frozen=True)
class OptimalResult:
    """The best win probability any player can reach on ``rules``, with the search's cost.

    ``wins``/``layouts`` is the optimal win probability in lowest terms' numerator and the count it was measured
    over: under ``unsafe`` every layout (the first click can lose), under ``safe``/``zero`` the layouts dealt for the best
    first click. ``states`` is the number of information states the search expanded (a state searched twice with
    different bounds counts twice), ``stored`` the distinct states it remembers, ``seconds`` wall-clock time.
    """

    rules: Rules
    wins: int
    layouts: int
    best: tuple[int, ...]
    first_clicks: tuple[FirstClick, ...]
    states: int
    stored: int
    seconds: float
    symmetry: bool

    @property
    def value(self) -> Fraction:
        return Fraction(self.wins, self.layouts)


class OptimalSearch(InformationSearch):
    """The optimal-play search on one board size and mine count; its table of values is shared by every rule and
    every call, so asking for ``safe`` after ``unsafe`` (or the strategy's moves after :meth:`solve`) costs little.

    ``symmetry=False`` turns the folding of symmetric states and moves off (for the test that it changes nothing).
    ``kernel`` chooses the C search (``sweeplab.analysis.optimal._gametree``, the same search step for step, on boards of up to
    64 cells) or the pure-Python one; by default the C one when it is built and ``SWEEPLAB_PURE_PYTHON`` is not set.
    ``deadline`` (a ``time.perf_counter`` value) and ``max_states`` bound the work; past either the search raises
    :class:`SearchBudgetExceeded`. ``progress(stats)`` is called every ``progress_every`` expanded states.

    >>> search = OptimalSearch(4, 4, 4)
    >>> search.solve("unsafe").value
    Fraction(961, 1820)
    """

    def __init__(
        self,
        width: int,
        height: int,
        mines: int,
        *,
        symmetry: bool = True,
        max_layouts: int = MAX_LAYOUTS,
        kernel: bool | None = None,
    ) -> None:
        board = Board(width, height)
        Rules(width, height, mines, "unsafe")  # validates the mine count
        self.width, self.height = width, height
        self.total = math.comb(board.cells, mines)
        if self.total > max_layouts:
            raise SearchError(
                f"{width}x{height} with {mines} mines has {count_text(self.total, grouped=True)} layouts, more than the "
                f"{max_layouts:,} this search keeps in memory"
            )
        self.symmetry = symmetry
        super().__init__(board, mines, symmetries(board) if symmetry else [tuple(range(board.cells))], kernel)
        self._every: list[int] | None = None
        self._every_encoded: list[int] | None = None
        self._results: dict[str, OptimalResult] = {}

    # ----- layouts -----
    def every_layout(self) -> list[int]:
        """All ``C(cells, mines)`` layouts as bitmasks (computed once)."""
        if self._every is None:
            self._every = layout_masks(self.cells, self.mines)
        return self._every

    def every_encoded(self) -> list[int]:
        """:meth:`every_layout` in the search's form (computed once)."""
        if self._every_encoded is None:
            self._every_encoded = self.encode(self.every_layout())
        return self._every_encoded

    def dealt_encoded(self, rule: str, click: int) -> list[int]:
        """:func:`dealt_layouts` for this board, in the search's form."""
        rules = self.rules(rule)
        if rule == "unsafe":
            return self.every_encoded()
        if rule == "xp":
            return self.encode(dealt_layouts(rules, click, self.every_layout()))
        dealt_layouts(rules, click, [])  # checks the rule and the click
        keep = 1 << click
        if rule == "zero" and zero_keeps_neighbours(rules, click):
            keep |= self.nbr[click]
        return [e for e in self.every_encoded() if not e & keep]

    def rules(self, rule: str) -> Rules:
        return Rules(self.width, self.height, self.mines, rule)

    def dealt(self, rule: str, click: int) -> list[int]:
        """:func:`dealt_layouts` for this board."""
        return dealt_layouts(self.rules(rule), click, self.every_layout())

    # ----- public entry points -----
    def first_click_orbits(self, rule: str) -> list[tuple[int, ...]]:
        """The first clicks worth trying: one per orbit of the board's symmetries (every cell for ``xp``)."""
        if rule == "xp" or not self.symmetry:
            return [(c,) for c in range(self.cells)]
        perms = symmetries(self.board)
        seen: set[int] = set()
        out = []
        for c in range(self.cells):
            if c in seen:
                continue
            orbit = tuple(sorted({p[c] for p in perms}))
            seen.update(orbit)
            out.append(orbit)
        return out

    def first_click(self, rule: str, click: int, alpha: int = -1) -> tuple[int, int, bool]:
        """(wins, layouts dealt, exact) for first click ``click`` under ``rule``; ``wins`` is exact when above ``alpha``."""
        dealt = self.dealt_encoded(rule, click)
        namespace = click if rule == "xp" else -1
        value = self._top_move(0, 0, dealt, click, alpha, namespace)
        return value, len(dealt), value > alpha

    def solve(
        self,
        rule: str,
        *,
        every_first_click: bool = False,
        on_click: Callable[[FirstClick], None] | None = None,
    ) -> OptimalResult:
        """The optimal win probability under ``rule``. With ``every_first_click`` every first click's value is exact
        (slower: no click is cut short by a better one found earlier)."""
        rules = self.rules(rule)
        dealt_layouts(rules, 0, [])  # refuses a rule it does not model
        start = time.perf_counter()
        states0 = self.stats.states
        orbits = self.first_click_orbits(rule)
        best: Fraction | None = None
        results: list[FirstClick] = []
        for orbit in orbits:
            click = orbit[0]
            layouts = self._dealt_count(rules, click)
            alpha = -1 if every_first_click or best is None else math.floor(best * layouts)
            wins, layouts, exact = self.first_click(rule, click, alpha)
            found = FirstClick(click, wins, layouts, exact, orbit)
            results.append(found)
            if exact and (best is None or found.value > best):
                best = found.value
            if on_click is not None:
                on_click(found)
        assert best is not None
        winners = [r for r in results if r.exact and r.value == best]
        top = winners[0]
        return OptimalResult(
            rules=rules,
            wins=top.wins,
            layouts=top.layouts,
            best=tuple(sorted(c for r in winners for c in r.cells)),
            first_clicks=tuple(results),
            states=self.stats.states - states0,
            stored=self.stored,
            seconds=time.perf_counter() - start,
            symmetry=self.symmetry,
        )

    def policy_tree(self, rule: str, click: int, depth: int) -> list[dict[str, Any]]:
        """The optimal policy after first click ``click``, ``depth`` moves deep: for each thing the click can show (the
        cells revealed, with every certainly safe cell revealed too, and their numbers), the optimal next reveal and
        its exact win probability, then the same for what that reveal can show."""
        namespace = click if rule == "xp" else -1
        children = self._reveal(0, 0, self.dealt_encoded(rule, click), click)
        return [self._policy_node(0, r, code, group, namespace, depth) for r, code, group in children]

    def _policy_node(
        self, before: int, revealed: int, code: int, layouts: list[int], namespace: int, depth: int
    ) -> dict[str, Any]:
        shows = {}
        for c in range(self.cells):
            if revealed >> c & 1 and not before >> c & 1:
                x, y = self.board.xy(c)
                shows[f"{x},{y}"] = (code >> (4 * c) & 15) - 1
        node: dict[str, Any] = {"shows": shows, "layouts": len(layouts)}
        if (self.full & ~revealed).bit_count() == self.mines or len(layouts) == 1:
            node["won"] = True
            return node
        wins, cell, _ = self.move_values(revealed, code, layouts, namespace)[0]
        node["move"] = "{},{}".format(*self.board.xy(cell))
        node["wins"] = wins
        node["win_probability"] = str(Fraction(wins, len(layouts)))
        if depth > 1:
            node["then"] = [
                self._policy_node(revealed, r, c, g, namespace, depth - 1)
                for r, c, g in self._reveal(revealed, code, layouts, cell)
            ]
        return node

    def result(self, rule: str) -> OptimalResult:
        """:meth:`solve` for ``rule``, computed once per search."""
        found = self._results.get(rule)
        if found is None:
            found = self._results[rule] = self.solve(rule)
        return found

    def _dealt_count(self, rules: Rules, click: int) -> int:
        cells, mines = self.cells, self.mines
        if rules.first_click in ("unsafe", "xp"):
            return math.comb(cells, mines)
        free = 1
        if rules.first_click == "zero" and zero_keeps_neighbours(rules, click):
            free += len(self.board.neighbours[click])
        return math.comb(cells - free, mines)

    def move_value(self, revealed: int, code: int, layouts: list[int], cell: int, namespace: int = -1) -> int:
        """``W`` of revealing ``cell`` in a closed state (``layouts`` in the search's form), exactly: the layouts that
        revealing it and then playing optimally wins."""
        return self._top_move(revealed, code, layouts, cell, -1, namespace)

    def move_values(
        self, revealed: int, code: int, layouts: list[int], namespace: int = -1, exact: bool = False
    ) -> list[tuple[int, int, bool]]:
        """(wins, cell, exact) for every move of a closed state (``layouts`` in the search's form), best first: the
        first is exact and optimal. With ``exact`` every move's value is exact; otherwise a move found no better than
        the best carries an upper bound (``exact`` False) and sorts after exact moves of the same value."""
        moves = self._safe_counts(revealed, layouts)
        moves.sort(key=lambda m: (-m[0], m[1]))
        out: list[tuple[int, int, bool]] = []
        best = -1
        for safe, cell in moves:
            if not exact and safe <= best:
                out.append((safe, cell, False))
                continue
            alpha = -1 if exact else best
            value = self._top_move(revealed, code, layouts, cell, alpha, namespace)
            out.append((value, cell, value > alpha))
            best = max(best, value)
        out.sort(key=lambda m: (-m[0], not m[2], m[1]))
        return out
