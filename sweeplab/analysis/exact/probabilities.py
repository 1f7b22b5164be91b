"""The result of an analysis: :class:`Probabilities` (every covered cell's mine probability, the certain cells, the
craps shoots), combined from the components' tallies and their weighting by :func:`_combine`."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from sweeplab.analysis.exact.budget import ESTIMATE_RESERVE, _Clock, _OutOfTime
from sweeplab.analysis.exact.components import Component
from sweeplab.analysis.exact.consistency import _blame
from sweeplab.analysis.exact.counting import Tally
from sweeplab.analysis.exact.weighting import (
    EXACT_SECONDS,
    Forward,
    _batch_error,
    _cell_shares,
    _certain_exact,
    _count_exact,
    _exact_work,
    _feasible_total,
    _LazyMines,
    _no_total,
    _weigh_exact,
    _weigh_numeric,
    _Weighing,
)
from sweeplab.core.errors import InconsistentPositionError, UndecidedError
from sweeplab.core.numbers import count_text
from sweeplab.core.observation import COVERED, FLAGGED, Observation

ROUNDING = 1e-12  # the error stated for counts or weights in floating point (exact up to rounding)


@dataclass(frozen=True)
class CrapsShoot:
    """Seed 000's craps shoot: an isolated coupled set with a fixed mine count; no move elsewhere can inform it."""

    cells: tuple[int, ...]
    best: int
    safety: float


class Probabilities:
    """The answer for one position. ``probability(cell)`` is the mine probability of a covered cell (1 for a flag).

    ``exact`` results hold exact integers (``fraction(cell)``); otherwise the probabilities are estimates within
    about ``error`` (two standard errors) and ``layouts`` is an estimate too.

    The shares are kept per super-cell (every cell of a super-cell has the same probability); the per-cell views
    (``probability``, ``covered``) and the craps shoots are built on first use, so a caller that only reads
    ``safe`` or :meth:`lowest` pays for neither."""

    def __init__(
        self,
        observation: Observation,
        exact: bool,
        error: float,
        layouts: int | None,
        safe: tuple[int, ...],
        mines: tuple[int, ...] | _LazyMines,
        components: list[Component],
        unconstrained: tuple[int, ...],
        shares: list[list[tuple[Any, Any]]] | None,
        unconstrained_share: tuple[Any, Any] | None,
        tallies: list[Tally] | None,
        mines_left: int | None = None,
    ) -> None:
        """``layouts``, ``shares`` and ``unconstrained_share`` may be None for an exact result (``tallies`` and
        ``mines_left`` given): they are then weighed exactly on first use (:func:`_weigh_exact`). ``mines`` may be a
        :class:`_LazyMines` that finds them on first use."""
        self.observation = observation
        self.exact = exact
        self.error = error
        self.safe = safe
        self._mines = mines
        self.components = components
        self.unconstrained = unconstrained
        self._layouts = layouts
        self._shares_v = shares  # per component, per super-cell: (numerator, denominator)
        self._unconstrained_v = unconstrained_share
        self._tallies = tallies  # for the craps shoots; None when weighed in floating point (no craps shoots then)
        self._mines_left = mines_left
        self._by_cell: dict[int, tuple[Any, Any]] | None = None
        self._asked = False  # whether _share was asked before (the second time builds the per-cell map)
        self._craps: tuple[CrapsShoot, ...] | None = None
        self._forward_v: Forward | None = None  # the count's forward pass, kept for the weighing
        self._supercells_v: tuple[tuple[float, tuple[int, ...]], ...] | None = None

    def _weigh(self) -> None:
        """Weigh a lazily built exact result: every layout count, share and the unconstrained cells' share."""
        if self._tallies is None or self._mines_left is None:
            raise RuntimeError("a Probabilities without its weights needs its tallies and mines left")
        weighing = _weigh_exact(self._tallies, len(self.unconstrained), self._mines_left, None, self._forward_v)
        self._forward_v = None
        self._shares_v = _cell_shares(self.components, self._tallies, weighing, False)
        self._unconstrained_v = weighing.unconstrained if self.unconstrained else (0, 1)
        self._layouts = int(weighing.layouts)

    @property
    def mines(self) -> tuple[int, ...]:
        """The covered cells that hold a mine in every layout (sorted)."""
        mines = self._mines
        if isinstance(mines, _LazyMines):
            mines = self._mines = mines.find()
        return mines

    @property
    def layouts(self) -> int:
        """The number of layouts consistent with the position (an estimate when ``exact`` is False)."""
        if self._layouts is None:
            if self._tallies is None or self._mines_left is None:
                self._weigh()  # raises: nothing to count from
            else:  # the count alone (a look-ahead often needs no more); the shares are weighed when first asked for
                self._layouts, self._forward_v = _count_exact(self._tallies, len(self.unconstrained), self._mines_left)
        assert self._layouts is not None
        return self._layouts

    @property
    def _shares(self) -> list[list[tuple[Any, Any]]]:
        if self._shares_v is None:
            self._weigh()
        assert self._shares_v is not None
        return self._shares_v

    @property
    def _unconstrained(self) -> tuple[Any, Any]:
        if self._unconstrained_v is None:
            self._weigh()
        assert self._unconstrained_v is not None
        return self._unconstrained_v

    def __repr__(self) -> str:
        return (
            f"<Probabilities exact={self.exact} layouts={count_text(self.layouts)} safe={len(self.safe)} mines={len(self.mines)} "
            f"components={len(self.components)} unconstrained={len(self.unconstrained)}>"
        )

    def _share(self, cell: int) -> tuple[Any, Any]:
        """(numerator, denominator) of a covered unflagged cell's probability."""
        by_cell = self._by_cell
        if by_cell is None:
            if not self._asked:  # a first cell: look it up without the map (a strategy often asks for one cell only)
                self._asked = True
                for comp, shares in zip(self.components, self._shares, strict=True):
                    for cells, share in zip(comp.supercells, shares, strict=True):
                        if cell in cells:
                            return share
                return self._unconstrained
            by_cell = {}
            for comp, shares in zip(self.components, self._shares, strict=True):
                for cells, share in zip(comp.supercells, shares, strict=True):
                    for c in cells:
                        by_cell[c] = share
            self._by_cell = by_cell
        return by_cell.get(cell, self._unconstrained)

    def probability(self, cell: int) -> float:
        v = self.observation.view[cell]
        if v == FLAGGED:
            return 1.0
        if v != COVERED:
            raise ValueError(f"cell {self.observation.board.name(cell)} is revealed; it has no mine probability")
        num, den = self._share(cell)
        return float(num / den)

    def fraction(self, cell: int) -> Fraction:
        """The exact probability as a fraction (only for exact results)."""
        if not self.exact:
            raise ValueError("this result was estimated (exact=False); no exact fraction is available")
        v = self.observation.view[cell]
        if v == FLAGGED:
            return Fraction(1)
        if v != COVERED:
            raise ValueError(f"cell {self.observation.board.name(cell)} is revealed; it has no mine probability")
        num, den = self._share(cell)
        return Fraction(int(num), int(den))

    @property
    def unconstrained_probability(self) -> float | None:
        """The mine probability shared by every covered cell no number touches (None if there is none)."""
        if not self.unconstrained:
            return None
        num, den = self._unconstrained
        return float(num / den)

    @property
    def craps(self) -> tuple[CrapsShoot, ...]:
        """Seed 000's craps shoots in this position (see :func:`_craps_shoots`), found on first use."""
        if self._craps is None:
            if self._tallies is None:
                self._craps = ()
            else:
                self._craps = _craps_shoots(self.observation, self.components, self._tallies, self._shares)
        return self._craps

    def grid(self) -> list[list[float | None]]:
        """Rows of per-cell probabilities: None for revealed cells."""
        b = self.observation.board
        view = self.observation.view
        values = [None if view[c] >= 0 else self.probability(c) for c in range(b.cells)]
        return [values[y * b.width : (y + 1) * b.width] for y in range(b.height)]

    def covered(self) -> list[tuple[int, float]]:
        """(cell, probability) for every covered unflagged cell."""
        by_cell: dict[int, float] = {}
        for comp, shares in zip(self.components, self._shares, strict=True):
            for cells, (num, den) in zip(comp.supercells, shares, strict=True):
                p = float(num / den)
                for c in cells:
                    by_cell[c] = p
        num, den = self._unconstrained
        shared = float(num / den)
        return [(c, by_cell.get(c, shared)) for c, v in enumerate(self.observation.view) if v == COVERED]

    def supercells(self) -> tuple[tuple[float, tuple[int, ...]], ...]:
        """(mine probability, cells) of every super-cell of the components (cells a number touches; the cells of one
        super-cell share their probability), as :meth:`probability` gives it; built once per result."""
        found = self._supercells_v
        if found is None:
            found = self._supercells_v = tuple(
                (float(num / den), tuple(cells))
                for comp, shares in zip(self.components, self._shares, strict=True)
                for cells, (num, den) in zip(comp.supercells, shares, strict=True)
            )
        return found

    def lowest(self, tie: float = 0.0) -> tuple[float, list[int]]:
        """The lowest mine probability of a covered unflagged cell, and every such cell within ``tie`` of it (in no
        particular order): what ``min`` over :meth:`covered` gives, computed once per super-cell."""
        floats: list[tuple[float, Sequence[int]]] = list(self.supercells())
        shared = self.unconstrained_probability
        if shared is not None:
            floats.append((shared, self.unconstrained))
        best = min(p for p, _ in floats)
        return best, [c for p, cells in floats if p <= best + tie for c in cells]


def _combine(
    observation: Observation,
    unconstrained: tuple[int, ...],
    mines_left: int,
    components: list[Component],
    tallies: list[Tally | None],
    clock: _Clock,
    explain: bool = True,
) -> Probabilities:
    """Combine the components' tallies into every covered cell's probability, weighting by the unconstrained cells.

    Only proofs raise :class:`InconsistentPositionError`; a missing or empty estimate raises :class:`UndecidedError`."""
    board = observation.board
    U, R = len(unconstrained), mines_left
    for comp, t in zip(components, tallies, strict=True):
        if t is not None and t.exact and not any(t.weight.values()):
            raise _blame(comp, observation, clock.end) if explain else InconsistentPositionError("no layout fits the numbers")
    missing = [comp for comp, t in zip(components, tallies, strict=True) if t is None or not t.weight]
    if missing:
        frontier = sum(len(comp.cells) for comp in missing)
        raise UndecidedError(
            f"undecided within the budget of {clock.seconds:g} s: {len(missing)} component(s) of {frontier} frontier cells "
            f"(the largest around {board.name(max(missing, key=lambda c: len(c.cells)).constraints[0][2])}) were left "
            "without probabilities in time (the estimate found no first solution, or too few moves, before the deadline, "
            "and any component folded beside it needs its answer); the position is not proved inconsistent, and more "
            "time would help"
        )
    counted: list[Tally] = [t for t in tallies if t is not None]
    exact = all(t.exact for t in counted)
    weighing: _Weighing | None = None
    if exact:
        light = _certain_exact(components, counted, unconstrained, R)
        if light is False:
            _no_total(observation, counted, U, R)
        if isinstance(light, tuple):  # the certain cells without weighing; the weights are computed on first use
            certain, lazy = light
            return Probabilities(observation, True, 0.0, None, certain, lazy, components, unconstrained, None, None, counted, R)
        end = clock.end - ESTIMATE_RESERVE * clock.seconds
        if time.perf_counter() + EXACT_SECONDS * _exact_work(counted, R) > end:
            weighing = None  # hundreds of components (a strewn board): in floating point at once, not at the deadline
        else:
            try:
                # the exact integers until the reserve: the numeric weighting and the shares after them fit in it
                weighing = _weigh_exact(counted, U, R, end)
            except _OutOfTime:
                weighing = None
        if weighing.zero if weighing is not None else not _feasible_total([list(t.weight) for t in counted], U, R):
            _no_total(observation, counted, U, R)
    numeric = weighing is None
    if weighing is None:
        weighing = _weigh_numeric(counted, U, R)
        if weighing.zero:
            # counts in floating point keep every count they can hold: without an estimate, no fit is a proof
            if not any(not t.exact and not t.rounding for t in counted) and not _feasible_total(
                [list(t.weight) for t in counted], U, R
            ):
                _no_total(observation, counted, U, R)
            raise UndecidedError(
                f"undecided within the budget of {clock.seconds:g} s: the estimated components found no way to place "
                f"the {R} remaining mines; the position is not proved inconsistent (give it more time)"
            )
    shares = _cell_shares(components, counted, weighing, numeric)
    error = 0.0
    if any(not t.exact and not t.rounding for t in counted):
        error = _batch_error(components, counted, U, R)
    elif numeric:
        error = ROUNDING
    safe: list[int] = []
    mines: list[int] = []
    for comp, t, row_shares in zip(components, counted, shares, strict=True):
        if not t.exact:
            continue  # neither an estimate nor a count in floating point claims certainty
        if numeric:  # certain for every count of the component (sufficient; the global count may add more)
            weights = [(w, t.expected[k]) for k, w in t.weight.items() if w]
            for j, cells in enumerate(comp.supercells):
                if all(row[j] == 0 for _, row in weights):
                    safe.extend(cells)
                elif all(row[j] == w * len(cells) for w, row in weights):
                    mines.extend(cells)
        else:
            for cells, (num, den) in zip(comp.supercells, row_shares, strict=True):
                if num == 0:
                    safe.extend(cells)
                elif num == den:
                    mines.extend(cells)
    un_num, un_den = weighing.unconstrained
    if unconstrained and not numeric:
        if un_num == 0:
            safe.extend(unconstrained)
        elif un_num == un_den:
            mines.extend(unconstrained)
    safe.sort()
    mines.sort()
    return Probabilities(
        observation,
        exact and not numeric,
        error,
        int(weighing.layouts),
        tuple(safe),
        tuple(mines),
        components,
        unconstrained,
        shares,
        (un_num, un_den) if unconstrained else (0, 1),
        None if numeric else counted,
    )


def _craps_shoots(
    observation: Observation,
    components: list[Component],
    tallies: list[Tally],
    shares: list[list[tuple[Any, Any]]],
) -> tuple[CrapsShoot, ...]:
    """Seed 000's step 5: a coupled set whose solutions all need the same number of mines and none of whose cells
    has a covered neighbour outside the set (the paper: no neighbour that is unknown or a variable of another set).
    We also require that it has no certainly safe cell, since revealing one could still inform the set."""
    neighbours = observation.board.neighbours
    view = observation.view
    found = []
    for comp, t, row in zip(components, tallies, shares, strict=True):
        ks = [k for k, w in t.weight.items() if w]
        if len(ks) != 1:
            continue
        if any(num == 0 for num, _ in row):
            continue
        share = {c: s for cells, s in zip(comp.supercells, row, strict=True) for c in cells}
        cells = comp.cells
        inside = set(cells)
        if any(view[n] == COVERED and n not in inside for c in cells for n in neighbours[c]):
            continue
        best = min(sorted(cells), key=lambda c: share[c][0] / share[c][1])
        num, den = share[best]
        if num == den:
            continue
        found.append(CrapsShoot(tuple(sorted(cells)), best, 1 - num / den))
    return tuple(found)
