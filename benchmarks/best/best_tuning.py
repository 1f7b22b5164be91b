"""The measurements behind `best`'s defaults (issue 9): each variant paired game by game with a reference run on the
same layouts (the same board, rule, first click and root seed, so game i is the same deal in both). Writes
results/best/tuning/pairs.md (the table) and pairs.json (its figures, which docs/results.md renders).

Run: python benchmarks/best/best_tuning.py

The runs are committed under results/best/tuning/ (each with the `sweeplab bench` command in its run.json and the
commit it ran at below); where a variant was run alone, its reference is the committed paired run of the version
before it (results/best/before-influence/paired/ for 8f62ed0's changes; this stop's runs pair within
results/best/tuning/).
"""

from __future__ import annotations

import json
from pathlib import Path

from sweeplab.bench.stats import binomial_se, paired_difference
from sweeplab.studies.best import read_games

RESULTS = Path(__file__).resolve().parents[2] / "results" / "best"
TUNING = RESULTS / "tuning"

#: the row of the influence bound (the results page names it)
INFLUENCE_BOUND = "influence bound 0.05 (the 50/50 influence trades at most 5 points of safety), expert safe (0,0), seed 13"

#: (what was measured, commit of the variant's run, reference run and strategy, variant run and strategy)
PAIRS = [
    (
        "50/50 influence on, expert safe (0,0)",
        "4f55dd3",
        ("before-influence/paired/expert-safe-0-0/seed1", "best"),
        ("tuning/influence-expert-safe", "best"),
    ),
    (
        "50/50 influence on, 16x16/40 safe (0,0)",
        "4f55dd3",
        ("before-influence/paired/intermediate-safe-0-0/seed1", "best"),
        ("tuning/influence-16x16-safe", "best"),
    ),
    (
        "50/50 influence on, 9x9/10 safe (0,0)",
        "4f55dd3",
        ("before-influence/paired/beginner-safe-0-0/seed1", "best"),
        ("tuning/influence-9x9-safe", "best"),
    ),
    (
        "50/50 influence on, expert zero (3,3)",
        "4f55dd3",
        ("before-influence/paired/expert-zero-3-3/seed1", "best"),
        ("tuning/influence-expert-zero", "best"),
    ),
    (
        "endgame 1,000 layouts / 30,000 positions (was 200 / 10,000), expert safe",
        "b6773f9",
        ("before-influence/paired/expert-safe-0-0/seed1", "best"),
        ("tuning/endgame-expert-safe", "best[endgame_layouts=1000,endgame_nodes=30000]"),
    ),
    (
        "endgame 2,000 layouts / 100,000 positions (was 200 / 10,000), expert safe",
        "b6773f9",
        ("before-influence/paired/expert-safe-0-0/seed1", "best"),
        ("tuning/endgame-expert-safe", "best[endgame_layouts=2000,endgame_nodes=100000]"),
    ),
    (
        "8f62ed0's defaults (the influence and the 1,000-layout endgame), its paired run against the one before, expert safe",
        "8f62ed0",
        ("before-influence/paired/expert-safe-0-0/seed1", "best"),
        ("before-living/paired/expert-safe-0-0", "best"),
    ),
    (
        "8f62ed0's defaults (the influence and the 1,000-layout endgame), its paired run against the one before, expert zero",
        "8f62ed0",
        ("before-influence/paired/expert-zero-3-3/seed1", "best"),
        ("before-living/paired/expert-zero-3-3", "best"),
    ),
    (
        "look-ahead tolerance 0.15 (default 0.10), with influence and the 1,000-layout endgame, expert safe",
        "29317ba",
        ("tuning/tolerance-expert-safe", "best"),
        ("tuning/tolerance-expert-safe", "best[tolerance=0.15]"),
    ),
    # this stop's: root seeds 7 and 8, fresh layouts; the reference is the defaults of a35979e (same moves at bc6ae7d)
    (
        "living safe cells (JSMinesweeper's rule, first dead test), expert safe, seed 7",
        "bc6ae7d",
        ("tuning/progress-expert-safe-s7", "best"),
        ("tuning/progress-expert-safe-s7", "best[progress=jsm]"),
    ),
    (
        "living safe cells (JSMinesweeper's rule, first dead test), expert safe, seed 8",
        "af4d765",
        ("tuning/progress-expert-safe-s8", "best"),
        ("tuning/progress-expert-safe-s8", "best[progress=jsm]"),
    ),
    (
        "any living safe cell makes the next position worth 1, expert safe, seed 7",
        "bc6ae7d",
        ("tuning/progress-expert-safe-s7", "best"),
        ("tuning/progress-expert-safe-s7", "best[progress=living]"),
    ),
    (
        "influence weight 1.0 (was 0.9), expert safe, seed 7",
        "bc6ae7d + WEIGHT = 1.0",
        ("tuning/progress-expert-safe-s7", "best"),
        ("tuning/weight-1-expert-safe-s7", "best"),
    ),
    (
        "influence weight 1.0 (was 0.9), with living safe cells, expert safe, seed 8",
        "bc6ae7d + WEIGHT = 1.0",
        ("tuning/progress-expert-safe-s8", "best[progress=jsm]"),
        ("tuning/weight-1-expert-safe-s8", "best[progress=jsm]"),
    ),
    (
        "tolerance 0.15, with living safe cells, expert safe, seed 8",
        "af4d765",
        ("tuning/progress-expert-safe-s8", "best[progress=jsm]"),
        ("tuning/progress-expert-safe-s8", "best[progress=jsm,tolerance=0.15]"),
    ),
    (
        "pseudo 50/50 guessed first (JSMinesweeper), expert safe, seed 7",
        "bc6ae7d",
        ("tuning/progress-expert-safe-s7", "best"),
        ("tuning/pseudo-dominance-offedge-expert-safe-s7", "best[pseudo=True]"),
    ),
    (
        "dominance switch (JSMinesweeper's alternative move), expert safe, seed 7",
        "bc6ae7d",
        ("tuning/progress-expert-safe-s7", "best"),
        ("tuning/pseudo-dominance-offedge-expert-safe-s7", "best[dominance=True]"),
    ),
    (
        "20 cells no number touches looked at (was 8), expert safe, seed 7",
        "bc6ae7d",
        ("tuning/progress-expert-safe-s7", "best"),
        ("tuning/pseudo-dominance-offedge-expert-safe-s7", "best[off_edge=20]"),
    ),
    (
        "next position worth its best safety alone (blend 1:0, was 4:1), expert safe, seed 7",
        "bc6ae7d + BLEND = (1, 0)",
        ("tuning/progress-expert-safe-s7", "best"),
        ("tuning/blend-1-0-expert-safe-s7", "best"),
    ),
    (
        "blend 2:1 (was 4:1), expert safe, seed 7",
        "bc6ae7d + BLEND = (2, 1)",
        ("tuning/progress-expert-safe-s7", "best"),
        ("tuning/blend-2-1-expert-safe-s7", "best"),
    ),
    (
        "endgame 5,000 layouts / 300,000 positions (was 1,000 / 30,000), 9x9/10 safe, seed 7",
        "bc6ae7d",
        ("tuning/endgame-9x9-safe-s7", "best"),
        ("tuning/endgame-9x9-safe-s7", "best[endgame_layouts=5000,endgame_nodes=300000]"),
    ),
    # stop 20's: fresh root seeds 9 and 10 (safe) and 7 (zero), the defaults of 1718a05 (same moves at 11f55a7) as reference
    (
        "endgame 3,000 layouts / 200,000 positions (was 1,000 / 30,000), C search, expert zero (3,3), seed 7",
        "11f55a7",
        ("tuning/endgame-dead-expert-zero-s7", "best"),
        ("tuning/endgame-dead-expert-zero-s7", "best[endgame_layouts=3000,endgame_nodes=200000]"),
    ),
    (
        "dead cells not put last (dead=False), expert zero (3,3), seed 7",
        "11f55a7",
        ("tuning/endgame-dead-expert-zero-s7", "best"),
        ("tuning/endgame-dead-expert-zero-s7", "best[dead=False]"),
    ),
    (
        "endgame 3,000 layouts / 200,000 positions (was 1,000 / 30,000), C search, expert safe (0,0), seed 9",
        "11f55a7",
        ("tuning/endgame-dead-expert-safe-s9", "best"),
        ("tuning/endgame-dead-expert-safe-s9", "best[endgame_layouts=3000,endgame_nodes=200000]"),
    ),
    (
        "dead cells not put last (dead=False), expert safe (0,0), seed 9",
        "11f55a7",
        ("tuning/endgame-dead-expert-safe-s9", "best"),
        ("tuning/endgame-dead-expert-safe-s9", "best[dead=False]"),
    ),
    (
        "forced sets not taken first (forced=False), expert safe (0,0), seed 10",
        "11f55a7",
        ("tuning/forced-tolerance-expert-safe-s10", "best"),
        ("tuning/forced-tolerance-expert-safe-s10", "best[forced=False]"),
    ),
    (
        "tolerance 0.2 (default 0.10), expert safe (0,0), seed 10",
        "11f55a7",
        ("tuning/forced-tolerance-expert-safe-s10", "best"),
        ("tuning/forced-tolerance-expert-safe-s10", "best[tolerance=0.2]"),
    ),
    # stop 22's: the two-ply look-ahead (depth=2), on fresh root seed 7 of each board
    (
        "two-ply look-ahead (depth=2), 9x9/10 safe (0,0), seed 7",
        "72536bb",
        ("tuning/depth2-9x9-safe-s7", "best"),
        ("tuning/depth2-9x9-safe-s7", "best[depth=2]"),
    ),
    (
        "two-ply look-ahead (depth=2), expert safe (0,0), seed 7",
        "e55e5af",
        ("tuning/depth2-expert-safe-s7", "best"),
        ("tuning/depth2-expert-safe-s7", "best[depth=2]"),
    ),
    # stop 23's: the worth of the position after a number, fitted to best's own games (benchmarks/best/best_calibrate.py)
    # and its opposite, each against the defaults of 4ae5815 on fresh root seeds 11 and 12
    (
        "fitted worth of the next position (no counted safe cell: blend ** 1.74; one: ((4 + b1) / 5) ** 6.0), expert"
        " safe (0,0), seed 11",
        "4ae5815 + fitted powers",
        ("tuning/reference-expert-safe-s11", "best"),
        ("tuning/worth-fitted-expert-safe-s11", "best"),
    ),
    (
        "fitted worth of the next position, as above, expert safe (0,0), seed 12",
        "4ae5815 + fitted powers",
        ("tuning/reference-expert-safe-s12", "best"),
        ("tuning/worth-fitted-expert-safe-s12", "best"),
    ),
    (
        "fitted worth with no counted safe cell only (blend ** 1.74; one living safe cell as before), expert safe (0,0), seed 11",
        "4ae5815 + fitted L0 power",
        ("tuning/reference-expert-safe-s11", "best"),
        ("tuning/worth-fitted-l0-expert-safe-s11", "best"),
    ),
    (
        "fitted worth with no counted safe cell only, as above, expert safe (0,0), seed 12",
        "4ae5815 + fitted L0 power",
        ("tuning/reference-expert-safe-s12", "best"),
        ("tuning/worth-fitted-l0-expert-safe-s12", "best"),
    ),
    (
        "the opposite way (no counted safe cell: blend ** 0.6), expert safe (0,0), seed 11",
        "4ae5815 + power 0.6",
        ("tuning/reference-expert-safe-s11", "best"),
        ("tuning/worth-0.6-expert-safe-s11", "best"),
    ),
    # a bound on the safety the 50/50 influence may trade away, in one paired run on fresh root seed 13
    (
        INFLUENCE_BOUND,
        "f1ba21e",
        ("tuning/influence-bound-expert-safe-s13", "best"),
        ("tuning/influence-bound-expert-safe-s13", "best[influence_bound=0.05]"),
    ),
]


def pair(reference: tuple[str, str], variant: tuple[str, str]) -> dict[str, float] | None:
    """The paired figures of ``variant`` against ``reference`` over the games both played (None if a run is
    missing or empty)."""
    (ref_dir, ref_name), (var_dir, var_name) = reference, variant
    if not (RESULTS / ref_dir).exists() or not (RESULTS / var_dir).exists():
        return None
    ref = read_games(RESULTS / ref_dir)[ref_name]
    var = read_games(RESULTS / var_dir)[var_name]
    n = min(len(ref), len(var))
    if n == 0:
        return None
    a = [w for w, _ in ref[:n]]
    b = [w for w, _ in var[:n]]
    diff, se = paired_difference(b, a)  # variant minus reference
    cpu = sorted(c for _, c in var[:n])
    ref_cpu = sorted(c for _, c in ref[:n])
    return {
        "games": n,
        "before": sum(a) / n,
        "before_se": binomial_se(sum(a), n),
        "after": sum(b) / n,
        "after_se": binomial_se(sum(b), n),
        "difference": diff,
        "se": se,
        "cpu_ms": 1000 * sum(cpu) / n,
        "before_cpu_ms": 1000 * sum(ref_cpu) / n,
    }


def main() -> None:
    lines = [
        "# `best` tuning: each variant paired with a reference on the same layouts",
        "",
        "Written by `python benchmarks/best/best_tuning.py`. Percentages are win rates ± binomial SE; the difference is the",
        "paired one (variant minus reference, SE over the game-by-game differences). CPU is the mean per game in each",
        "run; the runs shared 2 cores with other work, so compare CPU within a row only roughly. Commands: each run's",
        "`run.json`.",
        "",
        "| variant | commit | games | reference | variant | difference | CPU ms (ref / variant) |",
        "|---|---|---|---|---|---|---|",
    ]
    data = []
    for label, commit, reference, variant in PAIRS:
        figures = pair(reference, variant)
        if figures is None:
            lines.append(f"| {label} | {commit} | (run missing) | | | | |")
            continue
        command = json.loads((RESULTS / variant[0] / "run.json").read_text())["command"]
        data.append({"change": label, "commit": commit, "command": command, **figures})
        lines.append(
            f"| {label} | {commit} | {figures['games']:,} "
            f"| {100 * figures['before']:.2f}% ± {100 * figures['before_se']:.2f} "
            f"| {100 * figures['after']:.2f}% ± {100 * figures['after_se']:.2f} "
            f"| {100 * figures['difference']:+.2f} ± {100 * figures['se']:.2f} "
            f"| {figures['before_cpu_ms']:.1f} / {figures['cpu_ms']:.1f} |"
        )
    TUNING.mkdir(parents=True, exist_ok=True)
    (TUNING / "pairs.md").write_text("\n".join(lines) + "\n")
    (TUNING / "pairs.json").write_text(json.dumps(data, indent=1) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
