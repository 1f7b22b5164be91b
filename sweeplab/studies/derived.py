"""Figures the explanations quote that no committed run file holds as one value, written beside the data they come
from as ``results/<dir>/derived.json`` so that :func:`sweeplab.studies.explanations.fill` can read them.

    python -m sweeplab.studies.derived [--results results]

The results pages run this before they fill ``results/explanations.json`` (:func:`sweeplab.studies.pages.build.main`),
and a test checks that the committed files equal what it computes, so a derived figure changes with its data and
cannot be typed by hand. Two kinds of figure need it:

- Sums, shares, ranges, maxima and paired differences over a run's committed rows (the calibration runs' guess mix
  and largest |z|, the games of the frontier run, the chance of a sample with no win at a measured rate). The pages
  computed some of them for their tables; computing them here once, from the same committed data, keeps the
  experiments' own files as the run wrote them (no rerun is needed to add a figure).
- The figures of two text records of runs that are not repeated to add a JSON file:
  ``results/cpu/tail-check.txt`` (CPU times, which need a quiet machine to measure again) and
  ``results/frontier/uncapped.txt`` (an uncapped replay that took hours and was stopped by hand). Their lines are
  parsed with the patterns their scripts print (``benchmarks/papers/seed000_cpu_tail.py``,
  ``benchmarks/papers/seed000_frontier_uncapped.py``); a line that does not match is an error, not a gap, so a
  changed script cannot silently drop a figure the explanations quote.

The learned players' figures (per-board choice costs, noise ablations and paired differences across the runs of one
board, ``results/learn/derived.json``) are computed by :mod:`sweeplab.studies.derived_learn`.

Units follow the run files: rates and shares as fractions, times in seconds (``fill``'s ``%`` and ``ms`` formats scale
them).
"""

from __future__ import annotations

import argparse
import json
import math
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sweeplab.studies.derived_learn import learn

NAME = "derived.json"

# The two-sided chance that a calibrated bin lies beyond 2 SE (normal approximation): how many of a table's bins are
# expected to be flagged by chance alone.
BEYOND_2SE = math.erfc(2 / math.sqrt(2))

# Seed 002 states no sample size; 200 games is the size at which the explanation asks how likely a table of hand-run
# games is to show no win at our measured rate.
NO_WIN_SAMPLE = 200


def _json(path: Path) -> Any:
    return json.loads(path.read_text())


def calibration(folder: Path) -> dict[str, Any] | None:
    """Per strategy of a calibration run (``data.json``): its guesses, its bins beyond 2 SE against the number expected
    by chance, the largest |z| of its bins (all, and those with over 1,000 guesses) and of its board groups, each
    board group's mix of guess kinds and headline-bin rate (educated guesses estimated 80-84%), and every other
    strategy's paired difference from the first in seed 000's bins."""
    path = folder / "data.json"
    if not path.is_file():
        return None
    data = _json(path)
    bins, groups, paper = data.get("bins", []), data.get("groups", []), data.get("paper_bins", [])
    strategies = list(dict.fromkeys(r["strategy"] for r in [*bins, *groups, *paper]))
    found = []
    for strategy in strategies:
        sb = [b for b in bins if b["strategy"] == strategy]
        kinds = []
        for kind in dict.fromkeys(b["kind"] for b in sb):
            kb = [b for b in sb if b["kind"] == kind]
            big = [abs(b["z"]) for b in kb if b["observations"] > 1000]
            kinds.append(
                {
                    "kind": kind,
                    "bins": len(kb),
                    "beyond_2se": sum(1 for b in kb if abs(b["z"]) > 2),
                    "max_abs_z": max(abs(b["z"]) for b in kb),
                    "max_abs_z_over_1000": max(big) if big else None,
                    "group_max_abs_z": _group_z(groups, strategy, kind),
                }
            )
        sg = [g for g in groups if g["strategy"] == strategy]
        mixes = []
        for group in dict.fromkeys(g["group"] for g in sg):
            gs = {g["kind"]: g for g in sg if g["group"] == group}
            total = sum(g["guesses"] for g in gs.values())
            ed = gs.get("educated")
            head = ed["bin_80_84_successes"] / ed["bin_80_84_guesses"] if ed and ed.get("bin_80_84_guesses") else None
            mixes.append(
                {"group": group, "guesses": total}
                | {k: (g["guesses"] / total if total else None) for k, g in gs.items()}
                | {"bin_80_84_rate": head}
            )
        heads = [m["bin_80_84_rate"] for m in mixes if m["bin_80_84_rate"] is not None]
        found.append(
            {
                "strategy": strategy,
                "guesses": sum(b["observations"] for b in sb),
                "bins": len(sb),
                "beyond_2se": sum(1 for b in sb if abs(b["z"]) > 2),
                "expected_beyond_2se": len(sb) * BEYOND_2SE,
                "kinds": kinds,
                "groups": mixes,
                "bin_80_84_rate_low": min(heads) if heads else None,
                "bin_80_84_rate_high": max(heads) if heads else None,
            }
        )
    return {"source": f"results/{folder.name}/data.json", "strategies": found, "paired": _paired(paper, strategies)}


def _group_z(groups: list[dict[str, Any]], strategy: str, kind: str) -> float | None:
    """The largest |z| over the board groups of one strategy's ``kind`` guesses, z as the bins' (the error the
    observed rate would have if the mean estimate were right)."""
    zs = []
    for g in groups:
        n, estimate = g["guesses"], g["mean_estimate"]
        if g["strategy"] == strategy and g["kind"] == kind and n and estimate is not None and 0 < estimate < 1:
            zs.append(abs((g["successes"] / n - estimate) / math.sqrt(estimate * (1 - estimate) / n)))
    return max(zs) if zs else None


def _paired(paper: list[dict[str, Any]], strategies: list[str]) -> list[dict[str, Any]]:
    """Each later strategy's rate minus the first's in each of seed 000's bins both observed, with the two binomial
    SEs combined (the runs deal independent games, so the errors add)."""
    if len(strategies) < 2:
        return []
    first = {(r["kind"], r["bin"]): r for r in paper if r["strategy"] == strategies[0]}
    found = []
    for r in paper:
        base = first.get((r["kind"], r["bin"]))
        if r["strategy"] == strategies[0] or base is None or r["rate"] is None or base["rate"] is None:
            continue
        found.append(
            {
                "strategy": r["strategy"],
                "against": strategies[0],
                "kind": r["kind"],
                "bin": r["bin"],
                "difference": r["rate"] - base["rate"],
                "se": math.hypot(r["se"], base["se"]),
            }
        )
    return found


def levels(folder: Path) -> dict[str, Any] | None:
    """For each point the paper reports as 0% won: the chance that a sample of ``NO_WIN_SAMPLE`` games at our measured
    rate shows no win."""
    path = folder / "data.json"
    if not path.is_file():
        return None
    points = _json(path)["points"]
    keys = ("group", "strategy", "board", "rule")
    return {
        "source": f"results/{folder.name}/data.json",
        "no_win": [
            {k: p[k] for k in keys}
            | {"win_rate": p["win_rate"], "sample": NO_WIN_SAMPLE, "chance": (1 - p["win_rate"]) ** NO_WIN_SAMPLE}
            for p in points
            if p.get("published_percent") == 0
        ],
    }


_RUN = re.compile(
    r"(?P<spec>\S+) on (?P<board>\S+): mean (?P<mean>[\d.]+) ms, worst (?P<worst>\d+) ms, costliest 1% of games "
    r"(?P<top>[\d.]+)% of the CPU, games with a capped set (?P<n>\d+) \[(?P<games>[\d, ]*)\]$"
)
_RATIO = re.compile(r"(?P<spec>\S+): intermediate / expert CPU ratio (?P<ratio>[\d.]+)$")
_GAME = re.compile(r"game (?P<game>\d+): (?P<caps>.*)$")
_CAP = re.compile(r"cap (?P<cap>[\d.e+]+) (?P<seconds>[\d.]+) s \((?P<capped>\d+) capped(?: set)?\)")


def _ints(text: str) -> list[int]:
    """A printed list of games, ``5, 7``."""
    return [int(x) for x in text.replace(" ", "").split(",") if x]


def _count(text: str) -> int:
    """A count printed with thousands separators, ``24,897,537``."""
    return int(text.replace(",", ""))


def cpu(folder: Path) -> dict[str, Any] | None:
    """The figures of ``tail-check.txt``: each run's mean and worst game CPU, the costliest 1% of games' share and the
    games with a capped set; each variant's intermediate / expert ratio; the capped games replayed at larger caps."""
    path = folder / "tail-check.txt"
    if not path.is_file():
        return None
    runs: list[dict[str, Any]] = []
    ratios: list[dict[str, Any]] = []
    replays: list[dict[str, Any]] = []
    games = None
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip():
            continue
        if line.startswith("#"):
            if m := re.match(r"# (\d+) games per board", line):
                games = int(m.group(1))
            continue
        if m := _RUN.match(line):
            runs.append(
                {
                    "spec": m["spec"],
                    "board": m["board"],
                    "mean_seconds": round(float(m["mean"]) / 1000, 8),
                    "worst_seconds": int(m["worst"]) / 1000,
                    "top_1pct_share": round(float(m["top"]) / 100, 6),
                    "capped_games": _ints(m["games"]),
                }
            )
        elif m := _RATIO.match(line):
            ratios.append({"spec": m["spec"], "ratio": float(m["ratio"])})
        elif (m := _GAME.match(line)) and len(caps := _CAP.findall(m["caps"])) == len(m["caps"].split("; ")):
            replays.append(
                {
                    "game": int(m["game"]),
                    "caps": [{"cap": float(c), "seconds": float(s), "capped": int(n)} for c, s, n in caps],
                }
            )
        else:
            raise ValueError(f"{path}:{number}: a line this reader does not know: {line!r}")
    return {"source": f"results/{folder.name}/{path.name}", "games": games, "runs": runs, "ratios": ratios, "replays": replays}


_SET = r"\((\d+), (\d+), (\d+), ([\d,]+)\)"
_UNCAPPED = re.compile(
    rf"(?P<board>\S+) game (?P<game>\d+) \((?P<nodes>[\d,]+) nodes\): recorded {_SET} -> {_SET}; capped sets (?P<capped>\d+)$"
)


def frontier(folder: Path) -> dict[str, Any] | None:
    """The frontier run's games (``data.json``), and the figures of ``uncapped.txt``: each replayed game's recorded and
    uncapped largest set, how many of the games it meant to replay it reached, its node cap and threshold."""
    path = folder / "data.json"
    if not path.is_file():
        return None
    found: dict[str, Any] = {
        "source": f"results/{folder.name}/data.json",
        "games": sum(p["games"] for p in _json(path)["points"]),
    }
    text = folder / "uncapped.txt"
    if not text.is_file():
        return found
    replayed: list[dict[str, Any]] = []
    uncapped: dict[str, Any] = {"source": f"results/{folder.name}/{text.name}", "games": replayed}
    fields = ("variables", "constraints", "dof", "solutions")
    for number, line in enumerate(text.read_text().splitlines(), 1):
        if not line.strip() or line.startswith("# board, game"):
            continue
        if line.startswith("#"):
            if m := re.search(r"(\d[\d,]*) or more solutions, replayed with node_cap=([\d,]+)", line):
                uncapped["threshold"], uncapped["node_cap"] = _count(m.group(1)), _count(m.group(2))
            if m := re.search(r"after these (\d+) of the (\d+) games", line):
                uncapped["replayed"], uncapped["planned"] = int(m.group(1)), int(m.group(2))
            continue
        if not (m := _UNCAPPED.match(line)):
            raise ValueError(f"{text}:{number}: a line this reader does not know: {line!r}")
        values = m.groups()
        replayed.append(
            {"board": m["board"], "game": int(m["game"]), "nodes": _count(m["nodes"])}
            | {f"recorded_{f}": _count(v) for f, v in zip(fields, values[3:7], strict=True)}
            | {f: _count(v) for f, v in zip(fields, values[7:11], strict=True)}
            | {"capped": int(m["capped"])}
        )
    found["uncapped"] = uncapped
    return found


DERIVED: dict[str, Callable[[Path], dict[str, Any] | None]] = {
    "calibration": calibration,
    "calibration-exact": calibration,
    "calibration-ties": calibration,
    "levels": levels,
    "cpu": cpu,
    "frontier": frontier,
    "learn": learn,
}


def build(results: Path) -> dict[Path, str]:
    """Each derived file's path under ``results`` and its text (folders whose data is missing are left out)."""
    found = {}
    for name, make in DERIVED.items():
        data = make(results / name)
        if data is not None:
            found[results / name / NAME] = json.dumps(data, indent=2) + "\n"
    return found


def write(results: Path) -> list[Path]:
    """Write every derived file under ``results``; the paths written."""
    files = build(results)
    for path, text in files.items():
        path.write_text(text)
    return list(files)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", type=Path, default=Path("results"))
    args = parser.parse_args(argv)
    for path in write(args.results):
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
