"""One-move look-ahead for a guess: for each number a covered cell could show, its exact probability and how good the
position after it is (a certain-safe cell, or the safety of the best next guess).

The score of a cell is ``sum over numbers v of P(cell safe and shows v) * next(v)``, where ``next(v)`` blends the two
best safeties of the position after seeing ``v``, ``(4 * best + second) / 5`` (JSMinesweeper's "secondary safety": the
second-best cell stands for the chance that the best one is a dead end), and a certainly safe cell counts as safety 1
("progress"). Which safe cells count is the ``progress`` mode (:data:`PROGRESS_MODES`): under ``living`` (the
default, JSMinesweeper's rule) only a safe cell whose number is not yet determined does, so two such cells make
``next(v)`` 1 and one makes it ``(4 + best other) / 5``; under ``any`` (sweeplab's earlier rule) any certainly safe
cell makes it 1. The score is at most the cell's own safety, which lets a search over candidates stop early (see
:func:`evaluate`'s ``bar``).

These figures are hand-set, not fitted. A fit to ``best``'s own games (``benchmarks/best/best_calibrate.py``) says a
position with no counted safe cell is worth less than its blend (about the blend to the power 1.74), but playing with
the fitted figures won no more expert games, and figures moved the other way won fewer (``docs/results.md``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import compress, count

import numpy as np

from sweeplab.analysis import Analyzer, Probabilities
from sweeplab.analysis.exact.kernel import _PACK
from sweeplab.core.geometry import Board
from sweeplab.core.observation import COVERED, Observation
from sweeplab.strategies.loops import LOOPS

_IN_SPAN = getattr(LOOPS, "in_span", None)  # the exact span test in C (None without the kernel)
_BRIEF = getattr(LOOPS, "brief", None)  # what the look-ahead reads of a position, in C
_LIVING = getattr(LOOPS, "living", None)  # living_safe's test, in C

#: Weights of the best and second-best next safety in the blended "next" figure (JSMinesweeper's 4:1).
BLEND = (4.0, 1.0)


@dataclass
class Outcome:
    """One number a cell may show: P(the cell is safe and shows it), and the position after it."""

    value: int
    probability: float
    progress: bool  # the position after it has a certainly safe cell that counts (a living one, under ``living``)
    next_safety: float  # the blended safety of the best next guesses, a counted safe cell as safety 1
    after: Probabilities | None = field(default=None, repr=False, compare=False)  # kept when asked (``keep``)

    def to_dict(self) -> dict[str, float | int | bool]:
        return {
            "value": self.value,
            "probability": round(self.probability, 6),
            "progress": self.progress,
            "next_safety": round(self.next_safety, 6),
        }


@dataclass
class Candidate:
    """A cell considered for a guess, with its safety and (once evaluated) its look-ahead score."""

    cell: int
    safety: float
    score: float | None = None
    outcomes: list[Outcome] = field(default_factory=list)
    pruned: bool = False  # evaluation stopped once the score could no longer beat the best one
    factor: float = 1.0  # the fifty-fifty influence multiplier of the score (:mod:`.influence`)
    deep: float | None = None  # the two-ply score (``depth=2``)

    @property
    def bound(self) -> float:
        """The highest score the cell could reach: its safety times its factor."""
        return self.safety * self.factor

    @property
    def dead(self) -> bool:
        """Evaluated in full and only one number is possible: opening it tells nothing new."""
        return self.score is not None and not self.pruned and len(self.outcomes) <= 1

    @property
    def progress(self) -> float:
        """P(safe, and the next position has a certainly safe cell)."""
        return sum(o.probability for o in self.outcomes if o.progress)


def best_two(result: Probabilities) -> tuple[float, float]:
    """The two highest safeties among the covered cells of a position that are not certainly safe (a cell counted
    once; 0.0 when missing)."""
    b1 = b2 = 0.0
    for p, sc in result.supercells():
        if p <= 0.0:
            continue
        s = 1.0 - p
        if s > b1:
            b1, b2 = s, (b1 if len(sc) == 1 else s)
        elif s > b2:
            b2 = s
    un = result.unconstrained_probability
    if un is not None and un > 0.0:
        s = 1.0 - un
        n = len(result.unconstrained)
        if s > b1:
            b1, b2 = s, (b1 if n == 1 else s)
        elif s > b2:
            b2 = s
    return b1, b2


#: How the certainly safe cells of the position after a reveal count (the ``progress`` option of ``best``).
PROGRESS_MODES = ("living", "any")


def living_safe(observation: Observation, result: Probabilities, enough: int = 2) -> int:
    """How many of the position's certainly safe cells are living (their number is not yet determined), counted up to
    ``enough``.

    A safe cell's number is its known mines plus the mines among its uncertain neighbours. It is dead when that sum is
    fixed by the numbers already shown: when the set of its uncertain neighbours is a linear combination of the
    uncertain neighbourhoods of the revealed numbers nearby (two rings around it) and of the whole uncertain set (the
    mine count; it can take part only when no uncertain cell lies outside those neighbourhoods), each of which holds
    a known number of mines. That test never calls a living cell dead; a cell whose number is fixed only by the
    whole-number nature of the layouts may be called living. (The rank test is exact: the kernel's ``in_span``, or
    numpy's ranks without the kernel.)"""
    return _living(observation, result.safe, result.mines, enough)


def _living(observation: Observation, safe: Sequence[int], mines: Sequence[int], enough: int = 2) -> int:
    """:func:`living_safe` from a position's certain cells: the kernel's ``living`` where it is built, else
    :func:`_living_python` (the same test)."""
    if _LIVING is not None and _PACK is not None:
        board = observation.board
        raw, _ = _PACK(observation.view)
        count: int = _LIVING(raw, board.width, board.height, safe, mines, enough)
        return count
    return _living_python(observation, safe, mines, enough)


def _living_python(observation: Observation, safe: Sequence[int], mines: Sequence[int], enough: int = 2) -> int:
    """The test of :func:`living_safe` in Python (the kernel's ``living`` is the same test in C)."""
    view = observation.view
    neighbours = observation.board.neighbours
    certain = set(safe)
    certain.update(mines)

    def uncertain(cell: int) -> frozenset[int]:
        return frozenset(n for n in neighbours[cell] if view[n] == COVERED and n not in certain)

    everything: frozenset[int] | None = None
    found = 0
    for cell in safe:
        around = uncertain(cell)
        if not around:
            continue
        numbers = {r for u in around for r in neighbours[u] if view[r] >= 0}
        groups = [uncertain(r) for r in numbers]
        if around in groups:
            continue
        ring = {c for g in groups for c in g}
        numbers |= {r for u in ring for r in neighbours[u] if view[r] >= 0}
        groups = [g for g in (uncertain(r) for r in numbers) if g]
        ring = {c for g in groups for c in g}
        if everything is None:
            everything = frozenset(compress(count(), map(COVERED.__eq__, view))) - certain
        if _in_span(around, groups if everything - ring - around else [*groups, everything]):
            continue
        found += 1
        if found >= enough:
            break
    return found


def _in_span(target: frozenset[int], groups: list[frozenset[int]]) -> bool:
    """Whether the indicator of ``target`` is a linear combination of the indicators of ``groups`` (the kernel's exact
    ``in_span`` where it is built; else numpy's ranks, which agree on such small 0/1 matrices)."""
    if _IN_SPAN is not None:
        found: bool = _IN_SPAN(target, groups)
        return found
    return _in_span_numpy(target, groups)


def _in_span_numpy(target: frozenset[int], groups: list[frozenset[int]]) -> bool:
    """:func:`_in_span` by numpy's matrix ranks (singular values above a tolerance)."""
    cells = sorted(set(target).union(*groups))
    index = {c: i for i, c in enumerate(cells)}
    rows = np.zeros((len(groups), len(cells)))
    for i, group in enumerate(groups):
        rows[i, [index[c] for c in group]] = 1.0
    goal = np.zeros(len(cells))
    goal[[index[c] for c in target]] = 1.0
    rank = np.linalg.matrix_rank(rows)
    return bool(np.linalg.matrix_rank(np.vstack([rows, goal])) == rank)


def next_safety(result: Probabilities, mode: str = "living") -> tuple[bool, float]:
    """(progress, blended next safety) of a position, counting its certainly safe cells as ``mode`` says (see the
    module docstring); progress is True when a safe cell counts."""
    if result.safe and mode == "any":
        return True, 1.0
    return _blend(bool(result.safe), lambda: living_safe(result.observation, result), best_two(result))


def _blend(safe: bool, living_of: Callable[[], int], two: tuple[float, float]) -> tuple[bool, float]:
    """:func:`next_safety` from whether a position has a certainly safe cell, what counts its living ones (up to two;
    asked only when needed) and its :func:`best_two`, past the ``any`` mode's shortcut."""
    w1, w2 = BLEND
    b1, b2 = two
    if b1 == 0.0:  # no cell is uncertain: the position is decided
        return safe, 1.0
    if safe:
        living = living_of()
        if living >= 2:
            return True, 1.0
        if living:
            return True, (w1 + w2 * b1) / (w1 + w2)
    return False, (w1 * b1 + w2 * b2) / (w1 + w2)


def _kernel_living(raw: bytearray, board: Board, safe: tuple[int, ...], mines: tuple[int, ...]) -> Callable[[], int]:
    """What counts the living safe cells (up to two) of the position whose view is ``raw`` now, in the kernel."""
    assert _LIVING is not None
    living = _LIVING
    return lambda: int(living(raw, board.width, board.height, safe, mines, 2))


def possible_values(observation: Observation, result: Probabilities, cell: int, mines: frozenset[int]) -> list[int]:
    """The numbers ``cell`` can show as far as its neighbours' certain mines allow, likeliest first (nearest the
    expected number, from the neighbours' mine probabilities), so that an evaluation can stop early."""
    view = observation.view
    known = unknown = 0
    expected = 0.0
    for n in observation.board.neighbours[cell]:
        v = view[n]
        if v >= 0:
            continue
        if v != COVERED or n in mines:
            known += 1  # a flag or a certain mine
        else:
            unknown += 1
            expected += result.probability(n)
    centre = known + expected
    return sorted(range(known, known + unknown + 1), key=lambda v: (abs(v - centre), v))


def evaluate(
    analyzer: Analyzer,
    observation: Observation,
    result: Probabilities,
    candidate: Candidate,
    bar: float = -1.0,
    mines: frozenset[int] = frozenset(),
    mode: str = "living",
    keep: bool = False,
) -> Candidate:
    """Fill in ``candidate``'s outcomes and score (times its ``factor``). Stops (``pruned``) once the score cannot
    exceed ``bar``.

    Each number is tried by analysing the position with the cell showing it; the layouts of that position are exactly
    the layouts of this one in which the cell is safe and shows that number, so their count over this position's gives
    its probability.
    """
    cell = candidate.cell
    total = result.layouts
    moves = observation.moves
    score = 0.0
    left = candidate.safety
    factor = candidate.factor
    candidate.outcomes = []
    board, budget = observation.board, analyzer.budget
    # the kernel's brief reads the same figures of each position after a reveal, without the analysis: the view as
    # the kernel's bytes, the cell showing each number in turn
    pack, brief_of = _PACK, _BRIEF
    raw = None
    plain = type(analyzer) is Analyzer and analyzer.use_kernel  # an analyzer that watches its analyses sees them all
    if not keep and plain and pack is not None and brief_of is not None and _LIVING is not None:
        raw = bytearray(pack(observation.view)[0])
    width, height, limits = board.width, board.height, (budget.max_states, budget.max_bytes, budget.seconds)
    for value in possible_values(observation, result, cell, mines):
        if (score + left) * factor <= bar:
            candidate.pruned = True
            break
        if raw is not None and brief_of is not None:
            raw[cell] = value
            brief = brief_of(raw, width, height, observation.mines, *limits)
            if brief is not None:  # (layouts, certain safe cells, certain mines, the best two safeties)
                layouts, safe, certain_mines, b1, b2 = brief
                if not layouts:
                    continue
                p = layouts / total
                left -= p
                if safe and mode == "any":
                    progress, nxt = True, 1.0
                else:
                    progress, nxt = _blend(bool(safe), _kernel_living(raw, board, safe, certain_mines), (b1, b2))
                score += p * nxt
                candidate.outcomes.append(Outcome(value, p, progress, nxt))
                continue
        position = observation.with_cells({cell: value}, moves + 1)
        after = analyzer.try_analyze(position)
        if after is None or not after.layouts:
            continue
        p = after.layouts / total
        left -= p
        progress, nxt = next_safety(after, mode)
        score += p * nxt
        candidate.outcomes.append(Outcome(value, p, progress, nxt, after if keep else None))
    candidate.score = score * factor
    return candidate
