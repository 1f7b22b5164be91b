"""The ``search`` player's page: every number read from the runs under ``results/strongest/`` (each a ``sweeplab
bench --out`` folder with its games, the paired statistics recomputed from them) and from the optimal table
(``results/optimal/data.json``).

The verdicts follow one rule: a goal of at least +G points is met when the paired gain less two standard errors
reaches G, not met when the gain plus two standard errors stays below it, and undecided otherwise. They are
measured on the runs ``results/strongest/NAME``, which must have played a held-out seed (``sweeplab/core/heldout.py``);
the runs the player was developed on (seed 0) are kept in ``results/strongest/development/NAME`` and shown beside,
without a verdict, and the budget curve (``results/strongest/budget/``) is measured on those development layouts.
"""

from __future__ import annotations

import inspect
import json
from pathlib import Path
from typing import Any

from sweeplab.bench.stats import paired_difference
from sweeplab.core.heldout import verdict_seed
from sweeplab.strategies.search import SearchStrategy
from sweeplab.studies.best.runs import _load, read_games
from sweeplab.studies.best.surveys import _table

#: The paired runs: (folder under results/strongest, board, rule, first click, the command's --games).
CONFIGS: list[tuple[str, str, str, str]] = [
    ("expert-safe", "30x16x99", "safe", "0,0"),
    ("expert-zero", "30x16x99", "zero", "3,3"),
    ("intermediate-safe", "16x16x40", "safe", "0,0"),
]

#: ``search``'s default rollouts per decision.
DEFAULT_ROLLOUTS: int = inspect.signature(SearchStrategy).parameters["rollouts"].default
#: The rollouts a decision of the runs under development/ and rollouts-40/: ``search``'s default until b36c06e.
EARLIER_ROLLOUTS = 40
#: The folder under results/strongest of the earlier default's held-out runs.
EARLIER = f"rollouts-{EARLIER_ROLLOUTS}"

#: The expert goal, in points over ``best``, paired.
GOAL = 0.5


def verdict(gain: float, se: float, goal: float) -> str:
    """Met, not met or undecided (see the module docstring); points."""
    if gain - 2 * se >= goal:
        return "met"
    if gain + 2 * se < goal:
        return "not met"
    return "undecided"


def paired_run(folder: Path, first: int | None = None) -> dict[str, Any] | None:
    """The paired figures of a two-strategy run (the first against the second), from its games (its ``first`` games
    only, when given); None when missing."""
    if not folder.exists():
        return None
    games = read_games(folder)
    (a, ga), (b, gb) = list(games.items())[:2]
    n = min(len(ga), len(gb), first if first is not None else len(ga))
    wa, wb = [w for w, _ in ga[:n]], [w for w, _ in gb[:n]]
    gain, se = paired_difference(wa, wb)
    cpu = lambda g: sorted(c for _, c in g[:n])  # noqa: E731
    ca, cb = cpu(ga), cpu(gb)
    return {
        "a": a, "b": b, "games": n, "rate_a": sum(wa) / n, "rate_b": sum(wb) / n,
        "gain": 100 * gain, "se": 100 * se,
        "only_a": sum(x and not y for x, y in zip(wa, wb, strict=True)),
        "only_b": sum(y and not x for x, y in zip(wa, wb, strict=True)),
        "cpu_a": (1000 * sum(ca) / n, 1000 * ca[n // 2]), "cpu_b": (1000 * sum(cb) / n, 1000 * cb[n // 2]),
    }  # fmt: skip


def run_seed(folder: Path) -> int | None:
    """The root seed the run in ``folder`` played (its ``bench.json`` settings); None without the file."""
    bench = folder / "bench.json"
    return json.loads(bench.read_text())["settings"].get("seed") if bench.exists() else None


def _seeds(results: Path, where: str) -> list[int]:
    """The root seeds the runs of ``results/strongest/WHERE`` played."""
    return sorted({s for name, *_ in CONFIGS if (s := run_seed(results / "strongest" / where / name)) is not None})


def verdict_run(folder: Path) -> dict[str, Any] | None:
    """:func:`paired_run` of a run behind a verdict: refused (ValueError naming its file) unless it played a
    held-out seed, since a verdict measured on development layouts could have been chosen on its games."""
    if not folder.exists():
        return None
    verdict_seed(run_seed(folder), str(folder / "bench.json"), ": move it to results/strongest/development/")
    return paired_run(folder)


def budget_runs(results: Path) -> list[tuple[int, dict[str, Any]]]:
    """(rollouts per decision, its paired run) for every folder results/strongest/budget/rollouts-N, fewest first."""
    found = []
    for folder in sorted((results / "strongest" / "budget").glob("rollouts-*")):
        run = paired_run(folder)
        if run is not None:
            found.append((int(folder.name.partition("-")[2]), run))
    if found:  # the earlier default's point: the same first games of its full expert run on the development layouts
        default = paired_run(results / "strongest" / "development" / "expert-safe", found[0][1]["games"])
        if default is not None:
            found.append((EARLIER_ROLLOUTS, default))
    return sorted(found, key=lambda t: t[0])


def plot(results: Path) -> Path:
    """Draw the gain over ``best`` against CPU per game (each budget run, and the default's full runs) as
    results/strongest/budget.png."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    runs = budget_runs(results)
    if not runs:
        raise FileNotFoundError(f"{results / 'strongest' / 'budget'}: no rollouts-N runs (see docs/results/strongest.md)")
    fig, ax = plt.subplots(figsize=(6.4, 4.0))
    xs = [r["cpu_a"][0] for _, r in runs]
    ax.errorbar(xs, [r["gain"] for _, r in runs], yerr=[2 * r["se"] for _, r in runs], fmt="o-", capsize=3,
                label="search, expert safe (0,0), first games of seed 0")  # fmt: skip
    for (n, r), x in zip(runs, xs, strict=True):
        ax.annotate(f"{n} rollouts", (x, r["gain"]), textcoords="offset points", xytext=(5, 5), fontsize=8)
    held_out = [("", "default", name) for name, board, *_ in CONFIGS if board == "30x16x99"]
    held_out += [(EARLIER, f"{EARLIER_ROLLOUTS} rollouts", name) for _, _, name in held_out]
    for where, what, name in held_out:
        full = verdict_run(results / "strongest" / where / name)
        if full is not None:
            ax.errorbar(
                [full["cpu_a"][0]],
                [full["gain"]],
                yerr=[2 * full["se"]],
                fmt="s",
                capsize=3,
                label=f"{what}, {name} ({full['games']:,} games of held-out seed "
                f"{run_seed(results / 'strongest' / where / name):,})",
            )
    ax.axhline(GOAL, color="tab:red", linestyle="--", linewidth=1, label=f"goal +{GOAL} points")
    ax.axhline(0, color="grey", linewidth=0.8)
    ax.set_xscale("log")
    ax.set_xlabel("search's CPU per game, ms (mean)")
    ax.set_ylabel("search - best, points (paired, ± 2 SE)")
    ax.legend(fontsize=7)
    fig.tight_layout()
    path = results / "strongest" / "budget.png"
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def _pct(rate: float) -> str:
    return f"{100 * rate:.2f}"


def expert_table(results: Path, where: str = "", development: bool = False) -> str:
    """The paired runs' table of ``results/strongest/WHERE/NAME``: held-out runs with their verdicts, or
    (``development``) development runs with none."""
    rows = []
    for name, board, rule, click in CONFIGS:
        folder = results / "strongest" / where / name
        r = paired_run(folder) if development else verdict_run(folder)
        if r is None:
            rows.append([f"{board} {rule} ({click})", "not run", "", "", "", "", "", ""])
            continue
        z = (r["gain"] - GOAL) / r["se"] if r["se"] > 0 else None
        said = "no verdict" if development else verdict(r["gain"], r["se"], GOAL)
        goal = f"{said} ({z:+.1f} SE from it)" if board == "30x16x99" and z is not None else ""
        rows.append([
            f"{board} {rule} ({click})", f"{r['games']:,}", _pct(r["rate_a"]), _pct(r["rate_b"]),
            f"{r['gain']:+.2f} ± {r['se']:.2f}", f"{r['only_a']} / {r['only_b']}",
            f"{r['cpu_a'][0]:.0f} / {r['cpu_a'][1]:.0f} (best {r['cpu_b'][0]:.0f} / {r['cpu_b'][1]:.0f})", goal,
        ])  # fmt: skip
    header = ["board, rule (first click)", "games", "search %", "best %", "search - best, points",
              "won by one only (search / best)", "CPU ms per game, mean / median", f"goal +{GOAL}"]  # fmt: skip
    return _table(header, rows)


def against_best(results: Path, where: str = "") -> str:
    """A sentence: on which held-out runs (of ``results/strongest/WHERE``) ``search`` is worse than ``best`` (the gain
    plus two standard errors below 0), the rule the player ships by; '' without runs."""
    runs = [(name, r) for name, *_ in CONFIGS if (r := verdict_run(results / "strongest" / where / name)) is not None]
    if not runs:
        return ""
    worse = [name for name, r in runs if r["gain"] + 2 * r["se"] < 0]
    shown = ", ".join(f"{name} {r['gain'] / r['se']:+.1f} SE" if r["se"] > 0 else f"{name} 0" for name, r in runs)
    verdict_text = f"worse on {', '.join(worse)}" if worse else "worse on none of them"
    return (
        f"Against `best` itself (worse when the gain plus two standard errors stays below 0, the rule `search` ships "
        f"by): {verdict_text} ({shown}).\n\n"
    )


def budget_table(results: Path) -> str:
    rows = [
        [f"{n}", f"{r['games']:,}", f"{r['gain']:+.2f} ± {r['se']:.2f}", f"{r['only_a']} / {r['only_b']}", f"{r['cpu_a'][0]:.0f}",
         f"{r['cpu_b'][0]:.0f}"]
        for n, r in budget_runs(results)
    ]  # fmt: skip
    if not rows:
        return "No budget runs yet.\n"
    return _table(
        ["rollouts per decision", "games", "search - best, points", "by one only", "search CPU ms/game", "best CPU ms/game"], rows
    )


def small_table(results: Path) -> tuple[str, list[str]]:
    """The optimal table's rows where ``search`` was evaluated, and the boards that miss a small-board goal."""
    data = _load(results / "optimal" / "data.json")
    if data is None:
        return "The optimal table has not been run.\n", []
    rows_by = {(r["board"], r["rule"], r["player"]): r for r in data["rows"]}
    rows, missed = [], []
    for (board, rule, player), row in rows_by.items():
        if player != "search" or row["status"] != "done":
            continue
        optimal, best = rows_by.get((board, rule, "optimal")), rows_by.get((board, rule, "best"))
        if optimal is None or optimal["status"] != "done":
            continue
        gap = 100 * (row["win_rate"] - optimal["win_rate"])
        best_gap = 100 * (best["win_rate"] - optimal["win_rate"]) if best is not None and best["status"] == "done" else None
        if board in ("4x4x5", "4x4x6") and rule == "unsafe":
            ok = gap >= -0.5
        elif best_gap is not None and best_gap <= -0.5:
            ok = gap >= best_gap / 2
        else:
            ok = True
        if not ok:
            missed.append(f"{board} {rule}")
        if gap > -1e-9 and (best_gap is None or best_gap > -1e-9):
            continue  # both optimal: a row that says nothing
        shown_best = "" if best_gap is None else f"{best_gap:+.2f}"
        rows.append([board, rule, f"{100 * optimal['win_rate']:.2f}", shown_best, f"{gap:+.2f}", "yes" if ok else "no"])
    table = _table(["board", "rule", "optimal %", "best's gap", "search's gap", "goal met"], rows)
    return table, missed


def section(results: Path) -> str:
    """The page (empty until a run exists)."""
    return "".join(section_parts(results))


def section_parts(results: Path) -> tuple[str, str]:
    """The page in two parts, its expert runs (where the scoreboard's rows point) and the rest; empty until a run
    exists."""
    if not (results / "strongest").exists():
        return "", ""
    small, missed = small_table(results)
    data = _load(results / "optimal" / "data.json")
    evaluated = sum(1 for r in data["rows"] if r["player"] == "search" and r["status"] == "done") if data else 0
    seeds, dev_seeds, old_seeds = (_seeds(results, where) for where in ("", "development", EARLIER))
    earlier = (
        f"The earlier default, {EARLIER_ROLLOUTS} rollouts a decision, on the held-out seed "
        f"{', '.join(f'{s:,}' for s in old_seeds)} (`results/strongest/{EARLIER}/NAME`, the same "
        "commands before the default changed). These runs are why it changed, so the default's verdicts above are "
        "measured on another held-out seed:\n\n" + expert_table(results, EARLIER) + "\n" + against_best(results, EARLIER)
        if old_seeds
        else ""
    )
    development = (
        f"On the development layouts (root seed {', '.join(map(str, dev_seeds))}, the bench's default: the games "
        "`search`'s defaults were chosen on, so they carry no verdict), `results/strongest/development/NAME`:\n\n"
        + expert_table(results, "development", development=True)
        + "\n"
        if dev_seeds
        else ""
    )
    return (
        "## The search player against best\n\n"
        "`search` is `best` with its close guesses played out on layouts drawn exactly from the posterior (module "
        "docstring of `sweeplab/strategies/search/strategy.py`). Paired on the same games as `best`, the first games "
        f"of the held-out root seed {', '.join(f'{s:,}' for s in seeds) or '(none yet)'} (`sweeplab/core/heldout.py`: "
        "no choice made in the player's development played them):\n\n"
        + expert_table(results)
        + "\nEach row is one `sweeplab bench -s search,best -b BOARD --rule RULE --first-click X,Y -n GAMES --seed SEED "
        "--out results/strongest/NAME` run (its `--json` summary beside it as `NAME.json`); the paired difference and "
        "its standard error are recomputed here from `games.csv`. A goal is met when the gain less two standard errors "
        "reaches it, not met when the gain plus two standard errors stays below it, and undecided between; the goal on "
        f"expert is a paired gain of +{GOAL:.2f} or more points. Each folder's `run.json` holds the exact command (run "
        "from a frozen copy of the tree, its output copied here). " + against_best(results) + earlier + development,
        "### What more rollouts buy\n\n![gain against CPU](../results/strongest/budget.png)\n\n"
        + budget_table(results)
        + "\nEach row: `sweeplab bench -s 'search[rollouts=N],best' -n GAMES --first-click 0,0 --out "
        f"results/strongest/budget/rollouts-N` (expert, safe, the development seed 0); the row for {EARLIER_ROLLOUTS}, the "
        "earlier default, is the same first games of the development run `development/expert-safe`; the default is now "
        f"{DEFAULT_ROLLOUTS}; the picture: `python -m sweeplab.studies.strongest`.\n\n"
        "### Small boards, exactly\n\n"
        f"From the optimal table (`docs/results/optimal.md`; `search` evaluated exactly on {evaluated} boards and rules, "
        "those with at most 10,000 layouts, where its whole-board search applies). Rows where both `best` and "
        "`search` play optimally are left out. Goals: within 0.5 points of optimal on 4x4x5 and 4x4x6 `unsafe`; "
        "elsewhere at most half of `best`'s gap where that gap is 0.5 points or more.\n\n"
        + small
        + ("\nEvery evaluated board meets its goal.\n" if not missed else f"\nMissed: {', '.join(missed)}.\n"),
    )


def scores(results: Path) -> list[tuple[str, str, str, str, float, bool]]:
    """The scoreboard's rows: (claim, goal, measured, games, z against the goal, differs) per expert run; a row
    differs unless its goal is met."""
    rows = []
    for name, board, rule, click in CONFIGS:
        r = verdict_run(results / "strongest" / name)
        if r is None or board != "30x16x99" or r["se"] <= 0:
            continue
        rows.append((
            f"search - best on expert, {rule} ({click}), paired", f"+{GOAL:.2f} or more",
            f"{r['gain']:+.2f} ± {r['se']:.2f}", f"{r['games']:,}", (r["gain"] - GOAL) / r["se"],
            verdict(r["gain"], r["se"], GOAL) != "met",
        ))  # fmt: skip
    return rows
