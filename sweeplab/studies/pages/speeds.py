"""docs/performance.md's speed tables, each from a committed benchmark result with its command, date and machine."""

from __future__ import annotations

import csv
import json
import math
import time
from pathlib import Path
from typing import Any

from sweeplab.studies.pages.page import _table
from sweeplab.studies.published import PSEQ_HERE

#: The bar ``best`` is held to: mean CPU per expert game, in milliseconds.
BEST_EXPERT_BAR_MS = 8.0

PRESETS = {"expert": "expert 30x16/99", "intermediate": "intermediate 16x16/40", "beginner": "beginner 9x9/10"}
SPECS = {"expert": "30x16x99", "intermediate": "16x16x40", "beginner": "9x9x10"}


def _read(path: Path) -> Any:
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError) as error:
        raise ValueError(f"{path}: cannot be read as JSON ({error})") from None


def _day(seconds: float) -> str:
    return time.strftime("%Y-%m-%d", time.gmtime(seconds))


#: The whole-process goals: start-up CPU seconds at most, games per CPU second at least, per preset; and the
#: harness's CPU outside the games, microseconds per game at most.
WHOLE_PROCESS_GOALS = {"start-up": 0.2, "expert": 1500, "intermediate": 4000, "beginner": 12500, "outside": 10.0}


def whole_process(results: Path) -> str:
    """`exact` as a user counts it: the CPU of whole `sweeplab bench` processes, two trees alternated, beside the
    goals; and the harness's CPU outside the games (where the run recorded it)."""
    data = _read(results / "performance" / "whole-process" / "summary.json")
    meta, summary = data["meta"], data["summary"]
    before, after = summary["before"], summary["after"]
    runs = {tree: {k: v["runs"] for k, v in summary[tree].items()} for tree in summary}
    starts = runs["after"]["start-up CPU s"]
    per_run: dict[str, set[int]] = {}
    with (results / "performance" / "whole-process" / "runs.csv").open(newline="") as handle:
        for row in csv.DictReader(handle):
            per_run.setdefault(row["preset"], set()).add(int(row["games"]))
    trees = {tree: Path(path).name.rsplit("-", 1)[-1] for tree, path in meta["trees"].items()}
    goals = WHOLE_PROCESS_GOALS
    start_b, start_a = before["start-up CPU s"]["median"], after["start-up CPU s"]["median"]
    rows = [
        [
            "start-up: `sweeplab bench ... --games 1`, CPU s",
            f"{start_b:.3f}",
            f"**{start_a:.3f}**",
            f"{start_a / start_b:.2f}",
            f"at most {goals['start-up']}: {'met' if start_a <= goals['start-up'] else 'not met'}",
        ]
    ]
    for preset in ("expert", "intermediate", "beginner"):
        b, a = before[preset], after[preset]
        rows.append(
            [
                f"{preset}, games per CPU second ({'/'.join(f'{g:,}' for g in sorted(per_run[preset]))} games a run; "
                f"median of {a['runs']} runs, range)",
                f"{b['median']:,.0f} ({b['low']:,.0f}-{b['high']:,.0f})",
                f"**{a['median']:,.0f}** ({a['low']:,.0f}-{a['high']:,.0f})",
                f"{a['median'] / b['median']:.2f}",
                f"at least {goals[preset]:,}: {'met' if a['median'] >= goals[preset] else 'not met'}",
            ]
        )
    for preset in ("expert", "intermediate", "beginner"):
        b, a = before[preset], after[preset]
        if "outside_us_per_game" not in a:
            continue
        rows.append(
            [
                f"{preset}, the harness outside the games, µs of CPU per game (median)",
                f"{b['outside_us_per_game']:.1f}" if "outside_us_per_game" in b else "",
                f"**{a['outside_us_per_game']:.1f}**",
                f"{a['outside_us_per_game'] / b['outside_us_per_game']:.2f}" if "outside_us_per_game" in b else "",
                f"at most {goals['outside']:g}: {'met' if a['outside_us_per_game'] <= goals['outside'] else 'not met'}",
            ]
        )
    header = ["`exact`, one core, whole process", f"before ({trees['before']})", "this tree", "after / before", "goal"]
    return "\n".join(
        [
            _table(header, rows),
            f"(`python {meta['command']}`, run {meta['date']} on {meta['machine']}: user + system CPU of the whole "
            f"`sweeplab bench -s {meta['strategy']} --rule safe --first-click 0,0 -j 1` process, the two trees "
            f"alternated, medians; start-up is the median of {starts} runs of `--games 1`; outside the games: the whole "
            "process less the start-up and the games' own CPU (`--json`'s `cpu_mean`, from the deal to the last move), "
            "per game. Data: `results/performance/whole-process/` (`runs.csv`, every child process; `summary.json`).)",
        ]
    )


def _config(data: dict[str, Any], name: str) -> dict[str, Any]:
    for c in data["configs"]:
        if c["config"] == name:
            return c
    raise ValueError(f"no config {name} in the benchmark's summary.json")


def identity_932d948(results: Path) -> str:
    """`exact` and `best` in this tree against 932d948, the same layouts alternately, every move compared."""
    return identity(results, "932d948")


def identity_b36c06e(results: Path) -> str:
    """`exact` and `best` in this tree against b36c06e (before the dealing in C), every move compared."""
    return identity(results, "b36c06e")


def identity(results: Path, commit: str) -> str:
    """`exact` and `best` in this tree against ``commit``, the same layouts alternately, every move compared
    (``results/performance/identity-COMMIT/``; its ``rules/`` run, the other first-click rules, where there is one)."""
    folder = results / "performance" / f"identity-{commit}"
    data = _read(folder / "summary.json")
    rows, ahead = [], []
    for c in data["configs"]:
        strategy, preset, _ = c["config"].split(":")
        old, new = c["old_games_per_cpu_second"], c["new_games_per_cpu_second"]
        pseq = PSEQ_HERE.get(SPECS[preset]) if strategy == "exact" else None
        if pseq:
            ahead.append(f"{new['median'] / pseq:.2f} times on {preset}")
        rows.append(
            [
                f"`{strategy}`, {PRESETS[preset]}",
                f"{c['games']:,}",
                f"{old['median']:,.0f} ({c['old_mean_ms']:.2f} ms)",
                f"**{new['median']:,.0f}** ({c['new_mean_ms']:.2f} ms)",
                f"{new['median'] / old['median']:.1f}",
                f"{min(new['chunks']):,.0f}-{max(new['chunks']):,.0f} ({len(new['chunks'])} chunks)",
                f"{pseq:,}" if pseq else "",
                c["games_differing"],
            ]
        )
    header = [
        "strategy, board",
        "layouts",
        f"{commit}, games per CPU second (mean CPU per game)",
        "this tree",
        "new / old",
        "this tree's chunks",
        "PSEQ's C++ here (`shared/anchors.md`)",
        "games whose moves differ",
    ]
    rules = _read(folder / "rules" / "summary.json")["configs"] if (folder / "rules" / "summary.json").exists() else []
    total = sum(c["games"] for c in data["configs"])
    differ = sum(c["games_differing"] for c in data["configs"])
    other = (
        " The other first-click rules, in `rules/` (the same command with "
        + ", ".join(f"`--config {c['config']}:{c['games']}:{c['chunk']}`" for c in rules)
        + f"): {sum(c['games_differing'] for c in rules)} of {sum(c['games'] for c in rules):,} games differ."
        if rules
        else ""
    )
    return "\n".join(
        [
            _table(header, rows),
            f"{differ} of the {total:,} games differ in any move (layout, moves, guesses with the `repr` of their "
            f"safety, final state).{other}",
            "",
            f"(`benchmarks/engine/exact_speed.py`, run {data['date']} on {data['machine']}; data "
            f"`results/performance/identity-{commit}/`: the two trees alternately, chunk by chunk, one process at a time; "
            "medians of the chunks' games per CPU second, the mean CPU per game over all layouts in brackets. "
            f"{data.get('recorded', '')}.) Against PSEQ's rate measured on this machine type, `exact`'s median is "
            + ", ".join(ahead)
            + " (PSEQ was not rerun in the same run: its figures are `shared/anchors.md`'s).",
        ]
    )


def best_speed(results: Path) -> str:
    """`best`'s CPU per expert game: the latest identity benchmark's figure (its moves compared with the tree before)
    and a later plain bench run, each with its source."""
    first = _read(results / "performance" / "identity-932d948" / "summary.json")
    first_c = _config(first, "best:expert:safe")
    latest_folder = results / "performance" / "identity-b36c06e"
    identity, commit = (_read(latest_folder / "summary.json"), "b36c06e") if latest_folder.exists() else (first, "932d948")
    c = _config(identity, "best:expert:safe")
    chunks = sorted(1000 / r for r in c["new_games_per_cpu_second"]["chunks"])
    median_chunk = chunks[len(chunks) // 2] if len(chunks) % 2 else (chunks[len(chunks) // 2 - 1] + chunks[len(chunks) // 2]) / 2
    folder = results / "performance" / "best-expert-bench"
    bench, run = _read(folder / "bench.json"), _read(folder / "run.json")
    s = next(x for x in bench["summaries"] if x["strategy"] == "best")
    cpu = [float(row.split(",")[6]) for row in (folder / "games.csv").read_text().splitlines()[1:]]
    mean = sum(cpu) / len(cpu)
    se = math.sqrt(sum((x - mean) ** 2 for x in cpu) / (len(cpu) - 1) / len(cpu))

    def side(ms: float) -> str:
        return "under" if ms < BEST_EXPERT_BAR_MS else "over"

    return (
        f"`best` takes {c['new_mean_ms']:.1f} ms of CPU per expert game in the benchmark against {commit} (mean over its "
        f"{c['games']:,} layouts, {c['games_differing']} of them played differently, the median chunk {median_chunk:.1f} "
        f"ms; run {identity['date']}; {commit}'s tree {c['old_mean_ms']:.1f} ms in the same run), {side(c['new_mean_ms'])} "
        f"the bar of {BEST_EXPERT_BAR_MS:.0f} ms; against 932d948, before its look-ahead moved to C, it takes "
        f"{first_c['old_mean_ms'] / first_c['new_mean_ms']:.1f} times less ({first['date']}). In a plain bench run of "
        f"{s['games']:,} expert games (`{run['command']}`, finished {_day(run['ended'])} on {run['cores']} cores shared "
        f"with other work; `results/performance/best-expert-bench/`) it took {1000 * mean:.1f} ± {1000 * se:.1f} ms per "
        f"game (mean ± SE over games, median {1000 * s['cpu_median']:.1f} ms), {side(mean * 1000)} the bar. The two are "
        "different "
        "measurements (the benchmark alternates two trees one process at a time; the bench run shares the machine with "
        "whatever else runs), so they are given apart."
    )


#: The tree the ``pseq`` speed benchmark compares with: the commit before its guesses moved into the C game loop.
PSEQ_BEFORE = "8aa4535"
#: ``pseq``'s speed goal: its CPU per game at most this many times ``exact``'s ("at exact's speed", within a tenth).
PSEQ_SPEED_GOAL = 1.1


def pseq_speed(results: Path) -> str:
    """``pseq`` beside ``exact``, and beside ``pseq`` of the tree before its guesses moved into the C game loop
    (:data:`PSEQ_BEFORE`): ``benchmarks/engine/exact_speed.py``'s run in ``results/performance/pseq-COMMIT/``, both
    players in both trees, alternated chunk by chunk."""
    folder = results / "performance" / f"pseq-{PSEQ_BEFORE}"
    data = _read(folder / "summary.json")
    rows, ratios = [], []
    for preset in PRESETS:
        p, e = _config(data, f"pseq:{preset}:safe"), _config(data, f"exact:{preset}:safe")
        ratio = p["new_mean_ms"] / e["new_mean_ms"]
        ratios.append(ratio)
        rows.append(
            [
                PRESETS[preset],
                f"{p['games']:,}",
                f"{p['old_mean_ms']:.2f}",
                f"**{p['new_mean_ms']:.2f}**",
                f"{e['new_mean_ms']:.2f}",
                f"{ratio:.1f}",
                f"{p['old_mean_ms'] / p['new_mean_ms']:.1f}",
                f"{p['games_differing']} / {e['games_differing']}",
            ]
        )
    header = [
        "board (safe)",
        "layouts",
        f"`pseq`, {PSEQ_BEFORE}: CPU ms per game",
        "`pseq` now",
        "`exact` now",
        "`pseq` / `exact`",
        "`pseq` before / now",
        "games that differ from the tree before, `pseq` / `exact`",
    ]
    return "\n".join(
        [
            _table(header, rows),
            f"`pseq` takes {min(ratios):.1f} to {max(ratios):.1f} times `exact`'s CPU per game: "
            + (
                "at its speed. "
                if max(ratios) <= PSEQ_SPEED_GOAL
                else "not yet at its speed (taken as within a tenth of its CPU). "
            )
            + f"(`benchmarks/engine/exact_speed.py --old TREE-{PSEQ_BEFORE}`, run {data['date']} on {data['machine']}; "
            f"data `results/performance/pseq-{PSEQ_BEFORE}/` with its command in `command.txt`: the two trees "
            "alternately, chunk by chunk, one process at a time; mean CPU per game over all layouts, as `sweeplab bench` "
            "counts it.)",
        ]
    )
