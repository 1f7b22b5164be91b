"""Seed 000's EquationStrategy (PGMS's EqnStrategy, section "Programmer's Minesweeper (PGMS)"); also seed 001's c2 and
seed 004's superset reduction.

The paper knows EqnStrategy only by its one-line description ("makes a decision based on a set of equations") and by
comparison with its own steps 1 and 2. We play it as those steps without the rest of CSPStrategy: one equation per
revealed number (flags subtracted, :func:`sweeplab.analysis.exact.constraints.constraints_from`), the trivial rules
(constant 0: all clear; constant = number of cells: all mines) and subset reduction (when one equation's cells are a
subset of another's, the superset is replaced by the difference), repeated to a fixed point with the trivial rules
applied as they appear (:func:`sweeplab.strategies.pgms.studholme.simplify`). Every certain move found is queued and played
(clear cells revealed, mines flagged) before the board is read again. With nothing certain it reveals a uniformly random
covered cell (guess kind "random", no estimate), and its first move is random too, as PGMS's strategies start
(seed 000, "Starting a Game"); that opening guess is recorded with kind "first" and safety 1 - mines/cells.
The paper reports it winning about 20% of expert games.

Option ``guess="pgms"`` replaces the random guess by the guess rule in the public PGMS source of Ramsdell's later
MioStrategy (its ``choose``, dated February 1997; seed 000 never describes EqnStrategy's guesses): for each covered
cell, M = the largest constant/size over the equations containing it (mines left / covered cells for a cell in no
equation); reveal a cell with the smallest M (ties at random), recorded as an "educated" or "unconstrained" guess with
safety 1 - M. We use the equations before and after reduction, as PGMS keeps both. The default stays "random".

Option ``rules`` adds the certain-move rules of the same public source (MioStrategy, "April 2003"), which seed 000
may or may not have played against (its EqnStrategy is older and unseen): ``rules="difference"`` adds the equation
difference rule (for two equations e0, e1 with c1 - c0 equal to the number of points of e1 outside e0, those
points are mines and the points of e0 outside e1 are clear); ``rules="mio"`` adds the three-equation version (e1 - e0
- e2, "the Mio trick") and, once at most eight unknown points remain, the global equation (mines left = the sum of
all unknown points). We apply each rule in its general, sound form: a combination e1 - e0 (- e2) whose points with a
positive coefficient all have coefficient 1 and number exactly its constant makes those points mines and every point
with a negative coefficient clear. The source scans equations point by point; we scan every pair (and triple) of
equations that share a point, so the same deductions are found in a different order. The default stays "subset"
(seed 000's description).
"""

from __future__ import annotations

from collections.abc import Sequence

from sweeplab.analysis.exact.constraints import constraints_from
from sweeplab.core.game import Move
from sweeplab.core.observation import Observation
from sweeplab.strategies.base import Strategy, StrategyError
from sweeplab.strategies.pgms.studholme import simplify

#: How EquationStrategy guesses when nothing is certain: "random" (the default) or PGMS's min-max rule.
GUESS_RULES = ("random", "pgms")
#: Which certain-move rules it applies: subset reduction (the default), plus the equation difference rule, plus the
#: three-equation rule and the global equation of PGMS's MioStrategy.
RULE_SETS = ("subset", "difference", "mio")
#: MioStrategy adds the global equation once this many unknown points or fewer remain.
GLOBAL_EQUATION_LIMIT = 8

Equation = tuple[tuple[int, ...], int]


def combination_moves(equations: Sequence[Equation], triples: bool = False) -> tuple[set[int], set[int]]:
    """The equation difference rule (and with ``triples`` its three-equation form): (clear cells, mines).

    For equations e0, e1 sharing a point (and, with ``triples``, e2 sharing a point with e1 outside e0), the
    combination e1 - e0 (- e2) is formed; when its positive-coefficient points all have coefficient 1 and are exactly
    as many as its constant, they are mines and its negative-coefficient points are clear.

    >>> combination_moves([((0, 1, 2), 2), ((1, 2, 3), 1)])  # the 1-2 pattern: 0 is a mine, 3 is clear
    ({3}, {0})
    """
    eqs = [(frozenset(cells), m) for cells, m in equations if cells]
    by_cell: dict[int, list[int]] = {}
    for i, (cells, _) in enumerate(eqs):
        for c in cells:
            by_cell.setdefault(c, []).append(i)
    clear: set[int] = set()
    mines: set[int] = set()

    def settle(coefficients: dict[int, int], constant: int) -> bool:
        positive = [c for c, k in coefficients.items() if k > 0]
        if constant <= 0 or len(positive) != constant or any(coefficients[c] != 1 for c in positive):
            return False
        mines.update(positive)
        clear.update(c for c, k in coefficients.items() if k < 0)
        return True

    for i1, (e1, c1) in enumerate(eqs):
        partners = {i for c in e1 for i in by_cell[c]} - {i1}
        for i0 in partners:
            e0, c0 = eqs[i0]
            outside = e1 - e0
            if 0 < c1 - c0 == len(outside):  # the pair rule in set arithmetic (what settle decides on e1 - e0)
                mines.update(outside)
                clear.update(e0 - e1)
                continue
            if not triples or c1 - c0 <= 1:
                continue
            diff = dict.fromkeys(e1, 1)
            for c in e0:
                diff[c] = diff.get(c, 0) - 1
            diff = {c: k for c, k in diff.items() if k}
            for i2 in {i for c in outside for i in by_cell[c]} - {i0, i1}:
                e2, c2 = eqs[i2]
                triple = dict(diff)
                for c in e2:
                    triple[c] = triple.get(c, 0) - 1
                settle({c: k for c, k in triple.items() if k}, c1 - c0 - c2)
    return clear - mines, mines


class EquationStrategy(Strategy):
    """PGMS's EquationStrategy as seed 000 describes it: trivial rules and subset reduction, else a random guess."""

    name = "equation"
    source = "seed 000 (PGMS EqnStrategy); seed 001 c2; seed 004 superset reduction"
    summary = "equations from the numbers, trivial rules and subset reduction to a fixed point, else a random cell"

    def __init__(self, seed: int | None = None, guess: str = "random", rules: str = "subset") -> None:
        super().__init__(seed)
        if guess not in GUESS_RULES:
            raise StrategyError(f"unknown guess rule {guess!r}: choose one of {', '.join(GUESS_RULES)}")
        if rules not in RULE_SETS:
            raise StrategyError(f"unknown rule set {rules!r}: choose one of {', '.join(RULE_SETS)}")
        self.guess_rule = guess
        self.rule_set = rules

    def choose(self, observation: Observation) -> Move:
        move = self.next_queued(observation)
        if move is not None:
            return move
        if observation.is_start():
            cell = self.random_covered(observation)
            return self.guess(observation, cell, "first", 1 - observation.mines / observation.board.cells)
        problem = constraints_from(observation)
        original = [(c.cells, c.mines) for c in problem.constraints]
        covered = len(problem.frontier) + len(problem.unconstrained)
        if self.rule_set == "mio" and 0 < covered <= GLOBAL_EQUATION_LIMIT:
            original.append((tuple(sorted((*problem.frontier, *problem.unconstrained))), problem.mines_left))
        safe, mines, reduced = simplify(original)
        if not safe and not mines and self.rule_set != "subset":
            safe, mines = combination_moves(original + reduced, triples=self.rule_set == "mio")
        self.queue(Move.reveal(c) for c in sorted(safe))
        self.queue(Move.flag(c) for c in sorted(mines))
        if self._queue:
            return self._queue.popleft()
        if self.guess_rule == "pgms":
            return self._pgms_guess(observation, original + reduced)
        return self.guess(observation, self.random_covered(observation), "random")

    def _pgms_guess(self, observation: Observation, equations: list[tuple[tuple[int, ...], int]]) -> Move:
        """The covered cell whose most pessimistic single-equation mine probability is least."""
        worst: dict[int, float] = {}
        for cells, mines in equations:
            p = mines / len(cells)
            for c in cells:
                if p > worst.get(c, -1.0):
                    worst[c] = p
        covered = observation.covered()
        outside = observation.mines_left / len(covered)
        best: list[int] = []
        best_p = 2.0
        for c in covered:
            p = worst.get(c, outside)
            if p < best_p - 1e-12:
                best, best_p = [c], p
            elif p < best_p + 1e-12:
                best.append(c)
        cell = self.rng.choice(best)
        return self.guess(observation, cell, "educated" if cell in worst else "unconstrained", 1 - best_p)
