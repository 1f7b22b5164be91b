"""PSEQ's own C++ player beside sweeplab's ``pseq`` on the same layouts: the win rates, paired game by game, and
the cells each leaves to chance at every guess PSEQ makes.

It builds ``pseq_layouts.cpp`` (beside this file) twice against a checkout of b1f6c1c4/MineSweeperProb
(``--pseq``, the folder that holds ``MineSweeperSolver/``): as published, and with two counting slips of
``Solver::UCondQ`` corrected (:data:`SLIPS`; the S and E figures count the cells a number makes safe, and these
count the candidate cell itself when its block set is not split by its neighbourhood, and size the far half of the
i-th split set by the i-th block set rather than by the set split). It deals ``--games`` layouts of ``--seed`` with
``sweeplab deal`` (safe rule, first click in the top-left corner, as PSEQ's ``FL@[1,1]-...-SFAR``) and has each
build play them: the published one once per ``--pseq-seeds`` seed of its random choice among tied cells, the
corrected one with the first. Game i of ``--run`` (a ``sweeplab bench -s pseq,exact --first-click 0,0`` run of the
same seed and board) is layout i, so every difference is paired.

On the first ``--positions`` layouts each build also writes every position where it guesses, with the cells it
leaves to chance (its ``m_Preferred`` after P, S, E and Q), and ``pseq``'s
:meth:`~sweeplab.strategies.pseq.rule.PseqStrategy.candidates` is asked the same question. Where the two sets
differ, the build's own P, S, E and Q of every cell of either set are read back (``pseq_layouts --figures``; Q as
the entropy its ``QuantityCondQ`` orders by: that function divides a distribution by the position's count a second
time, which scales every candidate's figure alike) and set beside ``pseq``'s: all equal to 1e-9 (relative), the
sets differ only in how ties between equal figures fell (PSEQ's ``Largest`` restarts its list on a double larger in
its last bit); otherwise a figure differs. After the first
random choice of a game the two players see different positions; the positions compared are PSEQ's.

    python benchmarks/peers/pseq_paired.py --pseq /path/to/MineSweeperProb --pseq-commit 8f5a804 --board expert \\
        --run results/pseq/expert --out results/pseq/peer/expert

Writes ``summary.json``, ``outcomes.csv.gz`` (each build's outcome per layout) and ``differing.txt.gz``
(the positions where the sets differ, both sets, and whether a figure differs) under ``--out``.
"""

from __future__ import annotations

import argparse
import csv
import gzip
import json
import math
import platform
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from sweeplab.analysis import Analyzer
from sweeplab.bench.stats import paired_difference
from sweeplab.formats.position import parse_position
from sweeplab.strategies.pseq.rule import Outcomes
from sweeplab.strategies.registry import make

HERE = Path(__file__).resolve().parent
SOURCES = ("BasicDrainer", "BasicSolver", "BinomialHelper", "Drainer", "GameMgr", "Solver", "facade")
BOARDS = {"beginner": (9, 9, 10), "intermediate": (16, 16, 40), "expert": (30, 16, 99)}
#: The two slips of ``Solver::UCondQ`` (``MineSweeperSolver/Solver.cpp``) and their corrections: the candidate's
#: own block set, when its neighbourhood does not split it, is counted with the candidate in it; and the far half of
#: the p-th split set is sized by block set p instead of by the set split, ``m_Halves[p]``.
SLIPS = (
    (
        "                size = m_BlockSets[j].size();\n",
        "                size = m_BlockSets[j].size() - (j == ptr->Set2ID ? 1 : 0);\n",
    ),
    (
        "            auto size = m_BlockSets[j - ptr->Sets1.size()].size() - ptr->Sets1[j - ptr->Sets1.size()];\n"
        "            if (j == ptr->Sets1.size() + ptr->Set2ID)\n",
        "            auto id = ptr->m_Halves[j - ptr->Sets1.size()];\n"
        "            auto size = m_BlockSets[id].size() - ptr->Sets1[id];\n"
        "            if (id == ptr->Set2ID)\n",
    ),
)
TOLERANCE = 1e-9  # relative (absolute below 1): figures this close are the same figure summed another way


def build(pseq: Path, folder: Path, corrected: bool) -> Path:
    """``pseq_layouts`` compiled against PSEQ's sources (g++ -O3 -march=native, C++23), with :data:`SLIPS`
    corrected or as published."""
    source = pseq / "MineSweeperSolver"
    if not (source / "Solver.cpp").is_file():
        sys.exit(f"--pseq {pseq}: no MineSweeperSolver/Solver.cpp there (a checkout of b1f6c1c4/MineSweeperProb)")
    name = "corrected" if corrected else "published"
    copy = folder / name
    shutil.copytree(source, copy)
    if corrected:
        text = (copy / "Solver.cpp").read_text()
        for old, new in SLIPS:
            if text.count(old) != 1:
                sys.exit(f"--pseq {pseq}: Solver.cpp does not hold this line once: {old.strip()!r}")
            text = text.replace(old, new)
        (copy / "Solver.cpp").write_text(text)
    if shutil.which("g++") is None:
        sys.exit("g++ is needed to build pseq_layouts.cpp (apt-get install g++)")
    program = folder / f"pseq_layouts-{name}"
    command = ["g++", "-O3", "-march=native", "-std=c++2b", "-w", f"-I{copy}", str(HERE / "pseq_layouts.cpp")]
    subprocess.run([*command, *(str(copy / f"{s}.cpp") for s in SOURCES), "-o", str(program)], check=True)
    return program


def run_outcomes(run: Path, strategy: str) -> dict[int, bool]:
    """Each game's outcome for ``strategy`` in a bench run folder's ``games.csv.gz``."""
    path = run / "games.csv.gz"
    if not path.is_file():
        sys.exit(f"--run {run}: no games.csv.gz there")
    with gzip.open(path, "rt", newline="") as handle:
        found = {int(r["game"]): r["won"] == "1" for r in csv.DictReader(handle) if r["strategy"] == strategy}
    if not found:
        sys.exit(f"--run {run}: no games of {strategy} in {path}")
    return found


def child_seconds() -> float:
    """CPU seconds used so far by this process's finished children."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def play(program: Path, config: str, seed: int, deal: Path, names: list[str], guesses: Path | None) -> list[bool]:
    """The build's outcome on each layout file of ``deal``, in order."""
    extra = [str(guesses)] if guesses else []
    done = subprocess.run([str(program), config, str(seed), *extra], input="".join(f"{n}\n" for n in names), cwd=deal,
                          capture_output=True, text=True)  # fmt: skip
    lines = done.stdout.splitlines()
    if done.returncode != 0 or len(lines) != len(names):
        sys.exit(f"{program.name}: exit {done.returncode}, {len(lines)} outcomes for {len(names)} layouts: {done.stderr}")
    return [line.rsplit(" ", 1)[1] == "1" for line in lines]


def compare_positions(lines: list[str], program: Path, config: str, board: tuple[int, int, int]) -> dict[str, object]:
    """How many of the build's guess positions ``pseq`` leaves the same cells to chance in; for the others, whether
    every cell of either set has the same P, S, E and Q in both (:data:`TOLERANCE`)."""
    width, height, mines = board
    player, analyzer = make("pseq", seed=0), Analyzer()
    same, differing, queries = 0, [], []
    for line in lines:
        name, rows, cells = line.split(" ")
        text = f"{width}x{height}x{mines}\n" + "\n".join(rows[y * width : (y + 1) * width] for y in range(height))
        observation = parse_position(text, name)
        result = analyzer.analyze(observation)
        ours, _ = player.candidates(observation, result)
        theirs = sorted(int(x) + int(y) * width for x, y in (c.split(",") for c in cells.split(";")))
        if sorted(ours) == theirs:
            same += 1
            continue
        union = sorted(set(ours) | set(theirs))
        figures = Outcomes(player, observation, result).figures(union)
        mine = {c: (result.probability(c), *figures[c]) for c in union}
        differing.append((name, rows, sorted(ours), theirs, mine))
        queries.append(f"{rows} " + ";".join(f"{c % width},{c // width}" for c in union))
    found = subprocess.run([str(program), config, "--figures"], input="".join(f"{q}\n" for q in queries),
                           capture_output=True, text=True, check=True).stdout.split("\n\n")  # fmt: skip
    if len(found) < len(differing):
        sys.exit(f"{program.name} --figures: {len(found)} positions answered of {len(differing)}")
    report, figure_differs = [], 0
    for (name, rows, ours, theirs, mine), block in zip(differing, found, strict=False):
        pseq_figures = {}
        for row in block.strip().splitlines():
            xy, *values = row.split()
            x, y = (int(v) for v in xy.split(","))
            pseq_figures[x + y * width] = tuple(float(v) for v in values)
        differs = any(
            abs(a - b) > TOLERANCE * max(abs(a), abs(b), 1.0)
            for c in mine for a, b in zip(mine[c], pseq_figures.get(c, (math.nan,) * 4), strict=True)
        )  # fmt: skip
        figure_differs += differs

        def show(cells: list[int]) -> str:
            return ";".join(f"{c % width},{c // width}" for c in cells)

        report.append(f"{name} {rows} pseq={show(ours)} PSEQ={show(theirs)} {'figure differs' if differs else 'tie'}")
    return {"compared": len(lines), "same": same, "ties": len(differing) - figure_differs,
            "figure_differs": figure_differs, "differing": report}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pseq", type=Path, required=True, help="a checkout of b1f6c1c4/MineSweeperProb")
    parser.add_argument("--run", type=Path, required=True, help="a bench run folder holding pseq's and exact's games")
    parser.add_argument("--board", choices=sorted(BOARDS), default="expert")
    parser.add_argument("--games", type=int, default=100_000, help="layouts (the run's first games)")
    parser.add_argument("--seed", type=int, default=1_000_000, help="the run's root seed")
    parser.add_argument("--pseq-seeds", default="1,2", help="seeds of PSEQ's random choice, one pass each")
    parser.add_argument("--positions", type=int, default=2000, help="layouts whose guess positions are compared")
    parser.add_argument("--pseq-commit", default="", help="the commit of --pseq, kept in summary.json")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    board = BOARDS[args.board]
    width, height, mines = board
    config = f"FL@[1,1]-PSEQ-{width}-{height}-T{mines}-SFAR"
    seeds = [int(s) for s in args.pseq_seeds.split(",")]
    if not (args.run / "bench.json").is_file():
        sys.exit(f"--run {args.run}: no bench.json there (a finished sweeplab bench --out folder)")
    run = json.loads((args.run / "bench.json").read_text())["settings"]
    if run.get("seed") != args.seed or run.get("board") != f"{width}x{height}x{mines}":
        sys.exit(f"--run {args.run}: seed {run.get('seed')}, board {run.get('board')}: not --seed {args.seed} on {args.board}")
    ours, exact = run_outcomes(args.run, "pseq"), run_outcomes(args.run, "exact")
    if len(ours) < args.games:
        sys.exit(f"--run {args.run}: {len(ours)} games of pseq, fewer than --games {args.games}")
    args.out.mkdir(parents=True, exist_ok=True)
    passes: dict[str, list[bool]] = {}
    positions: dict[str, dict[str, object]] = {}
    cpu: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        programs = {"published": build(args.pseq, folder, False), "corrected": build(args.pseq, folder, True)}
        deal = folder / "deal"
        subprocess.run(
            [sys.executable, "-m", "sweeplab.cli", "deal", "-b", f"{width}x{height}x{mines}", "--rule", "safe",
             "--first-click", "0,0", "-n", str(args.games), "--seed", str(args.seed), "--out", str(deal)],
            check=True, stdout=subprocess.DEVNULL,
        )  # fmt: skip
        names = json.loads((deal / "deal.json").read_text())["files"]
        wanted = set(names[: args.positions])
        for label, seed in [*(("published", s) for s in seeds), ("corrected", seeds[0])]:
            key = f"{label}-{seed}"
            first = seed == seeds[0]
            guesses = folder / f"guesses-{key}.txt" if first else None
            start = child_seconds()
            passes[key] = play(programs[label], config, seed, deal, names, guesses)
            cpu[key] = child_seconds() - start
            print(f"PSEQ {key}: {sum(passes[key]) / args.games:.4%}, {cpu[key]:.0f} CPU s", file=sys.stderr)
            if guesses is not None:
                lines = [g for g in guesses.read_text().splitlines() if g.split(" ", 1)[0] in wanted]
                positions[label] = compare_positions(lines, programs[label], config, board)
    mine = [ours[i] for i in range(args.games)]
    summary: dict[str, object] = {
        "board": f"{width}x{height}x{mines}", "config": config, "pseq_commit": args.pseq_commit,
        "seed": args.seed, "games": args.games,
        "run": args.run.as_posix(), "machine": platform.machine(), "date": time.strftime("%Y-%m-%d"),
        "command": " ".join(["python", *sys.argv]), "pseq": sum(mine) / args.games,
        "exact": sum(exact[i] for i in range(args.games)) / args.games, "passes": {}, "positions": {},
    }  # fmt: skip
    for key, won in passes.items():
        diff, se = paired_difference(mine, won)
        summary["passes"][key] = {"win_rate": sum(won) / args.games, "pseq_minus": diff, "se": se, "cpu_seconds": cpu[key],
                                  "same_outcome": sum(a == b for a, b in zip(mine, won, strict=True)) / args.games}  # fmt: skip
    if len(seeds) > 1:
        a, b = passes[f"published-{seeds[0]}"], passes[f"published-{seeds[1]}"]
        diff, se = paired_difference(a, b)
        summary["seed_against_seed"] = {"diff": diff, "se": se,
                                        "same_outcome": sum(x == y for x, y in zip(a, b, strict=True)) / args.games}  # fmt: skip
    differing = []
    for label, found in positions.items():
        differing += [f"{label}: {line}" for line in found.pop("differing")]  # type: ignore[attr-defined]
        summary["positions"][label] = {"layouts": args.positions, **found}
    (args.out / "summary.json").write_text(json.dumps(summary, indent=1) + "\n")
    text = "".join(f"{line}\n" for line in differing).encode()
    (args.out / "differing.txt.gz").write_bytes(gzip.compress(text, compresslevel=9, mtime=0))
    rows = "".join(f"{i}," + ",".join(str(int(passes[k][i])) for k in passes) + "\n" for i in range(args.games))
    data = ("game," + ",".join(passes) + "\n" + rows).encode()
    (args.out / "outcomes.csv.gz").write_bytes(gzip.compress(data, compresslevel=9, mtime=0))
    print(json.dumps(summary, indent=1))


if __name__ == "__main__":
    main()
