"""Large true positions under a short budget: is each answered exactly, or estimated with an honest stated error?

Run from a checkout with the C kernels built: ``python benchmarks/large/large_positions.py --out results/large`` (about
three minutes of CPU with the defaults). Each position is a real layout dealt by the game engine with a share of
its safe cells revealed, each by one click in a seeded order (zeros flood as in play): numbers strewn over the whole
board, one wide frontier. Every position is analysed with ``--seconds`` (as ``sweeplab analyze --seconds``) twice:
with the chain's strips (the analyzer as it is) and with its balls alone (``strips=off``: the chain as it was
before strips, its first solution found in Python), and each row records the shape, mines, frontier cells, the
answer (exact; rounding: exact counts weighed in floating point; estimate; or undecided), the stated error and the
CPU and wall seconds. On the positions that an exact count with a long budget and a large state limit can finish,
the estimate is checked against it: the largest and the mean absolute error over the covered cells, and the share
of cells whose error is within the stated one (two standard errors at the worst cell: about 95 % or more if it is
honest).

``--strip-rows 24 36`` replaces the strips mode by one mode per strip height (``strips24``, ``strips36``), so that
heights are compared on the same positions in the same run; ``--threads 1 2`` likewise makes one mode per number
of chains run at once (``strips-threads1``, ``strips-threads2``); ``--no-balls`` leaves the balls out;
``--position 256x256x13000@0.1`` (repeatable) analyses such positions instead of the built-in ones, unchecked;
``--cold`` runs each analysis as a user does, ``sweeplab analyze --json --seconds S`` in a fresh process (mode
``cold``, unchecked: its wall and CPU seconds include the process's start and imports, about half a second here).

Writes ``runs.csv`` (one row per position, mode and repeat) and ``summary.json`` (the medians per position and mode)
under ``--out``. The machine is shared and the budget is wall-clock: the CPU seconds say how much of it the engine
got; with two chains at once it is the CPU of both threads.
"""

from __future__ import annotations

import argparse
import csv
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from sweeplab.analysis.analyzer import Analyzer
from sweeplab.analysis.estimate import batches, chain
from sweeplab.analysis.exact.budget import Budget
from sweeplab.analysis.exact.probabilities import ROUNDING, Probabilities
from sweeplab.bench.layouts import strewn_position
from sweeplab.core.errors import UndecidedError
from sweeplab.core.observation import Observation
from sweeplab.formats.position import format_position

# (width, height, mines, share of safe cells revealed)
ANSWERED = [
    (64, 64, 600, 0.1),
    (128, 128, 2000, 0.1),
    (256, 64, 2000, 0.15),
    (512, 64, 4000, 0.15),
    (1024, 64, 8000, 0.15),
    (256, 256, 8000, 0.1),
]
CHECKED = [  # too wide for the default count, but an exact count with a large state limit finishes
    (48, 48, 350, 0.1),
    (64, 64, 600, 0.1),
    (96, 96, 1300, 0.1),
    (112, 112, 1600, 0.1),
    (128, 128, 2000, 0.1),
    (1024, 64, 8000, 0.15),  # counted exactly in about 1.1 s of CPU: its estimate is checked when a short budget needs one
]
EXACT = Budget(seconds=300, max_states=3_000_000, max_bytes=2**32)
FIELDS = [
    "width",
    "height",
    "mines",
    "share",
    "seed",
    "mode",
    "repeat",
    "covered",
    "frontier",
    "answer",
    "stated_error",
    "cpu_s",
    "wall_s",
    "max_abs_error",
    "mean_abs_error",
    "within_stated",
]


def strewn(width: int, height: int, mines: int, share: float, seed: int) -> Observation:
    """The position: ``share`` of the safe cells of game ``seed`` revealed, one click each in a seeded order."""
    return strewn_position(width, height, mines, share, seed)[0]


def frontier(obs: Observation) -> int:
    """Covered cells next to a revealed number."""
    view, neighbours = obs.view, obs.board.neighbours
    return sum(1 for c in obs.covered() if any(view[n] > 0 for n in neighbours[c]))


def run(
    obs: Observation, seconds: float, strips: bool, rows: int | None = None, threads: int | None = None
) -> tuple[Probabilities | UndecidedError, float, float]:
    """(the result or the UndecidedError, CPU seconds, wall seconds) of one analysis; ``rows``: the strips' height
    (default :data:`~sweeplab.analysis.estimate.chain.STRIP`), ``threads``: the chains run at once (default
    :data:`~sweeplab.analysis.estimate.batches.THREADS`)."""
    saved = chain.STRIP, batches.THREADS
    chain.STRIP = (rows or saved[0]) if strips else 0
    batches.THREADS = threads or saved[1]
    cpu, wall = time.process_time(), time.perf_counter()
    try:
        result: Probabilities | UndecidedError = Analyzer(Budget(seconds=seconds)).analyze(obs)
    except UndecidedError as error:
        result = error
    finally:
        chain.STRIP, batches.THREADS = saved
    return result, time.process_time() - cpu, time.perf_counter() - wall


def save(out: Path, rows: list[dict]) -> None:
    """The rows so far, as ``runs.csv`` under ``out`` (after each analysis: a long run can be read as it goes)."""
    with (out / "runs.csv").open("w", newline="") as handle:
        writer = csv.DictWriter(handle, FIELDS)
        writer.writeheader()
        writer.writerows(rows)


def run_cold(obs: Observation, seconds: float) -> tuple[str, float | None, float, float]:
    """``sweeplab analyze --json`` on the position in a fresh process, as a user runs it: (the answer, its stated
    error, the process's CPU seconds, the wall seconds, its start included)."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "position.txt"
        path.write_text(format_position(obs))
        command = [sys.executable, "-m", "sweeplab.cli", "analyze", "--json", "--seconds", str(seconds), str(path)]
        before, wall = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
        # in the temporary folder, so that the sweeplab imported is the one on the path, not one in the working folder
        done = subprocess.run(command, capture_output=True, text=True, check=False, cwd=folder)
        wall, after = time.perf_counter() - wall, resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    if done.returncode == 4:
        return "undecided", None, cpu, wall
    if done.returncode != 0:
        raise SystemExit(f"sweeplab analyze exited {done.returncode}: {done.stderr.strip()[-500:]}")
    payload = json.loads(done.stdout)
    error = payload["error"]
    answer = "exact" if payload["exact"] else "rounding" if error <= ROUNDING else "estimate"
    return answer, error, cpu, wall


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=Path("results/large"), help="folder for runs.csv and summary.json")
    parser.add_argument("--seconds", type=float, default=2.0, help="the analysis budget (as analyze --seconds)")
    parser.add_argument("--seeds", type=int, nargs="+", default=[1], help="game seeds of the positions")
    parser.add_argument("--repeats", type=int, default=1, help="analyses per position and mode (medians are kept)")
    parser.add_argument("--no-check", action="store_true", help="skip the exact references (the checked positions)")
    parser.add_argument("--shapes", nargs="+", metavar="WxH", help="only the positions of these shapes, such as 256x256")
    parser.add_argument(
        "--strip-rows",
        type=int,
        nargs="+",
        metavar="ROWS",
        help=f"strips of these heights, each a mode named stripsROWS (default: the analyzer's {chain.STRIP}, mode strips)",
    )
    parser.add_argument(
        "--threads",
        type=int,
        nargs="+",
        metavar="N",
        help=f"chains run at once, each a mode (strips, suffixed -threadsN; default: the analyzer's {batches.THREADS})",
    )
    parser.add_argument(
        "--position",
        action="append",
        metavar="WxHxMINES@SHARE",
        help="analyse this position instead of the built-in ones (repeatable; unchecked), such as 256x256x13000@0.1",
    )
    parser.add_argument("--no-balls", action="store_true", help="leave out the balls mode")
    parser.add_argument(
        "--cold",
        action="store_true",
        help="each analysis as sweeplab analyze --json in a fresh process (mode cold, unchecked; start-up included)",
    )
    args = parser.parse_args(argv)
    if args.strip_rows and any(height < 8 or height % 4 for height in args.strip_rows):
        parser.error(f"--strip-rows {args.strip_rows}: each height must be a multiple of 4, at least 8")
    if args.threads and min(args.threads) < 1:
        parser.error(f"--threads {args.threads}: each must be at least 1")
    own = []
    for text in args.position or []:
        try:
            size, share = text.split("@")
            width, height, mines = (int(part) for part in size.split("x"))
            own.append((width, height, mines, float(share)))
        except ValueError:
            parser.error(f"--position {text!r}: expected WIDTHxHEIGHTxMINES@SHARE, such as 256x256x13000@0.1")
    heights: list[tuple[str, int | None]] = (
        [(f"strips{height}", height) for height in args.strip_rows] if args.strip_rows else [("strips", None)]
    )
    counts = args.threads or [None]
    modes: list[tuple[str, int | None, int | None]] = [
        (name + (f"-threads{n}" if args.threads else ""), height, n) for name, height in heights for n in counts
    ]
    if not args.no_balls:
        modes.append(("balls", None, None))
    if args.cold:
        modes, args.no_check = [("cold", None, None)], True
    print("$ python benchmarks/large/large_positions.py " + " ".join(sys.argv[1:] if argv is None else argv), flush=True)
    args.out.mkdir(parents=True, exist_ok=True)
    rows: list[dict] = []
    shapes = [(shape, False) for shape in ANSWERED] + ([] if args.no_check else [(shape, True) for shape in CHECKED])
    if own:
        shapes = [(shape, False) for shape in own]
    if args.shapes:
        shapes = [(shape, checked) for shape, checked in shapes if f"{shape[0]}x{shape[1]}" in args.shapes]
    for seed in args.seeds:
        for shape, checked in shapes:
            obs = strewn(*shape, seed)
            exact = None
            if checked:
                reference = Analyzer(EXACT).analyze(obs)
                if not reference.exact:  # too wide even for the long count: nothing to check against
                    print(f"checked {shape[0]}x{shape[1]} seed {seed}: no exact reference within {EXACT}, left out", flush=True)
                    continue
                exact = {c: reference.probability(c) for c in obs.covered()}
            for repeat in range(args.repeats):
                for mode, strip_rows, threads in modes:
                    row: dict = dict(zip(FIELDS[:4], shape, strict=True))
                    row.update(seed=seed, mode=mode, repeat=repeat, covered=len(obs.covered()), frontier=frontier(obs))
                    row.update(max_abs_error="", mean_abs_error="", within_stated="")
                    if mode == "cold":
                        answer, stated, cpu, wall = run_cold(obs, args.seconds)
                        row.update(answer=answer, stated_error="" if stated is None else round(stated, 5))
                        row.update(cpu_s=round(cpu, 3), wall_s=round(wall, 3))
                        rows.append(row)
                        print(
                            f"cold {shape[0]}x{shape[1]}x{shape[2]}@{shape[3]} seed {seed}: {answer} error "
                            f"{row['stated_error']} cpu {cpu:.2f} s wall {wall:.2f} s",
                            flush=True,
                        )
                        save(args.out, rows)
                        continue
                    result, cpu, wall = run(obs, args.seconds, mode != "balls", strip_rows, threads)
                    row.update(cpu_s=round(cpu, 3), wall_s=round(wall, 3))
                    if isinstance(result, UndecidedError):
                        row.update(answer="undecided", stated_error="")
                    else:
                        error = result.error
                        kind = "exact" if result.exact else "rounding" if error <= ROUNDING else "estimate"
                        row.update(answer=kind, stated_error=round(error, 5))
                        if exact is not None:
                            errors = [abs(result.probability(c) - p) for c, p in exact.items()]
                            row.update(
                                max_abs_error=round(max(errors), 5),
                                mean_abs_error=round(sum(errors) / len(errors), 6),
                                within_stated=round(sum(e <= error for e in errors) / len(errors), 4),
                            )
                    rows.append(row)
                    label = "checked" if checked else "answered"
                    print(
                        f"{label} {shape[0]}x{shape[1]}x{shape[2]}@{shape[3]} seed {seed} {mode}: {row['answer']} "
                        f"error {row['stated_error']} (actual max {row['max_abs_error']}) cpu {cpu:.2f} s wall {wall:.2f} s",
                        flush=True,
                    )
                    save(args.out, rows)
    summary = []

    def position(r: dict) -> tuple:
        return r["width"], r["height"], r["mines"], r["share"], r["seed"], r["mode"], r["max_abs_error"] != ""

    for key in sorted({position(r) for r in rows}):
        group = [r for r in rows if position(r) == key]

        def median(field: str, group: list[dict] = group) -> float | None:
            values = [r[field] for r in group if r[field] != ""]
            return statistics.median(values) if values else None

        summary.append(
            {
                "shape": f"{key[0]}x{key[1]}",
                "mines": key[2],
                "share": key[3],
                "seed": key[4],
                "mode": key[5],
                "checked": key[6],
                "frontier": group[0]["frontier"],
                "answers": sorted({r["answer"] for r in group}),
                "stated_error": median("stated_error"),
                "cpu_s": median("cpu_s"),
                "wall_s": median("wall_s"),
                "max_abs_error": median("max_abs_error"),
                "mean_abs_error": median("mean_abs_error"),
                "within_stated": median("within_stated"),
            }
        )
    (args.out / "summary.json").write_text(json.dumps({"seconds": args.seconds, "positions": summary}, indent=1) + "\n")
    print(f"wrote {args.out / 'runs.csv'} and {args.out / 'summary.json'}")


if __name__ == "__main__":
    main()
