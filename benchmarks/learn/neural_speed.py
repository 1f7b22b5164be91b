"""The ``neural`` player's cost per move on one CPU core: every decision its network makes, timed.

Plays games 0 to N-1 of root seed ``--seed`` (``sweeplab bench``'s layouts; default 0) on each board with the shipped model (or
``--model``) in this process, with NumPy and BLAS held to one thread, and times each call of the player's
``choose``, in wall time and in the thread's CPU time (``time.thread_time``: what the call cost the core, whatever
else the machine runs). A call that asks the network is a decision: its time
includes the certain-move passes that found nothing, the network's convolutions, the input planes and the choice.
Any other call is a pass move: its passes found safe cells (the moves they queue are played by ``play`` without
calling ``choose``). With ``--symmetries 1 4`` the player with each count plays every game in turn (the same
games, the same minutes on the machine), and each board has a row per count. Writes a JSON summary per board: the
decisions timed (median, mean and 90th percentile in ms of wall time, median and 90th percentile of CPU time), the
pass moves likewise, the median over both (every move
that did work), and the model file's size.

    python benchmarks/learn/neural_speed.py --games 300 --seed 1000000 --out results/learn/neural/speed.json
"""

from __future__ import annotations

import os

for _name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_name] = "1"

import argparse  # noqa: E402
import json  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

from sweeplab.bench.runner import game_seeds  # noqa: E402
from sweeplab.core.game import Game  # noqa: E402
from sweeplab.core.rules import Rules, make_rules  # noqa: E402
from sweeplab.learn.models import shipped  # noqa: E402
from sweeplab.learn.neural.player import NeuralStrategy  # noqa: E402
from sweeplab.strategies.base import play  # noqa: E402


def measure(board: str, games: int, model: str, symmetries: tuple[int, ...] = (1,), seed: int = 0) -> list[dict]:
    """One row per count of ``symmetries``, the counts taking turns game by game (the same games, the same minutes)."""
    rules = make_rules(board, "safe")
    timed_by = {count: ([], [], []) for count in symmetries}  # decisions, pass moves, decisions' CPU time
    for i in range(games):
        game_seed, player_seed = game_seeds(seed, i)
        for count in symmetries:
            _play_timed(rules, game_seed, player_seed, model, count, *timed_by[count])
    return [_row(rules.spec(), games, count, *timed_by[count]) for count in symmetries]


def _play_timed(
    rules: Rules,
    game_seed: int,
    player_seed: int,
    model: str,
    symmetries: int,
    decisions: list[float],
    passes: list[float],
    cpu: list[float],
) -> None:
    """Play one game, each call of ``choose`` timed into ``decisions`` (it asked the network; its CPU time into
    ``cpu``) or ``passes``."""
    strategy = NeuralStrategy(player_seed, model=model, symmetries=symmetries)
    inner, network = strategy.choose, strategy.net.probabilities
    asked = [0]

    def counted(*args, network=network, asked=asked):  # type: ignore[no-untyped-def]
        asked[0] += 1
        return network(*args)

    def timed(observation, inner=inner, asked=asked):  # type: ignore[no-untyped-def]
        before = asked[0]
        start, start_cpu = time.perf_counter(), time.thread_time()
        move = inner(observation)
        elapsed, elapsed_cpu = time.perf_counter() - start, time.thread_time() - start_cpu
        if asked[0] > before:
            decisions.append(elapsed)
            cpu.append(elapsed_cpu)
        else:
            passes.append(elapsed)
        return move

    strategy.net.probabilities = counted  # type: ignore[method-assign]
    strategy.choose = timed  # type: ignore[method-assign]
    play(strategy, Game(rules, game_seed))


def _row(board: str, games: int, symmetries: int, decisions: list[float], passes: list[float], cpu: list[float]) -> dict:
    ms = sorted(1000 * d for d in decisions)
    cpu_ms = sorted(1000 * d for d in cpu)
    pass_ms = sorted(1000 * d for d in passes)
    return {
        "board": board,
        "games": games,
        "symmetries": symmetries,
        "decisions": len(ms),
        "median_ms": round(statistics.median(ms), 3),
        "mean_ms": round(statistics.fmean(ms), 3),
        "p90_ms": round(ms[int(0.9 * (len(ms) - 1))], 3),
        "cpu_median_ms": round(statistics.median(cpu_ms), 3),
        "cpu_p90_ms": round(cpu_ms[int(0.9 * (len(cpu_ms) - 1))], 3),
        "pass_moves": len(pass_ms),
        "pass_median_ms": round(statistics.median(pass_ms), 3) if pass_ms else None,
        "pass_p90_ms": round(pass_ms[int(0.9 * (len(pass_ms) - 1))], 3) if pass_ms else None,
        "move_median_ms": round(statistics.median(ms + pass_ms), 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=300, help="games per board (default 300)")
    parser.add_argument("--model", default="", help="a model folder (default: the shipped one)")
    parser.add_argument("--seed", type=int, default=0, help="root seed of the games (default 0)")
    parser.add_argument(
        "--symmetries",
        type=int,
        nargs="+",
        default=[1],
        choices=[1, 2, 4, 8],
        help="the player's symmetries option; several take turns game by game (default 1)",
    )
    parser.add_argument("--out", type=Path, required=True, help="the JSON summary to write")
    args = parser.parse_args()
    folder = Path(args.model) if args.model else shipped("neural")
    summary = {
        "command": "python benchmarks/learn/neural_speed.py "
        + " ".join(f"--{k} {' '.join(map(str, v)) if isinstance(v, list) else v}" for k, v in vars(args).items() if v),
        "seed": args.seed,
        "threads": 1,
        "model_bytes": (folder / "model.npz").stat().st_size,
        "boards": [
            row
            for board in ("beginner", "intermediate", "expert")
            for row in measure(board, args.games, args.model, tuple(args.symmetries), args.seed)
        ],
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(summary, indent=2) + "\n")
    for row in summary["boards"]:
        print(
            f"{row['board']}, symmetries {row['symmetries']}: "
            f"{row['decisions']} decisions, median {row['median_ms']} ms (CPU {row['cpu_median_ms']}), p90 {row['p90_ms']} ms; "
            f"{row['pass_moves']} pass moves, median {row['pass_median_ms']} ms; every move: median {row['move_median_ms']} ms"
        )


if __name__ == "__main__":
    main()
