"""Games per CPU second as a user counts them: the whole ``sweeplab bench`` process, start-up included.

Each measurement runs ``python -m sweeplab.cli bench -s STRATEGY -b PRESET --rule safe --first-click 0,0 -n GAMES
-j 1`` in a child process and takes its CPU time (user + system, from ``getrusage`` of the children, as
``/usr/bin/time`` reports it); the start-up cost is the same command with ``--games 1``. Each run also prints its
``--json`` summary, whose games' own CPU (``cpu_mean``: from dealing to the last move) gives the harness's cost
outside the games: the whole process less the median start-up and the games' own CPU, per game. With several trees
(``--tree LABEL=PATH``, each a sweeplab tree with its C extensions built in place) the trees run alternately, one
child at a time, for ``--repeats`` rounds, so they share the machine's minutes; the table gives medians.

    python benchmarks/engine/whole_process.py --tree before=/tmp/sweeplab-94dbd0c --tree after=. \\
        --out results/performance/whole-process

Writes ``runs.csv`` (one row per child), ``summary.json`` and ``table.md`` under ``--out``.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

#: (preset, games per measurement): enough games that the start-up is a small share of the run.
DEFAULT_PRESETS = ["expert:5000", "intermediate:10000", "beginner:20000"]


def child_cpu(command: list[str], env: dict[str, str], cwd: str) -> tuple[float, str]:
    """The CPU seconds (user + system) of ``command`` run in ``cwd`` to its end, and its output; it must succeed.
    (In the tree's own folder: ``python -m`` puts the working directory first on the path, before PYTHONPATH.)"""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(command, env=env, cwd=cwd, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed ({done.returncode}): {done.stderr.strip()[-400:]}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), done.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tree", action="append", default=[], help="LABEL=PATH of a sweeplab tree (default: this one)")
    parser.add_argument("--strategy", default="exact", help="the strategy played (default exact)")
    parser.add_argument("--preset", action="append", default=[], help="PRESET:GAMES (default: expert, intermediate, beginner)")
    parser.add_argument("--repeats", type=int, default=3, help="alternated rounds (default 3)")
    parser.add_argument("--startups", type=int, default=5, help="--games 1 runs per tree and round (default 5)")
    parser.add_argument("--out", type=Path, required=True, help="folder for runs.csv, summary.json and table.md")
    args = parser.parse_args()
    trees = [tuple(t.split("=", 1)) for t in args.tree] or [("this", ".")]
    for label, path in trees:
        if not (Path(path) / "sweeplab" / "__init__.py").is_file():
            parser.error(f"--tree {label}={path}: no sweeplab package there")
    presets = [(p.split(":")[0], int(p.split(":")[1])) for p in (args.preset or DEFAULT_PRESETS)]
    args.out.mkdir(parents=True, exist_ok=True)
    rows = []
    for round_ in range(args.repeats):
        for label, path in trees:
            tree = str(Path(path).resolve())
            env = dict(os.environ, PYTHONPATH=tree)
            base = [sys.executable, "-m", "sweeplab.cli", "bench", "-s", args.strategy, "--rule", "safe", "--first-click", "0,0"]
            for _ in range(args.startups):
                cpu, _out = child_cpu([*base, "-b", "expert", "-n", "1", "-j", "1"], env, tree)
                row = {"round": round_, "tree": label, "preset": "start-up", "games": 1, "cpu": round(cpu, 4), "in_games": ""}
                rows.append(row)
            for preset, games in presets:
                cpu, out = child_cpu([*base, "-b", preset, "-n", str(games), "-j", "1", "--json"], env, tree)
                in_games = games * json.loads(out)["summaries"][0]["cpu_mean"]
                rows.append({"round": round_, "tree": label, "preset": preset, "games": games, "cpu": round(cpu, 4),
                             "in_games": round(in_games, 4)})  # fmt: skip
                print(
                    f"round {round_ + 1}/{args.repeats} {label} {preset}: {games / cpu:,.0f} games per CPU second",
                    file=sys.stderr,
                )
    with (args.out / "runs.csv").open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    summary: dict[str, dict[str, dict[str, float]]] = {}
    for label, _ in trees:
        mine = [r for r in rows if r["tree"] == label]
        startup = statistics.median(r["cpu"] for r in mine if r["preset"] == "start-up")
        per = {"start-up CPU s": {"median": startup, "runs": sum(r["preset"] == "start-up" for r in mine)}}
        for preset, games in presets:
            runs = [r for r in mine if r["preset"] == preset]
            rates = [games / r["cpu"] for r in runs]
            outside = statistics.median(1e6 * (r["cpu"] - startup - r["in_games"]) / games for r in runs)
            per[preset] = {"median": statistics.median(rates), "low": min(rates), "high": max(rates), "runs": len(rates),
                           "outside_us_per_game": outside}  # fmt: skip
        summary[label] = per
    meta = {
        "strategy": args.strategy,
        "command": " ".join([Path(sys.argv[0]).as_posix(), *sys.argv[1:]]),
        "date": time.strftime("%Y-%m-%d"),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
        "trees": dict(trees),
    }
    (args.out / "summary.json").write_text(json.dumps({"meta": meta, "summary": summary}, indent=1) + "\n")
    head = "| tree | start-up (CPU s) | " + " | ".join(f"{p} ({g:,} games), games/CPU s" for p, g in presets)
    head += " | " + " | ".join(f"{p}, µs/game outside the games" for p, _ in presets) + " |"
    lines = [head, "|" + "---|" * (2 + 2 * len(presets))]
    for label, per in summary.items():
        cells = [f"{per[p]['median']:,.0f} ({per[p]['low']:,.0f}-{per[p]['high']:,.0f})" for p, _ in presets]
        cells += [f"{per[p]['outside_us_per_game']:.1f}" for p, _ in presets]  # type: ignore[index]
        lines.append(f"| {label} | {per['start-up CPU s']['median']:.3f} | " + " | ".join(cells) + " |")
    note = (
        f"\n{args.strategy}, whole process (user + system CPU of `sweeplab bench ... -j 1`), medians of {args.repeats} "
        f"alternated rounds (range in brackets); start-up: `--games 1`, median of {args.repeats * args.startups}; outside "
        "the games: the whole process less the start-up and the games' own CPU (`--json`'s cpu_mean), per game, median. "
        f"{meta['machine']}, {meta['date']}.\n"
    )
    (args.out / "table.md").write_text("\n".join(lines) + "\n" + note)
    print("\n".join(lines) + "\n" + note)


if __name__ == "__main__":
    main()
