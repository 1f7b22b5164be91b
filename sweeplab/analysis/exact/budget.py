"""What one analysis may spend: :class:`Budget`, the clock of one call, and the exceptions a stage raises past its limits.

The budget is a promise: ``Analyzer.analyze`` returns within ``seconds`` plus :data:`OVERHEAD_SECONDS`, with the best
answer it has. The exact count may use the first :data:`EXACT_SHARE` of it (on a large board, after a quick probe
whose early failure cuts it to :data:`PROBE_SHARE`, leaving the estimate the rest, and whose late failure lengthens
it to :data:`PROMISING_SHARE`: :data:`PROBE_CELLS`); the estimate the rest,
less :data:`ESTIMATE_RESERVE` for the weighting; the Python stages check the clock every :data:`_CHECK_EVERY` work items.
"""

from __future__ import annotations

import contextlib
import gc
import math
import time
from collections.abc import Iterator
from dataclasses import dataclass

from sweeplab.core.errors import SweeplabError, UndecidedError

EXACT_SHARE = 0.6  # the share of the budget the exact count may use before the rest is estimated
WIDE_SHARE = 0.15  # the share the pure-Python count may spend on a component too wide for the C kernel's keys
WIDE_SUPERCELLS = 2000  # ... if it has at most this many super-cells (a larger one is estimated at once: the count's
# plan alone would take much of that share, and a count over so many open numbers is unlikely to finish)
EXACT_AFTER_FOLD = 0.75  # after a fold, the full count runs for exact fractions when this much of its time is left
FOLD_SHARE = 0.7  # the share of the time left for estimates that counts in floating point may take when all of them fold
# ... and when some look as if they do not (the chain estimates those beside them in the rest; ad hoc, with the
# spectral orders, 0.55 let 512x128 with 16,384 mines and 40 % revealed, seed 1, fold in 4 of 4 fresh processes at
# 2 s, 0.4 in at most 1 of 4)
MIXED_SHARE = 0.55
ESTIMATE_RESERVE = 0.05  # the share kept back from the estimate for weighting and building the result
OVERHEAD_SECONDS = 0.25  # stated overhead past the budget: finishing a check interval, weighting, building results
PROBE_CELLS = 4096  # boards of this many cells or more are probed before the full exact count (Analyzer._tally)
PROBE_STATES = 1000  # the probe's partial states a step
PROBE_CPU = 0.03  # a probe that gives up within this many CPU seconds ...
PROBE_SHARE = 0.2  # ... leaves the full exact count this share of the budget (not EXACT_SHARE)
PROMISING_SHARE = 0.65  # the full count ends at this share of the budget after a probe that gave up late (0.8 was
# tried: results/large/promising-share/) ...
PROMISING_SUPERCELLS = 4500  # ... unless it left more super-cells uncounted, per second of budget (then PROBE_SHARE:
# the full count's time grows faster than what it counts; on strewn boards 8,500 took 0.9 s of CPU, 10,300 1.7 s)
PATIENCE = 15  # a player's second try at an undecided position gets this many times the budget's seconds
_CHECK_EVERY = 4096  # work items between clock checks in the Python stages


@dataclass(frozen=True)
class Budget:
    """How much one analysis may spend.

    ``seconds`` bounds the whole call on the wall clock (plus :data:`OVERHEAD_SECONDS`); ``max_states`` bounds
    the partial states one step of a component's count may hold; ``max_bytes`` bounds the memory of one
    component's count tables (and of the particle filter's history; the layers that folds keep between their two
    passes hold up to :data:`~sweeplab.analysis.estimate.folding.KEEP` times as much, all together); ``samples`` bounds the
    particles of an estimate. The defaults keep every position met in real play exact.
    """

    seconds: float = 2.0
    max_states: int = 100_000
    samples: int = 20_000
    max_bytes: int = 256 * 2**20

    def __post_init__(self) -> None:
        if not (isinstance(self.seconds, (int, float)) and math.isfinite(self.seconds) and self.seconds > 0):
            raise SweeplabError(f"a budget needs a finite number of seconds above 0, not {self.seconds!r}")
        for name in ("max_states", "samples", "max_bytes"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise SweeplabError(f"a budget's {name} must be a positive integer, not {value!r}")


DEFAULT_BUDGET = Budget()


@dataclass(frozen=True)
class _Clock:
    """The deadlines of one analysis: the exact count's and the whole call's (``time.perf_counter`` values)."""

    start: float
    exact: float
    end: float
    seconds: float

    @classmethod
    def starting(cls, budget: Budget) -> _Clock:
        start = time.perf_counter()
        return cls(start, start + EXACT_SHARE * budget.seconds, start + budget.seconds, budget.seconds)


class _TooBig(Exception):
    """A count past ``max_states`` or ``max_bytes``."""


class _OutOfTime(_TooBig):
    """A stage past its deadline."""


BudgetExceededError = UndecidedError  # the former name, kept for callers


def _check(deadline: float | None) -> None:
    if deadline is not None and time.perf_counter() > deadline:
        raise _OutOfTime


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector paused for one analysis (and resumed after, if it was on): a wide component
    holds tens of thousands of tuples, and each full collection that the chain's many small allocations trigger
    walks them all (nearly half the chain's moves lost on a 256x256 board). The analysis makes no reference cycles that
    matter; any are collected once the collector runs again."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
