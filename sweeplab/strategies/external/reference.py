"""``reference``: the rules the reference clients in ``examples/`` play (Python, JavaScript, C), played in-process,
so that a client run through ``cmd:`` can be checked game by game against it and its protocol's cost measured.

Each turn: for every revealed number (row-major order) with ``f`` flagged and ``u`` covered neighbours, all ``u``
are safe when ``f`` equals it and all mines when ``f + u`` does; the safe cells are revealed, then the mines
flagged, in the order found. With nothing certain it reveals the covered cell of lowest local probability: the
largest ``(number - f) / u`` over its revealed neighbours, or ``(mines - flags) / covered`` for a cell next to no
number; ties go to the first cell in row-major order (so the first move is the top-left corner).
"""

from __future__ import annotations

from sweeplab.core.game import Move
from sweeplab.core.observation import COVERED, FLAGGED, Observation
from sweeplab.strategies.base import Strategy


class ReferenceStrategy(Strategy):
    """The reference clients' rules (see the module); deterministic, so it draws nothing from its seed.

    Like the Python client, it looks only at the numbers that may still have covered neighbours (a number loses them
    for good: this player never unflags), kept from look to look with the cells still covered; the other clients look
    at every number each time, with the same moves."""

    name = "reference"
    source = "sweeplab's own: the reference clients of examples/ (docs/arena.md)"
    summary = "trivial rules, then the lowest local probability (the examples/ clients' rules, in-process)"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self._numbers: list[int] = []  # revealed 1-8 that may have covered neighbours, row-major
        self._hidden: list[int] | None = None  # the cells covered or flagged at the last look (None: no look yet)

    def _look(self, view: tuple[int, ...]) -> list[int]:
        """The numbers worth a look now: the last look's, and those revealed since."""
        hidden = self._hidden
        if hidden is None:
            fresh = [c for c, v in enumerate(view) if v > 0]
            self._hidden = [c for c, v in enumerate(view) if v < 0]
        else:
            fresh = [c for c in hidden if view[c] > 0]
            self._hidden = [c for c in hidden if view[c] < 0]
        if fresh:
            self._numbers = sorted(self._numbers + fresh)
        return self._numbers

    def choose(self, observation: Observation) -> Move:
        move = self.next_queued(observation)
        if move is not None:
            return move
        view, neighbours = observation.view, observation.board.neighbours
        safe: dict[int, None] = {}
        mines: dict[int, None] = {}
        kept = []
        for cell in self._look(view):
            around = neighbours[cell]
            unknown = [n for n in around if view[n] == COVERED]
            if not unknown:
                continue
            kept.append(cell)
            value = view[cell]
            flags = sum(1 for n in around if view[n] == FLAGGED)
            if flags == value:
                safe.update(dict.fromkeys(unknown))
            elif flags + len(unknown) == value:
                mines.update(dict.fromkeys(unknown))
        self._numbers = kept
        if safe or mines:
            self.queue([Move.reveal(c) for c in safe] + [Move.flag(c) for c in mines if c not in safe])
            move = self.next_queued(observation)
            assert move is not None
            return move
        cell, p = lowest_local(observation, kept)
        if p == 0:
            return Move.reveal(cell)
        kind = "first" if all(v == COVERED for v in view) else "educated"
        return self.guess(observation, cell, kind, 1.0 - p)


def lowest_local(observation: Observation, numbers: list[int] | None = None) -> tuple[int, float]:
    """The covered cell of lowest local probability (the first of the lowest) and that probability; ``numbers``, if
    given, lists (row-major) every revealed number that has covered neighbours (None: found here)."""
    view, neighbours = observation.view, observation.board.neighbours
    covered = view.count(COVERED)
    density = (observation.mines - view.count(FLAGGED)) / covered
    local = dict.fromkeys((c for c, v in enumerate(view) if v == COVERED), -1.0)
    for cell in numbers if numbers is not None else [c for c, v in enumerate(view) if v > 0]:
        around = neighbours[cell]
        unknown = [n for n in around if view[n] == COVERED]
        if not unknown:
            continue
        p = (view[cell] - sum(1 for n in around if view[n] == FLAGGED)) / len(unknown)
        for n in unknown:
            if p > local[n]:
                local[n] = p
    best, best_p = -1, 2.0
    for cell, p in local.items():
        if p < 0:
            p = density
        if p < best_p:
            best, best_p = cell, p
    return best, best_p


__all__ = ["ReferenceStrategy", "lowest_local"]
