"""One-move look-ahead for a guess: for each number a covered cell could show, its exact probability and how good the
position after it is (a certain-safe cell, or the safety of the best next guess).

The score of a cell is ``sum over numbers v of P(cell safe and shows v) * next(v)``, where ``next(v)`` is 1 when the
position after seeing ``v`` has a certainly safe cell ("progress") and otherwise a blend of the two best safeties
there, ``(4 * best + second) / 5`` (JSMinesweeper's "secondary safety": the second-best cell stands for the chance
that the best one is a dead end). The score is at most the cell's own safety, which lets a search over candidates
stop early (see :func:`evaluate`'s ``bar``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sweeplab.analysis.exact import Analyzer, Probabilities
from sweeplab.core.observation import COVERED, Observation

#: Weights of the best and second-best next safety in the blended "next" figure (JSMinesweeper's 4:1).
BLEND = (4.0, 1.0)


@dataclass
class Outcome:
    """One number a cell may show: P(the cell is safe and shows it), and the position after it."""

    value: int
    probability: float
    progress: bool  # the position after it has a certainly safe cell
    next_safety: float  # the blended safety of the best next guesses (1.0 with progress)

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
    common: frozenset[int] = frozenset()  # evaluated in full: the cells certainly safe after every number it can show
    switched_from: int | None = None  # chosen instead of this cell, which it dominates (see ``best``'s ``dominance``)
    deep: float | None = None  # the two-move score, where one was computed

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
    for comp in result.components:
        for sc in comp.supercells:
            s = 1.0 - result.probability(sc[0])  # the cells of a super-cell share one probability
            if s >= 1.0:
                continue
            if s > b1:
                b1, b2 = s, (b1 if len(sc) == 1 else s)
            elif s > b2:
                b2 = s
    un = result.unconstrained_probability
    if un is not None:
        s = 1.0 - un
        n = len(result.unconstrained)
        if s > b1:
            b1, b2 = s, (b1 if n == 1 else s)
        elif s > b2:
            b2 = s
    return b1, b2


#: How a certainly safe cell after a reveal counts (the ``progress`` option of ``best``): ``any`` certainly safe cell
#: makes the next position worth 1; ``living``: only a safe cell whose number is not yet determined does (opening a
#: dead one tells nothing); ``jsm``: two living safe cells make it worth 1, one counts as a 1.0 "best safety" in the
#: 4:1 blend (JSMinesweeper's blended safety over living tiles).
PROGRESS_MODES = ("any", "living", "jsm", "decay")


def living_safe(observation: Observation, result: Probabilities, enough: int = 2) -> int:
    """How many of the position's certainly safe cells are living (their number is not yet determined), counted up to
    ``enough``. A safe cell is dead when every covered neighbour is certain, or when its uncertain neighbours are
    exactly the uncertain neighbours of one revealed number (which fixes how many mines they hold)."""
    if not result.safe:
        return 0
    view = observation.view
    neighbours = observation.board.neighbours
    certain = set(result.safe)
    certain.update(result.mines)

    def uncertain(cell: int) -> frozenset[int]:
        return frozenset(n for n in neighbours[cell] if view[n] == COVERED and n not in certain)

    found = 0
    for cell in result.safe:
        around = uncertain(cell)
        if not around:
            continue
        numbers = {r for u in around for r in neighbours[u] if view[r] >= 0}
        if any(uncertain(r) == around for r in numbers):
            continue
        found += 1
        if found >= enough:
            break
    return found


#: ``decay`` mode: the next position's risk (one minus its blended safety) is multiplied by ``DECAY`` for each living
#: safe cell, counted up to ``DECAY_CAP``.
DECAY = 0.2
DECAY_CAP = 3


def next_safety(result: Probabilities, mode: str = "any") -> tuple[bool, float]:
    """(progress, blended next safety) of a position: (True, 1.0) if a cell is certainly safe (``mode``: see
    :data:`PROGRESS_MODES`)."""
    w1, w2 = BLEND
    if result.safe and mode == "decay":
        living = living_safe(result.observation, result, DECAY_CAP)
        if living:
            b1, b2 = best_two(result)
            return True, 1.0 - (1.0 - (w1 * b1 + w2 * b2) / (w1 + w2)) * DECAY**living
    elif result.safe:
        if mode == "any":
            return True, 1.0
        living = living_safe(result.observation, result)
        if living >= 2 or (living and mode == "living"):
            return True, 1.0
        if living:
            b1, _ = best_two(result)
            return True, (w1 + w2 * b1) / (w1 + w2)
    b1, b2 = best_two(result)
    return False, (w1 * b1 + w2 * b2) / (w1 + w2)


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
    mode: str = "any",
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
    common: set[int] | None = None
    for value in possible_values(observation, result, cell, mines):
        if (score + left) * factor <= bar:
            candidate.pruned = True
            break
        after = analyzer.try_analyze(observation.with_cells({cell: value}, moves + 1))
        if after is None or not after.layouts:
            continue
        common = set(after.safe) if common is None else common.intersection(after.safe)
        p = after.layouts / total
        left -= p
        progress, nxt = next_safety(after, mode)
        score += p * nxt
        candidate.outcomes.append(Outcome(value, p, progress, nxt))
    candidate.score = score * factor
    candidate.common = frozenset(common) if common and not candidate.pruned else frozenset()
    return candidate
