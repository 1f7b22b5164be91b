"""Seed 000's largest coupled sets: the games of the frontier run whose largest set reached 100,000 solutions, replayed
with CSPStrategy's node cap lifted (10^6 to 10^8 search nodes), to count those sets in full. The frontier experiment
records a capped set with the solutions found before the cap (a lower bound). Writes results/frontier/uncapped.txt.

Run: python benchmarks/papers/seed000_frontier_uncapped.py   (reads results/frontier/games.csv.gz; a few minutes of CPU)

The results pages read the figures of results/frontier/uncapped.txt into results/frontier/derived.json
(sweeplab.studies.derived, which refuses a line it does not know): change a printed line's wording there too.
"""

from __future__ import annotations

import csv
import gzip
import io
from pathlib import Path

from sweeplab.bench.runner import deal, game_seeds
from sweeplab.strategies import make, play
from sweeplab.studies.papers.seed000_guesses import paper_pool

THRESHOLD = 100_000
CAP = 100_000_000


def main(out: Path) -> str:
    rows = csv.DictReader(io.StringIO(gzip.decompress(Path("results/frontier/games.csv.gz").read_bytes()).decode()))
    big = [r for r in rows if int(r["solutions"] or 0) >= THRESHOLD]
    big.sort(key=lambda r: -int(r["solutions"]))  # the largest recorded first
    points = {(p.rules.spec(), p.rules.first_click): p for p in paper_pool(["cspstrategy"], 1, False)}
    lines = [
        f"# games of results/frontier whose largest set had {THRESHOLD:,} or more solutions, replayed with node_cap={CAP:,}",
        "# board, game: recorded (variables, constraints, dof, solutions) -> uncapped most-solutions set; capped sets",
    ]
    top = None
    for r in big:
        point = points[(r["board"], r["rule"])]
        game = int(r["game"])
        seed = point.seed_offset
        player = make("cspstrategy", seed=game_seeds(seed, game)[1], node_cap=CAP)
        play(player, deal(point.rules, seed, game))
        most = player.most_solutions
        assert most is not None
        if top is None or most.solutions > top[2].solutions:
            top = (r["board"], game, most)
        lines.append(
            f"{r['board']} game {game} ({player.nodes:,} nodes): recorded "
            f"({r['variables']}, {r['constraints']}, {r['dof']}, {int(r['solutions']):,}) -> "
            f"({most.variables}, {most.constraints}, {most.degrees_of_freedom}, {most.solutions:,}); capped sets {player.capped}"
        )
        out.write_text("\n".join(lines) + "\n")  # each game as it finishes
        print(lines[-1], flush=True)
    if top is not None:
        lines.append(f"# most solutions uncapped: {top[2].solutions:,} ({top[0]} game {top[1]}: {top[2]})")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    path = Path("results/frontier/uncapped.txt")
    path.write_text(main(path))
