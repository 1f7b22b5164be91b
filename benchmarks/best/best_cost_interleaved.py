"""Print summary.txt: the interleaved one-core cost runs of two trees, per run and their medians.

Run from the project root: python benchmarks/best/best_cost_interleaved.py [DIR] > DIR/summary.txt, where DIR holds
the runs and trees.json (the two trees' descriptions); DIR is results/best/cost/interleaved/ by default. The runs with
the single-point pass are in results/best/cost/single-point/.
"""

import json
import statistics
import sys
from pathlib import Path

DEFAULT = Path(__file__).resolve().parents[2] / "results" / "best" / "cost" / "interleaved"
HERE = Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else DEFAULT
TREES = json.loads((HERE / "trees.json").read_text())
DATE = TREES.pop("date")

print("# best: CPU per expert game on one core, two trees measured alternately (prev, head, prev, ...), 1,000 games of")
print(f"# root seed 0 a run, nothing else running on the machine, on {DATE}. Per run, from that tree's directory:")
print("# python -m sweeplab.studies.best cost --board expert --rule RULE --first-click X,Y --games 1000 --out DIR")
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
