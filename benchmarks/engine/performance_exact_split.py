"""Where an expert game of the ``exact`` strategy spends its CPU time: the kernel, the Python around it, the game.

Run from a checkout with sweeplab installed (C kernel built): ``python benchmarks/engine/performance_exact_split.py``. It
plays 300 expert games (30x16/99, safe, root seed 0), keeping every position the strategy analysed and every move,
then times, per game: the whole game; the game engine alone (the same moves replayed, with an observation per move);
the analysis alone (the same positions, a fresh Analyzer per game); and the C kernel alone on those positions. The
rest is the strategy and the play loop (and, for lazily weighed results, the weighing a guess asks for). Per
position it also times the analysis with every probability weighed (what a caller asking for all of them pays).
"""

from __future__ import annotations

import time
from array import array

import sweeplab.analysis as engine
from sweeplab.bench.runner import game_seeds
from sweeplab.core.game import Game
from sweeplab.core.observation import Observation
from sweeplab.core.rules import make_rules
from sweeplab.strategies.base import play
from sweeplab.strategies.exact import ExactStrategy

GAMES = 300


def main() -> None:
    rules = make_rules("expert", "safe")
    positions: list[list[Observation]] = []
    histories = []
    start = time.process_time()
    for i in range(GAMES):
        game_seed, strategy_seed = game_seeds(0, i)
        player = ExactStrategy(strategy_seed)
        seen: list[Observation] = []
        analyze = player.analyzer.analyze

        def recording(observation: Observation, analyze=analyze, seen=seen):  # type: ignore[no-untyped-def]
            seen.append(observation)
            return analyze(observation)

        player.analyzer.analyze = recording  # type: ignore[method-assign]
        game = play(player, Game(rules, game_seed))
        histories.append((game_seed, list(game.history)))
        positions.append(seen)
    total = time.process_time() - start
    start = time.process_time()
    for game_seed, moves in histories:
        game = Game(rules, game_seed)
        for move in moves:
            game.observation()
            game.apply(move)
    game_only = time.process_time() - start
    start = time.process_time()
    for seen in positions:
        analyzer = engine.Analyzer()
        for observation in seen:
            analyzer.analyze(observation)
    analysis = time.process_time() - start
    start = time.process_time()
    for seen in positions:
        analyzer = engine.Analyzer()
        for observation in seen:
            result = analyzer.analyze(observation)
            result.layouts, result.mines, result.covered()  # every probability weighed, as a full answer needs
    weighed = time.process_time() - start
    assert engine.KERNEL is not None, "the C kernel is not built"
    start = time.process_time()
    for seen in positions:
        for observation in seen:
            engine.KERNEL.tally(array("b", observation.view).tobytes(), 30, 16, 100_000, 256 * 2**20, 2.0)
    kernel = time.process_time() - start
    n = sum(map(len, positions))
    moves = sum(len(m) for _, m in histories)
    ms = 1000 / GAMES
    print(
        f"per expert game (ms, CPU): total {total * ms:.2f}; game engine {game_only * ms:.2f}; analysis {analysis * ms:.2f} "
        f"(of which the C kernel {kernel * ms:.2f}, the Python around it {(analysis - kernel) * ms:.2f}); strategy and "
        f"play loop (the rest) {(total - game_only - analysis) * ms:.2f}; {n / GAMES:.1f} analyses and "
        f"{moves / GAMES:.1f} moves per game"
    )
    print(
        f"per analysed position (ms, CPU): analysis {analysis / n * 1000:.3f}; with every probability weighed "
        f"(layouts, mines, covered()) {weighed / n * 1000:.3f}; the C kernel alone {kernel / n * 1000:.3f}"
    )


if __name__ == "__main__":
    main()
