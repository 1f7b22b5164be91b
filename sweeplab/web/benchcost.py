"""What a benchmark from the page is estimated to cost, so a run far past the server's bound is refused before it
starts (the child process's CPU and memory caps in :mod:`sweeplab.web.benchjobs` stop what the estimate misses).

A strategy's seconds per game on expert (16x30, 99 mines) were measured on one core of a 2-core machine
(``sweeplab.bench.session.bench``, a few games each, wall clock with the process's start included); a board's cost
scales with its cells to the power 1.5 (beginner, intermediate and expert games grow about that fast), and an option
that counts work (``sims``, ``runs``, node and layout caps) scales it by its ratio to the default.
"""

from __future__ import annotations

from sweeplab.strategies.registry import options, parse_spec

EXPERT_CELLS = 16 * 30
MAX_SECONDS = 120.0  #: the most estimated seconds of one run from the page (all its strategies and games)
GAME_OVERHEAD = 0.002  #: seconds a game costs whatever the strategy (dealing, recording)
UNKNOWN_SECONDS = 1.0  #: seconds per expert game for a strategy not measured here

#: seconds per expert game, measured (rounded up)
EXPERT_SECONDS = {
    "random": 0.02,
    "single-point": 0.02,
    "equation": 0.03,
    "cspstrategy": 0.04,
    "backtracking": 0.07,
    "dss": 0.05,
    "dsscsp": 0.04,
    "dsscsp-limited": 0.04,
    "dsscsp-manhattan": 0.04,
    "dsscsp-limited-manhattan": 0.04,
    "gac": 0.07,
    "gac-endgame": 0.06,
    "level2": 0.03,
    "level3": 0.06,
    "exact": 0.08,
    "best": 0.12,
    "corners": 0.05,
    "oh": 6.5,
    "sa": 1.5,  # 0.33 s an intermediate game
    "ga": 2.0,  # 0.44 s an intermediate game
    "xgboost": 0.5,
    "nn": 0.15,
    "dqn": 0.15,
    "dqn-single": 0.15,
    "neural": 0.2,
    "optimal": 1000.0,  # an exhaustive search: only tiny boards fit
}

#: integer options whose value multiplies the work (their ratio to the default scales the cost)
WORK_OPTIONS = frozenset({"sims", "runs", "width", "endgame_nodes", "endgame_layouts", "node_cap", "max_nodes", "max_layouts"})


def game_seconds(spec: str, width: int, height: int) -> float:
    """The estimated seconds of one game of strategy ``spec`` on a ``width`` x ``height`` board."""
    name, given = parse_spec(spec)
    seconds = EXPERT_SECONDS.get(name, UNKNOWN_SECONDS) * (width * height / EXPERT_CELLS) ** 1.5
    defaults = {key: parameter.default for key, parameter in options(name).items()}
    for key, value in given.items():
        default = defaults.get(key)
        if key in WORK_OPTIONS and isinstance(value, int) and isinstance(default, int) and default > 0:
            seconds *= max(1.0, value / default)
        elif key == "depth" and isinstance(value, int) and isinstance(default, int) and value > default:
            seconds *= 4.0 ** (value - default)
    return GAME_OVERHEAD + seconds


def run_seconds(strategies: list[str], width: int, height: int, games: int) -> float:
    """The estimated seconds of a whole run: every strategy plays ``games`` games."""
    return sum(game_seconds(spec, width, height) for spec in strategies) * games


def check_run(strategies: list[str], width: int, height: int, games: int, bound: float = MAX_SECONDS) -> None:
    """Refuse (``ValueError``, the request's fault) a run estimated past ``bound`` seconds, saying what costs most."""
    total = run_seconds(strategies, width, height, games)
    if total <= bound:
        return
    costly = max(strategies, key=lambda spec: game_seconds(spec, width, height))
    each = game_seconds(costly, width, height)
    fits = max(0, int(bound / max(total / games, 1e-9)))
    raise ValueError(
        f"this run is estimated at {_duration(total)} ({games} games x {len(strategies)} strategies on "
        f"{width}x{height}; {costly} about {_duration(each)} a game), past the page's bound of {bound:g} s: "
        + (f"at most {fits} games fit" if fits else "a smaller board or faster strategies fit")
        + " (the command line, `sweeplab bench`, has no such bound)"
    )


def _duration(seconds: float) -> str:
    if seconds >= 3600:
        return f"{seconds / 3600:.1f} h"
    if seconds >= 60:
        return f"{seconds / 60:.0f} min"
    return f"{seconds:.2g} s"


__all__ = ["MAX_SECONDS", "check_run", "game_seconds", "run_seconds"]
