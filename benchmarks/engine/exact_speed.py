"""Speed and identical moves of two sweeplab trees: the same seeded layouts played by each, alternately, one process at a time.

Run from a checkout with the C kernel built: ``python benchmarks/engine/exact_speed.py --old PATH [--new PATH]``, where
each PATH is a sweeplab tree with its own kernel built in place (``python setup.py build_ext --inplace``), for
example an unpacked ``git archive`` of an earlier commit. It starts one worker process per tree (each imports
sweeplab from its own tree) and hands them the games in chunks, old then new then old..., waiting for each chunk
before the next, so the two never run at once and share one core's worth of the machine in the same minutes.
Game i of a configuration is game i of root seed ``--seed`` for both trees (``sweeplab.bench.runner.game_seeds``).

Per game it records a hash of the mine layout, of the moves (kind and cell of every move in order), of the guesses
(cell, kind, ``repr`` of the safety, outcome, move number) and the final state, and the CPU time of the game as
``sweeplab bench`` measures it (thread time from the deal to the end). It writes one CSV row per game and tree (gzipped) and
a JSON summary: per configuration, games per CPU second of each chunk and their median for each tree, and the
number of games whose layout, moves or guesses differ between the trees (0 is the claim: the same moves).
Exit status 1 when any game differs.

    mkdir /tmp/sweeplab-01f1903 && git archive 01f1903 | tar -x -C /tmp/sweeplab-01f1903
    (cd /tmp/sweeplab-01f1903 && python setup.py build_ext --inplace -q)
    python benchmarks/engine/exact_speed.py --old /tmp/sweeplab-01f1903 --config exact:expert:safe:10000:1000 \\
        --config best:expert:safe:2000:250 --out results/performance/identity
"""

from __future__ import annotations

import argparse
import csv
import gzip
import hashlib
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

DEFAULT_CONFIGS = [
    "exact:expert:safe:10000:1000",
    "exact:intermediate:safe:10000:2000",
    "exact:beginner:safe:10000:2500",
    "best:expert:safe:2000:250",
    "best:intermediate:safe:2000:500",
    "best:beginner:safe:2000:1000",
]


def _digest(value: object) -> str:
    return hashlib.sha256(repr(value).encode()).hexdigest()[:16]


def worker() -> None:
    """Play the chunks asked on stdin (one JSON line each: strategy, board, rule, seed, start, stop); answer one JSON
    line per chunk with a row per game."""
    from sweeplab.bench.runner import game_seeds
    from sweeplab.core.game import Game
    from sweeplab.core.rules import make_rules
    from sweeplab.strategies.base import play
    from sweeplab.strategies.registry import make, make_spec

    for line in sys.stdin:
        job = json.loads(line)
        rules = make_rules(job["board"], job["rule"])
        rows = []
        for index in range(job["start"], job["stop"]):
            game_seed, strategy_seed = game_seeds(job["seed"], index)
            start = time.thread_time()
            game = Game(rules, game_seed)
            name = job["strategy"]  # a spec with options (best[depth=2]) is parsed as the CLI parses it
            player = make_spec(name, strategy_seed) if "[" in name else make(name, seed=strategy_seed)
            play(player, game)
            cpu = time.thread_time() - start
            moves = [(m.kind, m.cell) for m in game.history]
            guesses = [(g.cell, g.kind, repr(g.safety), g.outcome, g.move) for g in player.guesses]
            rows.append(
                [
                    index,
                    _digest(sorted(game.mine_cells())),
                    _digest(moves),
                    _digest(guesses),
                    game.state.value,
                    len(moves),
                    cpu,
                ]
            )
        sys.stdout.write(json.dumps(rows) + "\n")
        sys.stdout.flush()


class Tree:
    """A worker process importing sweeplab from ``path``."""

    def __init__(self, label: str, path: Path) -> None:
        if not (path / "sweeplab" / "__init__.py").is_file():
            raise SystemExit(f"exact_speed.py: --{label} {path}: no sweeplab package there (give a sweeplab tree's root)")
        env = dict(os.environ, PYTHONPATH=str(path))
        env.pop("SWEEPLAB_PURE_PYTHON", None)
        self.label = label
        self.process = subprocess.Popen(
            [sys.executable, "-c", f"import runpy; runpy.run_path({str(Path(__file__).resolve())!r}, run_name='worker')"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,
            cwd=str(path),
            text=True,
        )

    def play(self, job: dict[str, Any]) -> list[list[Any]]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps(job) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            raise SystemExit(f"exact_speed.py: the {self.label} tree's worker died (its error is above)")
        rows: list[list[Any]] = json.loads(line)
        return rows

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait()


def parse_config(text: str) -> dict[str, Any]:
    parts = text.split(":")
    if len(parts) != 5 or not parts[3].isdigit() or not parts[4].isdigit() or int(parts[4]) < 1:
        raise SystemExit(
            f"exact_speed.py: --config {text!r}: use STRATEGY:BOARD:RULE:GAMES:CHUNK, e.g. exact:expert:safe:10000:1000"
        )
    return {"strategy": parts[0], "board": parts[1], "rule": parts[2], "games": int(parts[3]), "chunk": int(parts[4])}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--old", type=Path, required=True, help="the earlier tree's root (its kernel built in place)")
    parser.add_argument(
        "--new", type=Path, default=Path(__file__).resolve().parents[2], help="the later tree (default: this one)"
    )
    parser.add_argument(
        "--config",
        action="append",
        help="STRATEGY:BOARD:RULE:GAMES:CHUNK (repeatable; default: exact and best on expert, intermediate, beginner, safe)",
    )
    parser.add_argument("--seed", type=int, default=0, help="root seed of the layouts (default 0)")
    parser.add_argument("--out", type=Path, help="folder for games.csv.gz and summary.json (default: print the summary only)")
    args = parser.parse_args(argv)
    configs = [parse_config(c) for c in (args.config or DEFAULT_CONFIGS)]
    trees = [Tree("old", args.old.resolve()), Tree("new", args.new.resolve())]
    summary: dict[str, Any] = {
        "old": str(args.old),
        "new": str(args.new),
        "seed": args.seed,
        "date": time.strftime("%Y-%m-%d"),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
        "configs": [],
    }
    all_rows: list[list[Any]] = []
    differ_total = 0
    try:
        for config in configs:
            rates: dict[str, list[float]] = {"old": [], "new": []}
            rows: dict[str, list[list[Any]]] = {"old": [], "new": []}
            start = 0
            round_ = 0
            while start < config["games"]:
                stop = min(start + config["chunk"], config["games"])
                order = trees if round_ % 2 == 0 else trees[::-1]  # old first, then new first, ...
                for tree in order:
                    job = {k: config[k] for k in ("strategy", "board", "rule")} | {
                        "seed": args.seed,
                        "start": start,
                        "stop": stop,
                    }
                    got = tree.play(job)
                    rows[tree.label].extend(got)
                    rates[tree.label].append(len(got) / sum(r[6] for r in got))
                start = stop
                round_ += 1
            differ = [a[0] for a, b in zip(rows["old"], rows["new"], strict=True) if a[1:6] != b[1:6]]
            differ_total += len(differ)
            name = ":".join(str(config[k]) for k in ("strategy", "board", "rule"))
            for tree in ("old", "new"):
                all_rows.extend([name, tree, *r] for r in rows[tree])
            entry = {
                "config": name,
                "games": config["games"],
                "chunk": config["chunk"],
                "old_games_per_cpu_second": {"median": statistics.median(rates["old"]), "chunks": rates["old"]},
                "new_games_per_cpu_second": {"median": statistics.median(rates["new"]), "chunks": rates["new"]},
                "old_mean_ms": 1000 * statistics.fmean(r[6] for r in rows["old"]),
                "new_mean_ms": 1000 * statistics.fmean(r[6] for r in rows["new"]),
                "wins": sum(r[4] == "won" for r in rows["new"]),
                "games_differing": len(differ),
                "first_differing": differ[:20],
            }
            summary["configs"].append(entry)
            print(
                f"{name}: {config['games']} games, old {entry['old_games_per_cpu_second']['median']:.1f} "
                f"new {entry['new_games_per_cpu_second']['median']:.1f} games per CPU second (medians of chunks), "
                f"{entry['wins']} won, {len(differ)} differing",
                flush=True,
            )
    finally:
        for tree in trees:
            tree.close()
    if args.out is not None:
        args.out.mkdir(parents=True, exist_ok=True)
        with gzip.open(args.out / "games.csv.gz", "wt", newline="") as handle:
            writer = csv.writer(handle)
            writer.writerow(["config", "tree", "index", "layout", "moves", "guesses", "state", "move_count", "cpu_seconds"])
            writer.writerows([*r[:8], f"{r[8]:.6f}"] for r in all_rows)
        (args.out / "summary.json").write_text(json.dumps(summary, indent=1) + "\n")
    return 1 if differ_total else 0


if __name__ == "__main__":
    sys.exit(main())
elif __name__ == "worker":
    worker()
