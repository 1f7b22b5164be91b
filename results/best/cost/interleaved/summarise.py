"""Print summary.txt: the interleaved one-core cost runs of two trees, per run and their medians.

Run from the project root: python results/best/cost/interleaved/summarise.py [DIR] > DIR/summary.txt, where DIR holds
the runs and trees.json (the two trees' descriptions); DIR is this script's directory by default. Stop 20's runs are
here; stop 21's (the single-point pass) in results/best/cost/single-point/.
"""

import json
import statistics
import sys
from pathlib import Path

HERE = Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else Path(__file__).resolve().parent
TREES = json.loads((HERE / "trees.json").read_text())
DATE = TREES.pop("date")

print("# best: CPU per expert game on one core, two trees measured alternately (prev, head, prev, ...), 1,000 games of")
print(f"# root seed 0 a run, nothing else running on the machine, on {DATE}. Per run, from that tree's directory:")
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
