"""Folded answers against exact counts: is a count in floating point, folded against the rest, exact up to rounding?

Run from a checkout with the C kernels built: ``python benchmarks/large/fold_check.py 1024x64x14417@0.2:2 --out
results/large/folded/check`` (each position takes from a quarter of a minute to a few minutes of CPU). Each position
WxHxM@SHARE:SEED is dealt as ``benchmarks/large/large_positions.py`` deals it (``strewn_position``), analysed at
``--seconds`` as ``sweeplab analyze`` does, and then counted exactly with the counts in floating point turned off, a
long budget and room for states and memory (``--reference-seconds``, 3,000,000 states a step, 8 GiB). With
``--reference orders``, on positions too wide for that, the reference is the analysis with that long budget, 8 GiB and
its folds in the greedy and banded orders alone (as before the spectral orders): the same counts by other paths.
Where both answers come, the row records the largest absolute difference between their probabilities over the covered
cells.
Writes ``runs.csv``: the position, the answer at the budget (exact, rounding, estimate or undecided) with its stated
error, whether the reference is exact, its CPU seconds and the largest difference."""

from __future__ import annotations

import argparse
import csv
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from sweeplab.analysis.analyzer import Analyzer
from sweeplab.analysis.estimate import folding
from sweeplab.analysis.exact.budget import Budget
from sweeplab.analysis.exact.probabilities import ROUNDING, Probabilities
from sweeplab.bench.layouts import strewn_position
from sweeplab.core.errors import UndecidedError
from sweeplab.core.observation import Observation

FIELDS = ["width", "height", "mines", "share", "seed", "answer", "stated_error", "reference", "reference_cpu_s", "max_abs_error"]


Position = tuple[int, int, int, float, int]  # width, height, mines, share of safe cells revealed, seed


def position(text: str) -> Position:
    """WxHxM@SHARE:SEED, such as 1024x64x14417@0.2:2."""
    try:
        dims, rest = text.split("@")
        share, seed = rest.split(":")
        width, height, mines = (int(part) for part in dims.split("x"))
        return width, height, mines, float(share), int(seed)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not WxHxM@SHARE:SEED, such as 1024x64x14417@0.2:2") from None


def positions_parser(description: str, out: str) -> argparse.ArgumentParser:
    """A parser of the positions to deal (WxHxM@SHARE:SEED), ``--out`` (default ``out``) and ``--seconds``."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("positions", nargs="+", type=position, metavar="WxHxM@SHARE:SEED", help="positions to deal")
    parser.add_argument("--out", type=Path, default=Path(out), help="folder for runs.csv")
    parser.add_argument("--seconds", type=float, default=2.0, help="the analysis budget (as analyze --seconds)")
    return parser


def dealt(args: argparse.Namespace, fields: list[str]) -> Iterator[tuple[Any, Position, Observation]]:
    """Each of ``args.positions`` dealt, beside the writer of ``runs.csv`` under ``args.out`` (made, its header
    ``fields`` written; flushed after each position)."""
    args.out.mkdir(parents=True, exist_ok=True)
    with open(args.out / "runs.csv", "w", newline="") as handle:
        out = csv.writer(handle)
        out.writerow(fields)
        for spec in args.positions:
            yield out, spec, strewn_position(*spec)[0]
            handle.flush()


def main(argv: list[str] | None = None) -> int:
    parser = positions_parser(__doc__.splitlines()[0], "results/large/folded/check")
    parser.add_argument("--reference-seconds", type=float, default=600.0, help="the reference's budget")
    parser.add_argument(
        "--reference",
        choices=["exact", "orders"],
        default="exact",
        help="exact: the exact count, folds off (default); orders: folds in the greedy and banded orders alone",
    )
    args = parser.parse_args(argv)
    for out, spec, obs in dealt(args, FIELDS):
        row: list[object] = list(spec)
        try:
            got = Analyzer(Budget(seconds=args.seconds)).analyze(obs)
        except UndecidedError:
            out.writerow([*row, "undecided", "", "", "", ""])
            continue
        answer = "exact" if got.exact else "rounding" if got.error <= ROUNDING else "estimate"
        cpu = time.process_time()
        reference = _reference(obs, args.reference, args.reference_seconds)
        cpu = time.process_time() - cpu
        wanted = reference is not None and (reference.exact or (args.reference == "orders" and reference.error <= ROUNDING))
        exact = reference is not None and reference.exact
        error = max(abs(got.probability(c) - reference.probability(c)) for c in obs.covered()) if wanted and reference else ""
        kind = "exact" if exact else "rounding" if wanted else "none" if reference is None else "not exact"
        out.writerow([*row, answer, got.error, kind, round(cpu, 1), error])
        width, height, mines, share, seed = spec
        name = f"{width}x{height}x{mines}@{share}:{seed}"
        print(f"{name}: {answer}, reference {kind} ({cpu:.0f} s of CPU), largest difference {error}", flush=True)
    return 0


def _reference(obs: Observation, kind: str, seconds: float) -> Probabilities | None:
    """The reference answer (None when undecided): the exact count alone (folds off), given time and memory; or
    (``orders``) the analysis with its folds in the greedy and banded orders alone."""
    if kind == "orders":
        saved = folding._kinds
        old = (folding.GREEDY, folding.BANDED)
        folding._kinds = lambda comp: (old, old)
        budget = Budget(seconds=seconds, max_bytes=2**33)
    else:
        saved, folding._FOLD = folding._FOLD, None  # type: ignore[assignment]
        budget = Budget(seconds=seconds, max_states=3_000_000, max_bytes=2**33)
    try:
        return Analyzer(budget).analyze(obs)
    except UndecidedError:
        return None
    finally:
        if kind == "orders":
            folding._kinds = saved
        else:
            folding._FOLD = saved


if __name__ == "__main__":
    sys.exit(main())
