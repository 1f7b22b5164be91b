"""The pages of docs/results/ for seeds 001 to 004: their tables from the levels experiment and their claims."""

from __future__ import annotations

from typing import Any

from sweeplab.studies.pages.page import Doc, _level_rows, _pm, _table
from sweeplab.studies.papers.seed003_claims import MORE_GAMES


def _seed002_table(doc: Doc, data: dict[str, Any]) -> None:
    rows = []
    for p in data["points"]:
        if p["group"] != "table":
            continue
        pub = p["published_percent"]
        rows.append(
            [
                p["board"],
                p["rule"],
                p["paper_label"] or "-",
                p["strategy"],
                p["games"],
                _pm(p["win_rate"], p["sem"]),
                "-" if pub is None else f"{pub:g}",
                "-" if p["difference_in_se"] is None else f"{p['difference_in_se']:+.1f}",
            ]
        )
    doc.add(
        _table(
            ["board", "rule", "paper's name", "sweeplab strategy", "games", "measured % ± SE", "published %", "difference / SE"],
            rows,
        )
    )
    sweep = [p for p in data["points"] if p["group"] == "15x15"]
    if sweep:
        doc.add(
            "Level 2 on 15x15 (safe first click): "
            + ", ".join(f"{int(p['x'])} mines {100 * p['win_rate']:.1f}%" for p in sweep)
            + f" ({sweep[0]['games']:,} games each, SE at most {100 * max(p['sem'] for p in sweep):.1f} points)."
        )


def _seed003_table(doc: Doc, data: dict[str, Any]) -> None:
    versions = [p for p in data["points"] if p["group"] == "versions"]
    if versions:
        doc.add(
            "Table 3's versions on the standard beginner board (9x9 with 10 mines, first click safe; Table 4's accuracy "
            "column lost its values):"
        )
        doc.add(
            _table(
                ["paper's version", "sweeplab strategy", "games", "win % ± SE", "CPU ms/game", "timeouts"],
                [
                    [
                        p["paper_label"],
                        p["strategy"],
                        p["games"],
                        _pm(p["win_rate"], p["sem"]),
                        f"{1000 * p['cpu_mean']:.2f}",
                        p["timeouts"],
                    ]
                    for p in versions
                ],
            )
        )
    for group, what in (("ratio", "mine ratio on 16x16"), ("shape", "shape (256 blocks)"), ("blocks", "square boards")):
        pts = [p for p in data["points"] if p["group"] == group]
        if not pts:
            continue
        strategies = list(dict.fromkeys(p["strategy"] for p in pts))
        boards = list(dict.fromkeys(p["board"] for p in pts))
        grid = {(p["board"], p["strategy"]): p for p in pts}
        rows = [[b] + [_rate_cpu(grid.get((b, st))) for st in strategies] for b in boards]
        doc.add(f"Win % (CPU ms per game) against the {what}, {pts[0]['games']:,} games per point:")
        doc.add(_table(["board", *strategies], rows))
    more = data.get("more_games")
    if more and more["keys"]:
        counts = " or ".join(f"{g:,}" for g in more["games"])
        had = sorted({p["games"] for p in data["points"] if p["group"] == "ratio"})
        doc.add(
            f"The verdicts of {len(more['keys'])} claims ({'; '.join(more['keys'])}) are measured on the mine-ratio "
            f"sweep played again at {counts} games a point (each point's first {' or '.join(f'{g:,}' for g in had)} "
            f"the games above; more games, for verdicts that fewer left undecided): `{more['command']}` "
            f"(`results/seed003{MORE_GAMES}/`)."
        )


def _rate_cpu(p: dict[str, Any] | None) -> str:
    return "-" if p is None else f"{100 * p['win_rate']:.1f} ({1000 * p['cpu_mean']:.1f})"


def _seed_table(doc: Doc, levels: dict[str, Any] | None, group: str, heading: str, note: str, published_note: str = "") -> None:
    """A paper's table from the levels experiment; ``published_note`` goes beside the published number on the
    scoreboard (what the paper gives and what we assumed, where the table's heading cannot say it)."""
    doc.add(f"## {heading}")
    doc.add(note)
    rows = _level_rows(levels, group)
    if not levels or not rows:
        doc.add("Not measured yet: run `sweeplab experiment levels --out results/levels`.")
        return
    doc.source(levels, "levels", [f"levels-{group.replace(' ', '')}.png"])
    table, diffs = [], []
    for p in rows:
        pub = p["published_percent"]
        pse = p["published_se_percent"]
        z = p["difference_in_se"]
        label = f"{group} | {p['board']} | {p['rule']} | {p['strategy']}" + (f" ({p['paper_label']})" if p["paper_label"] else "")
        published = "-" if pub is None else (f"{pub:g}" + (f" ± {pse:.1f}" if pse else ""))
        if pub is not None:
            diffs.append((label, z))
            published = f"{published} ({published_note})" if published_note else published
            doc.score(label, published, _pm(p["win_rate"], p["sem"]), p["games"], z)
        table.append(
            [
                p["board"],
                p["rule"],
                p["paper_label"] or "-",
                p["strategy"],
                p["games"],
                _pm(p["win_rate"], p["sem"]),
                published,
                "-" if z is None else f"{z:+.1f}",
            ]
        )
    doc.add(
        _table(
            ["board", "rule", "paper's name", "sweeplab strategy", "games", "measured % ± SE", "published %", "difference / SE"],
            table,
        )
    )
    if diffs:
        doc.differences(diffs)
    else:
        doc.add("Nothing published to compare with.")
