"""Seed 000's CSPStrategy (Studholme, "Minesweeper as a Constraint Satisfaction Problem", sections "Starting a Game of
Minesweeper", "Description of CSPStrategy" steps 1-7 and "Description of the Backtracking Algorithm").

Each decision runs the paper's seven steps on the constraints of the position:

1. constraints from the revealed numbers, known values substituted; the degenerate cases (constant 0: all clear;
   constant = number of variables: all mines) settle their variables (:func:`simplify`);
2. subset simplification (``a+b+c+d=2, b+c=1 -> a+d=1``), back to step 1 whenever a constraint becomes trivial;
3. the constraints are split into coupled sets (sharing a variable) and each set is solved for ALL its solutions by the
   paper's backtracking (:func:`solve_coupled_set`), tallied in a 2-D array indexed by the solution's mine count and
   the variable; solutions are thrown out when they need more mines than remain given the minimum the other sets need,
   or leave more mines than the unconstrained squares can hold (:func:`prune_by_mine_count`);
5. (checked before step 4, as the paper says) a craps shoot: a set whose solutions all need the same number of mines
   and none of whose variables has a covered neighbour outside the set is guessed at once;
4. variables 0 (1) in every solution are revealed (flagged);
6. an educated guess: P(clear) = solutions with the variable 0 / all solutions of its set, all solutions EQUALLY likely
   (the paper's assumption), compared with the unconstrained estimate
   1 - (mines remaining - expected mines of the sets) / unconstrained squares;
7. if the unconstrained squares are better: a random unconstrained corner, else a random unconstrained non-corner edge
   square, else the interior unconstrained square whose covered neighbours share the most variables with the constraints.

The game starts at the top-left corner (the paper: "always start at a particular corner"). Guesses are recorded with
kinds "first", "craps", "educated" and "unconstrained" and the estimated chance of success, as the paper's log line
"GUESS: 83% educated ... good." Only certain mines are flagged and a mine is never guessed.

Where the paper is unclear or we depart from it:

- The paper keeps its constraint set dynamically ("never recomputed from scratch"); we rebuild it from the observation
  whenever the queue of certain moves runs dry, and keep the solved coupled sets of the previous decision in a cache
  keyed by their constraints, so an unchanged region is not solved again. The moves are the same.
- Backtracking order: the paper assigns forced variables first, otherwise the variable in most constraints. It says
  nothing about ties (most frontier variables are in 1-3 constraints); we break ties by breadth-first order over the
  constraint graph, so that assignments stay contiguous and the constraint checks prune early.
- Tallies: the paper adds each complete solution to the tallies; we add, at each variable set to 1, the per-mine-count
  solution counts of the subtree below it. Every solution is still enumerated one by one (a leaf of the search);
  the tallies are identical, only the O(variables) work per solution is saved.
- Node cap: the paper notes CSPStrategy "can get stuck working on solving a large set of constraints". We stop a
  set's search after ``node_cap`` variable assignments (default :data:`DEFAULT_NODE_CAP`, about one to three
  seconds of pure Python); the set is then marked incomplete, none of its variables is treated as certain, it is
  never a craps shoot, and its partial tallies serve only as the best guess from what was counted.
- Step 5 adds one condition the paper implies but does not state: the set must have no variable that is clear in
  every solution (revealing it would add a constraint to the set, so new information could still change the guess).
  The craps cell is the set's variable with the highest share of solutions where it is clear (ties: random).
- Step 4 also settles the unconstrained squares when the mine counts left after pruning leave them exactly 0 mines
  (all clear) or exactly one per square (all mines): the paper's mine-count reasoning of step 3 applied to the squares
  outside every set; otherwise step 7 would guess them with estimate 100% (or never).
- Ties among the best educated guesses are broken at random; step 7 is taken only when the unconstrained estimate is
  strictly higher than the best constrained one ("higher than the probability of ... the best guess").
- The opening corner's recorded safety is 1 - mines/cells (the strategy does not know the first-click rule).

Options for the paper's own alternatives (defaults: the paper's final choices), used by ``sweeplab experiment claims``:
``start="centre"`` opens at the centre square ((width // 2, height // 2)), the start the paper tried first and
found worse ("17% of the games" against "1% or 2% higher than EquationStrategy" from a corner);
``overlap="min"`` makes step 7's interior guess the square sharing the fewest (but at least one) variables with the
constraints, the alternative the paper tested and found "very little difference" from; ``prune="upper"`` drops only
solutions needing more mines than remain (the one case the paper's example shows), and ``prune="none"`` keeps every
solution, to measure how the mine-count pruning moves the guesses' calibration (Tables 1-3); ``ties="first"`` takes
the first of the equally good educated guesses in reading order (what a plain loop keeping a strictly better square
would do), against the default random choice, to test whether the tie-break moves Tables 1-3.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from sweeplab.analysis.exact.constraints import constraints_from
from sweeplab.core.game import Move
from sweeplab.core.observation import COVERED, Observation
from sweeplab.strategies.base import Strategy, StrategyError
from sweeplab.strategies.pgms.studholme_steps import (
    DEFAULT_NODE_CAP,
    CoupledSet,
    Equation,
    SetSize,
    coupled_sets,
    prune_by_mine_count,
    simplify,
    solve_coupled_set,
)

#: Where the first click goes (option ``start``): seed 000's final choice, the top-left corner, or the centre square
#: it started from before ("Starting a Game of Minesweeper").
STARTS = ("corner", "centre")
#: Step 7's interior guess (option ``overlap``): the most variables shared with the constraints (the paper's final
#: choice) or the fewest (at least one), the alternative it tested and found "very little difference" from.
OVERLAPS = ("max", "min")
#: Step 3's mine-count pruning (option ``prune``): both bounds (default), only solutions needing too many mines (the
#: one case the paper's example shows), or none.
PRUNES = ("both", "upper", "none")
#: Step 6 among equally good educated guesses (option ``ties``): a random one (default) or the first in reading order.
TIES = ("random", "first")


# ----- the strategy -----
class CSPStrategy(Strategy):
    """Seed 000's CSPStrategy: the seven steps of "Description of CSPStrategy" with the paper's backtracking.

    Options: ``node_cap`` (search nodes per coupled set before its enumeration stops; default
    :data:`DEFAULT_NODE_CAP`); ``start`` (:data:`STARTS`), ``overlap`` (:data:`OVERLAPS`) and ``prune``
    (:data:`PRUNES`), the alternatives the paper tried or leaves open, for the reproduction's experiments.
    After a game, ``largest_set`` is the solved coupled set with the most degrees of freedom (ties: most
    solutions), ``most_solutions`` the one with the most solutions, ``nodes`` the search nodes used and ``capped``
    how many enumerations the cap stopped.
    """

    name = "cspstrategy"
    source = "seed 000 (Studholme), Description of CSPStrategy steps 1-7; Description of the Backtracking Algorithm"
    summary = "trivial and subset simplification, all solutions of coupled sets, craps shoots, equally-likely guesses"

    def __init__(
        self,
        seed: int | None = None,
        node_cap: int = DEFAULT_NODE_CAP,
        start: str = "corner",
        overlap: str = "max",
        prune: str = "both",
        ties: str = "random",
    ) -> None:
        super().__init__(seed)
        if node_cap < 1:
            raise StrategyError(f"strategy {self.name!r}: node_cap must be at least 1, not {node_cap}")
        for label, value, choices in (
            ("start", start, STARTS),
            ("overlap", overlap, OVERLAPS),
            ("prune", prune, PRUNES),
            ("ties", ties, TIES),
        ):
            if value not in choices:
                raise StrategyError(f"strategy {self.name!r}: {label} must be one of {', '.join(choices)}, not {value!r}")
        self.node_cap = node_cap
        self.start = start
        self.overlap = overlap
        self.prune = prune
        self.ties = ties
        self._cache: dict[tuple[Equation, ...], tuple[CoupledSet, int]] = {}
        self.largest_set: SetSize | None = None
        self.most_solutions: SetSize | None = None
        self.nodes = 0
        self.capped = 0

    def choose(self, observation: Observation) -> Move:
        move = self.next_queued(observation)
        if move is not None:
            return move
        if observation.is_start():
            board = observation.board
            cell = 0 if self.start == "corner" else board.index(board.width // 2, board.height // 2)
            return self.guess(observation, cell, "first", 1 - observation.mines / board.cells)
        return self._decide(observation)

    # one decision: steps 1 to 7
    def _decide(self, observation: Observation) -> Move:
        view = observation.view
        problem = constraints_from(observation)
        safe, mines, reduced = simplify((c.cells, c.mines) for c in problem.constraints)
        if safe or mines:  # steps 1-2 found trivial moves: play them, then start again at step 1
            return self._play_certain(view, safe, mines)
        unconstrained = problem.unconstrained
        mines_left = problem.mines_left
        sets = self._solve(reduced, mines_left)
        if self.prune != "none":
            sets = prune_by_mine_count(sets, mines_left, len(unconstrained), lower=self.prune == "both")
        # step 5 before step 4
        for s in sets:
            move = self._craps(observation, s)
            if move is not None:
                return move
        # step 4
        certain_safe: set[int] = set()
        certain_mines: set[int] = set()
        for s in sets:
            if not s.complete or not s.counts:
                continue
            total = s.solutions
            for c in s.cells:
                m = s.mine_solutions(c)
                if m == 0:
                    certain_safe.add(c)
                elif m == total:
                    certain_mines.add(c)
        if unconstrained and sets and all(s.complete for s in sets) and self.prune == "both":
            lo = sum(min(s.counts) for s in sets)
            hi = sum(max(s.counts) for s in sets)
            if lo == hi == mines_left:
                certain_safe.update(unconstrained)
            elif lo == hi and mines_left - lo == len(unconstrained):
                certain_mines.update(unconstrained)
        if certain_safe or certain_mines:
            return self._play_certain(view, certain_safe, certain_mines)
        # step 6
        best: list[int] = []
        best_p = -1.0
        for s in sets:
            if not s.counts:
                continue
            for c in s.cells:
                p = s.clear_probability(c)
                if p > best_p + 1e-12:
                    best, best_p = [c], p
                elif p > best_p - 1e-12:
                    best.append(c)
        if unconstrained:
            expected = sum(s.expected_mines() for s in sets)
            outside = min(1.0, max(0.0, 1 - (mines_left - expected) / len(unconstrained)))
            if not best or outside > best_p + 1e-12:
                return self._unconstrained_guess(observation, unconstrained, problem.frontier, outside)
        if best and best_p > 0:
            cell = self.rng.choice(best) if self.ties == "random" else min(best)
            return self.guess(observation, cell, "educated", best_p)
        return self.guess(observation, self.random_covered(observation), "random")  # only in an impossible position

    def _play_certain(self, view: tuple[int, ...], safe: Iterable[int], mines: Iterable[int]) -> Move:
        self.queue(Move.reveal(c) for c in sorted(safe) if view[c] == COVERED)
        self.queue(Move.flag(c) for c in sorted(mines) if view[c] == COVERED)
        return self._queue.popleft()

    def _solve(self, reduced: list[Equation], mines_left: int) -> list[CoupledSet]:
        """Step 3 for every coupled set, reusing the previous decision's results for sets that did not change."""
        cache: dict[tuple[Equation, ...], tuple[CoupledSet, int]] = {}
        sets = []
        for group in coupled_sets(reduced):
            key = tuple(sorted(group))
            hit = self._cache.get(key)
            if hit is not None and hit[1] >= mines_left:
                solved = hit[0]
            else:
                solved = solve_coupled_set(group, mines_left if self.prune != "none" else None, self.node_cap)
                self.nodes += solved.nodes
                self.capped += not solved.complete
                self._record(solved)
            cache[key] = (solved, mines_left if hit is None else hit[1])
            sets.append(solved)
        self._cache = cache
        return sets

    def _record(self, s: CoupledSet) -> None:
        size = SetSize(len(s.cells), s.constraints, s.degrees_of_freedom, s.found)
        old = self.largest_set
        if old is None or (size.degrees_of_freedom, size.solutions) > (old.degrees_of_freedom, old.solutions):
            self.largest_set = size
        old = self.most_solutions
        if old is None or size.solutions > old.solutions:
            self.most_solutions = size

    def _craps(self, observation: Observation, s: CoupledSet) -> Move | None:
        """Step 5: a set that no future information can change; guess its safest cell now."""
        if not s.complete or len(s.counts) != 1:
            return None
        view, neighbours = observation.view, observation.board.neighbours
        members = s.index
        for c in s.cells:
            for n in neighbours[c]:
                if view[n] == COVERED and n not in members:
                    return None
        shares = {c: s.clear_probability(c) for c in s.cells}
        if any(p == 1.0 for p in shares.values()):
            return None
        best_p = max(shares.values())
        if best_p <= 0:
            return None
        best = [c for c, p in shares.items() if p > best_p - 1e-12]
        return self.guess(observation, self.rng.choice(best), "craps", best_p)

    def _unconstrained_guess(
        self, observation: Observation, unconstrained: Sequence[int], frontier: Sequence[int], safety: float
    ) -> Move:
        """Step 7: a corner, else a non-corner edge square, else the interior square most coupled to the constraints."""
        board, view = observation.board, observation.view
        corners = [c for c in unconstrained if board.is_corner(c)]
        if corners:
            return self.guess(observation, self.rng.choice(corners), "unconstrained", safety)
        edges = [c for c in unconstrained if board.is_edge(c)]
        if edges:
            return self.guess(observation, self.rng.choice(edges), "unconstrained", safety)
        variables = set(frontier)
        shared = {c: sum(1 for n in board.neighbours[c] if view[n] == COVERED and n in variables) for c in unconstrained}
        if self.overlap == "max":
            most = max(shared.values())
            best = [c for c, k in shared.items() if k == most]
        else:  # the fewest shared variables among the squares that still couple to the constraints
            coupled_to = {c: k for c, k in shared.items() if k > 0} or shared
            least = min(coupled_to.values())
            best = [c for c, k in coupled_to.items() if k == least]
        return self.guess(observation, self.rng.choice(best), "unconstrained", safety)
