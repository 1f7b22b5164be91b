"""sweeplab.analysis: what a position allows, worked out from its constraints alone (no strategy, no geometry but
the board's neighbours): the exact probability engine and its front, the large-position estimators, exact optimal
play on small boards, the no-guess dealer and seed 004's local searches, each in its own sub-package.

The engine's public entry is here: ``from sweeplab.analysis import analyze, Analyzer, Budget, Probabilities``
(:mod:`~sweeplab.analysis.analyzer` runs the stages of :mod:`~sweeplab.analysis.exact` and
:mod:`~sweeplab.analysis.estimate` within a :class:`Budget`). The names load on first use, so importing a
sub-package (the game-tree search, say) does not load the engine.

Importing the package registers the ``noguess`` rule's dealer with core (:mod:`sweeplab.analysis.dealing.noguess`
deals; core cannot import it), also loaded on first use.

>>> from sweeplab.analysis import analyze
>>> from sweeplab.formats.position import parse_position
>>> analyze(parse_position("3x1x1\\n1HH\\n")).probability(1)
1.0
"""

from __future__ import annotations

import importlib
import random
from typing import TYPE_CHECKING, Any

from sweeplab.core.rules import Rules, register_dealer

if TYPE_CHECKING:  # the names below, for type checkers (they load lazily at run time)
    from sweeplab.analysis.analyzer import Analyzer, analyze
    from sweeplab.analysis.estimate.sampling import sample
    from sweeplab.analysis.exact.budget import (
        DEFAULT_BUDGET,
        ESTIMATE_RESERVE,
        EXACT_SHARE,
        OVERHEAD_SECONDS,
        PATIENCE,
        Budget,
        BudgetExceededError,
    )
    from sweeplab.analysis.exact.components import Component, build_components
    from sweeplab.analysis.exact.consistency import Consistency, check_consistency, is_consistent
    from sweeplab.analysis.exact.counting import PY_ENTRY_BYTES, Tally, count
    from sweeplab.analysis.exact.kernel import KERNEL
    from sweeplab.analysis.exact.probabilities import ROUNDING, CrapsShoot, Probabilities
    from sweeplab.analysis.exact.weighting import LIGHT_BITS, LIGHT_COUNTS, LIGHT_MULTI, Forward
    from sweeplab.core.errors import InconsistentPositionError, UndecidedError

#: Each public name and the module that defines it.
_WHERE = {
    **dict.fromkeys(("Analyzer", "analyze"), "analyzer"),
    **dict.fromkeys(
        ("DEFAULT_BUDGET", "ESTIMATE_RESERVE", "EXACT_SHARE", "OVERHEAD_SECONDS", "PATIENCE", "Budget", "BudgetExceededError"),
        "exact.budget",
    ),
    **dict.fromkeys(("Component", "build_components"), "exact.components"),
    **dict.fromkeys(("Consistency", "check_consistency", "is_consistent"), "exact.consistency"),
    **dict.fromkeys(("PY_ENTRY_BYTES", "Tally", "count"), "exact.counting"),
    "KERNEL": "exact.kernel",
    **dict.fromkeys(("ROUNDING", "CrapsShoot", "Probabilities"), "exact.probabilities"),
    **dict.fromkeys(("LIGHT_BITS", "LIGHT_COUNTS", "LIGHT_MULTI", "Forward"), "exact.weighting"),
    "sample": "estimate.sampling",
}
_ERRORS = ("InconsistentPositionError", "UndecidedError")  # core's, re-exported beside the engine that raises them

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


assert set(__all__) == {*_WHERE, *_ERRORS}


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        value = getattr(importlib.import_module(f"sweeplab.analysis.{_WHERE[name]}"), name)
    elif name in _ERRORS:
        value = getattr(importlib.import_module("sweeplab.core.errors"), name)
    else:
        raise AttributeError(f"module 'sweeplab.analysis' has no attribute {name!r}")
    globals()[name] = value  # the next lookup is a plain attribute
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])


def _deal_noguess(rules: Rules, click: int, rng: random.Random) -> tuple[list[int], Any]:
    """The ``noguess`` dealer, loaded when a game first deals with it."""
    from sweeplab.analysis.dealing.noguess import deal_noguess

    return deal_noguess(rules, click, rng)


register_dealer("noguess", _deal_noguess)
