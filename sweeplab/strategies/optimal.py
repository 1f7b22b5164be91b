"""The optimal player [optimal] on small boards: in every position, the move that wins the most layouts.

It stands on :mod:`sweeplab.analysis.optimal.search`, which searches every layout of the board; it is for boards
whose layouts all fit in memory (``max_layouts``), as a yardstick for other strategies and as a perfect hint.
"""

from __future__ import annotations

from collections import OrderedDict
from fractions import Fraction

from sweeplab.analysis.optimal.search import MAX_LAYOUTS, RULES, OptimalSearch
from sweeplab.core.game import Move
from sweeplab.core.observation import FLAGGED, Observation
from sweeplab.strategies.base import Explanation, Strategy, StrategyError, StrategyLimitError

#: Searches kept per process, by (width, height, mines): their tables are what makes later moves and games cheap.
_CACHE: OrderedDict[tuple[int, int, int], OptimalSearch] = OrderedDict()
CACHED_SEARCHES = 4


def shared_search(width: int, height: int, mines: int, max_layouts: int) -> OptimalSearch:
    """The process's search for this board (built on first use; the least recently used of more than a few is dropped)."""
    key = (width, height, mines)
    search = _CACHE.get(key)
    if search is None:
        search = OptimalSearch(width, height, mines, max_layouts=max_layouts)
        _CACHE[key] = search
        while len(_CACHE) > CACHED_SEARCHES:
            _CACHE.popitem(last=False)
    else:
        _CACHE.move_to_end(key)
    return search


class OptimalStrategy(Strategy):
    """Play optimally: reveal a certainly safe cell when there is one (never worse than anything else), otherwise the
    cell whose reveal wins the most of the layouts still possible, with optimal play after it.

    The first-click rule must be given (``rule``, default ``safe``) because the strategy sees only the board: under
    ``zero`` the best first click differs (the deal depends on it); ``unsafe`` and ``safe`` share theirs; under ``xp``
    the layouts' weights depend on the first click, so the strategy must make it itself. The first move of the first
    game on a board runs the whole search (kept for later games in the process). Ties go to the lowest cell index.
    Flags are ignored (treated as covered: they say nothing the numbers do not); a flagged cell it wants to reveal is
    unflagged first. A board with more than
    ``max_layouts`` layouts is refused. Guesses are logged as "first" or "educated" with their exact chance of being
    safe; the explanation gives the move's exact win probability.
    """

    name = "optimal"
    source = "sweeplab's exact optimal-play search over information states (sweeplab.analysis.optimal.search)"
    summary = "the move that wins the most layouts, by searching every layout (small boards only)"

    def __init__(self, seed: int | None = None, rule: str = "safe", max_layouts: int = 1_000_000) -> None:
        super().__init__(seed)
        if rule not in RULES:
            raise StrategyError(f"optimal: rule {rule!r} is not one it can play; choose one of {', '.join(RULES)}")
        if not 1 <= max_layouts <= MAX_LAYOUTS:  # past that the layout lists would not fit in memory
            raise StrategyError(f"optimal: max_layouts must be between 1 and {MAX_LAYOUTS:,}, not {max_layouts}")
        self.rule = rule
        self.max_layouts = max_layouts
        self._layouts: list[int] | None = None
        self._revealed = 0
        self._first: int | None = None

    def _search(self, observation: Observation) -> OptimalSearch:
        return self.board_search(observation.width, observation.height, observation.mines)

    def board_search(self, width: int, height: int, mines: int) -> OptimalSearch:
        """The search this player's moves stand on for a board (shared in the process; give it a ``progress``
        callback to follow the first move's search, which is the whole of the work)."""
        try:
            return shared_search(width, height, mines, self.max_layouts)
        except ValueError as error:
            raise StrategyLimitError(f"optimal: {error} (raise max_layouts to try anyway)") from None

    def choose(self, observation: Observation) -> Move:
        search = self._search(observation)
        view = observation.view
        if observation.is_start():
            result = search.result(self.rule)
            cell = result.best[0]
            self._first = cell
            explanation = Explanation(
                f"the first click that wins the most layouts under the {self.rule} rule: {result.wins} of {result.layouts}",
                {"win_probability": str(result.value), "best_first_clicks": list(result.best)},
            )
            safety = 1.0 if self.rule != "unsafe" else (search.cells - search.mines) / search.cells
            return self.guess(observation, cell, "first", safety, explanation)
        revealed = 0
        code = 0
        for c, v in enumerate(view):
            if v >= 0:
                revealed |= 1 << c
                code |= (v + 1) << (4 * c)
        layouts = self._consistent(search, view, revealed)
        union = 0
        for layout in layouts:
            union |= layout
        safe = search.full & ~revealed & ~union
        if safe:
            cell = (safe & -safe).bit_length() - 1
            return Move.unflag(cell) if view[cell] == FLAGGED else Move.reveal(cell)
        namespace = self._first if self.rule == "xp" and self._first is not None else -1
        values = search.move_values(revealed, code, layouts, namespace)
        wins, cell, _ = values[0]
        if view[cell] == FLAGGED:
            return Move.unflag(cell)  # the next look reveals it
        safe_in = sum(1 for layout in layouts if not layout >> cell & 1)
        explanation = Explanation(
            f"wins {wins} of the {len(layouts)} layouts still possible with optimal play after it "
            f"(safe in {safe_in}); the best of {len(values)} cells",
            {"win_probability": str(Fraction(wins, len(layouts))), "safety": str(Fraction(safe_in, len(layouts)))},
        )
        return self.guess(observation, cell, "educated", safe_in / len(layouts), explanation)

    def _consistent(self, search: OptimalSearch, view: tuple[int, ...], revealed: int) -> list[int]:
        """The layouts (in the search's form) that agree with the view, narrowed from the last move's."""
        if self._layouts is None:
            if self.rule == "xp":
                if self._first is None:
                    raise StrategyError("optimal[rule=xp] must make the first click itself: the xp deal depends on it")
                self._layouts = search.dealt_encoded("xp", self._first)
            else:
                self._layouts = search.every_encoded()
        new = revealed & ~self._revealed
        numbers_mask = 0
        numbers = 0
        rest = new
        while rest:
            low = rest & -rest
            rest ^= low
            c = low.bit_length() - 1
            numbers_mask |= 15 << (search.cells + 4 * c)
            numbers |= view[c] << (search.cells + 4 * c)
        layouts = [e for e in self._layouts if not e & new and e & numbers_mask == numbers]
        if not layouts:
            raise StrategyError("optimal: no layout agrees with the numbers shown (the position is inconsistent)")
        self._layouts, self._revealed = layouts, revealed
        return layouts
