"""`exact` and `best` with and without the single-point pass (adopted in stop 21): the same guesses, fewer analyses.

Run from a checkout with sweeplab installed (C kernel built): ``python benchmarks/engine/performance_single_point_speed.py
[GAMES] [STRATEGY]``. For each configuration of STRATEGY (`exact` by default, or `best`) it plays seeded games (root
seed 0; GAMES, 1,000 by default, for `exact` with the C kernel; a tenth of that with the pure-Python engine and for
`best`) as the strategy is (its class's ``single_point = True``) and with the pass switched off, alternately, three
rounds, and prints games per CPU second for each (the median of the rounds, and every round), wins, full analyses per
game, and whether every game's guesses (cell, kind, repr of the safety, outcome) and final state are the same with
and without the pass. Only the order of the certain reveals may differ, so the number of clicks a game takes can (a
cell opened by a neighbour's cascade in one order is clicked in the other).
"""

from __future__ import annotations

import statistics
import sys
import time
from typing import Any

from sweeplab.analysis import Analyzer
from sweeplab.bench.runner import game_seeds
from sweeplab.core.game import Game
from sweeplab.core.rules import make_rules
from sweeplab.strategies.base import play
from sweeplab.strategies.registry import make

CONFIGS = {
    "exact": [
        ("expert", "safe", True),
        ("expert", "zero", True),
        ("intermediate", "safe", True),
        ("beginner", "zero", True),
        ("expert", "safe", False),
    ],
    "best": [("expert", "safe", True), ("expert", "zero", True)],
}
ROUNDS = 3


def run(name: str, board: str, rule: str, kernel: bool, games: int, with_pass: bool) -> tuple[float, list[tuple], int, int]:
    """(games per CPU second, per game (state, guesses), wins, full analyses)."""
    rules = make_rules(board, rule)
    cls: Any = type(make(name))
    cls.single_point = with_pass
    analyses = 0
    seen = []
    start = time.process_time()
    for i in range(games):
        game_seed, strategy_seed = game_seeds(0, i)
        player = cls(strategy_seed)
        player.analyzer = Analyzer(use_kernel=kernel)
        analyze = player.analyzer.analyze_patiently

        def counted(observation, analyze=analyze):  # type: ignore[no-untyped-def]
            nonlocal analyses
            analyses += 1
            return analyze(observation)

        player.analyzer.analyze_patiently = counted
        game = play(player, Game(rules, game_seed))
        seen.append((game.state.value, [(g.cell, g.kind, repr(g.safety), g.outcome) for g in player.guesses]))
    speed = games / (time.process_time() - start)
    cls.single_point = True
    return speed, seen, sum(state == "won" for state, _ in seen), analyses


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    name = sys.argv[2] if len(sys.argv) > 2 else "exact"
    when = time.strftime("%Y-%m-%d %H:%M")
    print(f"# python benchmarks/engine/performance_single_point_speed.py {games} {name}   ({when} UTC, one process)")
    for board, rule, kernel in CONFIGS[name]:
        n = games if kernel and name == "exact" else max(games // 10, 1)
        speeds: dict[bool, list[float]] = {False: [], True: []}
        results = {}
        for _ in range(ROUNDS):
            for with_pass in (False, True):
                speed, seen, wins, analyses = run(name, board, rule, kernel, n, with_pass)
                speeds[with_pass].append(speed)
                results[with_pass] = (seen, wins, analyses)
        engine = "C kernel" if kernel else "pure Python"
        for with_pass in (False, True):
            _, wins, analyses = results[with_pass]
            rounds = ", ".join(f"{s:.1f}" for s in speeds[with_pass])
            label = "with the pass   " if with_pass else "without the pass"
            print(
                f"{name}, {board} {rule} ({engine}, {n} games) {label}: {statistics.median(speeds[with_pass]):.1f} games "
                f"per CPU second (rounds {rounds}); {wins}/{n} won; {analyses / n:.2f} full analyses per game"
            )
        same = results[True][0] == results[False][0]
        print(f"{name}, {board} {rule} ({engine}): the same guesses, outcomes and final states in every game: {same}")


if __name__ == "__main__":
    main()
