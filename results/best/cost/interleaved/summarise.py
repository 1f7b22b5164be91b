"""Print summary.txt: the interleaved one-core cost runs of two trees, per run and their medians.

Run from the project root: python results/best/cost/interleaved/summarise.py > results/best/cost/interleaved/summary.txt
"""

import json
import statistics
from pathlib import Path

HERE = Path(__file__).resolve().parent
TREES = {
    "prev": "a35979e (the last landed tree; the same moves as 8f62ed0's runs)",
    "head": "d2c6337 (this stop's tree; the same moves as 1718a05's runs)",
}

print("# best: CPU per expert game on one core, two trees measured alternately (prev, head, prev, ...), 1,000 games of")
print("# root seed 0 a run, nothing else running on the machine, on 2026-11-25. Per run, from that tree's directory:")
print("# python -m sweeplab.bench.best_results cost --board expert --rule RULE --first-click X,Y --games 1000 --out DIR")
print("# (DIR is TREE-RULE-N beside this file). Trees: " + "; ".join(f"{k} = {v}" for k, v in TREES.items()) + ".")
print()
for rule in ("safe", "zero"):
    for tree in TREES:
        runs = sorted(HERE.glob(f"{tree}-{rule}-*"), key=lambda p: int(p.name.rsplit("-", 1)[1]))
        points = [json.loads((run / "data.json").read_text())["points"][0] for run in runs]
        means = [p["cpu_ms"]["mean"] for p in points]
        p99 = [p["cpu_ms"]["p99"] for p in points]
        worst = max(p["cpu_ms"]["worst"] for p in points)
        over = sum(p["budget_share"] * p["games"] for p in points) / sum(p["games"] for p in points)
        print(
            f"expert {rule} {tree}: mean ms per run (in order) {[round(m, 1) for m in means]}; "
            f"median {statistics.median(means):.1f} ms; p99 per run median {statistics.median(p99):.0f} ms; "
            f"worst {worst:.0f} ms; past the endgame budget in {100 * over:.2f}% of games"
        )
