"""The orders a wide component can be folded in: how long a fold for its weights takes in each.

Run from a checkout with the C kernels built: ``python benchmarks/large/fold_orders.py 512x128x16384@0.4:1 --out
results/large/spectral/orders-timed`` (each position takes a few seconds to a minute). Each position WxHxM@SHARE:SEED
is dealt as ``benchmarks/large/large_positions.py`` deals it and analysed at ``--seconds`` as ``sweeplab analyze`` does;
the components its analysis hands to the folds (those the exact count left) are recorded, and each of at least
``--min-supercells`` super-cells is folded for its weights (``_chain.fold_keep``, one thread, no other work) in each
order a fold may use (greedy, banded, and the spectral ones after 8 and after 1 inverse steps, forwards and
backwards), each under ``--cap`` seconds. Writes ``runs.csv``: the
position, the component's super-cells, the order, the seconds its order took to build and its fold took (empty
where the fold gave up at the cap) and the steps the fold did."""

from __future__ import annotations

import sys
import time

from fold_check import dealt, positions_parser

from sweeplab.analysis.analyzer import Analyzer
from sweeplab.analysis.estimate import folding
from sweeplab.analysis.estimate.kernel import CHAIN
from sweeplab.analysis.exact.budget import Budget
from sweeplab.analysis.exact.components import Component
from sweeplab.core.errors import UndecidedError

FIELDS = [
    *("width", "height", "mines", "share", "seed", "supercells", "order", "order_s", "fold_s", "steps_done"),
    *("back_s", "kept_mib", "thinned"),
]
ORDERS = {
    "greedy": folding.GREEDY,
    "banded": folding.BANDED,
    "spectral": folding.SPECTRAL,
    "reversed": folding.REVERSED,
    "rough": folding.ROUGH,
    "rough-reversed": folding.ROUGH_REVERSED,
}


def handed(obs: object, seconds: float) -> list[Component]:
    """The components the analysis of ``obs`` hands to its folds (the last set, where it folds twice)."""
    seen: list[list[Component]] = []
    real = folding.Folds.__init__

    def record(self: folding.Folds, components: list[Component], *args: object, **kwargs: object) -> None:
        seen.append(list(components))
        real(self, components, *args, **kwargs)  # type: ignore[arg-type]

    folding.Folds.__init__ = record  # type: ignore[method-assign]
    try:
        Analyzer(Budget(seconds=seconds)).analyze(obs)  # type: ignore[arg-type]
    except UndecidedError:
        pass
    finally:
        folding.Folds.__init__ = real  # type: ignore[method-assign]
    return seen[-1] if seen else []


def main(argv: list[str] | None = None) -> int:
    parser = positions_parser(__doc__.splitlines()[0], "results/large/spectral/orders-timed")
    parser.add_argument("--cap", type=float, default=2.0, help="the most seconds a fold may take")
    parser.add_argument("--min-supercells", type=int, default=300, help="fold components of at least this many")
    args = parser.parse_args(argv)
    if CHAIN is None or not folding.available():
        parser.error("the C chain is not built (python setup.py build_ext --inplace)")
    for out, (width, height, mines, share, seed), obs in dealt(args, FIELDS):
        wide = [c for c in handed(obs, args.seconds) if len(c.supercells) >= args.min_supercells]
        for comp in sorted(wide, key=lambda c: -len(c.supercells)):
            plans: list = [None] * len(folding.ORDERS)
            for name, k in ORDERS.items():
                start = time.perf_counter()
                plan = folding._orders(comp, plans, k)
                built = time.perf_counter() - start
                start = time.perf_counter()
                done = CHAIN.fold_keep(plan[1], plan[2], plan[3], folding.FOLD_STATES, 2**28, args.cap)
                took = time.perf_counter() - start
                folded = not isinstance(done, int)
                steps = len(plan[0]) if folded else done
                row = [width, height, mines, share, seed, len(comp.supercells), name]
                row += [round(built, 4), round(took, 4) if folded else "", steps]
                if folded and done[3] is not None:
                    start = time.perf_counter()
                    CHAIN.fold_back(done[3], [0.0] * (len(comp.cells) + 1), args.cap)
                    back = time.perf_counter() - start
                    row += [round(back, 4), round(done[4] / 2**20, 1), len(done) > 5 and done[5]]
                out.writerow(row)
        print(f"{width}x{height}x{mines}@{share}:{seed}: {len(wide)} components folded in each order", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
