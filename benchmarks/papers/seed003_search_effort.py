"""Seed 003's speed claim, measured: search nodes per enumeration with and without DSS at the nodes, and the
Manhattan tolerance sweep. Writes results/strategies/seed003/search_effort.txt.

Run: python benchmarks/papers/seed003_search_effort.py
"""

from __future__ import annotations

import time
from pathlib import Path

from sweeplab.bench.runner import game_seeds
from sweeplab.bench.stats import binomial_se
from sweeplab.core.game import Game, GameState
from sweeplab.core.rules import make_rules
from sweeplab.strategies import make, play


def run(name: str, board: str, games: int, **options: object) -> str:
    rules = make_rules(board, "safe")
    wins = nodes = searches = truncated = 0
    cpu = 0.0
    for i in range(games):
        layout_seed, strategy_seed = game_seeds(0, i)
        start = time.process_time()
        strategy = make(name, seed=strategy_seed, **options)
        game = play(strategy, Game(rules, layout_seed))
        cpu += time.process_time() - start
        wins += game.state is GameState.WON
        nodes += strategy.nodes  # type: ignore[attr-defined]
        searches += strategy.searches  # type: ignore[attr-defined]
        truncated += strategy.truncated  # type: ignore[attr-defined]
    extra = ", ".join(f"{k}={v}" for k, v in options.items())
    return (
        f"{board} ({games} games) {name}{f' [{extra}]' if extra else ''}: won {wins / games:.1%} ± "
        f"{binomial_se(wins, games):.1%}, enumerations {searches}, guard trips {truncated}, "
        f"nodes/enumeration {nodes / max(searches, 1):.1f}, CPU ms/game {cpu / games * 1000:.2f}"
    )


def main() -> None:
    lines = [f"# produced by: python benchmarks/papers/{Path(__file__).name} (root seed 0, safe rule; CPU on a shared machine)"]
    for board, games in (("intermediate", 300), ("expert", 100)):
        for name in ("backtracking", "dss", "dsscsp", "dsscsp-limited"):
            lines.append(run(name, board, games))
    for tolerance in (0.0, 0.02, 0.05, 0.1):
        lines.append(run("dsscsp-manhattan", "intermediate", 1000, tolerance=tolerance))
    out = Path("results/strategies/seed003/search_effort.txt")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
