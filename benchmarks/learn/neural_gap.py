"""Where the ``neural`` player loses to ``exact``: every decision its network makes, judged by the exact engine.

Plays games 0 to N-1 of root ``--seed`` (``sweeplab bench``'s layouts; seed 2 by default, games measured neither on
the results page, seed 0, nor in the tuning runs, seed 1) on each board with the shipped model (or ``--model``), and
analyses every position where the player asks its network (after its passes for certain moves found nothing) with
the exact engine: whether a cell was in fact certain, the safest cell's exact safety, and the exact safety of the
cell the player revealed. Writes a JSON summary per board: decisions per game, how many were at positions with a
certain cell, the share of true guesses (no certain cell) on which it revealed one of the safest cells, and the
exact safety it gave away, per decision and per game, each with its standard error.

    python benchmarks/learn/neural_gap.py --games 1000 --out results/learn/neural/gap.json
"""

from __future__ import annotations

import argparse
import json
import statistics
from pathlib import Path

from sweeplab.analysis import Analyzer
from sweeplab.bench.runner import game_seeds
from sweeplab.core.game import Game, GameState
from sweeplab.core.heldout import development_seed
from sweeplab.core.observation import Observation
from sweeplab.core.rules import Rules, make_rules
from sweeplab.learn.neural.player import NeuralStrategy
from sweeplab.strategies.base import play

#: one network decision, judged: (a cell was certain, the safest cell's exact safety, the revealed cell's)
Judged = tuple[bool, float, float]

#: a revealed cell within this much of the safest cell's exact safety counts as one of the safest
TIE = 1e-9


def _play_judged(
    rules: Rules, seed: int, index: int, model: str, exact: Analyzer, symmetries: int = 1
) -> tuple[bool, list[Judged]]:
    """Game ``index`` of root ``seed``: whether the player won, and each network decision but the first move judged
    by the exact engine as (a cell was certain, the safest cell's safety, the revealed cell's safety). The player's
    watcher sees each position its network decides; its guess log holds the cell it then revealed, one per position."""
    game_seed, player_seed = game_seeds(seed, index)
    player = NeuralStrategy(player_seed, model=model, symmetries=symmetries)
    seen: list[tuple[bool, dict[int, float]]] = []

    def judge(observation: Observation) -> None:  # analysed now: the game moves on from this position
        result = exact.analyze_patiently(observation)
        seen.append((bool(result.safe), dict(result.covered())))

    player.watcher = judge
    won = play(player, Game(rules, game_seed)).state is GameState.WON
    judged = [
        (certain, 1.0 - min(mine.values()), 1.0 - mine[guess.cell])
        for (certain, mine), guess in zip(seen, player.guesses, strict=True)
        if guess.kind != "first"
    ]
    return won, judged


def _mean_se(values: list[float]) -> tuple[float, float]:
    if len(values) < 2:
        return (values[0] if values else 0.0), 0.0
    return statistics.fmean(values), statistics.stdev(values) / len(values) ** 0.5


def measure(board: str, games: int, seed: int, model: str, symmetries: int = 1) -> dict:
    rules = make_rules(board, "safe")
    per_game: list[list[Judged]] = []
    won = 0
    exact = Analyzer()
    for i in range(games):
        game_won, judged = _play_judged(rules, seed, i, model, exact, symmetries)
        won += game_won
        per_game.append(judged)
    flat = [row for game in per_game for row in game]
    guesses = [row for row in flat if not row[0]]
    lost = [best - chosen for _, best, chosen in guesses]
    lost_per_game = [sum(best - chosen for certain, best, chosen in game if not certain) for game in per_game]
    mean_lost, se_lost = _mean_se(lost)
    game_lost, game_se = _mean_se(lost_per_game)
    return {
        "board": rules.spec(),
        "games": games,
        "symmetries": symmetries,
        "won": won,
        "decisions_per_game": round(len(flat) / games, 3),
        "certain_positions_per_game": round((len(flat) - len(guesses)) / games, 3),
        "true_guesses_per_game": round(len(guesses) / games, 3),
        "true_guesses_safest_share": round(sum(x < TIE for x in lost) / max(1, len(lost)), 4),
        "safety_lost_per_true_guess": round(mean_lost, 5),
        "safety_lost_per_true_guess_se": round(se_lost, 5),
        "safety_lost_per_game": round(game_lost, 5),
        "safety_lost_per_game_se": round(game_se, 5),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000, help="games per board (default 1000)")
    parser.add_argument("--seed", type=int, default=2, help="root seed of the games (default 2)")
    parser.add_argument("--board", action="append", help="a board (repeat; default beginner, intermediate, expert)")
    parser.add_argument("--model", default="", help="a model folder (default: the shipped one)")
    parser.add_argument(
        "--symmetries", type=int, default=1, choices=[1, 2, 4, 8], help="the player's symmetries option (default 1)"
    )
    parser.add_argument("--out", type=Path, required=True, help="the JSON summary to write")
    args = parser.parse_args()
    development_seed(args.seed, "the gap's diagnosis (it guides the player's development)")
    if args.games < 1:
        parser.error(f"--games must be at least 1, not {args.games}")
    boards = args.board or ["beginner", "intermediate", "expert"]
    rows = [measure(board, args.games, args.seed, args.model, args.symmetries) for board in boards]
    summary = {
        "command": "python benchmarks/learn/neural_gap.py "
        + " ".join(f"--{k} {v}" for k, v in vars(args).items() if v and k != "board" and (k, v) != ("symmetries", 1))
        + "".join(f" --board {b}" for b in args.board or []),
        "boards": rows,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(summary, indent=2) + "\n")
    for row in rows:
        print(
            f"{row['board']}: {row['decisions_per_game']} decisions a game ({row['certain_positions_per_game']} with a "
            f"certain cell); on true guesses a safest cell {100 * row['true_guesses_safest_share']:.1f}%, "
            f"{100 * row['safety_lost_per_true_guess']:.2f} points of safety lost each, "
            f"{100 * row['safety_lost_per_game']:.2f} ± {100 * row['safety_lost_per_game_se']:.2f} a game"
        )


if __name__ == "__main__":
    main()
