"""The search player [search]: ``best`` with a wider exhaustive search, and its close guesses settled by rollouts
when asked (``rollouts=N``).

Where ``best`` would guess, the cells it considers (its candidates, within ``tolerance`` of the safest or raised by
their fifty-fifty influence) are ranked by ``best``'s own look-ahead; the first ``width`` of them are played out on
layouts drawn exactly from the posterior by ``exact``'s C game loop (:mod:`.rollouts`: common random numbers,
sequential halving over ``rollouts`` games a decision). The cell with the most wins is played only when it beats
``best``'s choice by ``margin`` paired standard errors (a prior for ``best``, whose choice is not noise); otherwise
``best``'s. The exhaustive endgame search starts from more layouts than ``best``'s (``endgame_layouts``, default
5,000, with ``endgame_nodes`` 100,000 positions). On a board with at most ``first_layouts`` layouts (default 10,000)
one search over all of them (:class:`WholeBoard`, kept per process) chooses every move of every game, the first
click included: under ``unsafe`` and ``safe`` the search from the empty board (the two share the best first click:
the outcomes of a click differ only by the layouts where it is a mine, the same number for every cell), under
``zero`` the click whose dealt layouts it wins the largest share of.

The default plays no rollouts (``rollouts=0``): at 40 a decision, the default until b36c06e, ``search`` lost to
``best`` on fresh layouts under ``zero`` (by more than two standard errors, ``docs/results/strongest.md``), and more
rollouts did not help on the development layouts; with none it is ``best`` with the wider endgame search and, on
small boards, the whole-board search. ``rollouts=N`` turns them on.

Choices the design leaves open, made here: the rollout's base policy is ``exact`` (its whole game in C, about a
millisecond on expert), not ``best`` (ten times the CPU); a rollout the loop cannot finish counts as half a win;
``best``'s candidates with no look-ahead score (pruned) are ranked by their bound. The budget counts rollouts, so a
game is the same for a given seed on any machine; ``ms`` adds a cap in CPU milliseconds per decision, at the cost of
that determinism. Positions with flags, estimated positions and components with more than ``cap`` count vectors
are left to ``best``.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from sweeplab.analysis import DEFAULT_BUDGET, Budget, Probabilities
from sweeplab.analysis.exact.listing import LayoutSampler
from sweeplab.analysis.optimal.layouts import zero_keeps_neighbours
from sweeplab.core.game import Move
from sweeplab.core.observation import COVERED, FLAGGED, Observation
from sweeplab.core.rules import Rules
from sweeplab.strategies.base import Explanation, StrategyError
from sweeplab.strategies.best import BestStrategy
from sweeplab.strategies.best.endgame import UNLIMITED, Decision, Endgame, SearchBudgetExceeded, list_layouts
from sweeplab.strategies.best.lookahead import Candidate
from sweeplab.strategies.search.rollouts import PLAY_EXACT, Rollouts, halve, paired


@dataclass
class WholeBoard:
    """The endgame search over every layout of a small board, kept for every game the process plays on it.

    Its first search is from the empty board, within ``first_nodes`` positions: under ``unsafe`` and ``safe`` its
    answer is the first click (the two rules share the best one). Once that search has finished, every later
    position of a game on the board is a set of those layouts (:meth:`Endgame.known`: under ``unsafe``, ``safe`` and
    ``zero`` alike, every layout that agrees with what is shown is equally likely after the first click), searched
    without a node budget: the positions the first search met are in its memo, and an unbounded search gives the
    same exact answer whatever the memo holds, so every game plays the same moves in any order.
    """

    endgame: Endgame
    first: Decision | None  # the first click under unsafe and safe; None under the other rules

    @classmethod
    def searched(cls, empty: Observation, listed: tuple[list[int], np.ndarray], rules: Rules, nodes: int) -> WholeBoard | None:
        """The board's search, its first search made (None when that ran past ``nodes`` positions)."""
        endgame = Endgame(empty, *listed)
        try:
            first = endgame.decide(endgame.all, nodes)
            if rules.first_click == "zero":
                first = cls.zero_click(endgame, rules, nodes)
        except SearchBudgetExceeded:
            return None
        return cls(endgame, first if rules.first_click in ("unsafe", "safe", "zero") else None)

    @staticmethod
    def zero_click(endgame: Endgame, rules: Rules, nodes: int) -> Decision:
        """Under ``zero``: the click whose dealt layouts (none with a mine on it or, where the board leaves room, on
        its neighbours; :func:`~sweeplab.analysis.optimal.layouts.dealt_layouts`' rule) optimal play wins most often,
        as a share of them; the lowest cell among equals. Each click is searched within ``nodes`` positions."""
        board = rules.board
        best: tuple[Fraction, int, int, int] | None = None
        for cell in range(board.cells):  # the empty board's columns are its cells, in order
            keep = [cell, *board.neighbours[cell]] if zero_keeps_neighbours(rules, cell) else [cell]
            dealt = endgame.all
            for c in keep:
                dealt &= ~endgame.mine[c]
            n = dealt.bit_count()
            if not n:
                continue
            wins = endgame.value(dealt, cell, nodes)
            if best is None or Fraction(wins, n) > best[0]:
                best = (Fraction(wins, n), cell, wins, n)
        assert best is not None
        return Decision(best[1], best[2], best[3], ())


#: (width, height, mines, rule, first_layouts, first_nodes) -> the board's whole search (None: too many layouts or
#: past its first budget)
_WHOLE_BOARDS: dict[tuple[int, int, int, str, int, int], WholeBoard | None] = {}


class SearchStrategy(BestStrategy):
    """``best`` with a wider exhaustive search, its close guesses settled by rollouts when asked (see the module
    docstring).

    Options, beside ``best``'s: ``rollouts`` (games played out per decision, over all its candidates; 0, the
    default, plays ``best``'s guess), ``width`` (the most candidates played out, 2 to 32), ``margin`` (paired
    standard errors by which a challenger must beat ``best``'s choice, at least 0), ``cap`` (the most count vectors
    of a component the sampler lists), ``ms`` (a cap in CPU milliseconds per decision; 0, the default, none),
    ``horizon`` (guesses a rollout plays after the candidate before it scores the next guess's safety; 0, to the end
    of the game).
    """

    name = "search"
    source = "sweeplab's best, its close guesses played out on exact posterior draws by exact's C game loop"
    summary = "best with a wider endgame search (whole-board on small boards); rollouts=N plays its close guesses out"

    def __init__(
        self,
        seed: int | None = None,
        rollouts: int = 0,
        width: int = 3,
        margin: float = 1.0,
        cap: int = 20_000,
        ms: float = 0.0,
        horizon: int = 0,
        first_layouts: int = 10_000,
        first_nodes: int = 10_000_000,
        endgame_layouts: int = 5_000,
        endgame_nodes: int = 100_000,
        budget: Budget = DEFAULT_BUDGET,
        **options: object,
    ) -> None:
        super().__init__(seed, endgame_layouts=endgame_layouts, endgame_nodes=endgame_nodes, budget=budget, **options)  # type: ignore[arg-type]
        if self.depth != 1:  # the two-ply look-ahead scores positions looked ahead to with look_ahead: no rollouts there
            raise StrategyError("strategy 'search': depth must be 1 (its rollouts take the place of the second ply)")
        for option, value, low, high in (
            ("rollouts", rollouts, 0, 10**7),
            ("width", width, 2, 32),
            ("cap", cap, 1, 10**7),
            ("horizon", horizon, 0, 10**4),
            ("first_layouts", first_layouts, 0, 10**6),
            ("first_nodes", first_nodes, 0, 10**12),
        ):
            if not low <= value <= high:
                raise StrategyError(f"strategy 'search': {option} must be {low:,} to {high:,}, not {value:,}")
        if not margin >= 0 or not ms >= 0:
            raise StrategyError(f"strategy 'search': margin and ms must be at least 0, not {margin} and {ms}")
        self.rollouts, self.width, self.margin, self.cap, self.ms = rollouts, width, margin, cap, ms
        self.horizon, self.first_layouts, self.first_nodes = horizon, first_layouts, first_nodes
        self.decisions = 0  # decisions settled by rollouts
        self.switched = 0  # ... where the rollouts overruled best's choice
        self.played = 0  # rollouts played
        #: the last decision's rollouts where they overruled best: (its cell, its wins, best's, the paired SE, the
        #: layouts, the figures), for its explanation
        self._overruled: tuple[int, float, float, float, int, dict[str, object]] | None = None

    def first_move(self, observation: Observation) -> Move:
        rule = self.rules.first_click if self.rules is not None else "safe"
        whole = self.whole_board(observation)
        if whole is not None and whole.first is not None and rule in ("unsafe", "safe", "zero"):
            result = self.analyzer.analyze_patiently(observation)
            return self.endgame_guess(observation, result, whole.first)
        return super().first_move(observation)

    def whole_board(self, observation: Observation) -> WholeBoard | None:
        """The search over every layout of the board (see :class:`WholeBoard`), made once per process, board and
        rule; None where the board has more than ``first_layouts`` layouts, its first search ran past
        ``first_nodes`` positions, or the rule is not one after whose first click every layout that agrees with what
        is shown is equally likely (``xp`` moves a mine, ``hint`` and ``noguess`` choose the layout)."""
        board = observation.board
        rule = self.rules.first_click if self.rules is not None else "safe"
        if not self.endgame or rule not in ("unsafe", "safe", "zero"):
            return None
        if math.comb(board.cells, observation.mines) > self.first_layouts:
            return None
        key = (board.width, board.height, observation.mines, rule, self.first_layouts, self.first_nodes)
        if key not in _WHOLE_BOARDS:
            empty = Observation(board, observation.mines, (COVERED,) * board.cells)
            listed = list_layouts(self.analyzer.analyze_patiently(empty), self.first_layouts)
            rules = self.rules if self.rules is not None else Rules(board.width, board.height, observation.mines, "safe")
            _WHOLE_BOARDS[key] = None if listed is None else WholeBoard.searched(empty, listed, rules, self.first_nodes)
        return _WHOLE_BOARDS[key]

    def pick_guess(self, observation: Observation, result: Probabilities) -> Move:
        whole = self.whole_board(observation) if result.exact and FLAGGED not in observation.view else None
        if whole is not None:
            S = whole.endgame.known(observation)
            if S.bit_count() == result.layouts:  # the position's layouts, each once: the search's answer is exact
                self.searches += 1
                return self.endgame_guess(observation, result, whole.endgame.decide(S, UNLIMITED))
        return super().pick_guess(observation, result)

    def look_ahead(self, observation: Observation, result: Probabilities, candidates: list[Candidate]) -> Candidate:
        chosen = super().look_ahead(observation, result, candidates)
        self._overruled = None
        if self.rollouts <= 0 or PLAY_EXACT is None or len(candidates) < 2 or not result.exact:
            return chosen
        if FLAGGED in observation.view:
            return chosen
        sampler = LayoutSampler.build(result, self.cap)
        if sampler is None:
            return chosen
        others = sorted(
            (k for k in candidates if k is not chosen),
            key=lambda k: -(k.score if k.score is not None and not k.pruned else k.bound),
        )
        pool = [chosen, *others[: self.width - 1]]
        # a generator of its own per decision, seeded from the player's: the same game plays the same moves
        rng = random.Random(self.rng.getrandbits(64))
        rollouts = Rollouts(observation, sampler, frozenset(result.mines), rng, self.analyzer.budget, self.horizon)
        deadline = time.thread_time() + self.ms / 1000 if self.ms > 0 else None
        arms = halve(rollouts, [k.cell for k in pool], chosen.cell, self.rollouts, deadline)
        self.decisions += 1
        self.played += rollouts.played
        incumbent = next(a for a in arms if a.cell == chosen.cell)
        challenger = max((a for a in arms if a.cell != chosen.cell), key=lambda a: a.mean, default=None)
        if challenger is None:
            return chosen
        gain, se = paired(challenger, incumbent)
        if gain > 0 and gain > self.margin * se:
            self.switched += 1
            figures = {"rollouts": rollouts.played, "layouts": len(rollouts.layouts), "unfinished": rollouts.unfinished,
                       "wins": {observation.board.name(a.cell): round(a.mean, 4) for a in arms}}  # fmt: skip
            self._overruled = (challenger.cell, challenger.mean, incumbent.mean, se, len(incumbent.outcomes), figures)
            return next(k for k in pool if k.cell == challenger.cell)
        return chosen

    def _explain(self, observation: Observation, chosen: Candidate, candidates: list[Candidate]) -> Explanation:
        explanation = super()._explain(observation, chosen, candidates)
        if self._overruled is None or self._overruled[0] != chosen.cell:
            return explanation
        _, won, incumbent, se, n, rollouts = self._overruled
        text = (
            f"rollouts: {observation.board.name(chosen.cell)} won {won:.1%} of {n} played-out games against "
            f"{incumbent:.1%} for best's choice (paired SE {se:.1%}); " + explanation.text
        )
        figures = dict(explanation.figures)
        figures["rollouts"] = rollouts
        return Explanation(text, figures)
