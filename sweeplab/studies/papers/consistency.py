"""Seed 004's comparison: how often and how fast each local search finds a consistent layout, beside the exact engine.

Positions come from real play: games played by the ``single-point`` strategy, taken where it has no certain move
and must guess (the positions where a solver of the consistency problem is worth calling).
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass

from sweeplab.analysis import is_consistent
from sweeplab.analysis.search.local_search import METHODS, search
from sweeplab.core.game import Game
from sweeplab.core.observation import Observation
from sweeplab.core.rules import Rules, make_rules
from sweeplab.strategies.simple import SinglePointStrategy


@dataclass(frozen=True)
class MethodSummary:
    """One row of :func:`compare_methods`: how often a method found a consistent layout, and its median time."""

    method: str
    positions: int
    found: int
    median_seconds: float
    median_iterations: float | None


def compare_methods(
    positions: Sequence[Observation],
    budget: int = 20_000,
    seconds: float = 5.0,
    seed: int = 0,
    methods: Sequence[str] = (*METHODS, "exact"),
) -> list[MethodSummary]:
    """Run every method once on every position (method m on position i gets seed ``(seed, i)``); ``exact`` is the
    exact engine's ``is_consistent``. Times include failures."""
    rows: list[MethodSummary] = []
    for method in methods:
        if method == "exact":
            times: list[float] = []
            found = 0
            for obs in positions:
                start = time.perf_counter()
                ok, _ = is_consistent(obs)
                times.append(time.perf_counter() - start)
                found += bool(ok)
            rows.append(MethodSummary(method, len(positions), found, statistics.median(times), None))
            continue
        results = [
            search(obs, method, random.Random(f"{seed}:{i}"), budget=budget, seconds=seconds) for i, obs in enumerate(positions)
        ]
        rows.append(
            MethodSummary(
                method,
                len(positions),
                sum(r.found for r in results),
                statistics.median(r.seconds for r in results),
                statistics.median(r.iterations for r in results),
            )
        )
    return rows


def stuck_positions(count: int, rules: Rules, seed: int = 0, min_revealed: int = 10, per_game: int = 2) -> list[Observation]:
    """Positions where ``single-point`` must guess, with at least ``min_revealed`` revealed cells and at most
    ``per_game`` from each game. Game ``i`` is dealt with seed ``seed + i`` and played by ``single-point`` seeded
    the same. Returns the first ``count`` positions found (fewer if ``100 * count + 100`` games do not yield them)."""
    positions: list[Observation] = []
    for index in range(100 * count + 100):
        if len(positions) >= count:
            break
        game = Game(rules, seed + index)
        player = SinglePointStrategy(seed=seed + index)
        taken = 0
        while not game.over and taken < per_game and len(positions) < count:
            obs = game.observation()
            move = player.choose(obs)
            if player.pending_guess is not None:
                player.pending_guess = None
                if len(obs.revealed()) >= min_revealed:
                    positions.append(obs)
                    taken += 1
            game.apply(move)
    return positions


def comparison_report(
    count: int = 25,
    seed: int = 0,
    budget: int = 20_000,
    seconds: float = 5.0,
    boards: Sequence[str] = ("beginner", "intermediate", "expert"),
) -> str:
    """Every local-search method and the exact engine on ``count`` :func:`stuck_positions` per board (safe first
    click): a Markdown table of how often each finds a consistent layout within ``budget`` iterations and ``seconds``,
    with the median time and iterations (failures included)."""
    lines = ["| positions | method | found | median time | median iterations |", "|---|---|---|---|---|"]
    for label in boards:
        positions = stuck_positions(count, make_rules(label, "safe"), seed=seed)
        for row in compare_methods(positions, budget=budget, seconds=seconds, seed=seed):
            iterations = "-" if row.median_iterations is None else f"{row.median_iterations:.0f}"
            lines.append(
                f"| {label} ({row.positions}) | {row.method} | {row.found}/{row.positions} | "
                f"{row.median_seconds * 1000:.1f} ms | {iterations} |"
            )
    return "\n".join(lines)
