"""How much win probability a strategy's guess gives up against the exact optimum, position by position (issue 9).

A game's win rate mixes every decision with luck; here each decision is judged alone and exactly. Positions are
collected from games (the guesses of `best` with its endgame search off, on expert boards, whose position has between
LOW and HIGH consistent layouts and no certainly safe cell). For each position the endgame search gives the optimal
win probability and the exact value of the move each strategy makes there; the regret is their difference (points of
win probability). Strategies are compared on the same positions, so the SE of a difference is the paired one.

  python benchmarks/best/best_regret.py collect --games 9000 --seed 33 --out results/best/regret/positions.jsonl.gz
  python benchmarks/best/best_regret.py evaluate results/best/regret/positions.jsonl.gz \\
      --strategy 'best[endgame=False]' --strategy 'best[endgame=False,progress=any]' ... --out results/best/regret

`evaluate` writes OUT/data.json (per strategy: positions, mean regret, share of optimal moves, paired difference
against the first strategy) and OUT/table.md. Positions the search cannot finish within --nodes are skipped and
counted.
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import multiprocessing
from pathlib import Path
from typing import Any

from sweeplab.analysis import Analyzer
from sweeplab.analysis.exact.listing import list_layouts
from sweeplab.bench.runner import game_seeds
from sweeplab.core.errors import SweeplabError
from sweeplab.core.game import Game, GameState
from sweeplab.core.rules import Rules
from sweeplab.formats.position import format_position, parse_position
from sweeplab.strategies.base import play_move
from sweeplab.strategies.best.endgame import Endgame, SearchBudgetExceeded
from sweeplab.strategies.registry import checked_spec, make, make_spec

RULES = Rules(30, 16, 99, "safe")
FIRST_CLICK = 0  # (0, 0)


def _collect_game(task: tuple[int, int, int, int]) -> list[dict[str, Any]]:
    root, index, low, high = task
    layout_seed, strategy_seed = game_seeds(root, index)
    game = Game(RULES, layout_seed)
    game.reveal(FIRST_CLICK)
    player = make("best", seed=strategy_seed, endgame=False)
    player.begin(RULES)
    analyzer = Analyzer()
    found = []
    while game.state is GameState.PLAYING:
        observation = game.observation()
        _, guess = play_move(player, game)
        if guess is None:
            continue
        result = analyzer.try_analyze(observation)  # a guess is made only where nothing is certainly safe
        if result is not None and result.exact and low <= result.layouts <= high:
            text = format_position(observation)
            found.append({"game": index, "move": observation.moves, "layouts": result.layouts, "position": text})
    return found


def collect(games: int, seed: int, low: int, high: int, out: Path, jobs: int) -> int:
    tasks = [(seed, i, low, high) for i in range(games)]
    rows: list[dict[str, Any]] = []
    with multiprocessing.Pool(jobs) as pool:
        for found in pool.imap(_collect_game, tasks, chunksize=16):
            rows.extend(found)
    out.parent.mkdir(parents=True, exist_ok=True)
    with gzip.open(out, "wt") as f:
        for row in rows:
            f.write(json.dumps(row) + "\n")
    settings = {"games": games, "seed": seed, "low": low, "high": high, "positions": len(rows), "board": RULES.spec()}
    settings["rule"], settings["first_click"] = RULES.first_click, [FIRST_CLICK % RULES.width, FIRST_CLICK // RULES.width]
    _sidecar(out).write_text(json.dumps(settings, indent=1) + "\n")
    return len(rows)


def _sidecar(positions: Path) -> Path:
    """The file beside a positions file that says how they were collected."""
    return positions.with_name(positions.name.split(".")[0] + ".json")


def _evaluate_position(task: tuple[str, list[str], int, int]) -> dict[str, Any] | None:
    text, specs, limit, nodes = task
    observation = parse_position(text)
    result = Analyzer().analyze(observation)
    listed = list_layouts(result, limit)
    if listed is None:
        return None
    endgame = Endgame(observation, *listed)
    try:
        best = endgame.decide(endgame.all, nodes)
        values: dict[int, int] = {}
        regrets = []
        rules = Rules(observation.board.width, observation.board.height, observation.mines, "safe")
        for spec in specs:
            player = make_spec(spec, seed=0)
            player.begin(rules)
            cell = player.choose(observation).cell
            if cell not in values:
                values[cell] = endgame.value(endgame.all, cell, nodes)
            regrets.append((best.wins - values[cell]) / best.layouts)
    except SearchBudgetExceeded:
        return None
    return {"layouts": best.layouts, "optimal": best.probability, "regrets": regrets}


def read_positions(path: Path) -> list[dict[str, Any]]:
    """The rows of a positions file (gzipped JSON lines, as ``collect`` writes), each checked to carry a position that
    parses; a bad file or line is a :class:`SystemExit` naming it."""
    rows = []
    try:
        with gzip.open(path, "rt", encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                try:
                    row = json.loads(line)
                    parse_position(row["position"], f"{path}, line {number}")
                except (ValueError, KeyError, TypeError) as error:
                    why = "no 'position'" if isinstance(error, KeyError) else str(error)
                    raise SystemExit(f"best_regret: {path}, line {number}: not a collected position ({why})") from None
                rows.append(row)
    except (OSError, EOFError, UnicodeDecodeError) as error:  # missing, unreadable, not gzip, cut short, not text
        why = getattr(error, "strerror", None) or str(error) or type(error).__name__
        raise SystemExit(f"best_regret: cannot read {path}: {why}") from None
    return rows


def evaluate(positions: Path, specs: list[str], out: Path, limit: int, nodes: int, jobs: int) -> dict[str, Any]:
    rows = read_positions(positions)
    tasks = [(row["position"], specs, limit, nodes) for row in rows]
    done = []
    with multiprocessing.Pool(jobs) as pool:
        for found in pool.imap(_evaluate_position, tasks, chunksize=4):
            done.append(found)
    kept = [d for d in done if d is not None]
    n = len(kept)
    if n < 2:
        raise SystemExit(f"best_regret: only {n} of {len(rows)} positions could be searched; nothing to compare")
    first = [d["regrets"][0] for d in kept]
    table = []
    for k, spec in enumerate(specs):
        mine = [d["regrets"][k] for d in kept]
        diff = [a - b for a, b in zip(mine, first, strict=True)]
        mean_diff = sum(diff) / n
        se = math.sqrt(sum((x - mean_diff) ** 2 for x in diff) / (n - 1) / n)
        table.append(
            {
                "strategy": spec,
                "positions": n,
                "regret_points": 100 * sum(mine) / n,
                "optimal_share": sum(r <= 1e-12 for r in mine) / n,
                "difference_points": 100 * mean_diff,
                "difference_se": 100 * se,
            }
        )
    sidecar = _sidecar(positions)
    data = {
        "collected": json.loads(sidecar.read_text()) if sidecar.exists() else None,
        "positions_file": str(positions),
        "positions_listed": len(rows),
        "positions_searched": n,
        "layout_limit": limit,
        "nodes": nodes,
        "mean_optimal_win_probability": sum(d["optimal"] for d in kept) / n,
        "strategies": table,
    }
    out.mkdir(parents=True, exist_ok=True)
    (out / "data.json").write_text(json.dumps(data, indent=1) + "\n")
    lines = [
        f"Regret against the exact optimum on {n:,} positions ({len(rows) - n} of {len(rows):,} not searched within "
        f"{limit:,} layouts / {nodes:,} positions); points of win probability per decision, mean ± paired SE.",
        "",
        f"| strategy | mean regret | optimal moves | minus `{specs[0]}` |",
        "|---|---|---|---|",
    ]
    for row in table:
        lines.append(
            f"| `{row['strategy']}` | {row['regret_points']:.3f} | {100 * row['optimal_share']:.1f}% "
            f"| {row['difference_points']:+.3f} ± {row['difference_se']:.3f} |"
        )
    (out / "table.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    return data


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="what", required=True)
    one = sub.add_parser("collect", help="play best (endgame off) on expert safe games and keep its guess positions")
    one.add_argument("--games", type=int, required=True)
    one.add_argument("--seed", type=int, default=33)
    one.add_argument("--low", type=int, default=30, help="fewest layouts a kept position has")
    one.add_argument("--high", type=int, default=3000, help="most layouts a kept position has")
    one.add_argument("--out", type=Path, required=True)
    one.add_argument("--jobs", type=int, default=2)
    two = sub.add_parser("evaluate", help="the regret of each strategy's move on the collected positions")
    two.add_argument("positions", type=Path)
    two.add_argument("--strategy", action="append", required=True, help="a strategy spec; the first is the reference")
    two.add_argument("--out", type=Path, required=True)
    two.add_argument("--limit", type=int, default=5000, help="skip positions with more layouts than this")
    two.add_argument("--nodes", type=int, default=2_000_000, help="the search's budget per position")
    two.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    for name in ("games", "jobs", "limit", "nodes"):
        if getattr(args, name, 1) < 1:
            parser.error(f"--{name} must be at least 1, not {getattr(args, name)}")
    if args.what == "collect" and not 0 <= args.low <= args.high:
        parser.error(f"--low and --high must satisfy 0 <= low <= high, not {args.low} and {args.high}")
    for spec in getattr(args, "strategy", None) or []:
        try:
            checked_spec(spec)
        except SweeplabError as error:
            parser.error(f"--strategy {spec!r}: {error}")
    if args.what == "collect":
        count = collect(args.games, args.seed, args.low, args.high, args.out, args.jobs)
        print(f"best_regret: {count} positions written to {args.out}")
    else:
        evaluate(args.positions, args.strategy, args.out, args.limit, args.nodes, args.jobs)


if __name__ == "__main__":
    main()
