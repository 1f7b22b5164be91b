"""The exact engine's speed benchmark: analysis time over positions met in real expert games, and games per second."""

from __future__ import annotations

import time
from dataclasses import dataclass

from sweeplab.analysis import DEFAULT_BUDGET, Analyzer, Budget
from sweeplab.bench.runner import game_seeds
from sweeplab.bench.stats import percentile
from sweeplab.core.game import Game
from sweeplab.core.observation import Observation
from sweeplab.core.rules import Rules
from sweeplab.strategies.base import play
from sweeplab.strategies.exact import ExactStrategy


class _Recorder(ExactStrategy):
    """The exact strategy, keeping every position it analysed. Without its single-point pass, so that the positions
    are every one it meets after its certain reveals run out (the same positions as before the pass existed)."""

    single_point = False

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.positions: list[Observation] = []
        analyze = self.analyzer.analyze

        def recording(observation: Observation):  # type: ignore[no-untyped-def]
            self.positions.append(observation)
            return analyze(observation)

        self.analyzer.analyze = recording  # type: ignore[method-assign]


def collect_positions(rules: Rules, count: int, seed: int = 0) -> tuple[list[Observation], int]:
    """Positions the exact strategy analysed in seeded games, until ``count`` are collected; and the games played."""
    positions: list[Observation] = []
    games = 0
    while len(positions) < count:
        game_seed, strategy_seed = game_seeds(seed, games)
        recorder = _Recorder(strategy_seed)
        play(recorder, Game(rules, game_seed))
        positions.extend(recorder.positions)
        games += 1
    return positions[:count], games


@dataclass
class EngineTimes:
    positions: int
    exact: int
    mean_ms: float
    median_ms: float
    p99_ms: float
    worst_ms: float


def time_positions(positions: list[Observation], budget: Budget = DEFAULT_BUDGET, use_kernel: bool = True) -> EngineTimes:
    """Analyse each position from scratch (a fresh analyzer, no reuse) and time it on the wall clock, up to every
    covered cell's probability (an exact result weighs them on first use, so ``covered()`` is inside the timing:
    the figure stays the one the speed bar is about)."""
    times = []
    exact = 0
    for obs in positions:
        analyzer = Analyzer(budget, use_kernel=use_kernel)
        start = time.perf_counter()
        result = analyzer.analyze(obs)
        result.covered()
        times.append((time.perf_counter() - start) * 1000)
        exact += result.exact
    return EngineTimes(len(positions), exact, sum(times) / len(times), percentile(times, 50), percentile(times, 99), max(times))


def games_per_second(rules: Rules, games: int, seed: int = 0, use_kernel: bool = True) -> tuple[float, int]:
    """The exact strategy's games per second on one core (process CPU time), and its wins."""
    wins = 0
    start = time.process_time()
    for i in range(games):
        game_seed, strategy_seed = game_seeds(seed, i)
        player = ExactStrategy(strategy_seed)
        player.analyzer.use_kernel = use_kernel and player.analyzer.use_kernel
        game = play(player, Game(rules, game_seed))
        wins += game.state.value == "won"
    return games / (time.process_time() - start), wins
