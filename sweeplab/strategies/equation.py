"""Seed 000's EquationStrategy (PGMS's EqnStrategy, section "Programmer's Minesweeper (PGMS)"); also seed 001's c2 and
seed 004's superset reduction.

The paper knows EqnStrategy only by its one-line description ("makes a decision based on a set of equations") and by
comparison with its own steps 1 and 2. We play it as those steps without the rest of CSPStrategy: one equation per
revealed number (flags subtracted, :func:`sweeplab.analysis.constraints.constraints_from`), the trivial rules
(constant 0: all clear; constant = number of cells: all mines) and subset reduction (when one equation's cells are a
subset of another's, the superset is replaced by the difference), repeated to a fixed point with the trivial rules
applied as they appear (:func:`sweeplab.strategies.studholme.simplify`). Every certain move found is queued and played
(clear cells revealed, mines flagged) before the board is read again. With nothing certain it reveals a uniformly random
covered cell (guess kind "random", no estimate), and its first move is random too, as PGMS's strategies start
(seed 000, "Starting a Game"); that opening guess is recorded with kind "first" and safety 1 - mines/cells.
The paper reports it winning about 20% of expert games.

Option ``guess="pgms"`` replaces the random guess by the guess rule in the public PGMS source of Ramsdell's later
MioStrategy (its ``choose``, dated February 1997; seed 000 never describes EqnStrategy's guesses): for each covered
cell, M = the largest constant/size over the equations containing it (mines left / covered cells for a cell in no
equation); reveal a cell with the smallest M (ties at random), recorded as an "educated" or "unconstrained" guess with
safety 1 - M. We use the equations before and after reduction, as PGMS keeps both. The default stays "random".
"""

from __future__ import annotations

from sweeplab.analysis.constraints import constraints_from
from sweeplab.core.game import Move
from sweeplab.core.observation import Observation
from sweeplab.strategies.base import Strategy
from sweeplab.strategies.studholme import simplify

#: How EquationStrategy guesses when nothing is certain: "random" (the default) or PGMS's min-max rule.
GUESS_RULES = ("random", "pgms")


class EquationStrategy(Strategy):
    """PGMS's EquationStrategy as seed 000 describes it: trivial rules and subset reduction, else a random guess."""

    name = "equation"
    source = "seed 000 (PGMS EqnStrategy); seed 001 c2; seed 004 superset reduction"
    summary = "equations from the numbers, trivial rules and subset reduction to a fixed point, else a random cell"

    def __init__(self, seed: int | None = None, guess: str = "random") -> None:
        super().__init__(seed)
        if guess not in GUESS_RULES:
            raise ValueError(f"unknown guess rule {guess!r}: choose one of {', '.join(GUESS_RULES)}")
        self.guess_rule = guess

    def choose(self, observation: Observation) -> Move:
        move = self.next_queued(observation)
        if move is not None:
            return move
        if observation.is_start():
            cell = self.random_covered(observation)
            return self.guess(observation, cell, "first", 1 - observation.mines / observation.board.cells)
        problem = constraints_from(observation)
        original = [(c.cells, c.mines) for c in problem.constraints]
        safe, mines, reduced = simplify(original)
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
