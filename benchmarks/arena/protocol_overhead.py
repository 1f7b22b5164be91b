"""What the arena's protocol costs per move: the Python reference client through ``cmd:`` against ``reference``,
its built-in twin, on the same games in one process (no worker pool), chunk by chunk in turn so that a change in
the machine's load falls on both.

Per board and chunk: wall-clock and CPU microseconds per move of each (CPU: sweeplab's thread plus the program's,
from its CPU-time clock) on the chunk's games, and the chunk's cost, the client's figure less the twin's; the table
gives the medians over the chunks (a chunk the machine's other work slowed moves them little) and, beside them, the
figures over all games. The client's start-up is paid once, before timing. Also checks that both made the same
moves and won the same games, and times the bare round trip (a program that answers a fixed line at once, through
the same pipes) per answer, the median of 10 runs. Writes a text table and JSON (default:
results/arena/overhead.txt and .json).

    python benchmarks/arena/protocol_overhead.py [--games 2000] [--chunks 20] [--client 'cmd:PROGRAM ARGS']
        [--out results/arena/overhead]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import tempfile
import time
from pathlib import Path
from statistics import median

from sweeplab.bench.runner import play_one
from sweeplab.core.rules import make_rules
from sweeplab.strategies.external.process import Program
from sweeplab.strategies.external.protocol import turn_message

ROOT = Path(__file__).resolve().parents[2]
CLIENT = f"cmd:{sys.executable} {ROOT / 'examples' / 'python' / 'client.py'}"
TWIN = "reference"


def play(strategy: str, rules, indices: range) -> tuple[float, float, int, list[bool]]:
    """Wall seconds, CPU seconds, moves and wins of games ``indices``."""
    start = time.perf_counter()
    results = [play_one(strategy, rules, 0, i) for i in indices]
    wall = time.perf_counter() - start
    return wall, sum(r.cpu_seconds for r in results), sum(r.moves for r in results), [r.won for r in results]


def measure(board: str, games: int, chunks: int, program: str = CLIENT) -> dict[str, object]:
    rules = make_rules(board, "safe")
    play_one(program, rules, 0, 0)  # start the client once (its start-up is not a move's cost)
    totals = {TWIN: [0.0, 0.0, 0], program: [0.0, 0.0, 0]}
    wins: dict[str, list[bool]] = {TWIN: [], program: []}
    per_chunk: dict[str, list[list[float]]] = {"twin": [[], []], "client": [[], []], "cost": [[], []]}
    size = games // chunks
    for k in range(chunks):
        indices = range(1 + k * size, 1 + (k + 1) * size)
        order = (TWIN, program) if k % 2 == 0 else (program, TWIN)
        chunk = {}
        for strategy in order:
            wall, cpu, moves, won = play(strategy, rules, indices)
            totals[strategy][0] += wall
            totals[strategy][1] += cpu
            totals[strategy][2] += moves
            wins[strategy] += won
            chunk[strategy] = (1e6 * wall / moves, 1e6 * cpu / moves)
        for i in range(2):
            per_chunk["twin"][i].append(chunk[TWIN][i])
            per_chunk["client"][i].append(chunk[program][i])
            per_chunk["cost"][i].append(chunk[program][i] - chunk[TWIN][i])
    twin, client = totals[TWIN], totals[program]
    moves = int(twin[2])
    per = {name: {"wall_us": 1e6 * t[0] / t[2], "cpu_us": 1e6 * t[1] / t[2]} for name, t in totals.items()}
    medians = {name: {"wall_us": median(v[0]), "cpu_us": median(v[1])} for name, v in per_chunk.items()}
    return {
        "board": rules.spec(),
        "games": size * chunks,
        "chunks": chunks,
        "moves": moves,
        "same_moves": int(client[2]) == moves,
        "same_wins": wins[TWIN] == wins[program],
        "wins": sum(wins[TWIN]),
        "median": medians,  # over the chunks: the twin's, the client's, and the chunks' costs (client less twin)
        "twin": per[TWIN],  # over all games
        "client": per[program],
        "overhead_wall_us": per[program]["wall_us"] - per[TWIN]["wall_us"],
        "overhead_cpu_us": per[program]["cpu_us"] - per[TWIN]["cpu_us"],
        "chunk_costs_us": {"wall": per_chunk["cost"][0], "cpu": per_chunk["cost"][1]},
    }


ECHO = 'import sys\nfor line in sys.stdin:\n    sys.stdout.write(\'{"moves":[["reveal",0,0]]}\\n\'); sys.stdout.flush()\n'


def round_trip(count: int = 5000, runs: int = 10) -> dict[str, float]:
    """Microseconds of wall clock and CPU (both sides) per bare answer: a beginner turn line out, a fixed line back;
    the medians of ``runs`` runs of ``count`` answers."""
    walls, cpus = [], []
    with tempfile.TemporaryDirectory() as folder:
        script = Path(folder) / "echo.py"
        script.write_text(ECHO)
        program = Program([sys.executable, str(script)], Path(folder) / "stderr.log")
        line = turn_message("9x9x10\n" + "\n".join(["H" * 9] * 9) + "\n", "", 0)
        for _ in range(200):
            program.send(line, time.monotonic() + 5)
            program.receive(time.monotonic() + 5, 5)
        for _ in range(runs):
            cpu, wall, own = program.cpu(), time.perf_counter(), time.thread_time()
            for _ in range(count):
                program.send(line, time.monotonic() + 5)
                program.receive(time.monotonic() + 5, 5)
            wall, own, cpu = time.perf_counter() - wall, time.thread_time() - own, program.cpu() - cpu
            walls.append(1e6 * wall / count)
            cpus.append(1e6 * (own + cpu) / count)
        program.stop()
    return {"wall_us": median(walls), "cpu_us": median(cpus)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games per board (expert: a fifth of them)")
    parser.add_argument("--chunks", type=int, default=20, help="chunks played in turn")
    parser.add_argument("--client", default=CLIENT, help="the client through cmd: (default: the Python client)")
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "arena" / "overhead", help="output path, no suffix")
    args = parser.parse_args()
    expert = max(args.chunks, args.games // 5)
    rows = [measure("beginner", args.games, args.chunks, args.client), measure("expert", expert, args.chunks, args.client)]
    bare = round_trip()
    machine = f"{platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}, load {os.getloadavg()[0]:.2f}"
    shown = args.client.split()[-1].replace(str(ROOT) + "/", "")
    lines = [f"protocol cost per move: {shown} via cmd: vs reference ({machine})", ""]
    lines.append("medians over the chunks (all games: the same figures over every game of the board)")
    lines.append(
        "board       games chunks   moves  twin wall/CPU us  client wall/CPU us  cost wall/CPU us  (all games)  same wins/moves"
    )
    for r in rows:
        t, c, m = r["median"]["twin"], r["median"]["client"], r["median"]["cost"]  # type: ignore[index]
        lines.append(
            f"{r['board']:<10} {r['games']:>6} {r['chunks']:>6} {r['moves']:>7}  {t['wall_us']:>7.1f} / {t['cpu_us']:>6.1f}   "
            f"{c['wall_us']:>8.1f} / {c['cpu_us']:>6.1f}  {m['wall_us']:>7.1f} / {m['cpu_us']:>6.1f}"
            f"  ({r['overhead_wall_us']:.1f} / {r['overhead_cpu_us']:.1f})   {r['same_wins']}/{r['same_moves']}"
        )
    lines += [
        "",
        f"bare round trip per answer (median of 10 x 5000): {bare['wall_us']:.1f} us wall, {bare['cpu_us']:.1f} us CPU "
        "(both sides)",
    ]
    text = "\n".join(lines) + "\n"
    print(text, end="")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.with_suffix(".txt").write_text(text)
    data = {
        "command": "python benchmarks/arena/protocol_overhead.py " + " ".join(sys.argv[1:]),
        "client": shown,
        "machine": machine,
        "rows": rows,
        "round_trip": bare,
    }
    args.out.with_suffix(".json").write_text(json.dumps(data, indent=1) + "\n")


if __name__ == "__main__":
    main()
