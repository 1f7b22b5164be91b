"""The registry of strategies by name: ``make(name, seed=...)`` builds one; ``names()`` lists them.

>>> make("single-point", seed=1).name
'single-point'
"""

from __future__ import annotations

import importlib
from typing import Any

from sweeplab.core.errors import UnknownStrategyError
from sweeplab.strategies.base import Strategy

#: name -> "module:Class". Modules load on first use so that listing names stays cheap.
_BUILTIN: dict[str, str] = {
    "random": "sweeplab.strategies.simple:RandomStrategy",
    "single-point": "sweeplab.strategies.simple:SinglePointStrategy",
    "equation": "sweeplab.strategies.equation:EquationStrategy",
    "cspstrategy": "sweeplab.strategies.studholme:CSPStrategy",
    "backtracking": "sweeplab.strategies.dss:BacktrackingStrategy",
    "dss": "sweeplab.strategies.dss:DSSStrategy",
    "dsscsp": "sweeplab.strategies.dss:DSScspStrategy",
    "dsscsp-limited": "sweeplab.strategies.dss:DSScspLimitedStrategy",
    "dsscsp-manhattan": "sweeplab.strategies.dss:DSScspManhattanStrategy",
    "dsscsp-limited-manhattan": "sweeplab.strategies.dss:DSScspLimitedManhattanStrategy",
    "gac": "sweeplab.strategies.gac:GacStrategy",
    "gac-endgame": "sweeplab.strategies.gac:GacEndgameStrategy",
    "level2": "sweeplab.strategies.levels:Level2Strategy",
    "level3": "sweeplab.strategies.levels:Level3Strategy",
    "exact": "sweeplab.strategies.exact:ExactStrategy",
    "corners": "sweeplab.strategies.corners:CornersStrategy",
    "sa": "sweeplab.strategies.local_search:SimulatedAnnealingStrategy",
    "ga": "sweeplab.strategies.local_search:GeneticAlgorithmStrategy",
}


def names() -> list[str]:
    """Every registered strategy name, in registration order."""
    return list(_BUILTIN)


def get(name: str) -> type[Strategy]:
    """The class registered under ``name``."""
    try:
        target = _BUILTIN[name]
    except KeyError:
        raise UnknownStrategyError(f"unknown strategy {name!r}: choose one of {', '.join(_BUILTIN)}") from None
    module, _, attr = target.partition(":")
    cls: type[Strategy] = getattr(importlib.import_module(module), attr)
    return cls


def make(name: str, seed: int | None = None, **options: Any) -> Strategy:
    """A fresh strategy for one game."""
    return get(name)(seed=seed, **options)


def register(name: str, target: str) -> None:
    """Add a strategy (``"package.module:Class"``) under a new name, e.g. from a plugin."""
    if name in _BUILTIN:
        raise ValueError(f"strategy {name!r} is already registered")
    _BUILTIN[name] = target
