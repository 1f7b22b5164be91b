"""The ``best`` strategy's measurements: summaries of its paired benches, ablation, first clicks and cost, and its
section of docs/results.md, with the strongest published solvers' numbers beside them (``shared/anchors.md``)."""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from pathlib import Path

from sweeplab.core.errors import SweeplabError
from sweeplab.studies.best.runs import _load, _ms, _pct, cost, first_click_arg, openings, summarise


def main(argv: list[str] | None = None) -> int:
    """The command line (``argv``, else ``sys.argv[1:]``); returns the exit status.

        python -m sweeplab.studies.best summarise DIR --command "sweeplab bench ... --out DIR"

    reads ``DIR/bench.json`` and ``DIR/games.csv`` (written by ``sweeplab bench --out``), writes ``DIR/data.json`` (win
    rates, standard errors, paired differences, CPU per game: mean, median, p99, worst) and compresses ``games.csv`` to
    ``games.csv.gz``.

        python -m sweeplab.studies.best cost --board expert --rule safe --first-click 0,0 --games 2000 --out DIR

    plays ``best`` on one core in this process and adds a point to ``DIR/data.json``: CPU per game and the share of
    games in which an endgame search ran past its budget (which the bench does not record).

        python -m sweeplab.studies.best openings RUN_DIR... --out results/best/openings

    gathers first-click runs (each a ``sweeplab bench --strategy best --first-click X,Y --out RUN_DIR``) into
    ``results/best/openings/data.json``: a point per board, rule and cell, the best cell of each board and rule marked
    "chosen", with its margin over the runner-up. ``sweeplab.strategies.best.opening.OPENINGS`` holds the chosen cells.
    """
    args_list = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(
        prog="python -m sweeplab.studies.best", description=" ".join(__doc__.split("\n\n")[0].split())
    )
    sub = parser.add_subparsers(dest="what", required=True)
    one = sub.add_parser("summarise", help="write DIR/data.json from a `sweeplab bench --out DIR` run")
    one.add_argument("directory", type=Path)
    one.add_argument("--command", required=True, help="the command that produced the run, recorded beside its numbers")
    one.add_argument(
        "--add",
        nargs=2,
        action="append",
        metavar=("DIR", "COMMAND"),
        default=[],
        help="pool another run of the same strategies (other layouts) and its command; repeatable",
    )
    spend = sub.add_parser("cost", help="play best on one core and add its CPU and endgame-budget figures to DIR/data.json")
    spend.add_argument("--board", default="expert", help="a preset or WIDTHxHEIGHTxMINES (default: expert)")
    spend.add_argument("--rule", default="safe", help="first-click rule (default: safe)")
    spend.add_argument(
        "--first-click", type=first_click_arg, default=(0, 0), help="X,Y revealed before best plays (default: 0,0)"
    )
    spend.add_argument("--games", type=int, default=2000, help="games to play (default: 2000)")
    spend.add_argument("--seed", type=int, default=0, help="root seed: the bench's layouts (default: 0)")
    spend.add_argument("--out", type=Path, required=True, help="directory of data.json (a point per board and rule)")
    table = sub.add_parser("openings", help="gather first-click runs of best into DIR/data.json and mark the best cells")
    table.add_argument("runs", type=Path, nargs="+", help="`sweeplab bench --strategy best --first-click X,Y --out` dirs")
    table.add_argument("--out", type=Path, required=True, help="directory of data.json (results/best/openings)")
    table.add_argument("--tree", help="which version of best played the runs (a commit), recorded beside them")
    args = parser.parse_args(args_list)
    if args.what == "openings":
        for run in args.runs:
            if not (run / "bench.json").is_file():
                parser.error(f"{run}: no bench.json (write it with `sweeplab bench --strategy best --first-click X,Y --out`)")
        try:
            found = openings(args.runs, args.tree)
        except (ValueError, KeyError) as error:
            parser.error(str(error))
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "data.json").write_text(json.dumps(found, indent=1) + "\n")
        for p in found["points"]:
            mark = f"  chosen, +{100 * p['margin']:.2f} ± {100 * p['margin_se']:.2f}" if "margin" in p else ""
            print(f"{p['board']} {p['rule']} {tuple(p['cell'])}: {_pct(p['rate'], p['se'])} over {p['games']:,}{mark}")
        return 0
    if args.what == "cost":
        if args.games < 1:
            parser.error(f"--games must be at least 1, not {args.games}")
        try:
            point = cost(args.board, args.rule, args.first_click, args.games, args.seed)
        except SweeplabError as error:
            parser.error(str(error))
        point["command"] = "python -m sweeplab.studies.best " + shlex.join(args_list)
        path = args.out / "data.json"
        args.out.mkdir(parents=True, exist_ok=True)
        old = _load(path) or {"points": []}
        keep = [
            p
            for p in old["points"]
            if (p["board"], p["rule"], p["first_click"]) != (point["board"], point["rule"], point["first_click"])
        ]
        path.write_text(json.dumps({"points": [*keep, point]}, indent=1) + "\n")
        print(
            f"best on {point['board']} {point['rule']}: {_pct(point['rate'], point['se'])} over {point['games']} games; CPU "
            f"ms mean / p99 / worst {_ms(point['cpu_ms'])}; endgame search in {point['searched_share']:.1%} of games, "
            f"over budget in {point['budget_share']:.2%}"
        )
        return 0
    data = summarise(args.directory, args.command, [(Path(d), c) for d, c in args.add])
    for s in data["strategies"]:
        print(f"{s['strategy']}: {_pct(s['rate'], s['se'])} over {s['games']} games, CPU mean {s['cpu_ms']['mean']:.1f} ms")
    for p in data["paired"]:
        print(f"{p['a']} - {p['b']}: {100 * p['difference']:+.2f} ± {100 * p['se']:.2f}")
    return 0
