"""The page builder behind docs/results/: a ``Doc`` gathers each page's Markdown from the data under results/, every
difference beyond 2 SE with its explanation, and the scoreboard's rows."""

from __future__ import annotations

import json
import math
import re
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sweeplab.studies.explanations import Explanation, explanation


def _table(header: list[str], rows: list[list[Any]]) -> str:
    out = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(out) + "\n"


def _duration(seconds: float) -> str:
    """A wall time in words: seconds, minutes or hours."""
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def _pm(rate: float, se: float) -> str:
    return f"{100 * rate:.1f} ± {100 * se:.1f}"


def headings(text: str) -> list[str]:
    """The Markdown headings of ``text`` (outside code blocks), without their ``#`` marks."""
    found, fenced = [], False
    for line in text.splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and re.match(r"#{1,6} ", line):
            found.append(line.lstrip("#").strip())
    return found


def anchor(heading: str, earlier: list[str]) -> str:
    """The link anchor a Markdown renderer (GitHub's rules) gives ``heading`` after the page's ``earlier`` headings."""

    def slug(text: str) -> str:
        return re.sub(r"[^\w\- ]", "", text.lower()).replace(" ", "-")

    base = slug(heading)
    seen = sum(1 for h in earlier if slug(h) == base)
    return base if seen == 0 else f"{base}-{seen}"


@dataclass(frozen=True)
class Score:
    """One numeric claim of a paper beside our number, as its page prints it: a row of the index's scoreboard."""

    page: str
    anchor: str
    claim: str
    published: str
    measured: str
    n: str
    z: float
    differs: bool  # beyond 2 SE, or (a claim with its own test) not reproduced
    key: str  # the label results/explanations.json uses


class Doc:
    def __init__(self, results: Path, explanations: Mapping[str, str | Explanation]) -> None:
        self.results = results
        self.explanations = {label: explanation(value) for label, value in explanations.items()}
        self.pages: dict[str, list[str]] = {}
        self.page = "index"
        self.parts: list[str] = self.pages.setdefault(self.page, [])
        self.headings: dict[str, list[str]] = {}
        self.scores: list[Score] = []
        self.unexplained: list[str] = []
        self.used: set[str] = set()
        self.listed: list[tuple[str, str, str]] = []  # (label, extent, explanation) of every difference beyond 2 SE

    def start(self, page: str) -> None:
        """Write what follows on ``page`` (``index`` is docs/results.md, any other docs/results/PAGE.md)."""
        self.page = page
        self.parts = self.pages.setdefault(page, [])

    def score(
        self,
        claim: str,
        published: str,
        measured: str,
        n: object,
        z: float | None,
        key: str | None = None,
        differs: bool | None = None,
    ) -> None:
        """Record a paper's number beside ours for the scoreboard, linked to the section being written (none without z).
        ``differs`` defaults to a difference beyond 2 SE; ``key`` (default: ``claim``) is the explanation's label."""
        if z is None:
            return
        seen = self.headings.get(self.page, [])
        where = anchor(seen[-1], seen[:-1]) if seen else ""
        beyond = abs(z) > 2 if differs is None else differs
        self.scores.append(Score(self.page, where, claim, published, measured, str(n), z, beyond, key or claim))

    def load(self, name: str) -> dict[str, Any] | None:
        path = self.results / name / "data.json"
        return json.loads(path.read_text()) if path.exists() else None

    def run_record(self, name: str) -> str:
        """Wall time and cores of the run, from ``results/<name>/run.json`` (written by ``--out``), if kept."""
        path = self.results / name / "run.json"
        try:
            run = json.loads(path.read_text())
        except (OSError, ValueError):
            return ""
        wall, cores = run.get("wall_seconds"), run.get("cores")
        if not isinstance(wall, int | float) or not run.get("finished"):
            return ""
        when = ""
        if isinstance(run.get("ended"), int | float):
            when = time.strftime(" (finished %Y-%m-%d)", time.gmtime(run["ended"]))
        return f"Wall time {_duration(wall)} on a {cores}-core machine shared with other work{when}."

    def add(self, text: str) -> None:
        self.parts.append(text.rstrip() + "\n\n")
        self.headings.setdefault(self.page, []).extend(headings(text))

    def source(self, data: dict[str, Any], name: str, plots: list[str]) -> None:
        games = ", `outcomes.csv.gz` (every game)" if (self.results / name / "outcomes.csv.gz").exists() else ""
        text = f"Data: `results/{name}/` (`data.csv`, `data.json`, `table.md`{games}), produced by `{data['command']}`."
        if data.get("quick"):
            text += " This is a --quick run: its sample is tiny."
        run = self.run_record(name)
        if run:
            text += " " + run
        for note in data.get("notes", []):
            text += f"\nNote from the run: {note}."
        self.add(text)
        if plots:
            self.add(" ".join(f"![{p}](../results/{name}/{p})" for p in plots))

    def differences(self, rows: list[tuple[str, float | None]] | list[tuple[str, float | None, str]]) -> None:
        """List every (label, difference in SE[, detail]) beyond 2 SE with its explanation."""
        big = [(r[0], r[1], r[2] if len(r) > 2 else "") for r in rows if r[1] is not None and abs(r[1]) > 2]
        if not big:
            self.add("No difference exceeds two standard errors.")
            return
        lines = ["Differences larger than two standard errors:", ""]
        for label, z, detail in big:
            self.used.add(label)
            why = self._why(label)
            extent = f"{detail}; largest {z:+.1f} SE" if detail else f"{z:+.1f} SE"
            lines.append(f"- {label} ({extent}): {why}")
            self.listed.append((label, extent, why))
        self.add("\n".join(lines))

    def _why(self, label: str) -> str:
        """The printed reason for the difference ``label`` (and a note of it when it has none at all)."""
        found = self.explanations.get(label)
        if found is None:
            self.unexplained.append(label)
            return "**not yet explained.**"
        return found.printed

    def claims(self, data: dict[str, Any]) -> None:
        """A claims experiment's verdicts: a table, one sentence each, and every claim not reproduced with its
        explanation (a claim is not reproduced when it misses by more than 2 SE or fails the test its sentence states)."""
        found = data.get("claims", [])
        if not found:
            return
        self.add(
            _table(
                ["claim", "published", "measured", "difference / SE", "verdict"],
                [
                    [c["claim"], c["published"], c["measured"], "-" if c["z"] is None else f"{c['z']:+.1f}", c["verdict"]]
                    for c in found
                ],
            )
        )
        for c in found:
            self.score(c["claim"], c["published"], c["measured"], "-", c["z"], c["key"], c["verdict"] != "reproduced")
        self.add("\n".join(f"- {c['sentence']}" for c in found))
        missed = [c for c in found if c["verdict"] != "reproduced"]
        if not missed:
            self.add("Every claim here is reproduced.")
            return
        lines = ["Claims not reproduced:", ""]
        for c in missed:
            label = c["key"]
            self.used.add(label)
            why = self._why(label)
            extent = "no number to compare" if c["z"] is None else f"{c['z']:+.1f} SE"
            lines.append(f"- {label} ({extent}): {why}")
            self.listed.append((label, extent, why))
        self.add("\n".join(lines))


def _z(measured: float, se: float, published: float, published_se: float | None) -> float | None:
    total = math.hypot(se, published_se or 0.0)
    diff = measured - published
    if total == 0:
        return None if diff == 0 else math.copysign(math.inf, diff)
    return diff / total


def _points_table(data: dict[str, Any], groups: list[str] | None = None) -> str:
    """A claims experiment's points: board, rule, strategy, games, win rate and CPU."""
    cpu_se = data.get("cpu_se") or [None] * len(data["points"])
    rows = [
        [
            p["group"],
            p["board"],
            p["rule"],
            p["strategy"],
            p["games"],
            _pm(p["win_rate"], p["sem"]),
            f"{1000 * p['cpu_mean']:.2f}" + ("" if se is None else f" ± {1000 * se:.2f}"),
            p["timeouts"],
        ]
        for p, se in zip(data["points"], cpu_se, strict=True)
        if groups is None or p["group"] in groups
    ]
    return _table(["group", "board", "rule", "strategy", "games", "win % ± SE", "CPU ms/game", "timeouts"], rows)


def _claims_section(
    doc: Doc,
    name: str,
    heading: str,
    note: str,
    plots: list[str],
    table: Callable[[Doc, dict[str, Any]], None] | None,
    retest: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
) -> None:
    """A claims experiment: what the paper says, where the data is, its points (or a custom table), the verdicts
    (``retest``: the experiment's own re-reading of data written before its tests changed)."""
    doc.add(heading)
    doc.add(note)
    data = doc.load(name)
    if not data:
        doc.add(f"Not measured yet: run `sweeplab experiment {name} --out results/{name}`.")
        return
    if retest is not None:
        data = retest(data)
    doc.source(data, name, plots)
    if table is None:
        doc.add(_points_table(data))
    else:
        table(doc, data)
    doc.claims(data)


def _level_rows(levels: dict[str, Any] | None, group: str) -> list[dict[str, Any]]:
    return [p for p in (levels or {}).get("points", []) if p["group"] == group]
