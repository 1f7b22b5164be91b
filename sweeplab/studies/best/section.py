"""The ``best`` strategy's section of docs/results.md: its paired runs beside the strongest published solvers
(``shared/anchors.md``), the earlier versions, ablation, tuning, first clicks and cost."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from sweeplab.bench.stats import binomial_se, paired_difference
from sweeplab.studies.best.runs import _load, _ms, _pct, read_games
from sweeplab.studies.best.surveys import _calibration, _first_guess, _optimal_gap, _regret, _table

#: The six paired configurations of the target: (directory under results/best/paired, board, rule, first click).
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


def _chosen(point: dict[str, Any]) -> str:
    if not point.get("chosen"):
        return ""
    if "margin" not in point:
        return "chosen"
    return f"chosen: +{100 * point['margin']:.2f} ± {100 * point['margin_se']:.2f} over the next cell"


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


def _influence_bound(pairs: list[dict[str, Any]]) -> str:
    """The sentence on the bound to what the 50/50 influence may trade (``influence_bound``), from its paired row."""
    row = next((p for p in pairs if p["change"].startswith("influence bound")), None)
    if row is None:
        return ""
    d, se = 100 * row["difference"], 100 * row["se"]
    verdict = (
        "ahead by more than 2 SE, though not yet the default"
        if d > 2 * se
        else "behind by more than 2 SE: the bound stays off"
        if d < -2 * se
        else "within 2 SE: no gain, so the bound stays off"
    )
    return (
        "A bound on the safety the influence may trade away, `influence_bound=0.05` (a factor only for cells at most 5 "
        f"points less safe than the safest), over {row['games']:,} expert games: {d:+.2f} ± {se:.2f} points against "
        f"the unbounded influence, {verdict}. "
    )


def section(results: Path) -> str:
    """The docs/results.md section for the best strategy (empty until results/best/ holds data)."""
    root = results / "best"
    if not root.exists():
        return ""
    parts = [
        "## The best strategy against the strongest published solvers\n\n"
        "`best` (`sweeplab/strategies/best/`, options in `sweeplab strategies --options best`) beside "
        "`exact` on the same layouts, each row one paired run (`sweeplab bench --strategy best,exact`, root seed 1, "
        f"the strategy's default settings, fixed before these runs, from a frozen clone at commit {FROZEN}). "
        + (
            "Later trees play the same games: since commit f146a84 `exact` and `best` run a single-point pass before each "
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
        "`shared/anchors.md` for the configuration; the target asks 100,000 games per "
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
        "against the target",
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
            f"layouts for every variant; the target asks 20,000 or more)\n\nThe difference is the variant minus full "
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
            + _influence_bound(pairs)
            + _calibration(root)
            + "Runs whose commit says `+ WEIGHT = 1.0`, `+ BLEND = ...`, `+ fitted powers`, `+ fitted L0 power` "
            "or `+ power 0.6` ran from a copy of that commit with the constant changed (each "
            "`run.json` says so under `tree`). Written by "
            "`python benchmarks/best/best_tuning.py` (`results/best/tuning/`, each run's command in its `run.json`).\n\n"
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
