"""The simplest players: uniformly random, and the single-point rule (seed 000's PGMS SinglePointStrategy)."""

from __future__ import annotations

from sweeplab.core.game import Move
from sweeplab.core.observation import COVERED, FLAGGED, Observation
from sweeplab.strategies.base import Strategy


class RandomStrategy(Strategy):
    """Reveals a uniformly random covered cell every move. The floor every other strategy must clear."""

    name = "random"
    source = "baseline (no paper)"
    summary = "reveal a uniformly random covered cell"

    def choose(self, observation: Observation) -> Move:
        return self.guess(observation, self.random_covered(observation), "random")


class SinglePointStrategy(Strategy):
    """Seed 000's SinglePointStrategy (PGMS), seed 002's level 1 and seed 001's c1.

    For a revealed number K with F flagged and N covered neighbours: if F == K the N cells are safe; if
    F + N == K they are mines (flagged, as PGMS marks them). With nothing certain it reveals a random
    covered cell, and the first move is random too, as PGMS's strategy does (seed 000, "Starting a
    Game"). Every certain move found in one scan of the board is queued and played before the board is
    scanned again; a certain move stays certain, so this changes the speed, not the play.
    """

    name = "single-point"
    source = "seed 000 (PGMS SinglePointStrategy); seed 002 level 1; seed 001 c1"
    summary = "a number's unknowns are all safe when its flags equal it, all mines when flags + unknowns do"

    def choose(self, observation: Observation) -> Move:
        move = self.next_queued(observation)
        if move is None and self._scan(observation):
            move = self.next_queued(observation)
        return move or self.when_stuck(observation)

    def when_stuck(self, observation: Observation) -> Move:
        """The move when no number decides anything: a uniformly random covered cell (subclasses guess better)."""
        return self.guess(observation, self.random_covered(observation), "random")

    def _scan(self, observation: Observation) -> bool:
        view, neighbours = observation.view, observation.board.neighbours
        safe: dict[int, None] = {}
        mines: dict[int, None] = {}
        for cell, value in enumerate(view):
            if value <= 0:
                continue
            unknown = [n for n in neighbours[cell] if view[n] == COVERED]
            if not unknown:
                continue
            flags = sum(1 for n in neighbours[cell] if view[n] == FLAGGED)
            if flags == value:
                safe.update(dict.fromkeys(unknown))
            elif flags + len(unknown) == value:
                mines.update(dict.fromkeys(unknown))
        self.queue(Move.reveal(c) for c in safe)
        self.queue(Move.flag(c) for c in mines if c not in safe)
        return bool(safe or mines)
