"""Digest of the moves and guess safeties of seeded games, to show that a speed change moved nothing.

Run from a checkout with sweeplab installed: ``python benchmarks/engine/performance_exact_digest.py``. Each line is a
configuration (strategy, board, first-click rule, games, C kernel or pure Python) and a SHA-256 prefix over every
game's moves, its guesses (cell, kind, repr of the safety, outcome, move number) and its final state; root seed 7.
"""

from __future__ import annotations

import hashlib
import time

from sweeplab.bench.runner import game_seeds
from sweeplab.core.game import Game
from sweeplab.core.rules import make_rules
from sweeplab.strategies.base import play
from sweeplab.strategies.registry import make

CONFIGS = [
    ("exact", "expert", "safe", 300, True),
    ("exact", "expert", "zero", 700, True),
    ("exact", "intermediate", "safe", 300, True),
    ("exact", "beginner", "zero", 300, True),
    ("exact", "expert", "safe", 50, False),
    ("exact", "intermediate", "zero", 30, False),
    ("best", "expert", "safe", 100, True),
    ("best", "intermediate", "zero", 100, True),
]


def digest(name: str, board: str, rule: str, games: int, kernel: bool) -> tuple[str, int]:
    rules = make_rules(board, rule)
    h = hashlib.sha256()
    wins = 0
    for i in range(games):
        game_seed, strategy_seed = game_seeds(7, i)
        player = make(name, strategy_seed)
        if not kernel:
            player.analyzer.use_kernel = False  # type: ignore[attr-defined]
        game = play(player, Game(rules, game_seed))
        wins += game.state.value == "won"
        h.update(repr([(m.kind, m.cell) for m in game.history]).encode())
        h.update(repr([(g.cell, g.kind, repr(g.safety), g.outcome, g.move) for g in player.guesses]).encode())
        h.update(game.state.value.encode())
    return h.hexdigest()[:16], wins


if __name__ == "__main__":
    for config in CONFIGS:
        start = time.process_time()
        value, wins = digest(*config)
        engine = "C kernel" if config[4] else "pure Python"
        name, board, rule, games = config[:4]
        print(f"{name} {board} {rule} {games} games ({engine}): {value}  wins {wins}  ({time.process_time() - start:.1f} s)")
