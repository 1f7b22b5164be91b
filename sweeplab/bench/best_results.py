"""The ``best`` strategy's measurements: summaries of its paired benches, ablation, first clicks and cost, and its
section of docs/results.md, with the strongest published solvers' numbers beside them (``shared/anchors.md``).

    python -m sweeplab.bench.best_results summarise DIR --command "sweeplab bench ... --out DIR"

reads ``DIR/bench.json`` and ``DIR/games.csv`` (written by ``sweeplab bench --out``), writes ``DIR/data.json`` (win rates,
standard errors, paired differences, CPU per game: mean, median, p99, worst) and compresses ``games.csv`` to
``games.csv.gz``.
"""

from __future__ import annotations

import argparse
import csv
import gzip
import io
import json
from pathlib import Path
from typing import Any

from sweeplab.bench.stats import binomial_se, paired_difference, percentile

#: The six paired configurations of issue 9: (directory under results/best/paired, board, rule, first click).
CONFIGS: list[tuple[str, str, str, tuple[int, int]]] = [
    ("expert-safe-0-0", "30x16x99", "safe", (0, 0)),
    ("expert-zero-3-3", "30x16x99", "zero", (3, 3)),
    ("intermediate-safe-0-0", "16x16x40", "safe", (0, 0)),
    ("intermediate-zero-2-2", "16x16x40", "zero", (2, 2)),
    ("beginner-safe-0-0", "9x9x10", "safe", (0, 0)),
    ("beginner-zero-2-2", "9x9x10", "zero", (2, 2)),
]

#: JSMinesweeper's solver measured on this machine on identical layouts, 10,000 games (anchors.md), in percent ± SE;
#: its 16x16 zero run opened at (3, 3), not (2, 2).
JSM_MEASURED: dict[tuple[str, str], tuple[float, float, str]] = {
    ("30x16x99", "safe"): (41.12, 0.49, "(0, 0)"),
    ("30x16x99", "zero"): (54.17, 0.50, "(3, 3)"),
    ("16x16x40", "safe"): (78.88, 0.41, "(0, 0)"),
    ("16x16x40", "zero"): (89.18, 0.31, "(3, 3)"),
    ("9x9x10", "safe"): (91.87, 0.27, "(0, 0)"),
    ("9x9x10", "zero"): (97.26, 0.16, "(2, 2)"),
}

#: Published win rates (anchors.md), percent: (solver, note) per configuration.
PUBLISHED: dict[tuple[str, str], list[tuple[str, float]]] = {
    ("30x16x99", "safe"): [
        ("DavidNHill Java solver (10 x 1,000,000 games)", 41.13),
        ("minesolve, look-ahead depth 4", 40.80),
        ("PSEQ-D256", 40.05),
        ("PSEQ", 39.62),
    ],
    ("30x16x99", "zero"): [("DavidNHill Java solver", 54.3), ("PSEQ-D256", 53.45), ("PSEQ", 52.78)],
    ("16x16x40", "safe"): [("PSEQ-D256", 78.23), ("PSEQ", 78.12)],
    ("16x16x40", "zero"): [("PSEQ-D256", 89.08), ("PSEQ", 88.93)],
    ("9x9x10", "safe"): [("PSEQ-D256", 91.69), ("PSEQ", 91.68)],
    ("9x9x10", "zero"): [("PSEQ-D256", 97.17), ("PSEQ", 97.15)],
}

#: Issue 9's targets (percent): more than 2 SE above JSMinesweeper on identical layouts and above every anchor.
TARGETS: dict[tuple[str, str], float] = {
    ("30x16x99", "safe"): 41.5,
    ("30x16x99", "zero"): 54.8,
    ("16x16x40", "safe"): 79.5,
    ("16x16x40", "zero"): 89.8,
    ("9x9x10", "safe"): 92.3,
    ("9x9x10", "zero"): 97.5,
}


def _read_games(directory: Path) -> dict[str, list[tuple[bool, float]]]:
    """Per strategy, (won, CPU seconds) of each game in game order, from games.csv or games.csv.gz."""
    plain, packed = directory / "games.csv", directory / "games.csv.gz"
    if plain.exists():
        text = plain.read_text()
    elif packed.exists():
        text = gzip.decompress(packed.read_bytes()).decode()
    else:
        raise FileNotFoundError(f"{directory}: no games.csv or games.csv.gz (write them with `sweeplab bench --out`)")
    rows: dict[str, dict[int, tuple[bool, float]]] = {}
    for row in csv.DictReader(io.StringIO(text)):
        rows.setdefault(row["strategy"], {})[int(row["game"])] = (row["won"] == "1", float(row["cpu_seconds"]))
    return {name: [games[i] for i in sorted(games)] for name, games in rows.items()}


def summarise(directory: Path, command: str) -> dict[str, Any]:
    """Summarise one ``sweeplab bench --out`` directory into ``data.json`` (and compress its games.csv)."""
    bench = json.loads((directory / "bench.json").read_text())
    games = _read_games(directory)
    strategies = []
    for summary in bench["summaries"]:
        name = summary["strategy"]
        rows = games[name]
        cpu = [c for _, c in rows]
        wins = sum(w for w, _ in rows)
        strategies.append(
            {
                "strategy": name,
                "games": len(rows),
                "wins": wins,
                "rate": wins / len(rows),
                "se": binomial_se(wins, len(rows)),
                "set_se": summary.get("sem"),
                "timeouts": summary.get("timeouts", 0),
                "cpu_ms": {
                    "mean": 1000 * sum(cpu) / len(cpu),
                    "median": 1000 * percentile(cpu, 50),
                    "p99": 1000 * percentile(cpu, 99),
                    "worst": 1000 * max(cpu),
                },
            }
        )
    paired = []
    first = strategies[0]["strategy"]
    for other in strategies[1:]:
        a = [w for w, _ in games[first]]
        b = [w for w, _ in games[other["strategy"]]]
        n = min(len(a), len(b))
        diff, se = paired_difference(a[:n], b[:n])
        paired.append({"a": first, "b": other["strategy"], "games": n, "difference": diff, "se": se})
    data = {"command": command, "settings": bench["settings"], "strategies": strategies, "paired": paired}
    (directory / "data.json").write_text(json.dumps(data, indent=1) + "\n")
    plain = directory / "games.csv"
    if plain.exists():
        (directory / "games.csv.gz").write_bytes(gzip.compress(plain.read_bytes(), mtime=0))
        plain.unlink()
    return data


def _pct(rate: float, se: float) -> str:
    return f"{100 * rate:.2f} ± {100 * se:.2f}"


def _load(path: Path) -> dict[str, Any] | None:
    return json.loads(path.read_text()) if path.exists() else None


def section(results: Path) -> str:
    """The docs/results.md section for the best strategy (empty until results/best/ holds data)."""
    root = results / "best"
    if not root.exists():
        return ""
    parts = [
        "## The best strategy against the strongest published solvers\n\n"
        "`best` (issue 9; `docs/strategies.md`) beside `exact` on the same layouts, each row one paired run "
        "(`sweeplab bench --strategy best,exact`, root seed 0; the look-ahead and endgame settings were tuned on root "
        "seeds 1000-9000, never on seed 0). Win rates are percent ± the binomial standard error; the paired "
        "difference's SE comes from the per-game differences. CPU is per game on one core (thread time; the machine "
        "was shared, so these are upper bounds). JSMinesweeper's rates are its solver measured on this machine on "
        "identical layouts (10,000 games, `shared/anchors.md`); the target is issue 9's."
    ]
    rows = []
    for label, board, rule, click in CONFIGS:
        data = _load(root / "paired" / label / "data.json")
        jsm = JSM_MEASURED[(board, rule)]
        published = PUBLISHED[(board, rule)]
        top = max(published, key=lambda t: t[1])
        target = TARGETS[(board, rule)]
        if data is None:
            rows.append(
                [
                    f"{board} {rule} {click}",
                    "not run yet",
                    "",
                    "",
                    "",
                    f"{jsm[0]:.2f} ± {jsm[1]:.2f}",
                    f"{top[1]:.2f}",
                    target,
                    "",
                ]
            )
            continue
        by = {s["strategy"]: s for s in data["strategies"]}
        b, e = by["best"], by["exact"]
        pair = next(p for p in data["paired"] if {p["a"], p["b"]} == {"best", "exact"})
        sign = 1 if pair["a"] == "best" else -1
        met = 100 * b["rate"] >= target
        rows.append(
            [
                f"{board} {rule} {click}",
                f"{b['games']:,}",
                _pct(b["rate"], b["se"]) + f" ({b['cpu_ms']['mean']:.1f} ms)",
                _pct(e["rate"], e["se"]) + f" ({e['cpu_ms']['mean']:.1f} ms)",
                f"{100 * sign * pair['difference']:+.2f} ± {100 * pair['se']:.2f}",
                f"{jsm[0]:.2f} ± {jsm[1]:.2f}",
                f"{top[1]:.2f} ({top[0]})",
                f"{target:.1f}",
                "yes" if met else f"no, {target - 100 * b['rate']:.2f} short",
            ]
        )
    header = [
        "board, rule, first click",
        "games",
        "best % (CPU/game)",
        "exact % (CPU/game)",
        "best - exact, paired",
        "JSMinesweeper, same layouts",
        "best published",
        "target %",
        "met",
    ]
    parts.append(_table(header, rows))
    commands = []
    for label, *_ in CONFIGS:
        data = _load(root / "paired" / label / "data.json")
        if data is not None:
            commands.append(data["command"])
    if commands:
        parts.append("Commands (data in `results/best/paired/`):\n\n```\n" + "\n".join(commands) + "\n```")
    ablation = _load(root / "ablation" / "data.json")
    if ablation is not None:
        by = {s["strategy"]: s for s in ablation["strategies"]}
        rows = []
        for s in ablation["strategies"]:
            pair = next((p for p in ablation["paired"] if p["b"] == s["strategy"]), None)
            rows.append(
                [
                    f"`{s['strategy']}`",
                    _pct(s["rate"], s["se"]),
                    "" if pair is None else f"{-100 * pair['difference']:+.2f} ± {100 * pair['se']:.2f}",
                    f"{s['cpu_ms']['mean']:.1f}",
                    f"{s['cpu_ms']['p99']:.1f}",
                ]
            )
        parts.append(
            f"### Ablation: each technique off in turn ({ablation['settings']['games']:,} expert games, safe rule, first "
            f"click (0, 0), the same layouts)\n\nThe difference is the variant minus full `best`, paired game by game.\n\n"
            + _table(["variant", "win %", "minus full best", "CPU mean ms", "CPU p99 ms"], rows)
            + f"\nCommand: `{ablation['command']}`"
        )
    openings = _load(root / "openings" / "data.json")
    if openings is not None:
        rows = [
            [
                p["board"],
                p["rule"],
                f"({p['cell'][0]}, {p['cell'][1]})",
                f"{p['games']:,}",
                _pct(p["rate"], p["se"]),
                "chosen" if p.get("chosen") else "",
            ]
            for p in openings["points"]
        ]
        parts.append(
            "### First clicks\n\nEach cell is its own run (under `zero` the layout depends on the click, so these are not "
            "paired). `best` opens at the chosen cell when the harness leaves the first click to it (`--first-click auto`).\n\n"
            + _table(["board", "rule", "first click", "games", "best win %", ""], rows)
            + f"\nCommand: `{openings['command']}`"
        )
    cost = _load(root / "cost" / "data.json")
    if cost is not None:
        rows = [
            [
                f"{p['board']} {p['rule']}",
                f"{p['games']:,}",
                f"{p['cpu_ms']['mean']:.1f}",
                f"{p['cpu_ms']['median']:.1f}",
                f"{p['cpu_ms']['p99']:.1f}",
                f"{p['cpu_ms']['worst']:.0f}",
                f"{100 * p['budget_share']:.2f}%",
            ]
            for p in cost["points"]
        ]
        parts.append(
            "### Cost\n\nOne process on one core, CPU time per game; the last column is the share of games in which an "
            "endgame search ran out of its budget and the strategy fell back to the look-ahead.\n\n"
            + _table(["board, rule", "games", "mean ms", "median ms", "p99 ms", "worst ms", "games over endgame budget"], rows)
            + f"\nCommand: `{cost['command']}`"
        )
    return "\n\n".join(p.rstrip() for p in parts) + "\n"


def _table(header: list[str], rows: list[list[Any]]) -> str:
    out = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="what", required=True)
    one = sub.add_parser("summarise", help="write DIR/data.json from a `sweeplab bench --out DIR` run")
    one.add_argument("directory", type=Path)
    one.add_argument("--command", required=True, help="the command that produced the run, recorded beside its numbers")
    args = parser.parse_args(argv)
    data = summarise(args.directory, args.command)
    for s in data["strategies"]:
        print(f"{s['strategy']}: {_pct(s['rate'], s['se'])} over {s['games']} games, CPU mean {s['cpu_ms']['mean']:.1f} ms")
    for p in data["paired"]:
        print(f"{p['a']} - {p['b']}: {100 * p['difference']:+.2f} ± {100 * p['se']:.2f}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
