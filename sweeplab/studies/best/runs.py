"""The ``best`` strategy's runs made into committed data: paired benches summarised, its cost on one core, the
first-click table; and how the data's rates and CPU figures are written."""

from __future__ import annotations

import argparse
import csv
import gzip
import io
import json
import shlex
import time
from pathlib import Path
from typing import Any

from sweeplab.bench.runner import deal, game_seeds
from sweeplab.bench.stats import binomial_se, paired_difference, percentile
from sweeplab.core.game import GameState
from sweeplab.core.rules import make_rules
from sweeplab.strategies.base import play
from sweeplab.strategies.best import BestStrategy


def read_games(directory: Path) -> dict[str, list[tuple[bool, float]]]:
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


def summarise(directory: Path, command: str, more: list[tuple[Path, str]] | None = None) -> dict[str, Any]:
    """Summarise one ``sweeplab bench --out`` directory into ``data.json`` (and compress its games.csv).

    ``more`` adds further runs of the same strategies on other layouts (another root seed), each (directory, command):
    their games are appended game by game, so the paired differences stay paired; ``settings.games`` is the total.
    """
    bench = json.loads((directory / "bench.json").read_text())
    games = read_games(directory)
    runs = [{"command": command, "seed": bench["settings"]["seed"], "games": bench["settings"]["games"]}]
    for extra, extra_command in more or []:
        other = json.loads((extra / "bench.json").read_text())
        names = [s["strategy"] for s in bench["summaries"]]
        if [s["strategy"] for s in other["summaries"]] != names:
            raise ValueError(f"{extra}: its strategies differ from {directory}'s ({', '.join(names)})")
        for name, rows in read_games(extra).items():
            games[name].extend(rows)
        runs.append({"command": extra_command, "seed": other["settings"]["seed"], "games": other["settings"]["games"]})
        _pack(extra)
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
    settings = dict(bench["settings"], games=sum(r["games"] for r in runs))
    data = {"command": command, "settings": settings, "strategies": strategies, "paired": paired}
    if len(runs) > 1:
        data["runs"] = runs
    (directory / "data.json").write_text(json.dumps(data, indent=1) + "\n")
    _pack(directory)
    return data


def _pack(directory: Path) -> None:
    """Compress ``directory/games.csv`` to games.csv.gz (reproducible bytes) and remove the plain file."""
    plain = directory / "games.csv"
    if plain.exists():
        (directory / "games.csv.gz").write_bytes(gzip.compress(plain.read_bytes(), mtime=0))
        plain.unlink()


def cost(board: str, rule: str, first_click: tuple[int, int], games: int, seed: int = 0) -> dict[str, Any]:
    """Play ``games`` games of ``best`` (root ``seed``, the bench's layouts) in this process: CPU per game (the bench's
    measure: thread time from the deal to the end of the game) and how often the endgame search ran past its budget."""
    rules = make_rules(board, rule)
    click = rules.width * first_click[1] + first_click[0]
    cpu: list[float] = []
    wins = searched = over = 0
    for index in range(games):
        start = time.thread_time()
        game = deal(rules, seed, index, click)
        player = BestStrategy(seed=game_seeds(seed, index)[1])
        play(player, game)
        cpu.append(time.thread_time() - start)
        wins += game.state is GameState.WON
        searched += player.searches > 0
        over += player.searches_over_budget > 0
    return {
        "board": rules.spec(),
        "rule": rule,
        "first_click": list(first_click),
        "seed": seed,
        "games": games,
        "wins": wins,
        "rate": wins / games,
        "se": binomial_se(wins, games),
        "cpu_ms": {
            "mean": 1000 * sum(cpu) / games,
            "median": 1000 * percentile(cpu, 50),
            "p99": 1000 * percentile(cpu, 99),
            "worst": 1000 * max(cpu),
        },
        "searched_share": searched / games,
        "budget_share": over / games,
    }


def openings(runs: list[Path], tree: str | None = None) -> dict[str, Any]:
    """The first-click table from ``sweeplab bench --strategy best --first-click X,Y --out DIR`` runs: a point per run
    (board, rule, cell, games, rate, se, its command) and, per board and rule, the cell with the highest win rate marked
    ``chosen``, with its margin over the next cell and that margin's SE (independent runs: under ``zero`` the layout
    depends on the click, so first clicks cannot be paired). ``tree`` says which version of ``best`` played them."""
    points = []
    for run in runs:
        bench = json.loads((run / "bench.json").read_text())
        settings = bench["settings"]
        names = [s["strategy"] for s in bench["summaries"]]
        if names != ["best"] or not settings.get("first_click"):
            raise ValueError(f"{run}: not a run of best alone with --first-click X,Y (strategies: {', '.join(names)})")
        summary = bench["summaries"][0]
        games, wins = summary["games"], summary["wins"]
        points.append(
            {
                "board": settings["board"],
                "rule": settings["rule"],
                "cell": list(settings["first_click"]),
                "games": games,
                "wins": wins,
                "rate": wins / games,
                "se": binomial_se(wins, games),
                "command": (
                    f"sweeplab bench --strategy best --board {settings['board']} --rule {settings['rule']} --first-click "
                    f"{settings['first_click'][0]},{settings['first_click'][1]} --games {games} --seed {settings['seed']} "
                    f"--out {run.name}"
                ),
            }
        )
    groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for point in points:
        groups.setdefault((point["board"], point["rule"]), []).append(point)
    for group in groups.values():
        ranked = sorted(group, key=lambda p: -p["rate"])
        ranked[0]["chosen"] = True
        if len(ranked) > 1:
            top, second = ranked[0], ranked[1]
            top["margin"] = top["rate"] - second["rate"]
            top["margin_se"] = (top["se"] ** 2 + second["se"] ** 2) ** 0.5
    points.sort(key=lambda p: (p["board"], p["rule"], -p["rate"]))
    found: dict[str, Any] = {
        "command": "sweeplab bench --strategy best --board B --rule R --first-click X,Y --games N --seed 0 --out DIR "
        "(2 jobs), one run per row; then python -m sweeplab.studies.best openings DIR... --out "
        "results/best/openings" + (f" --tree {shlex.quote(tree)}" if tree else ""),
        "points": points,
    }
    if tree:
        found["tree"] = tree
    return found


def _pct(rate: float, se: float) -> str:
    return f"{100 * rate:.2f} ± {100 * se:.2f}"


def _load(path: Path) -> dict[str, Any] | None:
    """A committed data file's contents (None when it is missing); one that is not JSON is a ``ValueError`` naming
    it (``resultsdoc`` reports it and exits 1)."""
    if not path.exists():
        return None
    try:
        data: dict[str, Any] = json.loads(path.read_text())
    except ValueError as error:
        raise ValueError(f"{path}: not JSON ({error})") from None
    return data


def _ms(cpu: dict[str, float]) -> str:
    return f"{cpu['mean']:.1f} / {cpu['p99']:.1f} / {cpu['worst']:.0f}"


def first_click_arg(text: str) -> tuple[int, int]:
    """An argparse type for ``--first-click X,Y`` (the scripts in ``benchmarks/`` use it too)."""
    try:
        x, y = (int(v) for v in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"a first click is X,Y (two integers), not {text!r}") from None
    return x, y
