"""``best``'s endgame: with few layouts left, list them and play the move with the highest exact chance of winning.

The layouts consistent with a position (all equally likely) are listed
(:func:`~sweeplab.analysis.exact.listing.list_layouts`, or one isolated set's with
:func:`~sweeplab.analysis.exact.listing.list_component`) and searched with
:class:`sweeplab.analysis.optimal.gametree.LayoutSetSearch` (its docstring states the model: the memo on the set of
layouts still possible, free reveals, cells tried safest first, the budget counted in expanded positions).
:class:`Endgame` builds the search's sets from the position (what each covered cell shows in each layout) and follows
the game: :meth:`Endgame.known` is the set left after later moves, so the next decision reuses what the search kept.
The win probability is ``wins / layouts``, an exact fraction.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sweeplab.analysis.exact.listing import list_component, list_layouts
from sweeplab.analysis.optimal.gametree import KERNEL, UNLIMITED, LayoutSetSearch, SearchBudgetExceeded
from sweeplab.core.observation import COVERED, FLAGGED, Observation

__all__ = ["KERNEL", "UNLIMITED", "Decision", "Endgame", "SearchBudgetExceeded", "list_component", "list_layouts"]


@dataclass(frozen=True)
class Decision:
    """The search's answer for a position: the cell to open and its exact chance of winning ``wins / layouts``."""

    cell: int
    wins: int
    layouts: int
    alternatives: tuple[tuple[int, int], ...]  # (cell, wins) of the other cells searched in full at the root

    @property
    def probability(self) -> float:
        return self.wins / self.layouts


class Endgame(LayoutSetSearch):
    """``best``'s search over one listed set of layouts of a position; reusable over the following moves of the same game."""

    def __init__(self, observation: Observation, covered: list[int], layouts: np.ndarray, use_kernel: bool | None = None) -> None:
        """``use_kernel``: search in C (the default when the C search is built) or in Python; both give the same
        decisions and expand the same positions."""
        board = observation.board
        self.board = board
        self.covered = covered
        self.count = len(layouts)
        column = {c: i for i, c in enumerate(covered)}
        m = len(covered)
        adjacency = np.zeros((m, m), dtype=np.int16)
        flagged = np.zeros(m, dtype=np.int16)
        view = observation.view
        for i, c in enumerate(covered):
            for n in board.neighbours[c]:
                j = column.get(n)
                if j is not None:
                    adjacency[j, i] = 1
                elif view[n] == FLAGGED:
                    flagged[i] += 1
        values = layouts.astype(np.int16) @ adjacency + flagged
        values[layouts] = -1
        self.values = values
        #: per column: {number: mask of layouts where the cell shows it}, and the mask where it is a mine
        self.shows: list[list[int]] = []
        self.mine: list[int] = []
        self.numbers: list[list[int]] = []  # the numbers matching ``shows``
        for j in range(m):
            col = values[:, j]
            parts = []
            numbers: list[int] = []
            mine = 0
            for v in np.unique(col):
                mask = _mask(col == v)
                if v < 0:
                    mine = mask
                else:
                    parts.append(mask)
                    numbers.append(int(v))
            self.shows.append(parts)
            self.numbers.append(numbers)
            self.mine.append(mine)
        super().__init__(self.shows, self.mine, self.count, use_kernel)

    def known(self, observation: Observation) -> int:
        """The layouts still consistent with ``observation`` (a later position of the same game)."""
        view = observation.view
        S = self.all
        for j, c in enumerate(self.covered):
            v = view[c]
            if v == COVERED:
                continue
            if v == FLAGGED:
                continue  # flags are the player's word, not information
            S &= next((mask for value, mask in zip(self.numbers[j], self.shows[j], strict=True) if value == v), 0)
        return S

    def decide(self, S: int, budget: int) -> Decision:
        """The best cell to open when the layouts in ``S`` remain (raises :class:`SearchBudgetExceeded` past ``budget``
        expanded positions)."""
        j, wins, alternatives = self.best_move(S, budget)
        covered = self.covered
        return Decision(covered[j], wins, S.bit_count(), tuple((covered[c], w) for c, w in alternatives))

    def value(self, S: int, cell: int, budget: int) -> int:
        """The layouts of ``S`` won by opening ``cell`` first and playing optimally after (0 when it is a mine in all of
        them); raises :class:`SearchBudgetExceeded` past ``budget`` positions. The exact value of any move,
        not only the best one: what an analysis or a comparison of strategies needs."""
        return self.move_value(S, self.covered.index(cell), budget)


def _mask(flags: np.ndarray) -> int:
    """A bool vector as an int with bit i set when ``flags[i]``."""
    return int.from_bytes(np.packbits(flags, bitorder="little").tobytes(), "little")
