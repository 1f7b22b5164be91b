"""Seed 000's Figure 5 claim (intermediate games cost about as much CPU as expert ones), the two candidate causes of
our lower intermediate cost tested: CSPStrategy's node cap per coupled set and its mine-count pruning. Writes
results/cpu/tail-check.txt.

Run: python benchmarks/papers/seed000_cpu_tail.py [GAMES]   (default 2,000 games per board; the harness's layouts of root
seed 0, safe rule; CPU is this process's time, so run it on a quiet machine or compare within one run)

The results pages read the figures of results/cpu/tail-check.txt into results/cpu/derived.json
(sweeplab.studies.derived, which refuses a line it does not know): change a printed line's wording there too.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from sweeplab.bench.runner import deal, game_seeds
from sweeplab.core.rules import make_rules
from sweeplab.strategies import play
from sweeplab.strategies.registry import make_spec

BOARDS = ("intermediate-classic", "expert")
SPECS = ("cspstrategy", "cspstrategy[prune=upper]", "cspstrategy[prune=none]")
CAPS = (10_000_000, 100_000_000)


def one(spec: str, board: str, index: int) -> tuple[float, int]:
    """CPU seconds and capped coupled sets of game ``index``."""
    rules = make_rules(board, "safe")
    strategy = make_spec(spec, seed=game_seeds(0, index)[1])
    game = deal(rules, 0, index)
    start = time.process_time()
    play(strategy, game)
    return time.process_time() - start, strategy.capped  # type: ignore[attr-defined]


def main(games: int) -> str:
    lines = [f"# {games} games per board, root seed 0, safe rule; CPU per game (process time)", ""]
    capped_games: list[int] = []
    for spec in SPECS:
        means = []
        for board in BOARDS:
            cpu, capped = [], []
            for i in range(games):
                seconds, caps = one(spec, board, i)
                cpu.append(seconds)
                if caps:
                    capped.append(i)
            if spec == "cspstrategy" and board == BOARDS[0]:
                capped_games = capped
            ranked = sorted(cpu, reverse=True)
            top = sum(ranked[: max(1, games // 100)]) / sum(cpu)
            means.append(sum(cpu) / games)
            lines.append(
                f"{spec} on {make_rules(board, 'safe').spec()}: mean {1000 * means[-1]:.2f} ms, worst {1000 * ranked[0]:.0f} ms, "
                f"costliest 1% of games {top:.1%} of the CPU, games with a capped set {len(capped)} {capped}"
            )
        lines.append(f"{spec}: intermediate / expert CPU ratio {means[0] / means[1]:.2f}")
        lines.append("")
    lines.append("# the capped intermediate games again with a larger node cap (seconds)")
    for i in capped_games:
        base, caps = one("cspstrategy", BOARDS[0], i)
        row = [f"game {i}: cap 1e6 {base:.2f} s ({caps} capped set)"]
        for cap in CAPS:
            seconds, caps = one(f"cspstrategy[node_cap={cap}]", BOARDS[0], i)
            row.append(f"cap {cap:.0e} {seconds:.2f} s ({caps} capped)")
        lines.append("; ".join(row))
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    text = main(n)
    out = Path("results/cpu/tail-check.txt")
    out.write_text(f"# python benchmarks/papers/seed000_cpu_tail.py {n}\n" + text)
    print(text, end="")
