"""The 100,000-game paired runs of issue 9, re-run with the single-point pass (stop 21), compared game by game.

The committed runs (results/best/paired/CONFIG/games.csv.gz, frozen clone at 1718a05) were played before the pass
existed. The pass changes only the order of the certain reveals, so every game should end the same way with the same
number of guesses, for `best` and for `exact`; the click count (``moves``) may differ. Re-run each configuration with
the command in its run.json from a frozen clone of a tree with the pass, with ``--out NEW/CONFIG``, then:

  python benchmarks/engine/performance_single_point_paired_check.py NEW

prints, per configuration and strategy, the games compared, how many differ in the outcome (won or lost, and how) and
in the number of guesses, how many differ in clicks, and both runs' win counts.
"""

from __future__ import annotations

import csv
import gzip
import sys
from pathlib import Path

PAIRED = Path(__file__).resolve().parents[2] / "results" / "best" / "paired"


def rows(path: Path) -> dict[tuple[str, int], dict[str, str]]:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", newline="") as handle:  # type: ignore[operator]
        return {(row["strategy"], int(row["game"])): row for row in csv.DictReader(handle)}


def main() -> None:
    if len(sys.argv) != 2:
        sys.exit("usage: python benchmarks/engine/performance_single_point_paired_check.py NEW_RUNS_DIRECTORY")
    new_root = Path(sys.argv[1])
    print("# configuration, strategy: games compared; outcome differs; guesses differ; clicks differ; wins before -> after")
    for config in sorted(p.name for p in PAIRED.iterdir() if (p / "games.csv.gz").exists()):
        new_file = new_root / config / "games.csv"
        if not new_file.exists():
            print(f"{config}: no new run at {new_file}")
            continue
        old, new = rows(PAIRED / config / "games.csv.gz"), rows(new_file)
        for strategy in sorted({s for s, _ in old}):
            keys = [k for k in old if k[0] == strategy and k in new]
            outcome = sum(old[k]["outcome"] != new[k]["outcome"] or old[k]["won"] != new[k]["won"] for k in keys)
            guesses = sum(old[k]["guesses"] != new[k]["guesses"] for k in keys)
            clicks = sum(old[k]["moves"] != new[k]["moves"] for k in keys)
            won_old = sum(old[k]["won"] == "1" for k in keys)
            won_new = sum(new[k]["won"] == "1" for k in keys)
            missing = sum(1 for k in old if k[0] == strategy and k not in new)
            note = f" ({missing} games missing from the new run)" if missing else ""
            print(
                f"{config}, {strategy}: {len(keys)} games; outcome differs in {outcome}; guesses differ in {guesses}; "
                f"clicks differ in {clicks}; wins {won_old} -> {won_new}{note}"
            )


if __name__ == "__main__":
    main()
