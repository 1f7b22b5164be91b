"""The strongest player [best]: certain cells first, like ``exact``; the work is in the guess.

Techniques, each a named option (on by default) so that its worth can be measured by turning it off:

- ``lookahead``: among cells nearly as safe as the safest (within ``tolerance``), play the one whose reveal most likely
  leaves a good position (:mod:`.lookahead`); ``progress`` says which certainly safe cells make a position good
  (``living``, JSMinesweeper's rule, the default; ``any``, the rule before it). ``depth=2`` (off by default) looks
  one guess further for the ``deep_top`` best cells (:meth:`BestStrategy.look_deeper`); it costs seven to ten times
  the CPU and won no more games (0.35 ± 0.18 points fewer on 10,000 expert games; docs/results.md).
- ``dead``: a cell whose number is already determined if it is safe tells nothing new; living cells go first.
- ``influence``: a cell that may end in a 50/50 trap (two cells no number can tell apart) is scored up by the share
  of its risk that would have to be taken anyway (JSMinesweeper's "50/50 influence", :mod:`.influence`).
  ``influence_bound`` (off by default) caps the safety the influence may trade away: only cells at most that much
  less safe than the safest get a factor or are added for it. At 0.05 it won -0.06 ± 0.04 points against the
  unbounded influence over 100,000 paired expert games (docs/results/best.md), so it stays off.
- ``forced``: an isolated set that no future information can change (seed 000's craps shoot, e.g. a 50/50 with no
  covered cell around it) is taken as soon as nothing certain is left, rather than after other guesses.
- ``endgame``: when few layouts remain, search the whole game tree and play the move with the highest exact chance
  of winning (:mod:`.endgame`); past its budget it falls back to the rules above.
- ``opening``: the first click from measured data for the board and first-click rule (:mod:`.opening`).

Every guess carries an :class:`~sweeplab.strategies.base.Explanation` with its figures.
"""

from __future__ import annotations

from functools import cmp_to_key
from typing import ClassVar

from sweeplab.analysis import DEFAULT_BUDGET, Analyzer, Budget, CrapsShoot, Probabilities
from sweeplab.analysis.exact.listing import list_component, list_layouts
from sweeplab.core.errors import UndecidedError
from sweeplab.core.game import Move
from sweeplab.core.observation import COVERED, Observation
from sweeplab.core.rules import Rules
from sweeplab.strategies.base import Explanation, Strategy, StrategyError
from sweeplab.strategies.best.endgame import Decision, Endgame, SearchBudgetExceeded
from sweeplab.strategies.best.influence import Influence, Unweighable, factor_of
from sweeplab.strategies.best.lookahead import PROGRESS_MODES, Candidate, evaluate
from sweeplab.strategies.exact import TIE, Proved, preferred_cell

#: The most layouts ``endgame_layouts`` may ask the search to start from: it holds every layout in memory (a byte per
#: layout per covered cell while listing them, then a bit per layout per number a cell can show: about 100 MB for an
#: expert position at this bound).
MAX_ENDGAME_LAYOUTS = 100_000

FORCED_TEXT = "forced: an isolated set of {n} cells that no other cell can inform must be guessed some time; taking it now"


class BestStrategy(Strategy):
    """Certain safe cells first; otherwise the guess most likely to win, by the techniques in the module docstring.

    Options: ``lookahead``, ``influence``, ``dead``, ``forced``, ``endgame``, ``opening`` (each True by default;
    ``influence`` acts through the look-ahead's score), ``tolerance``
    (a cell is a look-ahead candidate when its safety is at least ``(1 - tolerance)`` times the best safety),
    ``off_edge`` (at most this many cells no number touches are looked at, at least 1), ``endgame_layouts`` (the
    search starts when at most this many layouts remain; at most :data:`MAX_ENDGAME_LAYOUTS`), ``endgame_nodes``
    (its budget in positions searched), ``progress``
    (``living`` or ``any``, see :mod:`.lookahead`), and the two-ply look-ahead's ``depth`` (1 or 2; default 1),
    ``deep_top`` (how many of the best cells by the one-ply score are scored again, 1 to 50) and ``deep_margin``
    (only those whose one-ply score is at least ``(1 - deep_margin)`` times the best one's; 0 to 1), and
    ``influence_bound`` (0 to 1; 1, the default, bounds nothing: only cells whose safety is at least the best safety
    less this bound get a fifty-fifty factor or are added for their influence).

    Like ``exact`` it runs the single-point pass before each analysis (:class:`sweeplab.strategies.exact.Proved`):
    only the order of its certain reveals changes, never a guess.
    """

    single_point: ClassVar[bool] = True  # False: analyse every position, as before the pass
    queue_first = True  # choose plays the queue first: play() drains it without asking

    name = "best"
    source = "sweeplab's exact engine with look-ahead, dead cells, forced guesses and an exhaustive endgame"
    summary = "certain safes; else look-ahead on near-safest cells, living before dead, forced sets early, endgame search"

    def __init__(
        self,
        seed: int | None = None,
        lookahead: bool = True,
        influence: bool = True,
        dead: bool = True,
        forced: bool = True,
        endgame: bool = True,
        opening: bool = True,
        tolerance: float = 0.1,
        off_edge: int = 8,
        endgame_layouts: int = 1000,
        endgame_nodes: int = 30000,
        progress: str = "living",
        depth: int = 1,
        deep_top: int = 3,
        deep_margin: float = 1.0,
        influence_bound: float = 1.0,
        budget: Budget = DEFAULT_BUDGET,
    ) -> None:
        super().__init__(seed)
        if not 0 <= tolerance < 1:
            raise StrategyError(f"strategy 'best': tolerance must be at least 0 and below 1, not {tolerance}")
        self.lookahead = lookahead
        self.influence = influence
        self.dead = dead
        self.forced = forced
        self.endgame = endgame
        self.opening = opening
        self.tolerance = tolerance
        if progress not in PROGRESS_MODES:
            raise StrategyError(f"strategy 'best': progress must be one of {', '.join(PROGRESS_MODES)}, not {progress!r}")
        self.progress = progress
        for option, value, low, high in (
            ("off_edge", off_edge, 1, 10_000),
            ("endgame_layouts", endgame_layouts, 0, MAX_ENDGAME_LAYOUTS),
            ("endgame_nodes", endgame_nodes, 0, 10**12),
            ("depth", depth, 1, 2),
            ("deep_top", deep_top, 1, 50),
        ):
            if not low <= value <= high:
                raise StrategyError(f"strategy 'best': {option} must be {low:,} to {high:,}, not {value:,}")
        self.off_edge = off_edge
        self.endgame_layouts = endgame_layouts
        self.endgame_nodes = endgame_nodes
        self.depth = depth
        self.deep_top = deep_top
        if not 0 <= deep_margin <= 1:
            raise StrategyError(f"strategy 'best': deep_margin must be 0 to 1, not {deep_margin}")
        self.deep_margin = deep_margin
        if not 0 <= influence_bound <= 1:
            raise StrategyError(f"strategy 'best': influence_bound must be 0 to 1, not {influence_bound}")
        self.influence_bound = influence_bound
        self.analyzer = Analyzer(budget)
        self.proved = Proved()  # the single-point pass before each analysis, as exact's
        self.rules: Rules | None = None
        self._endgame: Endgame | None = None
        self.searches = 0  # endgame searches started
        self.searches_over_budget = 0  # ... and given up past endgame_nodes

    def begin(self, rules: Rules) -> None:
        self.rules = rules

    # ----- moves -----
    def choose(self, observation: Observation) -> Move:
        move = self.next_queued(observation)
        if move is not None:
            return move
        if observation.is_start():
            return self.first_move(observation)
        if self.single_point:
            freed = self.proved.freed(observation, self.analyzer.use_kernel)
            if freed:
                self.queue(map(Move.reveal, freed))
                return self._queue.popleft()
        result = self.analyzer.analyze_patiently(observation)
        self.proved.learn(result)
        if result.safe:
            self.queue(Move.reveal(c) for c in result.safe)
            return Move.reveal(self._queue.popleft().cell)
        return self.pick_guess(observation, result)

    def first_move(self, observation: Observation) -> Move:
        from sweeplab.strategies.best.opening import opening_cell

        board = observation.board
        rule = self.rules.first_click if self.rules is not None else None
        cell, why = opening_cell(board, observation.mines, rule) if self.opening else (0, "the top-left corner")
        safety = 1.0 if rule in ("safe", "xp", "zero", "noguess") else 1 - observation.mines / board.cells
        text = f"first click {board.name(cell)}: {why}"
        return self.guess(observation, cell, "first", safety, Explanation(text, {"rule": rule, "cell": board.xy(cell)}))

    def pick_guess(self, observation: Observation, result: Probabilities) -> Move:
        if self.endgame and result.exact and result.layouts <= self.endgame_layouts:
            decision = self.search(observation, result)
            if decision is not None:
                return self.endgame_guess(observation, result, decision)
        shoot = result.craps[0] if self.forced and result.craps else None
        if shoot is not None and self.endgame:
            decision = self.search_set(observation, result, shoot)
            if decision is not None:
                return self.endgame_guess(observation, result, decision, shoot)
        candidates = self.candidates(observation, result, shoot.cells if shoot is not None else None)
        if self.lookahead and self.depth > 1 and shoot is None:
            chosen = self.look_deeper(observation, result, candidates)
        elif self.lookahead:
            chosen = self.look_ahead(observation, result, candidates)
        else:
            chosen = self.safest(observation, result, candidates)
        kind = "craps" if shoot is not None else self.kind(result, chosen.cell)
        return self.guess(observation, chosen.cell, kind, chosen.safety, self.explain(observation, chosen, candidates, shoot))

    # ----- endgame -----
    def search(self, observation: Observation, result: Probabilities) -> Decision | None:
        """The endgame search's decision, or None when the layouts cannot be listed or the budget runs out."""
        S = 0
        if self._endgame is not None:
            S = self._endgame.known(observation)
            if S.bit_count() != result.layouts:
                self._endgame = None
        if self._endgame is None:
            listed = list_layouts(result, self.endgame_layouts)
            if listed is None:
                return None
            self._endgame = Endgame(observation, *listed)
            S = self._endgame.all
        self.searches += 1
        try:
            return self._endgame.decide(S, self.endgame_nodes)
        except SearchBudgetExceeded:
            self.searches_over_budget += 1
            return None

    def search_set(self, observation: Observation, result: Probabilities, shoot: CrapsShoot) -> Decision | None:
        """The endgame search over an isolated set alone: the best way to clear it (None past the budget)."""
        component = next(comp for comp in result.components if set(comp.cells) == set(shoot.cells))
        listed = list_component(component, self.endgame_layouts)
        if listed is None:
            return None
        self.searches += 1
        endgame = Endgame(observation, *listed)
        try:
            return endgame.decide(endgame.all, self.endgame_nodes)
        except SearchBudgetExceeded:
            self.searches_over_budget += 1
            return None

    def endgame_guess(
        self, observation: Observation, result: Probabilities, decision: Decision, shoot: CrapsShoot | None = None
    ) -> Move:
        name = observation.board.name
        safety = 1.0 - result.probability(decision.cell)
        close = sorted(decision.alternatives, key=lambda t: -t[1])[:3]
        others = ", ".join(f"{name(c)} {w / decision.layouts:.1%}" for c, w in close)
        what = "wins" if shoot is None else "clears the set"
        text = (
            ("" if shoot is None else FORCED_TEXT.format(n=len(shoot.cells)) + "; ")
            + f"endgame search: {name(decision.cell)} {what} with probability {decision.probability:.2%} "
            f"({decision.wins} of {decision.layouts} layouts; {safety:.1%} safe)" + (f"; next best: {others}" if others else "")
        )
        figures = {
            "win_probability": decision.probability,
            "wins": decision.wins,
            "layouts": decision.layouts,
            "safety": safety,
            "alternatives": [
                {"cell": observation.board.xy(c), "win_probability": w / decision.layouts} for c, w in decision.alternatives
            ],
        }
        if shoot is not None:
            figures["set"] = [observation.board.xy(c) for c in shoot.cells]
        kind = "craps" if shoot is not None else self.kind(result, decision.cell)
        return self.guess(observation, decision.cell, kind, safety, Explanation(text, figures))

    # ----- candidates -----
    def candidates(
        self, observation: Observation, result: Probabilities, within: tuple[int, ...] | None = None
    ) -> list[Candidate]:
        """Covered cells whose safety is within ``tolerance`` (relative) of the best, safest first; of the cells no
        number touches (all equally safe) at most ``off_edge`` (the fewest covered neighbours first). ``within``
        limits them to a set of cells (a forced set)."""
        frontier = [(c, 1.0 - p) for p, cells in result.supercells() if p > 0.0 for c in cells]
        un = result.unconstrained_probability
        if within is not None:
            inside = set(within)
            frontier = [(c, s) for c, s in frontier if c in inside]
            un = None
        if un is not None and un <= 0.0:  # the cells no number touches are certainly safe (a position looked ahead to)
            un = None
        if not frontier and un is None:
            return []
        best = max([s for _, s in frontier] + ([1.0 - un] if un is not None else []))
        cut = best * (1 - self.tolerance) if self.lookahead else best - TIE
        mines = set(result.mines)
        found = [Candidate(c, s) for c, s in frontier if s >= cut and c not in mines]
        if un is not None and 1.0 - un >= cut:
            found.extend(Candidate(c, 1.0 - un) for c in self.off_edge_cells(observation, result))
        if self.influence and self.lookahead and within is None:
            floor = max(cut / 2, best - self.influence_bound)
            below = [(c, s) for c, s in frontier if floor <= s < cut]
            self.weigh_influence(observation, result, found, below, cut, best - self.influence_bound)
        found.sort(key=lambda k: (-k.bound, -k.safety))
        return found

    def weigh_influence(
        self,
        observation: Observation,
        result: Probabilities,
        found: list[Candidate],
        below: list[tuple[int, float]],
        cut: float,
        floor: float = 0.0,
    ) -> None:
        """Set each candidate's fifty-fifty factor; add the cells below ``cut`` whose safety plus influence reaches it
        (JSMinesweeper's rule for influenced tiles). Where the influence cannot be counted exactly (an estimated count,
        a position past the engine's budget, or more layouts than a float holds) every factor stays 1.0. A candidate
        less safe than ``floor`` keeps the factor 1.0 (``influence_bound``)."""
        mines = frozenset(result.mines)
        size = len(found)
        try:
            influence = Influence(self.analyzer, observation, result, mines)
            for candidate in found:
                if candidate.safety >= floor:
                    candidate.factor = influence.factor(candidate.cell, candidate.safety)
            for cell, safety in below:
                if cell in mines or safety + influence.of(cell, safety, upper=True) < cut:
                    continue
                extra = influence.of(cell, safety)
                if extra and safety + extra >= cut:
                    found.append(Candidate(cell, safety, factor=factor_of(extra, safety)))
        except (Unweighable, UndecidedError):
            del found[size:]
            for candidate in found:
                candidate.factor = 1.0

    def off_edge_cells(self, observation: Observation, result: Probabilities) -> list[int]:
        """Representatives of the cells no number touches (all equally safe, so they differ only in what they may
        show): the corners, and the cells beside the frontier (whose number also tells about it); fewest covered
        neighbours first (the likeliest to show a zero), then most frontier neighbours."""
        board, view = observation.board, observation.view
        neighbours = board.neighbours
        in_frontier = {c for comp in result.components for c in comp.cells}
        unconstrained = set(result.unconstrained)
        w, h = board.width, board.height
        pool = {c for c in (0, w - 1, (h - 1) * w, h * w - 1) if c in unconstrained}
        for c in in_frontier:
            pool.update(n for n in neighbours[c] if n in unconstrained)
        if not pool:
            pool = unconstrained

        def rank(cell: int) -> tuple[int, int, int]:
            covered = touching = 0
            for n in neighbours[cell]:
                if view[n] == COVERED:
                    covered += 1
                    touching += n in in_frontier
            return (covered, -touching, cell)

        return sorted(pool, key=rank)[: max(self.off_edge, 1)]

    # ----- choosing -----
    def look_ahead(self, observation: Observation, result: Probabilities, candidates: list[Candidate]) -> Candidate:
        if len(candidates) == 1:
            return candidates[0]  # nothing to compare
        mines = frozenset(result.mines)
        best_living: Candidate | None = None
        best_any: Candidate | None = None
        for candidate in candidates:
            bar_from = best_living if self.dead else best_any
            bar = bar_from.score if bar_from is not None and bar_from.score is not None else -1.0
            if candidate.bound <= bar:  # cannot beat the best: an exact tie stays with the earlier candidate
                candidate.pruned = True
                continue
            try:
                evaluate(self.analyzer, observation, result, candidate, bar, mines, self.progress)
            except UndecidedError:  # a position after its reveal ran out of the budget: not looked at
                candidate.score, candidate.pruned = None, True
                continue
            if candidate.pruned:
                continue
            if best_any is None or self._better(observation, candidate, best_any):
                best_any = candidate
            if not candidate.dead and (best_living is None or self._better(observation, candidate, best_living)):
                best_living = candidate
        if self.dead and best_living is not None:
            return best_living
        if best_any is None:  # no candidate could be looked at: the safest, as without look-ahead
            return self.safest_of(observation, result, candidates)
        return best_any

    def look_deeper(self, observation: Observation, result: Probabilities, candidates: list[Candidate]) -> Candidate:
        """Two-ply look-ahead (``depth=2``): every candidate's one-ply score in full (no early stop); the
        ``deep_top`` best in the one-ply order (living first, with ``dead``) within ``deep_margin`` of the best score
        are scored again. An outcome whose position has a counted safe cell keeps its one-ply figure; any other is
        valued by :meth:`value_one` of the position it leaves, the one-ply score of the guess the player would make
        there (the chance to survive that guess too and then have a safe cell), in place of the blend of its two best
        safeties. The score is times the cell's 50/50 influence factor, as at one ply. The highest two-ply score
        wins; a tie stays with the earlier cell in the one-ply order. A forced set is not looked at deeper.

        Choices left open by the design: one more ply, not a full game-tree depth (an endgame search does that when
        few layouts remain); the next guess is chosen as ``best`` would choose it (candidates, influence, dead
        cells), so the two-ply value is the strategy's own, not an optimum."""
        if len(candidates) == 1:
            return candidates[0]
        mines = frozenset(result.mines)
        scored: list[Candidate] = []
        for candidate in candidates:
            try:
                evaluate(self.analyzer, observation, result, candidate, -1.0, mines, self.progress, keep=True)
            except UndecidedError:
                candidate.score, candidate.pruned = None, True
                continue
            scored.append(candidate)
        if not scored:
            return self.safest_of(observation, result, candidates)
        if self.dead and any(not k.dead for k in scored):
            scored = [k for k in scored if not k.dead]

        def first(a: Candidate, b: Candidate) -> int:
            return -1 if self._better(observation, a, b) else 1

        order = sorted(scored, key=cmp_to_key(first))
        top = order[: self.deep_top]
        cut = (top[0].score or 0.0) * (1 - self.deep_margin)
        top = [k for k in top if (k.score or 0.0) >= cut - TIE]
        if len(top) == 1:
            return top[0]
        best: Candidate | None = None
        best_value = -1.0
        for candidate in top:
            value = 0.0
            for outcome in candidate.outcomes:
                after = outcome.after
                if outcome.progress or after is None or outcome.next_safety >= 1.0:
                    value += outcome.probability * outcome.next_safety
                    continue
                value += outcome.probability * self.value_one(after.observation, after)
            value *= candidate.factor
            candidate.deep = value
            if best is None or value > best_value + TIE:
                best, best_value = candidate, value
        for candidate in candidates:  # the positions looked ahead to are not kept past the choice
            for outcome in candidate.outcomes:
                outcome.after = None
        assert best is not None
        return best

    def value_one(self, observation: Observation, result: Probabilities) -> float:
        """The one-ply look-ahead score of the best guess of a position (certainly safe cells left aside)."""
        inner = self.candidates(observation, result)
        if not inner:
            return 0.0
        try:
            chosen = self.look_ahead(observation, result, inner)
        except UndecidedError:
            return max(k.safety for k in inner)
        if chosen.score is None:
            mines = frozenset(result.mines)
            try:
                evaluate(self.analyzer, observation, result, chosen, -1.0, mines, self.progress)
            except UndecidedError:
                return chosen.safety
        return chosen.score if chosen.score is not None else chosen.safety

    def _better(self, observation: Observation, a: Candidate, b: Candidate) -> bool:
        assert a.score is not None and b.score is not None
        if abs(a.score - b.score) > TIE:
            return a.score > b.score
        if abs(a.safety - b.safety) > TIE:
            return a.safety > b.safety
        return preferred_cell(observation, [a.cell, b.cell]) == a.cell

    def safest_of(self, observation: Observation, result: Probabilities, candidates: list[Candidate]) -> Candidate:
        """The choice when no candidate could be looked at: :meth:`safest` among those tied for the highest safety."""
        top = max(k.safety for k in candidates)
        return self.safest(observation, result, [k for k in candidates if k.safety >= top - TIE])

    def safest(self, observation: Observation, result: Probabilities, candidates: list[Candidate]) -> Candidate:
        """Without look-ahead: the safest cell (``candidates`` are the cells tied for it); with ``dead``, a living one."""
        pool = candidates
        if self.dead and len(candidates) > 1:
            mines = frozenset(result.mines)
            try:
                for candidate in candidates:
                    evaluate(self.analyzer, observation, result, candidate, -1.0, mines, "any")  # only its numbers
                living = [k for k in candidates if not k.dead]
            except UndecidedError:  # a position after a reveal ran out of the budget: living or dead is not known
                living = []
            pool = living or candidates
        cell = preferred_cell(observation, [k.cell for k in pool])
        return next(k for k in pool if k.cell == cell)

    # ----- records -----
    @staticmethod
    def kind(result: Probabilities, cell: int) -> str:
        return "unconstrained" if cell in result.unconstrained else "educated"

    def explain(
        self, observation: Observation, chosen: Candidate, candidates: list[Candidate], shoot: CrapsShoot | None = None
    ) -> Explanation:
        explanation = self._explain(observation, chosen, candidates)
        if shoot is None:
            return explanation
        figures = dict(explanation.figures)
        figures["set"] = [observation.board.xy(c) for c in shoot.cells]
        return Explanation(FORCED_TEXT.format(n=len(shoot.cells)) + "; " + explanation.text, figures)

    def _explain(self, observation: Observation, chosen: Candidate, candidates: list[Candidate]) -> Explanation:
        name = observation.board.name
        alternatives = [
            {
                "cell": observation.board.xy(k.cell),
                "safety": round(k.safety, 6),
                "score": None if k.score is None else round(k.score, 6),
                "dead": k.dead,
                "pruned": k.pruned,
                "influence_factor": round(k.factor, 6),
                "two_ply_score": None if k.deep is None else round(k.deep, 6),
            }
            for k in candidates
            if k is not chosen
        ]
        figures: dict[str, object] = {
            "safety": round(chosen.safety, 6),
            "score": None if chosen.score is None else round(chosen.score, 6),
            "dead": chosen.dead,
            "influence_factor": round(chosen.factor, 6),
            "two_ply_score": None if chosen.deep is None else round(chosen.deep, 6),
            "outcomes": [o.to_dict() for o in chosen.outcomes],
            "alternatives": alternatives,
        }
        if chosen.score is None or not self.lookahead:
            text = f"safest cell {name(chosen.cell)}: {chosen.safety:.1%} safe"
            if self.dead and len(candidates) > 1:
                text += f"; living cells preferred among {len(candidates)} equally safe"
            return Explanation(text, figures)
        close = sorted(
            (k for k in candidates if k is not chosen and k.score is not None and not k.pruned), key=lambda k: -(k.score or 0)
        )[:3]
        deep = sum(k.deep is not None for k in candidates)
        others = ", ".join(
            f"{name(k.cell)} {k.safety:.1%} safe, score {k.score:.4f}"
            + (f" (two-ply {k.deep:.4f})" if k.deep is not None and deep > 1 else "")
            for k in close
        )
        text = (
            f"look-ahead {name(chosen.cell)}: {chosen.safety:.1%} safe, "
            f"P(safe and a {'living ' if self.progress == 'living' else ''}safe cell next) {chosen.progress:.1%}, "
            f"score {chosen.score:.4f}"
            + (f" (times {chosen.factor:.3f} for 50/50 influence)" if chosen.factor > 1 else "")
            + (" (dead: its number is already known)" if chosen.dead else "")
            + (f"; two-ply score {chosen.deep:.4f}, the best of {deep} re-scored" if deep > 1 else "")
            + (f"; next best: {others}" if others else "")
            + f"; {len(candidates)} candidates (within {self.tolerance:.0%} of the best safety"
            + (", or reaching it with their 50/50 influence)" if self.influence else ")")
        )
        return Explanation(text, figures)
