"""The ``best`` strategy's measurements: summaries of its paired benches, ablation, first clicks and cost, and its
section of docs/results.md, with the strongest published solvers' numbers beside them (``shared/anchors.md``).

    python -m sweeplab.bench.best_results summarise DIR --command "sweeplab bench ... --out DIR"

reads ``DIR/bench.json`` and ``DIR/games.csv`` (written by ``sweeplab bench --out``), writes ``DIR/data.json`` (win rates,
standard errors, paired differences, CPU per game: mean, median, p99, worst) and compresses ``games.csv`` to
``games.csv.gz``.

    python -m sweeplab.bench.best_results cost --board expert --rule safe --first-click 0,0 --games 2000 --out DIR

plays ``best`` on one core in this process and adds a point to ``DIR/data.json``: CPU per game and the share of games
in which an endgame search ran past its budget (which the bench does not record).

    python -m sweeplab.bench.best_results openings RUN_DIR... --out results/best/openings

gathers first-click runs (each a ``sweeplab bench --strategy best --first-click X,Y --out RUN_DIR``) into
``results/best/openings/data.json``: a point per board, rule and cell, the best cell of each board and rule marked
"chosen", with its margin over the runner-up. ``sweeplab.strategies.best.opening.OPENINGS`` holds the chosen cells.
"""

from __future__ import annotations

import argparse
import csv
import gzip
import io
import json
import shlex
import sys
import time
from pathlib import Path
from typing import Any

from sweeplab.bench.runner import deal, game_seeds
from sweeplab.bench.stats import binomial_se, paired_difference, percentile
from sweeplab.core.errors import SweeplabError
from sweeplab.core.game import GameState
from sweeplab.core.rules import make_rules
from sweeplab.strategies.base import play
from sweeplab.strategies.best import BestStrategy

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

#: JSMinesweeper minus ``exact``, paired on JSMinesweeper's layouts (anchors.md, 10,000 games), in points ± SE: the gain
#: over ``exact`` that ``best``'s own paired gain can be set beside (the layouts differ from ours, the gains compare).
JSM_GAIN: dict[tuple[str, str], tuple[float, float]] = {
    ("30x16x99", "safe"): (3.09, 0.47),
    ("30x16x99", "zero"): (3.95, 0.51),
    ("16x16x40", "safe"): (0.63, 0.32),
    ("16x16x40", "zero"): (0.91, 0.32),
    ("9x9x10", "safe"): (-0.08, 0.18),
    ("9x9x10", "zero"): (0.06, 0.17),
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
        "(2 jobs), one run per row; then python -m sweeplab.bench.best_results openings DIR... --out "
        "results/best/openings" + (f" --tree {shlex.quote(tree)}" if tree else ""),
        "points": points,
    }
    if tree:
        found["tree"] = tree
    return found


def _chosen(point: dict[str, Any]) -> str:
    if not point.get("chosen"):
        return ""
    if "margin" not in point:
        return "chosen"
    return f"chosen: +{100 * point['margin']:.2f} ± {100 * point['margin_se']:.2f} over the next cell"


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


def _calibration(root: Path) -> str:
    """The sentences on the fitted worth of the position after a number (``results/best/calibration/``), or ""."""
    data = _load(root / "calibration" / "data.json")
    if data is None:
        return ""
    games = data["collected"]["games"] if data.get("collected") else None
    return (
        f"The worth the look-ahead gives the position after a number was then fitted to `best`'s own games "
        f"({data['positions']:,} surviving look-ahead guesses"
        + (f" of {games:,} expert games" if games else "")
        + ", `results/best/calibration/`): with no counted safe cell it wins less often than the blend of its two "
        f"best safeties says (the blend to the power {data['k0']:.2f}; with one living safe cell, "
        f"((4 + b1) / 5) to the power {data['k1']:.2f}). Played (the rows seeded 11 and 12), that fitted worth won "
        "no more expert games, nor did its figure for no counted safe cell alone, and a step the other way (power "
        "0.6) won fewer: the hand-set worth stays ("
        + (
            f"`python benchmarks/best_calibrate.py collect --games {games} --seed {data['collected']['seed']} --out "
            "results/best/calibration/expert-safe.csv.gz`, then `python benchmarks/best_calibrate.py fit "
            "results/best/calibration/expert-safe.csv.gz --out results/best/calibration`). "
            if games
            else "`benchmarks/best_calibrate.py`). "
        )
    )


def _first_guess(root: Path) -> str:
    """The first-guess survey (``results/best/first-guess/``, ``benchmarks/best_first_guess.py``), or ""."""
    data = _load(root / "first-guess" / "data.json")
    if data is None:
        return ""
    rows = []
    for board in data["boards"]:
        s = board["settings"]
        width = int(s["board"].split("x")[0])
        for p in board["positions"]:
            top = p["candidates"][0] if p["candidates"] else None
            rows.append(
                [
                    f"{s['board']} {s['rule']} ({s['first_click'][0]}, {s['first_click'][1]})",
                    p["k"],
                    f"{p['layouts']:,}",
                    ", ".join(f"({c % width}, {c // width})" for c in p["best_cells"]),
                    _pct(p["best_win"], p["best_se"]),
                    len(p["candidates"]),
                    ", ".join(p["better"]) or "none",
                    "" if p["rank_correlation"] is None else f"{p['rank_correlation']:.2f}",
                    "" if top is None else f"({top['cell']}) {100 * top['difference']:+.2f} ± {100 * top['se']:.2f}",
                ]
            )
    return (
        "### First guesses\n\n"
        "When the first click shows a number and opens nothing, the position depends on that number k alone and "
        "`best` always guesses the same cell for it. Is it the best cell? For every layout where this happens, "
        "`best`'s own game was played and, on the same layout, each candidate was forced as the first guess with "
        "`best` playing on; the difference is the candidate's win rate minus `best`'s, paired by layout. With many "
        f"candidates the largest difference is biased upwards, so a candidate counts as better only past {data['bar_se']:g} SE. "
        "rho is the rank correlation between the look-ahead's score of the candidates and their measured win rates"
        + (f"; played at {data['tree']}" if data.get("tree") else "")
        + ". An opening book of first guesses would win more games only where a candidate is better.\n\n"
        + _table(
            [
                "board, rule, first click",
                "k",
                "layouts",
                "`best`'s guess",
                "`best` win %",
                "candidates",
                "better",
                "rho",
                "highest candidate (difference ± SE)",
            ],
            rows,
        )
        + "\nCommands (data in `results/best/first-guess/`, each candidate's figures in its `data.json`):\n\n```\n"
        + "\n".join([*(b["command"] for b in data["boards"]), data["command"]])
        + "\n```"
    )


def verdict(rate: float, se: float, games: int, target: float) -> str:
    """The gap to an issue target in plain words, e.g. ``41.00 ± 0.50 at n=10,000; target 41.5; not shown, 0.50 short``.

    "shown" needs the rate more than 2 SE above the target; above it by less is "above the target, within 2 SE".
    """
    pct, pse = 100 * rate, 100 * se
    head = f"{pct:.2f} ± {pse:.2f} at n={games:,}; target {target:.1f}; "
    if pct - 2 * pse >= target:
        return head + f"shown, {pct - target:.2f} above"
    if pct >= target:
        return head + f"above the target by {pct - target:.2f}, within 2 SE: not shown"
    return head + f"not shown, {target - pct:.2f} short"


def _ms(cpu: dict[str, float]) -> str:
    return f"{cpu['mean']:.1f} / {cpu['p99']:.1f} / {cpu['worst']:.0f}"


#: Frozen clone of the current paired runs, ablation and cost, and the earlier versions' runs kept beside them:
#: (directory under results/best, commit, what changed after it).
FROZEN = "1718a05"
EARLIER = [
    ("before-living", "8f62ed0", "before the living-cell look-ahead and the influence weight 1.0"),
    ("before-influence", "b6773f9", "before the 50/50 influence and the 1,000-layout endgame"),
]


def _before(root: Path, where: str) -> str:
    """The expert rates of an earlier version, from its committed runs (empty if they are missing)."""
    rates = []
    for label, name in (("expert-safe-0-0", "expert safe"), ("expert-zero-3-3", "expert zero")):
        data = _load(root / where / "paired" / label / "data.json")
        if data is not None:
            b = next(s for s in data["strategies"] if s["strategy"] == "best")
            pooled = "; seeds 0 and 1 pooled" if "runs" in data else ""
            rates.append(f"{name} {_pct(b['rate'], b['se'])}% over {b['games']:,} games{pooled}")
    return f" ({'; '.join(rates)})" if rates else ""


def _same_layouts(a: Path, b: Path) -> bool:
    """Whether two bench runs played the same deals: one run each (not pooled), the same board, rule, first click and
    root seed (their game i is then the same layout)."""
    settings = []
    for directory in (a, b):
        data, run = _load(directory / "data.json"), _load(directory / "run.json")
        if data is None or run is None or "runs" in data:
            return False
        s = run["settings"]
        settings.append((s["--board"], s["--rule"], s["--seed"], s["--first-click"], s["--layouts"]))
    return settings[0] == settings[1]


def _against_earlier(root: Path) -> str:
    """This version's best against the one before it, game by game on the same layouts (the same root seed), per
    configuration: the change's worth, free of the luck of the layouts. A configuration whose two runs did not play
    the same deals is left out."""
    where, commit, _ = EARLIER[0]
    rows = []
    seeds = set()
    for label, board, rule, click in CONFIGS:
        now, then = root / "paired" / label, root / where / "paired" / label
        if not _same_layouts(now, then):
            continue
        try:
            new, old = read_games(now)["best"], read_games(then)["best"]
        except (FileNotFoundError, KeyError):
            continue
        seeds.add(json.loads((now / "run.json").read_text())["settings"]["--seed"])
        n = min(len(new), len(old))
        a, b = [w for w, _ in old[:n]], [w for w, _ in new[:n]]
        diff, se = paired_difference(b, a)
        rows.append(
            [
                f"{board} {rule} ({click[0]}, {click[1]})",
                f"{n:,}",
                _pct(sum(a) / n, binomial_se(sum(a), n)),
                _pct(sum(b) / n, binomial_se(sum(b), n)),
                f"{100 * diff:+.2f} ± {100 * se:.2f}",
            ]
        )
    if not rows:
        return ""
    return (
        f"This version ({FROZEN}) against the one before it ({commit}, its runs in `results/best/{where}/paired/`), "
        f"game by game on the same layouts (root seed {', '.join(str(s) for s in sorted(seeds))} in both):\n\n"
        + _table(["board, rule, first click", "games", f"best at {commit} %", f"best at {FROZEN} %", "change, paired"], rows)
    )


def optimal_gap_shares(board: dict[str, Any]) -> tuple[float, float, float, float]:
    """A board's gap to the optimum (a file of ``benchmarks/best_optimal_gap.py run``) in points: at the first guess,
    at the second and third, later (these three add up to the gap), and in guesses the look-ahead decided."""
    part = board["by_guess_number"]
    first = part.get("1", {}).get("regret_points", 0.0)
    middle = sum(part.get(k, {}).get("regret_points", 0.0) for k in ("2", "3"))
    look = sum(v["regret_points"] for k, v in board["by_decision"].items() if "look-ahead" in k)
    return first, middle, board["gap_points"] - first - middle, look


def _optimal_gap(root: Path) -> str:
    """The exact split of `best`'s gap to optimal play on small boards (``results/best/optimal-gap/``,
    ``benchmarks/best_optimal_gap.py``), or ""."""
    data = _load(root / "optimal-gap" / "data.json")
    if data is None:
        return ""
    rows = []
    pictures = []
    for d in data["boards"]:
        s = d["settings"]
        first, middle, later, look = optimal_gap_shares(d)
        top = d["top"][0] if d["top"] else None
        rows.append(
            [
                f"{s['board']} {s['rule']} ({s['first_click'][0]}, {s['first_click'][1]})",
                f"`{s['strategy']}`",
                f"{d['layouts']:,}",
                f"{100 * d['optimal_rate']:.2f}",
                f"{100 * d['win_rate']:.2f}",
                f"{d['gap_points']:.2f}",
                f"{first:.2f}",
                f"{middle:.2f}",
                f"{later:.2f}",
                f"{look:.2f}" if s["strategy"].startswith("best") else "",
            ]
        )
        if top is not None and s["strategy"] == "best":
            pictures.append(
                f"{s['board']} {s['rule']}, guess {top['guess_number']} ({top['layouts']:,} layouts, "
                f"{100 * top['safety']:.1f}% safe either way"
                if top["safety"] == top["optimal_safety"]
                else f"{s['board']} {s['rule']}, guess {top['guess_number']} ({top['layouts']:,} layouts; S "
                f"{100 * top['safety']:.1f}% safe, O {100 * top['optimal_safety']:.1f}%"
            )
            pictures[-1] += (
                f"): S wins {top['wins']:,}, O {top['optimal_wins']:,}; {top['regret_points']:.2f} points of all "
                f"games ({top['decision']})\n" + "\n".join("    " + r for r in top["picture"])
            )
    mine = [d for d in data["boards"] if d["settings"]["strategy"] == "best"]
    gaps = {(d["settings"]["board"], d["settings"]["rule"]): d["gap_points"] for d in mine}
    closed = [
        1 - gaps[key] / d["gap_points"]
        for d in data["boards"]
        if d["settings"]["strategy"] == "exact"
        and d["gap_points"] > 0
        and (key := (d["settings"]["board"], d["settings"]["rule"])) in gaps
    ]
    late = max((d["by_guess_number"].get("4+", {}).get("regret_layouts", 0) / d["layouts"] for d in mine), default=0.0)
    by_look = sum(optimal_gap_shares(d)[3] for d in mine)
    by_search = sum(v["regret_layouts"] for d in mine for k, v in d["by_decision"].items() if "endgame search" in k)
    total = sum(d["gap_points"] for d in mine)
    summary = (
        f"\nOn these {len(mine)} boards and rules `best` is at most {max(gaps.values()):.2f} points from optimal play "
        "after the same first click; "
        + (f"{100 * by_look / total:.0f}% of what it loses is lost by its look-ahead, " if total else "")
        + ("nothing after its third guess" if late == 0 else f"at most {100 * late:.2f} points after its third guess")
        + (
            f"; on the boards where `exact` was played too, `best` closes {100 * min(closed):.0f}-{100 * max(closed):.0f}% "
            "of `exact`'s gap to the optimum"
            if closed
            else ""
        )
        + "."
        + (
            " The guesses its endgame search decides give up nothing. "
            'On the full-size boards the first guess was surveyed directly ("First guesses").'
            if by_search == 0
            else ""
        )
        + "\n"
        if mine
        else ""
    )
    table = _load(root.parent / "optimal" / "data.json")
    before = {
        (r["player"], r["board"], r["rule"]): r["win_rate"]
        for r in (table or {}).get("rows", [])
        if r.get("status") == "done" and r.get("first_click") == "0,0"
    }
    changed = []
    for d in data["boards"]:
        s = d["settings"]
        old = before.get((s["strategy"], s["board"], s["rule"])) if s["first_click"] == [0, 0] else None
        if old is not None and abs(old - d["win_rate"]) > 1e-12:
            changed.append(f"`{s['strategy']}` on {s['board']} {s['rule']} {100 * d['win_rate']:.2f}% (there {100 * old:.2f}%)")
    since = (
        '\nThe table in "The limit of the game" (issue 10) was played by earlier versions of the strategies; where '
        "those here win a different share of the same layouts: " + "; ".join(changed) + ".\n"
        if changed
        else ""
    )
    return (
        "### Against optimal play on small boards\n\n"
        "Where does `best` lose against a perfect player? On boards small enough for the optimal search (issue 10), "
        "each strategy was played on every layout the rule deals (the row's first click opened by the harness, as "
        "`sweeplab evaluate --first-click`), and every position where it guessed was valued exactly: the layouts "
        "the best move there wins with optimal play after it, less those the strategy's move wins with optimal play "
        "after it. Summed over its guesses these regrets equal the optimal player's wins less the strategy's (the "
        "script checks the identity), so the gap splits exactly by the guess's number in the game and by what "
        "decided it. The optimum here is optimal play after the same first click; where another first click does "
        'better, the board\'s optimum is higher ("The limit of the game"). The figures are exact fractions of every '
        "layout: no standard error applies. Points are of all games"
        + (f"; played at {data['tree']}" if data.get("tree") else "")
        + ".\n\n"
        + _table(
            [
                "board, rule, first click",
                "strategy",
                "layouts",
                "optimal % (same click)",
                "strategy %",
                "gap",
                "at guess 1",
                "guesses 2-3",
                "later",
                "by the look-ahead",
            ],
            rows,
        )
        + summary
        + (
            "\nThe costliest position for `best` on each board (S its guess, O the optimal move, * both; numbers "
            "are revealed cells, `.` covered):\n\n```\n" + "\n\n".join(pictures) + "\n```\n"
            if pictures
            else ""
        )
        + since
        + "\nCommands (data in `results/best/optimal-gap/`, each board's positions in its JSON; `--jobs` sets only how "
        "many processes play, not the result):\n\n```\n"
        + "\n".join(
            [*(f"{d['command']} --jobs 2 --out results/best/optimal-gap/{d['file']}" for d in data["boards"]), data["command"]]
        )
        + "\n```"
    )


def _regret(root: Path) -> str:
    """The regret section: each strategy's move against the exact optimum, position by position."""
    data = _load(root / "regret" / "data.json")
    if data is None:
        return ""
    first = data["strategies"][0]["strategy"]
    got = data.get("collected") or _load(root / "regret" / "positions.json") or {}
    where = (
        f"in expert games (safe rule, first click (0, 0), root seed {got['seed']}, {got['games']:,} games), each with "
        f"{got['low']:,} to {got['high']:,} consistent layouts"
        if got
        else "in expert games"
    )
    rows = [
        [
            f"`{s['strategy']}`",
            f"{s['regret_points']:.3f}",
            f"{100 * s['optimal_share']:.1f}%",
            "" if s["strategy"] == first else f"{s['difference_points']:+.3f} ± {s['difference_se']:.3f}",
        ]
        for s in data["strategies"]
    ]
    commands = [" ".join(f"--strategy '{s['strategy']}'" for s in data["strategies"]) + " --out results/best/regret"]
    for extra_file in sorted((root / "regret").glob("*/data.json")):  # later runs on the same positions
        extra = _load(extra_file)
        assert extra is not None
        reference = extra["strategies"][0]
        same = reference["strategy"] == first and extra["positions_searched"] == data["positions_searched"]
        if not same or abs(reference["regret_points"] - data["strategies"][0]["regret_points"]) > 1e-9:
            raise ValueError(f"{extra_file}: not a run on the same positions with `{first}` as its reference")
        rows += [
            [
                f"`{s['strategy']}` (`{extra_file.parent.name}/`)",
                f"{s['regret_points']:.3f}",
                f"{100 * s['optimal_share']:.1f}%",
                f"{s['difference_points']:+.3f} ± {s['difference_se']:.3f}",
            ]
            for s in extra["strategies"][1:]
        ]
        commands.append(
            " ".join(f"--strategy '{s['strategy']}'" for s in extra["strategies"])
            + f" --out results/best/regret/{extra_file.parent.name}"
        )
    return (
        "### Each guess against the exact optimum\n\nA win rate mixes every decision with luck. Here each guess is "
        f"judged alone and exactly: {data['positions_searched']:,} positions where `best` (its endgame search off) had "
        f"to guess {where}. For each, the endgame search gives the optimal chance of "
        "winning (a mean of "
        f"{100 * data['mean_optimal_win_probability']:.1f}% here) and the exact value of the move each strategy "
        "plays; the regret is what the move gives up, in points of win probability. All strategies are judged on the "
        "same positions, so the SE of a difference is the paired one. In play `best` searches positions of up to "
        "1,000 layouts exactly, so these figures measure its look-ahead where it can be checked, in the late game; "
        "earlier positions cannot be searched.\n\n"
        + _table(["strategy", "regret per guess (points)", "optimal moves", f"minus `{first}`, paired"], rows)
        + "\nCommands (data in `results/best/regret/`: the positions, `data.json` and `table.md`):\n\n```\n"
        f"python benchmarks/best_regret.py collect --games {got.get('games', 'N')} --seed {got.get('seed', 'S')} "
        "--out results/best/regret/positions.jsonl.gz\n"
        + "\n".join(f"python benchmarks/best_regret.py evaluate results/best/regret/positions.jsonl.gz {c}" for c in commands)
        + "\n```"
    )


def section(results: Path) -> str:
    """The docs/results.md section for the best strategy (empty until results/best/ holds data)."""
    root = results / "best"
    if not root.exists():
        return ""
    parts = [
        "## The best strategy against the strongest published solvers\n\n"
        "`best` (issue 9; `sweeplab/strategies/best/`, options in `sweeplab strategies --options best`) beside "
        "`exact` on the same layouts, each row one paired run (`sweeplab bench --strategy best,exact`, root seed 1, "
        f"the strategy's default settings, fixed before these runs, from a frozen clone at commit {FROZEN}). "
        + (
            "Later trees play the same games: since stop 21 `exact` and `best` run a single-point pass before each "
            "analysis, which changes only the order of their certain reveals, and all six runs re-played with it "
            "ended every game of both strategies the same way with the same number of guesses "
            "(`results/performance/single_point_paired_check.txt`). "
            if (results / "performance" / "single_point_paired_check.txt").exists()
            else ""
        )
        + " ".join(
            f"The runs of the version {what} (commit {commit}) are kept in `results/best/{where}/`{_before(root, where)}."
            for where, commit, what in EARLIER
            if (root / where).is_dir()
        )
        + " Win rates are percent ± the binomial standard error; "
        "the paired difference's SE comes from the per-game differences. JSMinesweeper's rates are its solver "
        "measured on this machine beside `exact` on the same layouts (10,000 games, `shared/anchors.md`; its 16x16 "
        "zero run opened at (3, 3)); those are other layouts than ours (MBF files), so the like-for-like comparison is "
        "the gain over `exact`, each paired on its own layouts; the best published rate is the highest in "
        "`shared/anchors.md` for the configuration; the target is issue 9's. The issue asks 100,000 games per "
        "configuration; the games column gives each row's n, and a row below 100,000 says so by its n."
    ]
    rows, cpu_rows = [], []
    commands: list[str] = []
    for label, board, rule, click in CONFIGS:
        data = _load(root / "paired" / label / "data.json")
        jsm = JSM_MEASURED[(board, rule)]
        top = max(PUBLISHED[(board, rule)], key=lambda t: t[1])
        target = TARGETS[(board, rule)]
        config = f"{board} {rule} ({click[0]}, {click[1]})"
        if data is None:
            rows.append(
                [config, "not run", "", "", "", "", f"{jsm[0]:.2f} ± {jsm[1]:.2f}", f"{top[1]:.2f}: {top[0]}", "not measured"]
            )
            continue
        commands.extend(r["command"] for r in data.get("runs", [data]))
        by = {s["strategy"]: s for s in data["strategies"]}
        b, e = by["best"], by["exact"]
        pair = next(p for p in data["paired"] if {p["a"], p["b"]} == {"best", "exact"})
        sign = 1 if pair["a"] == "best" else -1
        rows.append(
            [
                config,
                f"{b['games']:,}",
                _pct(b["rate"], b["se"]),
                _pct(e["rate"], e["se"]),
                f"{100 * sign * pair['difference']:+.2f} ± {100 * pair['se']:.2f}",
                f"{JSM_GAIN[(board, rule)][0]:+.2f} ± {JSM_GAIN[(board, rule)][1]:.2f}",
                f"{jsm[0]:.2f} ± {jsm[1]:.2f}",
                f"{top[1]:.2f}: {top[0]}",
                verdict(b["rate"], b["se"], b["games"], target),
            ]
        )
        cpu_rows.append([config, f"{b['games']:,}", _ms(b["cpu_ms"]), _ms(e["cpu_ms"])])
    header = [
        "board, rule, first click",
        "games",
        "best %",
        "exact %",
        "best - exact, paired",
        "JSMinesweeper - exact, paired on its layouts",
        "JSMinesweeper, on its layouts",
        "best published",
        "against issue 9's target",
    ]
    parts.append(_table(header, rows))
    if cpu_rows:
        parts.append(
            "CPU per game (ms, thread time on one core, from the deal to the end of the game; mean / p99 / worst) in "
            "the same runs. The machine was shared by other runs, so these are upper bounds; JSMinesweeper took 33-55 "
            "ms mean per expert game here (`shared/anchors.md`).\n\n"
            + _table(["board, rule, first click", "games", "best", "exact"], cpu_rows)
        )
    if commands:
        parts.append(
            "Commands (each ran with `--out results/best/paired/LABEL --resume` from the frozen clone; data, "
            "`bench.json` and the per-game `games.csv.gz` in `results/best/paired/`):\n\n```\n" + "\n".join(commands) + "\n```"
        )
    earlier = _against_earlier(root)
    if earlier:
        parts.append(earlier)
    ablation = _load(root / "ablation" / "data.json")
    if ablation is not None:
        rows = []
        for s in ablation["strategies"]:
            pair = next((p for p in ablation["paired"] if p["b"] == s["strategy"]), None)
            rows.append(
                [
                    f"`{s['strategy']}`",
                    f"{s['games']:,}",
                    _pct(s["rate"], s["se"]),
                    "" if pair is None else f"{-100 * pair['difference'] + 0.0:+.2f} ± {100 * pair['se']:.2f}",
                    _ms(s["cpu_ms"]),
                ]
            )
        n = ablation["settings"]["games"]
        parts.append(
            f"### Ablation: each technique off in turn ({n:,} expert games, safe rule, first click (0, 0), the same "
            f"layouts for every variant; the issue asks 20,000 or more)\n\nThe difference is the variant minus full "
            f"`best`, paired game by game: a negative difference is what the technique is worth. At n={n:,} a "
            f"difference within about 2 SE of zero is not shown either way. `opening` is not in the table: the first "
            f"click is fixed by the harness here.\n\n"
            + _table(["variant", "games", "win %", "minus full best, paired", "CPU ms mean / p99 / worst"], rows)
            + ("\nCommands (the runs' games are pooled; " if "runs" in ablation else "\nCommand (")
            + "data in `results/best/ablation/`):\n\n```\n"
            + "\n".join(r["command"] for r in ablation.get("runs", [ablation]))
            + "\n```"
        )
    tuning = root / "tuning" / "pairs.json"
    if tuning.exists():
        pairs = json.loads(tuning.read_text())
        rows = [
            [
                p["change"],
                p["commit"],
                f"{p['games']:,}",
                _pct(p["before"], p["before_se"]),
                _pct(p["after"], p["after_se"]),
                f"{100 * p['difference']:+.2f} ± {100 * p['se']:.2f}",
            ]
            for p in pairs
        ]
        parts.append(
            "### How the defaults were chosen\n\nEach change to `best` was first measured paired against the version "
            "before it on the same layouts (root seed 1: the earlier version's games are those of its paired runs in "
            "`results/best/before-influence/`; later ones on fresh root seeds 7 to 12). Kept: the influence and the "
            "1,000-layout endgame; then the living-cell look-ahead (chosen on the exact regret below: in games its first "
            "form, rows below, was within the noise on seeds 7 and 8) and the influence weight 1.0 (the rows below: "
            "ahead on both seeds, on seed 7 with the rule before and on seed 8 with the first living form); what "
            "ships, against the version before it, is the table above. Not kept: the 2,000-layout "
            "endgame (no more wins than 1,000, at about 12 ms more a game), tolerance 0.15, the pseudo 50/50, the "
            "dominance switch, 20 off-edge cells, other blends of the two next safeties and a 5,000-layout endgame on "
            "9x9 (no difference); with the C search, a 3,000-layout endgame on expert (no difference, at 9-14 ms more "
            "a game). Leaving dead cells unsorted (`dead=False`), forced sets untaken (`forced=False`) and "
            "tolerance 0.2 made no difference either; the defaults stay. A two-ply look-ahead (`depth=2`, its "
            "two rows) won the same on 9x9 and fewer expert games, at seven to ten times the "
            "CPU: it stays off. "
            + _calibration(root)
            + "Runs whose commit says `+ WEIGHT = 1.0`, `+ BLEND = ...`, `+ fitted powers`, `+ fitted L0 power` "
            "or `+ power 0.6` ran from a copy of that commit with the constant changed (each "
            "`run.json` says so under `tree`). Written by "
            "`python benchmarks/best_tuning.py` (`results/best/tuning/`, each run's command in its `run.json`).\n\n"
            + _table(["change", "at commit", "games", "before %", "after %", "after - before, paired"], rows)
        )
    optimal_gap = _optimal_gap(root)
    regret = _regret(root)
    if regret:
        parts.append(regret)
    if optimal_gap:
        parts.append(optimal_gap)
    first_clicks = _load(root / "openings" / "data.json")
    if first_clicks is not None:
        rows = [
            [
                p["board"],
                p["rule"],
                f"({p['cell'][0]}, {p['cell'][1]})",
                f"{p['games']:,}",
                _pct(p["rate"], p["se"]),
                _chosen(p),
            ]
            for p in first_clicks["points"]
        ]
        parts.append(
            "### First clicks\n\n"
            + (
                f"Measured with `best` at {first_clicks['tree']}. "
                if "tree" in first_clicks
                else "Measured with an earlier version of `best` (before the 50/50 influence and the 1,000-layout endgame). "
            )
            + "Each cell is its own run on root seed 0 (under `zero` the "
            "layout depends on the click, so these are not paired; the margin's SE is that of two independent "
            "rates). `best` opens at the chosen cell when the harness leaves the first click to it (`--first-click "
            "auto`); `sweeplab.strategies.best.opening.OPENINGS` holds them, and a test keeps it equal to this "
            "data.\n\n"
            + _table(["board", "rule", "first click", "games", "best win %", ""], rows)
            + f"\nCommands: {first_clicks['command']} (data in `results/best/openings/`)."
        )
    first_guess = _first_guess(root)
    if first_guess:
        parts.append(first_guess)
    cost_data = _load(root / "cost" / "data.json")
    if cost_data is not None:
        rows = [
            [
                f"{p['board']} {p['rule']} ({p['first_click'][0]}, {p['first_click'][1]})",
                f"{p['games']:,}",
                f"{p['cpu_ms']['mean']:.1f}",
                f"{p['cpu_ms']['median']:.1f}",
                f"{p['cpu_ms']['p99']:.1f}",
                f"{p['cpu_ms']['worst']:.0f}",
                f"{100 * p['searched_share']:.1f}%",
                f"{100 * p['budget_share']:.2f}%",
            ]
            for p in cost_data["points"]
        ]
        parts.append(
            '### Cost of best\n\nOne process on one core, CPU time per game; "searched" is the share of games in which '
            'an endgame search ran, "over budget" the share in which one ran past its budget and the strategy fell '
            "back to the look-ahead.\n\n"
            + _table(
                ["board, rule, first click", "games", "mean ms", "median ms", "p99 ms", "worst ms", "searched", "over budget"],
                rows,
            )
            + "\nCommands:\n\n```\n"
            + "\n".join(p["command"] for p in cost_data["points"])
            + "\n```"
        )
    return "\n\n".join(p.rstrip() for p in parts) + "\n"


def _table(header: list[str], rows: list[list[Any]]) -> str:
    out = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(out) + "\n"


def first_click_arg(text: str) -> tuple[int, int]:
    """An argparse type for ``--first-click X,Y`` (the scripts in ``benchmarks/`` use it too)."""
    try:
        x, y = (int(v) for v in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"a first click is X,Y (two integers), not {text!r}") from None
    return x, y


def main(argv: list[str] | None = None) -> int:
    args_list = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(description=" ".join(__doc__.split("\n\n")[0].split()))
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
        point["command"] = "python -m sweeplab.bench.best_results " + shlex.join(args_list)
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


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
