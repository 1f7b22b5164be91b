"""The registry of strategies by name: ``make(name, seed=...)`` builds one; ``names()`` lists them.

A strategy with options is written as a spec, ``NAME[key=value,...]`` (the form tables print):
:func:`parse_spec` reads one, :func:`format_spec` writes one, :func:`options` lists what a strategy accepts.

>>> make("single-point", seed=1).name
'single-point'
>>> parse_spec("gac[pairs=False,subsets=False]")
('gac', {'pairs': False, 'subsets': False})
>>> format_spec("equation", {"guess": "pgms"})
'equation[guess=pgms]'
"""

from __future__ import annotations

import ast
import importlib
import inspect
import re
import warnings
from typing import Any

from sweeplab.core.errors import SweeplabError, UnknownStrategyError
from sweeplab.strategies.base import Strategy

#: name -> "module:Class". Modules load on first use so that listing names stays cheap.
_BUILTIN: dict[str, str] = {
    "random": "sweeplab.strategies.simple:RandomStrategy",
    "single-point": "sweeplab.strategies.simple:SinglePointStrategy",
    "equation": "sweeplab.strategies.pgms.equation:EquationStrategy",
    "cspstrategy": "sweeplab.strategies.pgms.studholme:CSPStrategy",
    "backtracking": "sweeplab.strategies.dss.players:BacktrackingStrategy",
    "dss": "sweeplab.strategies.dss.players:DSSStrategy",
    "dsscsp": "sweeplab.strategies.dss.players:DSScspStrategy",
    "dsscsp-limited": "sweeplab.strategies.dss.players:DSScspLimitedStrategy",
    "dsscsp-manhattan": "sweeplab.strategies.dss.players:DSScspManhattanStrategy",
    "dsscsp-limited-manhattan": "sweeplab.strategies.dss.players:DSScspLimitedManhattanStrategy",
    "gac": "sweeplab.strategies.gac:GacStrategy",
    "gac-endgame": "sweeplab.strategies.gac:GacEndgameStrategy",
    "level2": "sweeplab.strategies.levels:Level2Strategy",
    "level3": "sweeplab.strategies.levels:Level3Strategy",
    "exact": "sweeplab.strategies.exact:ExactStrategy",
    "pseq": "sweeplab.strategies.pseq:PseqStrategy",  # Tu et al. 2017 (b1f6c1c4/MineSweeperProb), on the exact engine
    "optimal": "sweeplab.strategies.optimal:OptimalStrategy",
    "best": "sweeplab.strategies.best:BestStrategy",
    "search": "sweeplab.strategies.search:SearchStrategy",  # best with rollouts on exact posterior draws
    "corners": "sweeplab.strategies.corners:CornersStrategy",
    "oh": "sweeplab.strategies.oh:OHStrategy",  # Buffet et al. 2012, seed 003 reference [5]
    "sa": "sweeplab.strategies.local_search:SimulatedAnnealingStrategy",
    "ga": "sweeplab.strategies.local_search:GeneticAlgorithmStrategy",
    "xgboost": "sweeplab.learn.seed003.players:XGBoostStrategy",
    "nn": "sweeplab.learn.seed003.players:NNStrategy",
    "dqn": "sweeplab.learn.seed003.players:DQNStrategy",
    "dqn-single": "sweeplab.learn.seed003.players:DQNSingleStrategy",
    "neural": "sweeplab.learn.neural.player:NeuralStrategy",  # sweeplab's own: a convolutional network
    "reference": "sweeplab.strategies.external.reference:ReferenceStrategy",  # the examples/ clients' twin
}


_EXTERNAL = "sweeplab.strategies.external.player"  #: the module of ``cmd:PROGRAM ARGS``, an outside program

#: name -> ``cmd:PROGRAM ARGS``: outside programs given a name by whoever started this process (``sweeplab serve
#: --player NAME=cmd:...``), so that callers that may not start programs (the web page's requests) can play them
_PROGRAMS: dict[str, str] = {}
_PROGRAM_NAME = re.compile(r"[a-z0-9][a-z0-9_.-]{0,39}")


def names() -> list[str]:
    """Every registered strategy name, in registration order (the built-in players, then the named programs)."""
    return [*_BUILTIN, *(name for name in _PROGRAMS if name not in _BUILTIN)]


def checked_program(name: str, spec: str) -> str:
    """``spec`` (stripped) if ``name`` may name the outside program ``spec`` (see :func:`register_program`), which
    must exist; else :class:`StrategySpecError` (or :class:`ExternalSpecError`) naming the part and the reason."""
    if not isinstance(name, str) or not _PROGRAM_NAME.fullmatch(name):
        raise StrategySpecError(
            f"player name {name!r}: use 1-40 lowercase letters, digits, '_', '.' or '-', starting with a letter or digit"
        )
    if name in _BUILTIN:
        raise StrategySpecError(f"player name {name!r} is a built-in player's: choose another")
    if not isinstance(spec, str) or not spec.strip().startswith("cmd:"):
        raise StrategySpecError(f"player {name!r}: {spec!r} is not an outside program: give cmd:PROGRAM ARGS")
    get(spec.strip())  # the program must be there (ExternalSpecError names the spec and the reason)
    return spec.strip()


def register_program(name: str, spec: str) -> None:
    """Name the outside program ``spec`` (``cmd:PROGRAM ARGS``) ``name`` in this process: ``get(name)`` is then that
    program as a player with no options (its command is fixed here, not by whoever names it). Naming it again
    replaces the command. The name is 1-40 lowercase letters, digits, ``_``, ``.`` or ``-`` (starting with a letter
    or digit) and no built-in player's; the program must exist (:func:`checked_program` says why not)."""
    _PROGRAMS[name] = checked_program(name, spec)


def programs() -> dict[str, str]:
    """The outside programs named in this process (:func:`register_program`): name -> ``cmd:PROGRAM ARGS``."""
    return dict(_PROGRAMS)


_LOADED: dict[str, tuple[str, type[Strategy]]] = {}  # the classes imported so far: name -> (its target, the class)


def get(name: str) -> type[Strategy]:
    """The class registered under ``name`` (its module imported on first use); ``cmd:PROGRAM ARGS`` is an outside
    program (:mod:`sweeplab.strategies.external`)."""
    if name.startswith("cmd:"):  # loaded by name, as every player's module is
        external: type[Strategy] = importlib.import_module(_EXTERNAL).external(name)
        return external
    program = _PROGRAMS.get(name)
    if program is not None and name not in _BUILTIN:
        named: type[Strategy] = importlib.import_module(_EXTERNAL).named(name, program)
        return named
    target = _BUILTIN.get(name)
    loaded = _LOADED.get(name)
    if loaded is not None and loaded[0] == target:
        return loaded[1]
    if target is None:
        raise UnknownStrategyError(f"unknown strategy {name!r}: choose one of {', '.join(names())}")
    module, _, attr = target.partition(":")
    cls: type[Strategy] = getattr(importlib.import_module(module), attr)
    _LOADED[name] = (target, cls)
    return cls


def make(name: str, seed: int | None = None, **options: Any) -> Strategy:
    """A fresh strategy for one game."""
    return get(name)(seed=seed, **options)


class StrategySpecError(SweeplabError):
    """A strategy spec (``NAME[key=value,...]``) that cannot be read: the message names the part and the reason."""


#: Option value types a spec can carry (anything else, e.g. a Budget object, is set from Python only).
_SPEC_TYPES = (bool, int, float, str)


def options(name: str) -> dict[str, inspect.Parameter]:
    """The keyword options of strategy ``name`` (every ``__init__`` parameter but ``seed``), with their defaults."""
    found: dict[str, inspect.Parameter] = {}
    for klass in get(name).__mro__:
        init = klass.__dict__.get("__init__")
        if init is None or klass is Strategy:
            continue
        parameters = inspect.signature(init).parameters.values()
        for p in parameters:
            if p.name not in ("self", "seed") and p.kind not in (p.VAR_KEYWORD, p.VAR_POSITIONAL):
                found.setdefault(p.name, p)
        if not any(p.kind is p.VAR_KEYWORD for p in parameters):
            break  # this __init__ does not pass options on to its parent's
    return found


def _value(text: str) -> Any:
    try:
        with warnings.catch_warnings():  # a path such as /tmp/0in makes the compiler warn before it refuses it
            warnings.simplefilter("ignore", SyntaxWarning)
            return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text  # a bare word: a string


def _optional_type(annotation: Any) -> type | None:
    """``int`` for an option annotated ``int | None`` (or ``Optional[int]``), likewise for the other spec types; None
    when the annotation names anything else (an object only Python can pass)."""
    text = annotation if isinstance(annotation, str) else getattr(annotation, "__name__", str(annotation))
    parts = {p.strip() for p in text.replace("Optional[", "").replace("]", "").split("|")} - {"None"}
    by_name = {t.__name__: t for t in _SPEC_TYPES}
    return by_name.get(parts.pop()) if len(parts) == 1 else None


def in_spec(parameter: inspect.Parameter) -> bool:
    """Whether an option can be written in a spec: its default is a bool, int, float or str, or None with such a type
    in its annotation; other options (a budget, a model object) are set from Python only."""
    if parameter.default is None:
        return _optional_type(parameter.annotation) is not None
    return isinstance(parameter.default, _SPEC_TYPES)


def parse_spec(text: str, outside: bool = False) -> tuple[str, dict[str, Any]]:
    """``NAME`` or ``NAME[key=value,...]`` -> (name, options), each option checked against the strategy's own.

    ``cmd:PROGRAM ARGS`` (an outside program, no options) is accepted only with ``outside``: the command line's
    callers pass it; input from elsewhere (the web page's requests) cannot start a program.

    Values are Python literals (``True``, ``3``, ``0.05``, ``'x'``) or bare words (strings). A value must have the
    type of the option's default (an int is accepted for a float); an option whose default is None takes the type
    its annotation names (``int | None``), or None.
    """
    text = text.strip()
    if text.startswith("cmd:"):  # an outside program: everything after cmd: is its command line
        if not outside:
            raise StrategySpecError(f"strategy {text!r}: an outside program (cmd:) can be given only on the command line")
        return get(text).name, {}
    name, bracket, rest = text.partition("[")
    name = name.strip()
    if bracket and not rest.endswith("]"):
        raise StrategySpecError(f"strategy {text!r}: options go in brackets, NAME[key=value,...], and end with ']'")
    get(name)  # an unknown name names the choices
    accepted = options(name)
    chosen: dict[str, Any] = {}
    body = rest[:-1].strip() if bracket else ""
    for part in filter(None, (p.strip() for p in body.split(","))):
        key, equals, raw = (t.strip() for t in part.partition("="))
        if not equals or not key:
            raise StrategySpecError(f"strategy {text!r}: option {part!r} is not key=value")
        if key not in accepted:
            choices = ", ".join(accepted) or "none"
            raise StrategySpecError(f"strategy {text!r}: {name} has no option {key!r} (its options: {choices})")
        if key in chosen:
            raise StrategySpecError(f"strategy {text!r}: option {key!r} is given twice")
        default = accepted[key].default
        value = _value(raw)
        if default is None:  # the type comes from the annotation ("int | None"); None itself is the default
            wanted_none = _optional_type(accepted[key].annotation)
            if wanted_none is None:
                raise StrategySpecError(f"strategy {text!r}: option {key!r} cannot be set from a spec (set it from Python)")
            if value is not None:
                default = wanted_none()  # checked below as if it were the default
        if isinstance(default, _SPEC_TYPES) and default is not None:
            wanted = type(default)
            ok = isinstance(value, wanted) and not (wanted is not bool and isinstance(value, bool))
            if wanted is float and isinstance(value, int) and not isinstance(value, bool):
                value, ok = float(value), True
            if not ok:
                raise StrategySpecError(f"strategy {text!r}: option {key}={raw} should be a {wanted.__name__}")
        elif default is not None and default is not inspect.Parameter.empty:
            raise StrategySpecError(f"strategy {text!r}: option {key!r} cannot be set from a spec (set it from Python)")
        chosen[key] = value
    return name, chosen


def format_spec(name: str, chosen: dict[str, Any] | None = None) -> str:
    """A strategy's name with its options, as tables show it and :func:`parse_spec` reads it."""
    if not chosen:
        return name
    return name + "[" + ",".join(f"{k}={v}" for k, v in sorted(chosen.items())) + "]"


def split_specs(text: str) -> list[str]:
    """Split ``'exact,gac[pairs=False,subsets=False]'`` at the commas outside brackets."""
    out, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        depth += (ch == "[") - (ch == "]")
        if ch == "," and depth == 0:
            out.append(text[start:i])
            start = i + 1
    out.append(text[start:])
    return [s.strip() for s in out if s.strip()]


def checked_spec(spec: str, outside: bool = False) -> str:
    """``spec`` checked and in canonical form (``NAME`` or ``NAME[key=value,...]``, options sorted). A strategy given
    with options is built once, so that a value out of its range (``best[tolerance=2]``) is refused here, by the
    strategy's own check, before anything runs it. Raises a :class:`SweeplabError` naming the part and the reason."""
    name, chosen = parse_spec(spec, outside)
    if chosen:
        make(name, seed=0, **chosen)
    return format_spec(name, chosen)


def make_spec(spec: str, seed: int | None = None, outside: bool = False) -> Strategy:
    """A fresh strategy for one game from a spec such as ``'equation[guess=pgms]'`` (``outside``: see
    :func:`parse_spec`)."""
    name, chosen = parse_spec(spec, outside)
    return make(name, seed, **chosen)


def register(name: str, target: str) -> None:
    """Add a strategy (``"package.module:Class"``) under a new name, e.g. from a plugin."""
    if name in _BUILTIN:
        raise ValueError(f"strategy {name!r} is already registered")
    _BUILTIN[name] = target
