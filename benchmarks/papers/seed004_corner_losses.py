"""Seed 004's claim that its agent loses mostly on the corner openings, measured; and how often the universe count's
guard fires. Writes results/strategies/seed004/corner_losses.txt.

Run: python benchmarks/papers/seed004_corner_losses.py
"""

from __future__ import annotations

from pathlib import Path

from sweeplab.bench.runner import game_seeds
from sweeplab.core.game import Game, GameState
from sweeplab.core.rules import make_rules
from sweeplab.strategies.base import play
from sweeplab.strategies.corners import CornersStrategy


def main() -> None:
    lines = [f"# produced by: python benchmarks/papers/{Path(__file__).name} (root seed 0)"]
    for board, rule, games in (("10x10x10", "unsafe", 1000), ("16x16x44", "unsafe", 500), ("expert", "safe", 200)):
        lost = on_corner = counts = fired = won = 0
        for i in range(games):
            layout_seed, strategy_seed = game_seeds(0, i)
            game = Game(make_rules(board, rule), layout_seed)
            player = CornersStrategy(seed=strategy_seed)
            play(player, game)
            counts += player.searches
            fired += player.fallbacks
            if game.state is GameState.LOST:
                lost += 1
                on_corner += game.exploded in game.board.corners() and game.moves <= 12
            else:
                won += 1
        lines.append(
            f"{board} {rule}, {games} games: won {won}, lost {lost}, of them on a corner opening {on_corner}; "
            f"universe counts {counts}, guard fired {fired}"
        )
    out = Path("results/strategies/seed004/corner_losses.txt")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
