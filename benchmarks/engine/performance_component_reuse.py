"""How much of the kernel's counting a cache of unchanged components could save (stop 20): the pure-Python path of the
exact engine keeps each component's count and reuses it while the component is unchanged; this plays expert games of
`exact` on that path and counts, over every analysis, the components (and their cells) found in that cache against
those counted afresh. Counting grows faster than linearly with a component's size, so the share of cells bounds the
share of counting work a cache in the C kernel's path could save.

Run: ``python benchmarks/engine/performance_component_reuse.py [GAMES]`` (100 by default; expert, safe, root seed 0).
"""

from __future__ import annotations

import sys

import sweeplab.analysis as exact
from sweeplab.bench.runner import game_seeds
from sweeplab.core.game import Game
from sweeplab.core.rules import make_rules
from sweeplab.strategies.base import play
from sweeplab.strategies.exact import ExactStrategy


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    seen = {"hit": [0, 0], "counted": [0, 0]}
    count = exact.Analyzer._count

    def counting(self, components, tallies, clock):  # type: ignore[no-untyped-def]
        for component, tally in zip(components, tallies, strict=True):
            row = seen["counted" if tally is None else "hit"]
            row[0] += 1
            row[1] += len(component.cells)
        return count(self, components, tallies, clock)

    exact.Analyzer._count = counting  # type: ignore[method-assign]
    rules = make_rules("expert", "safe")
    for i in range(games):
        game_seed, strategy_seed = game_seeds(0, i)
        player = ExactStrategy(strategy_seed)
        player.analyzer.use_kernel = False
        play(player, Game(rules, game_seed))
    (hc, hcells), (mc, mcells) = seen["hit"], seen["counted"]
    print(
        f"{games} expert games of exact (pure-Python engine): components reused {hc:,} of {hc + mc:,} "
        f"({hc / (hc + mc):.0%}); their cells {hcells:,} of {hcells + mcells:,} ({hcells / (hcells + mcells):.0%})"
    )


if __name__ == "__main__":
    main()
