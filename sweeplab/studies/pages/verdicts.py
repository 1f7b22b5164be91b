"""The rule behind the learned players' verdicts, and the check that a verdict is measured on held-out games.

A verdict on a page is measured on games of a held-out seed (:mod:`sweeplab.core.heldout`): no training run,
evaluation during training or choice made in development played them. Against a goal ``g`` (a difference of at
least ``g`` points, paired on the same games), with the difference ``d`` and its standard error ``s``:

* met when ``d - 2s`` is above ``g`` (the whole interval of two standard errors clears the goal);
* not met when ``d + 2s`` is below ``g``;
* undecided when the interval holds ``g``: more games are needed before anything is claimed.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from sweeplab.core.heldout import verdict_seed

RULE = (
    "A verdict is met when the paired difference less two standard errors clears the goal, not met when the "
    "difference plus two standard errors falls short of it, and undecided when that interval holds the goal"
)


def goal_verdict(points: float, se_points: float, goal: float) -> str:
    """``met``, ``not met`` or ``undecided`` for a difference of ``points`` ± ``se_points`` against ``goal`` (all in
    points), by :data:`RULE`.

    >>> goal_verdict(-1.0, 0.4, -2.0), goal_verdict(-3.0, 0.4, -2.0), goal_verdict(-1.5, 0.4, -2.0)
    ('met', 'not met', 'undecided')
    """
    if points - 2 * se_points > goal:
        return "met"
    if points + 2 * se_points < goal:
        return "not met"
    return "undecided"


def held_out(runs: list[tuple[Path, dict[str, Any]]]) -> list[tuple[Path, dict[str, Any]]]:
    """``runs`` (folders with their ``bench.json``) when every one played a held-out seed; a run of a development
    seed is refused naming its file, since a verdict measured on it could have been chosen on its games."""
    for folder, bench in runs:
        verdict_seed(bench["settings"].get("seed"), str(folder / "bench.json"))
    return runs


def seed_of(runs: list[tuple[Path, dict[str, Any]]]) -> int | None:
    """The root seed the runs of one board share (None without runs)."""
    return runs[0][1]["settings"].get("seed") if runs else None


def read_json(path: Path) -> dict[str, Any] | None:
    """A JSON file's object, or None when it is not there."""
    return json.loads(path.read_text()) if path.exists() else None
