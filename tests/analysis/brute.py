"""Brute force over every layout of the covered cells: the reference the exact engine must equal."""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

from sweeplab.core.observation import COVERED, FLAGGED, Observation


def brute_force(observation: Observation) -> tuple[int, dict[int, Fraction]] | None:
    """(number of consistent layouts, exact mine probability per covered cell), or None when none is consistent.

    Flags count as mines; the other covered cells hold the remaining mines in every possible way."""
    view, nb = observation.view, observation.board.neighbours
    covered = [c for c, v in enumerate(view) if v == COVERED]
    flags = {c for c, v in enumerate(view) if v == FLAGGED}
    left = observation.mines - len(flags)
    if left < 0 or left > len(covered):
        return None
    numbers = [(c, v) for c, v in enumerate(view) if v >= 0]
    total = 0
    hits = dict.fromkeys(covered, 0)
    for mines in combinations(covered, left):
        ms = set(mines) | flags
        if all(sum(n in ms for n in nb[c]) == v for c, v in numbers):
            total += 1
            for m in mines:
                hits[m] += 1
    if not total:
        return None
    return total, {c: Fraction(h, total) for c, h in hits.items()}
