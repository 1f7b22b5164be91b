"""Play seeded batches of games: game i of root seed S gets the same layout for every strategy and any job count."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

import numpy as np

from sweeplab.core.game import Game, GameState
from sweeplab.core.rules import Rules
from sweeplab.strategies.base import Guess, play
from sweeplab.strategies.registry import make


@dataclass
class GameResult:
    """One game's outcome, as the scorer sees it."""

    index: int
    won: bool
    moves: int
    cpu_seconds: float
    three_bv: int | None
    revealed: int
    guesses: list[Guess] = field(default_factory=list)


def game_seeds(root: int, index: int) -> tuple[int, int]:
    """The (layout seed, strategy seed) of game ``index`` under ``root``: numpy's SeedSequence child ``index``."""
    words = np.random.SeedSequence(root, spawn_key=(index,)).generate_state(4, dtype=np.uint32)
    w = [int(v) for v in words]
    return (w[0] << 32) | w[1], (w[2] << 32) | w[3]


def play_one(strategy: str, rules: Rules, root: int, index: int, first_click: int | None = None) -> GameResult:
    """Play game ``index``; ``first_click`` (a cell) is revealed for the strategy before it takes over."""
    game_seed, strategy_seed = game_seeds(root, index)
    start = time.process_time()
    game = Game(rules, game_seed)
    player = make(strategy, seed=strategy_seed)
    if first_click is not None and game.observation().view[first_click] < 0:
        game.reveal(first_click)
    play(player, game)
    cpu = time.process_time() - start
    revealed = sum(1 for v in game.observation().view if v >= 0)
    return GameResult(
        index,
        game.state is GameState.WON,
        game.moves,
        cpu,
        game.three_bv() if game.dealt else None,
        revealed,
        player.guesses,
    )


def _play_batch(args: tuple[str, Rules, int, Sequence[int], int | None]) -> list[GameResult]:
    strategy, rules, root, indices, first_click = args
    return [play_one(strategy, rules, root, i, first_click) for i in indices]


def run(
    strategy: str,
    rules: Rules,
    games: int,
    seed: int = 0,
    first_click: int | None = None,
    jobs: int = 1,
    on_batch: Callable[[int], None] | None = None,
    batch: int = 50,
) -> list[GameResult]:
    """Play ``games`` games (indices 0..games-1) and return their results in index order."""
    batches = [range(i, min(i + batch, games)) for i in range(0, games, batch)]
    tasks = [(strategy, rules, seed, b, first_click) for b in batches]
    results: list[GameResult] = []
    if jobs <= 1:
        for task in tasks:
            results.extend(_play_batch(task))
            if on_batch:
                on_batch(len(task[3]))
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            for part in pool.map(_play_batch, tasks):
                results.extend(part)
                if on_batch:
                    on_batch(len(part))
    return results


__all__ = ["GameResult", "game_seeds", "play_one", "run"]
