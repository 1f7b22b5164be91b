"""Where the chain's stated error comes from: each estimated cell's spread over the batches, and the clusters of
cells whose spread passes a threshold.

Run from a checkout with the C kernels built: ``python benchmarks/large/chain_spread.py 256x256x19661@0.3:6 --seconds 30
--out results/large/out-of-reach/spread`` (each position takes about ``--seconds``). Each position WxHxM@SHARE:SEED is
dealt as ``benchmarks/large/large_positions.py`` deals it and analysed at ``--seconds`` as ``sweeplab analyze`` does. Where
the chain estimates, each super-cell of its component gets the spread behind the stated error (two standard errors of
its probability over the batches, each batch weighed with the rest of the position, as the analysis weighs them).
Super-cells over ``--threshold`` that share a number are joined into clusters.

Writes ``runs.csv``: the position, the answer and its stated error, the chain's super-cells, the rows of its strips
when it ended, the batches, the super-cells over the threshold and the clusters they form; and ``clusters.csv``: the
``--top`` largest clusters of each position, with their super-cells, the rows and columns they span and their largest
spread."""

from __future__ import annotations

import csv
import sys
from typing import Any

from fold_check import dealt, positions_parser

from sweeplab.analysis.analyzer import Analyzer
from sweeplab.analysis.estimate import batches
from sweeplab.analysis.exact import probabilities
from sweeplab.analysis.exact.budget import Budget
from sweeplab.analysis.exact.components import Component
from sweeplab.analysis.exact.counting import Tally
from sweeplab.analysis.exact.probabilities import ROUNDING
from sweeplab.analysis.exact.weighting import _cell_spreads
from sweeplab.core.errors import UndecidedError

FIELDS = [
    *("width", "height", "mines", "share", "seed", "seconds", "answer", "stated_error", "chain_supercells"),
    *("strip_rows", "batches", "over_threshold", "clusters"),
]
CLUSTER_FIELDS = ["width", "height", "mines", "share", "seed", "rank", "supercells", "rows", "columns", "largest_spread"]


def main(argv: list[str] | None = None) -> int:
    parser = positions_parser(__doc__.splitlines()[0], "results/large/out-of-reach/spread")
    parser.add_argument("--threshold", type=float, default=0.02, help="the spread a cell must pass to join a cluster")
    parser.add_argument("--top", type=int, default=10, help="clusters of each position written to clusters.csv")
    args = parser.parse_args(argv)
    if not 0 < args.threshold < 1:
        parser.error(f"--threshold must lie between 0 and 1, not {args.threshold}")
    if args.top < 0:
        parser.error(f"--top must be 0 or more, not {args.top}")
    args.out.mkdir(parents=True, exist_ok=True)
    with open(args.out / "clusters.csv", "w", newline="") as handle:
        clusters_out = csv.writer(handle)
        clusters_out.writerow(CLUSTER_FIELDS)
        for out, spec, obs in dealt(args, FIELDS):
            seen = _observed(lambda obs=obs: Analyzer(Budget(seconds=args.seconds)).analyze(obs))
            got = seen["result"]
            answer = "undecided" if got is None else "exact" if got.exact else "rounding" if got.error <= ROUNDING else "estimate"
            error = "" if got is None else got.error
            row: list[Any] = [*spec, args.seconds, answer, error]
            if "spreads" not in seen:
                out.writerow([*row, "", seen.get("rows", ""), "", "", ""])
                print(f"{spec}: {answer}, no estimate's batches to spread", flush=True)
                continue
            component, spreads = seen["component"], seen["spreads"]
            clusters = _clusters(component, spreads, args.threshold)
            over = sum(1 for s in spreads if s > args.threshold)
            out.writerow([*row, len(spreads), seen.get("rows", ""), seen["batches"], over, len(clusters)])
            width = spec[0]
            for rank, cluster in enumerate(clusters[: args.top], 1):
                cells = [c for j in cluster for c in component.supercells[j]]
                rows = max(c // width for c in cells) - min(c // width for c in cells) + 1
                columns = max(c % width for c in cells) - min(c % width for c in cells) + 1
                clusters_out.writerow([*spec, rank, len(cluster), rows, columns, round(max(spreads[j] for j in cluster), 4)])
            handle.flush()
            print(
                f"{spec}: {answer} {error}, {over} of {len(spreads)} super-cells over {args.threshold}, "
                f"{len(clusters)} clusters, the largest {len(clusters[0]) if clusters else 0}",
                flush=True,
            )
    return 0


def _observed(run: Any) -> dict[str, Any]:
    """The analysis ``run()``'s result (None when undecided), and what its chain left: the strips' rows when it
    ended and, where the error was weighed from batches, the chain's component, the spread of each of its super-cells
    and the batches (the spreads worked out once the analysis has returned, outside its time)."""
    seen: dict[str, Any] = {}
    weighed: list[tuple[list[Component], list[Tally], int, int]] = []
    real_runs, real_error = batches.run_chains, probabilities._batch_error

    def run_chains(chains: list, *args: Any) -> Any:
        result = real_runs(chains, *args)
        seen["rows"] = chains[0].height if chains[0].strip_list is not None else "balls"
        return result

    def batch_error(components: list[Component], tallies: list[Tally], U: int, R: int) -> float:
        weighed.append((components, tallies, U, R))
        return real_error(components, tallies, U, R)

    batches.run_chains, probabilities._batch_error = run_chains, batch_error  # type: ignore[assignment]
    try:
        seen["result"] = run()
    except UndecidedError:
        seen["result"] = None
    finally:
        batches.run_chains, probabilities._batch_error = real_runs, real_error  # type: ignore[assignment]
    if weighed:
        components, tallies, U, R = weighed[-1]
        chain = max(
            (i for i, t in enumerate(tallies) if not t.exact and not t.rounding), key=lambda i: len(components[i].supercells)
        )
        seen["component"] = components[chain]
        seen["spreads"] = _cell_spreads(components, tallies, U, R)[chain]
        seen["batches"] = len(tallies[chain].batches)
    return seen


def _clusters(component: Component, spreads: list[float], threshold: float) -> list[list[int]]:
    """The super-cells whose spread passes ``threshold``, joined where they share a number; the largest first."""
    over = [s > threshold for s in spreads]
    neighbours: list[set[int]] = [set() for _ in spreads]
    for js, _, _ in component.constraints:
        for j in js:
            if over[j]:
                neighbours[j].update(k for k in js if over[k] and k != j)
    seen = [False] * len(spreads)
    clusters = []
    for start in range(len(spreads)):
        if not over[start] or seen[start]:
            continue
        seen[start], stack, cluster = True, [start], []
        while stack:
            j = stack.pop()
            cluster.append(j)
            for k in neighbours[j]:
                if not seen[k]:
                    seen[k] = True
                    stack.append(k)
        clusters.append(cluster)
    return sorted(clusters, key=len, reverse=True)


if __name__ == "__main__":
    sys.exit(main())
