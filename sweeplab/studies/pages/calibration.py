"""Seed 000's Tables 1-3 on its results page: sweeplab's guesses in the paper's bins, the totals by kind, the board
groups, the exact engine's guesses in the same bins, and the runs that test one cause of the headline bin each."""

from __future__ import annotations

import math
from typing import Any

from sweeplab.studies.pages.page import Doc, _pm, _table
from sweeplab.studies.papers.seed000_guesses import paper_z
from sweeplab.studies.published import SEED_000_TABLES


def _totals(doc: Doc, strategy: str, rows: list[dict[str, Any]]) -> None:
    """Each kind's guesses and successes summed over the paper's bins, beside the paper's totals (Tables 1-3)."""
    table = []
    for kind, paper in SEED_000_TABLES.items():
        ours = [r for r in rows if r["kind"] == kind and r["bin"] != "other"]
        n = sum(r["observations"] for r in ours)
        wins = sum(r.get("successes", 0) for r in ours)
        pn, pw = sum(b[2] for b in paper), sum(b[1] for b in paper)
        rate, prate = (wins / n if n else None), pw / pn
        z = None
        if rate is not None:
            z = (rate - prate) / math.hypot(math.sqrt(rate * (1 - rate) / n), math.sqrt(prate * (1 - prate) / pn))
        table.append(
            [
                kind,
                f"{n:,}",
                "-" if rate is None else _pm(rate, math.sqrt(rate * (1 - rate) / n)),
                f"{pn:,}",
                _pm(prate, math.sqrt(prate * (1 - prate) / pn)),
                "-" if z is None else f"{z:+.1f}",
            ]
        )
    total = sum(r["observations"] for r in rows if r["bin"] != "other")
    paper_total = sum(b[2] for bs in SEED_000_TABLES.values() for b in bs)
    doc.add(
        f"Totals: sweeplab's {strategy} logged {total:,} guesses in these bins, seed 000 {paper_total:,}. Each kind's "
        "success over all its bins (which also depends on how the estimates spread over the bins):"
    )
    doc.add(_table(["kind", "sweeplab guesses", "success % ± SE", "seed 000 guesses", "seed 000 success %", "z"], table))


#: Seed 000's observed success of educated guesses estimated 80-84% (Table 2: 82,253 of 111,689).
SEED_000_HEADLINE = 82_253 / 111_689
#: Runs that test one candidate cause of the headline bin's difference each: (results folder, what it varies).
HEADLINE_TESTS = (("calibration-ties", "which of the equally good educated guesses is taken: a random one or the first"),)


def _headline_causes(doc: Doc) -> None:
    """The headline bin (educated guesses estimated 80-84%) in each run that varies one candidate cause, per arm."""
    doc.add("#### What does not make our educated guesses succeed more often than Studholme's")
    for name, what in HEADLINE_TESTS:
        data = doc.load(name)
        if not data:
            doc.add(f"Not measured yet: run `sweeplab experiment calibration --out results/{name}` ({what}).")
            continue
        rows, arms = [], []
        for g in data.get("groups", []):
            if g["kind"] != "educated" or not g["bin_80_84_guesses"]:
                continue
            n, wins = g["bin_80_84_guesses"], g["bin_80_84_successes"]
            rate = wins / n
            se = math.sqrt(rate * (1 - rate) / n)
            arms.append((g["strategy"], rate, se))
            rows.append([g["strategy"], g["games"], n, _pm(rate, se)])
        doc.add(f"Candidate: {what}. Data: `results/{name}/`, produced by `{data['command']}`.")
        doc.add(_table(["strategy", "games", "educated 80-84% guesses", "observed % ± SE"], rows))
        if len(arms) == 2:
            (a, ra, sa), (b, rb, sb) = arms
            d, se = rb - ra, math.hypot(sa, sb)
            paper = SEED_000_HEADLINE
            doc.add(
                f"{b} against {a}: {100 * d:+.1f} ± {100 * se:.1f} points ({d / se:+.1f} SE), against a gap of "
                f"{100 * (ra - paper):+.1f} points between {a} and the paper's {100 * paper:.1f}%."
            )


def _craps_thirds(doc: Doc, strategy: str, bins: list[dict[str, Any]]) -> None:
    """Why Table 1's craps rows 34% and 67% hold none of our guesses, and how ours fare read as the paper's labels."""
    found = []
    rows = SEED_000_TABLES["craps"]
    for third, low, (label, wins, n, _) in ((1 / 3, 0.3, rows[0]), (2 / 3, 0.65, rows[3])):
        b = next((b for b in bins if b["kind"] == "craps" and abs(b["low"] - low) < 1e-9), None)
        if b is None or not b["observations"] or abs(b["mean_estimate"] - third) > 0.005:
            return
        rate = b["successes"] / b["observations"]
        found.append(
            f"{b['observations']:,} at {round(100 * third)}% ({_pm(rate, math.sqrt(rate * (1 - rate) / b['observations']))}, "
            f"against row {label}'s {100 * wins / n:.1f}%)"
        )
    doc.add(
        f"Table 1's craps rows 34% and 67% hold none of {strategy}'s guesses because a truncated 1/3 and 2/3 print as "
        "33% and 66%: its craps shoots at these chances fall under 'other'. Read as the table's labels suggest (100 "
        "less the truncated mine chance; the paper does not say), they are the guesses of the 30-40% and 65-70% rows of "
        f"the next table: {' and '.join(found)}."
    )


def _calibration(doc: Doc, cal: dict[str, Any], name: str = "calibration", only: tuple[str, ...] = ()) -> None:
    """Tables 1-3: sweeplab's guesses in the paper's bins beside the paper's rates, then against their own estimates,
    the mix of guess kinds, and the headline bin by board group (of the strategies in ``only``, default all), read from
    ``results/<name>/``."""

    def mine(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [r for r in rows if not only or r["strategy"] in only]

    doc.source(cal, name, ["reliability.png"])
    paper_bins = mine(cal.get("paper_bins", []))
    for strategy in dict.fromkeys(r["strategy"] for r in paper_bins):
        # z in the two binomial standard errors combined, as the header states (recomputed from the rates and SEs the
        # run wrote, so data written with the earlier null-hypothesis SE reads the same way)
        rows = [
            {**r, "z_paper": paper_z(r["rate"], r["se"], r["paper_rate"], r["paper_se"])}
            for r in paper_bins
            if r["strategy"] == strategy
        ]
        doc.add(
            f"sweeplab's {strategy} in seed 000's own bins (each estimate truncated to a whole percent, as the paper's log "
            "printed it), beside the paper's observed rate; z = (ours - paper) / sqrt(our SE squared + the paper's SE "
            "squared), both binomial. Rows marked 'other' hold guesses whose estimate falls in none of the paper's bins."
        )
        doc.add(
            _table(
                [
                    "kind",
                    "estimated success",
                    "observations",
                    "observed % ± SE",
                    "mean estimate %",
                    "seed 000 observed % ± SE",
                    "z",
                ],
                [
                    [
                        r["kind"],
                        r["bin"],
                        r["observations"],
                        "-" if r["rate"] is None else _pm(r["rate"], r["se"]),
                        "-" if r["mean_estimate"] is None else f"{100 * r['mean_estimate']:.1f}",
                        "-" if r["paper_rate"] is None else _pm(r["paper_rate"], r["paper_se"]),
                        "-" if r["z_paper"] is None else f"{r['z_paper']:+.1f}",
                    ]
                    for r in rows
                ],
            )
        )
        for r in rows:
            if r["rate"] is not None and r["paper_rate"] is not None:
                doc.score(
                    f"Tables 1-3 | {strategy} | {r['kind']} {r['bin']}",
                    _pm(r["paper_rate"], r["paper_se"]),
                    _pm(r["rate"], r["se"]),
                    r["observations"],
                    r["z_paper"],
                    f"Tables 1-3 | {strategy} | {r['kind']} against seed 000's observed rates",
                )
        _totals(doc, strategy, rows)
        _craps_thirds(doc, strategy, [b for b in mine(cal.get("bins", [])) if b["strategy"] == strategy])
        big: dict[str, list[dict[str, Any]]] = {}
        for r in rows:
            if r["z_paper"] is not None and abs(r["z_paper"]) > 2:
                big.setdefault(r["kind"], []).append(r)
        doc.differences(
            [
                (
                    f"Tables 1-3 | {strategy} | {kind} against seed 000's observed rates",
                    max((r["z_paper"] for r in rs), key=abs),
                    "bins " + ", ".join(f"{r['bin']} ({r['z_paper']:+.1f})" for r in rs),
                )
                for kind, rs in big.items()
            ]
        )
    bins = mine(cal.get("bins", []))
    for strategy in dict.fromkeys(b["strategy"] for b in bins):
        sb = [b for b in bins if b["strategy"] == strategy]
        table = [
            [
                b["kind"],
                f"{100 * b['low']:.0f}% to {100 * b['high']:.0f}%",
                f"{100 * b['mean_estimate']:.1f}",
                b["successes"],
                b["observations"],
                _pm(b["rate"], b["se"]),
                f"{b['z']:+.1f}",
            ]
            for b in sb
        ]
        off = sum(1 for b in sb if abs(b["z"]) > 2)
        doc.add(
            f"sweeplab's {strategy} against its own estimates: {off} of {len(sb)} bins lie more than 2 SE from their mean "
            "estimate (z = (observed - mean estimate) / the SE the estimate implies)."
        )
        doc.add(
            _table(["kind", "estimated success", "mean estimate %", "successes", "observations", "observed % ± SE", "z"], table)
        )
        big2: dict[str, list[dict[str, Any]]] = {}
        for b in sb:
            if abs(b["z"]) > 2:
                big2.setdefault(b["kind"], []).append(b)
        doc.differences(
            [
                (
                    f"calibration | {strategy} | {kind}",
                    max((b["z"] for b in bs), key=abs),
                    "bins " + ", ".join(f"{100 * b['low']:.0f}-{100 * b['high']:.0f}% ({b['z']:+.1f})" for b in bs),
                )
                for kind, bs in big2.items()
            ]
        )
    groups = mine(cal.get("groups", []))
    if groups:
        paper_total = {k: sum(n for _, _, n, _ in rows) for k, rows in SEED_000_TABLES.items()}
        all_guesses = sum(paper_total.values())
        doc.add(
            "Which boards: seed 000 pooled its log over all its games; its kind mix is "
            + ", ".join(f"{k} {100 * n / all_guesses:.1f}%" for k, n in paper_total.items())
            + f" of {all_guesses:,} guesses. sweeplab's mix and the headline bin (educated guesses estimated 80-84%) by board "
            "group:"
        )
        table_rows: list[list[Any]] = []
        for strategy in dict.fromkeys(g["strategy"] for g in groups):
            for group in dict.fromkeys(g["group"] for g in groups if g["strategy"] == strategy):
                gs = {g["kind"]: g for g in groups if g["strategy"] == strategy and g["group"] == group}
                total = sum(g["guesses"] for g in gs.values())
                ed = gs.get("educated")
                head_n = ed["bin_80_84_guesses"] if ed else 0
                head = "-"
                if ed and head_n:
                    rate = ed["bin_80_84_successes"] / head_n
                    estimate = 100 * ed["bin_80_84_mean_estimate"]
                    head = f"{_pm(rate, math.sqrt(rate * (1 - rate) / head_n))} of {head_n} (estimate {estimate:.1f})"
                table_rows.append(
                    [
                        strategy,
                        group,
                        next(iter(gs.values()))["games"],
                        f"{total / next(iter(gs.values()))['games']:.2f}",
                        " / ".join(
                            f"{100 * gs[k]['guesses'] / total:.1f}" if total else "-"
                            for k in ("craps", "educated", "unconstrained")
                        ),
                        head,
                    ]
                )
        doc.add(
            _table(
                [
                    "strategy",
                    "board group",
                    "games",
                    "guesses per game",
                    "craps / educated / unconstrained %",
                    "educated 80-84%: observed",
                ],
                table_rows,
            )
        )
