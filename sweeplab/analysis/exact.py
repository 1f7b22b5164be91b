"""The exact probability engine: every covered cell's mine probability, weighted by the global mine count.

This module is the engine's public entry; each stage lives in its own module (named as in minesweepr):
constraints (:mod:`~sweeplab.analysis.constraints`) -> super-cells (frontier cells that touch exactly the same
numbers) and independent components (:mod:`~sweeplab.analysis.components`) -> a per-component count of weighted
solutions by mine count k (:mod:`~sweeplab.analysis.counting`: dynamic programming over super-cells, merging equal
partial states, so a long thin frontier costs little; a forward pass of weights, then a backward pass for each
super-cell's expected mines), or, for the components the count cannot finish in time (a frontier wide in both
directions), an estimate by a Markov chain over their solutions (:mod:`~sweeplab.analysis.chain`, its blocks in
:mod:`~sweeplab.analysis.blocks`; the former particle filter, :func:`sample`, is kept as a function) -> weighting
by C(U, R - K), the ways to put the remaining R - K mines among the U covered cells no number touches, where K sums
the components' counts (:mod:`~sweeplab.analysis.weighting`) -> :class:`Probabilities`
(:mod:`~sweeplab.analysis.probabilities`). All of it in exact integers when every component is counted: the result
is then the true posterior under a uniformly random layout, equal to brute force over every layout. :class:`Analyzer` and
:func:`analyze` (:mod:`~sweeplab.analysis.analyzer`) run the stages, with the C kernel
(:mod:`~sweeplab.analysis.kernel`) when it is built; :func:`check_consistency` and :func:`is_consistent`
(:mod:`~sweeplab.analysis.consistency`) decide Kaye's consistency problem with a witness layout.

The budget is a promise (:class:`Budget`, :mod:`~sweeplab.analysis.budget`): ``Analyzer.analyze`` returns within
``seconds`` plus a small overhead (:data:`OVERHEAD_SECONDS`), with the best answer it has. Every stage checks the
clock (constraints, components, the count, in the C kernel too, the estimate, the weighting, the witness search).
On boards of :data:`~sweeplab.analysis.analyzer.FIX_CELLS` cells or more, the cells the single-point pass decides
are settled before the count (safe cells leave it, mines count as flags, and the settled cells form one component of
their own), and so are those that subset simplification decides in the large components the count's probe
leaves: a frontier with numbers strewn all over then falls into hundreds of small components instead of one too
wide to count. Exact counts whose weighing in exact integers would take longer than the time left are weighed in
floating point at once (``exact=False``, ``error`` :data:`ROUNDING`). The exact count may use the first
:data:`EXACT_SHARE` of the budget; the components still uncounted then (too many partial states, too much memory, or
no time) are counted in floating point, folded against the rest of the position, when their predicted time fits
(:mod:`~sweeplab.analysis.folding`: states keyed by the needs alone, each holding a vector over the mines so far;
exact up to rounding, so ``exact=False`` and ``error`` :data:`ROUNDING` again, with no certain cell claimed among
them); on boards probed before the count, the probe's leftovers are folded before the full count, which then runs
only to make the answer exact when most of its time is left. Components that do not fold in time (too many states
even so) are merged into one and estimated by the chain in the rest, beside the folds of the others, weighted
by the exact counts of the others and the unconstrained cells (so the global mine count holds), and the result says
``exact=False`` with an estimated error (two standard errors of the chain's batch means; ``layouts`` is then a scale,
not a count). The estimate improves with time: its error falls roughly as one over the square root of the seconds
given. A position is called
inconsistent (:class:`InconsistentPositionError`) only when that is proved: a number that cannot hold, a
component counted exactly with no solution, or exact counts that no global mine count fits. When even an
estimate cannot be had in time (the chain found no first solution, or made too few moves), :class:`UndecidedError`
says so and that more time would help; it never means "inconsistent".
"""

from __future__ import annotations

from sweeplab.analysis.analyzer import Analyzer, analyze
from sweeplab.analysis.budget import (
    DEFAULT_BUDGET,
    ESTIMATE_RESERVE,
    EXACT_SHARE,
    OVERHEAD_SECONDS,
    PATIENCE,
    Budget,
    BudgetExceededError,
)
from sweeplab.analysis.components import Component, build_components
from sweeplab.analysis.consistency import Consistency, check_consistency, is_consistent
from sweeplab.analysis.counting import PY_ENTRY_BYTES, Tally, count
from sweeplab.analysis.kernel import KERNEL
from sweeplab.analysis.probabilities import ROUNDING, CrapsShoot, Probabilities
from sweeplab.analysis.sampling import sample
from sweeplab.analysis.weighting import LIGHT_BITS, LIGHT_COUNTS, LIGHT_MULTI, Forward
from sweeplab.core.errors import InconsistentPositionError, UndecidedError

__all__ = [
    "DEFAULT_BUDGET",
    "ESTIMATE_RESERVE",
    "EXACT_SHARE",
    "KERNEL",
    "LIGHT_BITS",
    "LIGHT_COUNTS",
    "LIGHT_MULTI",
    "OVERHEAD_SECONDS",
    "PATIENCE",
    "PY_ENTRY_BYTES",
    "ROUNDING",
    "Analyzer",
    "Budget",
    "BudgetExceededError",
    "Component",
    "Consistency",
    "CrapsShoot",
    "Forward",
    "InconsistentPositionError",
    "Probabilities",
    "Tally",
    "UndecidedError",
    "analyze",
    "build_components",
    "check_consistency",
    "count",
    "is_consistent",
    "sample",
]
