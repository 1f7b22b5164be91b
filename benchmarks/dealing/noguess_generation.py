"""How long the ``noguess`` rule takes to deal a layout, and what it rejects and moves (sweeplab.analysis.dealing.noguess).

For each board and click it deals ``--deals`` layouts (deal i with ``random.Random(seed + i)``) three ways:
``default`` (the rule's dealer as games use it: uniform draws, then repairs only if a hundred expert boards' worth
of draws got stuck), ``reject`` (uniform draws only: every stuck layout thrown away) and ``repair`` (repairs from
the first layout: stuck layouts repaired by moving mines, then verified from scratch). It writes one CSV row per
board, click and method: the median, 90th percentile and largest time of a deal, the layouts dealt and rejected,
the mines moved, the full analyses, the shares of deals that kept the promise and that were repaired, and the mean
3BV and the mean mines in the 5x5 window around the click (beside ``zero``'s uniform layouts: how far the repair
moves the distribution). Timings are wall-clock seconds of one process on whatever machine runs it.

  python benchmarks/dealing/noguess_generation.py --deals 30 --seed 1 --out results/noguess/generation.csv
"""

from __future__ import annotations

import argparse
import csv
import random
import statistics
import time
from pathlib import Path

from sweeplab.analysis.dealing.noguess import deal_noguess
from sweeplab.core.game import Game
from sweeplab.core.rules import Rules, make_rules

#: (board, click (x, y)): the deal's default corner, and the cell two or three in that the zero rule opens best.
POINTS = [
    ("beginner", (0, 0)),
    ("beginner", (2, 2)),
    ("intermediate", (0, 0)),
    ("intermediate", (2, 2)),
    ("expert", (0, 0)),
    ("expert", (3, 3)),
    ("30x16x130", (3, 3)),  # denser than expert (27%): few uniform layouts clear
]

#: deal_noguess's attempts per method.
METHODS = {
    "default": {},
    "reject": {"uniform_attempts": 100_000, "repair_attempts": 0},
    "repair": {"uniform_attempts": 0},
}

FIELDS = [
    "board", "click", "method", "deals", "median_s", "p90_s", "max_s", "layouts_dealt", "rejected", "mines_moved",
    "analyses", "kept_share", "repaired_share", "mean_3bv", "zero_mean_3bv", "mean_mines_near_click",
    "zero_mean_mines_near_click",
]  # fmt: skip


def three_bv(rules: Rules, mines: list[int]) -> int:
    return Game(Rules(rules.width, rules.height, rules.mines, "unsafe"), layout=mines).three_bv()


def near(rules: Rules, mines: list[int], click: int) -> int:
    """Mines in the 5x5 window around the click (its 3x3 is mine-free under both rules)."""
    x, y = rules.board.xy(click)
    return sum(1 for m in mines if abs(m % rules.width - x) <= 2 and abs(m // rules.width - y) <= 2)


def zero_layout(rules: Rules, click: int, rng: random.Random) -> list[int]:
    keep = {click, *rules.board.neighbours[click]}
    return rng.sample([c for c in range(rules.board.cells) if c not in keep], rules.mines)


def measure(board: str, xy: tuple[int, int], method: str, deals: int, seed: int) -> dict[str, object]:
    rules = make_rules(board, "noguess")
    click = rules.board.index(*xy)
    seconds, bv, mines_near = [], [], []
    dealt = rejected = moved = analyses = kept = repaired = 0
    for i in range(deals):
        start = time.perf_counter()
        mines, report = deal_noguess(rules, click, random.Random(seed + i), **METHODS[method])
        seconds.append(time.perf_counter() - start)
        dealt += report.attempts
        rejected += report.rejected
        moved += report.moves
        analyses += report.analyses
        kept += report.kept
        repaired += report.repaired
        bv.append(three_bv(rules, mines))
        mines_near.append(near(rules, mines, click))
    zero = [zero_layout(rules, click, random.Random(seed + i)) for i in range(max(deals, 200))]
    return {
        "board": rules.spec(),
        "click": f"({xy[0]}, {xy[1]})",
        "method": method,
        "deals": deals,
        "median_s": f"{statistics.median(seconds):.4f}",
        "p90_s": f"{statistics.quantiles(seconds, n=10)[-1]:.4f}" if deals >= 2 else "",
        "max_s": f"{max(seconds):.4f}",
        "layouts_dealt": dealt,
        "rejected": rejected,
        "mines_moved": moved,
        "analyses": analyses,
        "kept_share": f"{kept / deals:.3f}",
        "repaired_share": f"{repaired / deals:.3f}",
        "mean_3bv": f"{statistics.fmean(bv):.1f}",
        "zero_mean_3bv": f"{statistics.fmean(three_bv(rules, m) for m in zero):.1f}",
        "mean_mines_near_click": f"{statistics.fmean(mines_near):.2f}",
        "zero_mean_mines_near_click": f"{statistics.fmean(near(rules, m, click) for m in zero):.2f}",
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=30, help="layouts dealt per board, click and method")
    parser.add_argument("--seed", type=int, default=1, help="deal i uses random.Random(seed + i)")
    parser.add_argument("--methods", default=",".join(METHODS), help=f"comma-separated: {', '.join(METHODS)}")
    parser.add_argument("--out", type=Path, default=Path("results/noguess/generation.csv"))
    args = parser.parse_args()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    rows = []
    for method in args.methods.split(","):
        for board, xy in POINTS:
            row = measure(board, xy, method, args.deals, args.seed)
            print(", ".join(f"{k}={v}" for k, v in row.items()), flush=True)
            rows.append(row)
    with args.out.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, FIELDS)
        writer.writeheader()
        writer.writerows(rows)


if __name__ == "__main__":
    main()
