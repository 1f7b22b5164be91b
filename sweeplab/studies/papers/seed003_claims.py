"""Seed 003's claims: its solver versions (Table 3), Table 4's board and Figures 1-5, as the text states them."""

from __future__ import annotations

import math
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

from sweeplab.bench.runner import GameResult
from sweeplab.bench.summary import Summary
from sweeplab.core.rules import Rules, make_rules
from sweeplab.studies import plots
from sweeplab.studies.claim import (
    EQUIVALENCE_MARGIN,
    NOT_REPRODUCED,
    REPRODUCED,
    Claim,
    ClaimExperiment,
    chi_square_homogeneity,
    cpu_mean_se,
    equivalence_sentence,
    equivalent,
    gain_verdict,
    points_diff,
    pp,
    ratio_se,
    spec_point,
    zscore,
)
from sweeplab.studies.experiment import (
    Plan,
    Point,
    Settings,
)

#: Seed 003's versions without learning (Table 3), in its order, with the paper's names.
SEED_003_VERSIONS = (
    ("Backtracking", "backtracking"),
    ("+DSS", "dss"),
    ("limited + DSS", "dss[limited=True]"),
    ("DSScsp + DSS", "dsscsp"),
    ("DSScsp limited + DSS", "dsscsp-limited"),
    ("DSScsp + Manhattan Distance", "dsscsp-manhattan"),
    ("DSScsp limited + Manhattan Distance", "dsscsp-limited-manhattan"),
    ("DSScsp + location score (4.2.2)", "dsscsp[heuristic=location]"),
    ("DSScsp limited + location score (4.2.2)", "dsscsp-limited[heuristic=location]"),
)

#: Seed 003's learned versions (Table 3's last four rows), played by the shipped models of ``sweeplab/learn/models``.
SEED_003_LEARNED = (
    ("+ Supervised Learning using Single-pass Classification", "xgboost"),
    ("+ Supervised Learning using Iterative Approach", "nn"),
    ("+ Q-Learning using Iterative Classification", "dqn"),
    ("+ Q-Learning using Single-pass Classification", "dqn-single"),
)


#: The claims of equal or nearly equal accuracy: (version, the version it is compared with, what the paper says, its
#: words). Each is tested for equivalence (TOST, margin ``EQUIVALENCE_MARGIN``), not for a difference.
EQUIVALENCE_CLAIMS = (
    ("dsscsp", "backtracking", "same accuracy", "DSScsp finds the same solutions as backtracking: the same accuracy"),
    ("dsscsp-limited", "dsscsp", "nearly the same accuracy", "the limited traversal is nearly as accurate as the full one"),
    ("dss[limited=True]", "dss", "nearly the same accuracy", "limited backtracking is nearly as accurate as full"),
)


#: What the paper gives for a claim of a gain (a heuristic, a learned version): a ranking, tested three ways.
GAIN_PUBLISHED = "an improvement (no number)"


def equivalence_claim(a: str, b: str, what: str, claim_text: str, d: float, se: float, n: int) -> Claim:
    """A claim that ``a`` is as accurate as ``b``: reproduced when the paired win difference ``d`` (standard error
    ``se`` over ``n`` paired games) is shown inside the equivalence margin by two one-sided tests."""
    return Claim(
        f"seed 003 | {a} - {b} | win rate",
        "seed 003, 5.1 and 5.3",
        claim_text,
        f"{what} (taken as within ±{100 * EQUIVALENCE_MARGIN:g} point, by TOST)",
        points_diff(d, se, 2),
        zscore(d, se, 0.0),
        REPRODUCED if equivalent(d, se) else NOT_REPRODUCED,
        f"Over the mine-ratio sweep ({n:,} paired games on 16x16), {a} wins {points_diff(d, se, 2)} against {b}; "
        f"{equivalence_sentence(d, se)}.",
    )


def retest(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` (seed003's data.json) with its claims tested as the experiment tests them now, for data written
    before: the accuracy claims for equivalence (the paired difference from the points' wins over the ratio sweep,
    the same games for every version, its standard error from the difference and the z the run stored, z = d / SE;
    a claim already so tested, or one whose z is 0 or missing, is kept), and the claims of a gain (a heuristic or a
    learned version against the one it improves on) by :func:`~sweeplab.studies.claim.gain_verdict` of their z."""
    claims = []
    for c in data.get("claims", []):
        if c.get("published") == GAIN_PUBLISHED:
            claims.append({**c, "verdict": gain_verdict(c.get("z"))})
            continue
        pair = next(((a, b, w, t) for a, b, w, t in EQUIVALENCE_CLAIMS if c["key"] == f"seed 003 | {a} - {b} | win rate"), None)
        if pair is None or "TOST" in c.get("published", "") or not c.get("z"):
            claims.append(c)
            continue
        a, b, what, claim_text = pair
        points = {name: [p for p in data["points"] if p["group"] == "ratio" and p["strategy"] == name] for name in (a, b)}
        n = sum(p["games"] for p in points[a])
        if n == 0 or n != sum(p["games"] for p in points[b]):
            claims.append(c)
            continue
        d = (sum(p["wins"] for p in points[a]) - sum(p["wins"] for p in points[b])) / n
        claims.append(asdict(equivalence_claim(a, b, what, claim_text, d, abs(d / c["z"]), n)))
    return {**data, "claims": claims}


#: The folder beside a seed 003 claims run (``results/seed003`` -> ``results/seed003-ratio``) that holds the same
#: experiment's mine-ratio sweep again with more games a point (``--groups ratio --games N``): see
#: :func:`with_more_games`.
MORE_GAMES = "-ratio"


def with_more_games(data: dict[str, Any], more: dict[str, Any] | None, where: str) -> dict[str, Any]:
    """``data`` (seed003's data.json, :func:`retest`-ed) with every claim that ``more`` also makes taken from
    ``more``: a claims run of the same experiment on the same root seed with at least as many games at each of its
    points (a point's first games are the same layouts, so ``more``'s games include ``data``'s). The claims so
    replaced, and ``more``'s command, are kept as ``data["more_games"]``. ``where`` names ``more`` in errors."""
    if more is None:
        return data
    if more.get("experiment") != data.get("experiment") or more.get("seed") != data.get("seed"):
        raise ValueError(
            f"{where}: a run of {more.get('experiment')!r} on seed {more.get('seed')}, not of "
            f"{data.get('experiment')!r} on seed {data.get('seed')} as the run it adds games to"
        )
    games = {(p["group"], p["strategy"], p["board"]): p["games"] for p in data.get("points", [])}
    for p in more.get("points", []):
        had = games.get((p["group"], p["strategy"], p["board"]))
        if had is not None and p["games"] < had:
            raise ValueError(
                f"{where}: {p['strategy']} on {p['board']} has {p['games']:,} games, fewer than the {had:,} it adds to"
            )
    theirs = {c["key"]: c for c in retest(more).get("claims", [])}
    claims = [theirs.get(c["key"], c) for c in data.get("claims", [])]
    replaced = [c["key"] for c in data.get("claims", []) if c["key"] in theirs]
    per_point = sorted({p["games"] for p in more.get("points", [])})
    more_games = {"command": more.get("command", ""), "keys": replaced, "games": per_point}
    return {**data, "claims": claims, "more_games": more_games}


class Seed003Claim(ClaimExperiment):
    name = "seed003"
    title = "Seed 003: the versions table and Figures 1-5 (win rate against mine ratio, shape and size; time)"
    source = "seed 003, Table 3, Table 4, Figures 1-5 and section 5.3"
    RATIOS = tuple(round(0.05 + 0.025 * i, 3) for i in range(11))  # 0.05 .. 0.30 on 16x16
    SHAPES = ((16, 16), (32, 8), (64, 4), (128, 2))  # 256 blocks
    SIDES = (8, 12, 16, 20, 24, 32)
    DENSITY = 0.15
    SWEEP_VERSIONS = (
        "backtracking",
        "dss",
        "dss[limited=True]",
        "dsscsp",
        "dsscsp-limited",
        "dsscsp-manhattan",
        "dsscsp-limited-manhattan",
        "dsscsp[heuristic=location]",
        *(spec for _, spec in SEED_003_LEARNED),
    )
    SHAPE_VERSIONS = ("dsscsp", "dsscsp-limited", "dsscsp-manhattan", *(spec for _, spec in SEED_003_LEARNED))

    def plan(self, settings: Settings) -> Plan:
        table_games = settings.size()
        sweep_games = settings.games if settings.games is not None else (settings.size() if settings.quick else 1000)
        quick = settings.quick
        points = []
        rules = make_rules("9x9x10", "safe")
        skip = set(settings.skip)  # whole specs, as written in the tables (``dss[limited=True]``)
        for label, spec in (*SEED_003_VERSIONS, *SEED_003_LEARNED):
            if spec in skip:
                continue
            points.append(spec_point("versions", spec, rules, table_games, None, label))
        ratios = (0.1, 0.2) if quick else self.RATIOS
        for ratio in ratios:
            r = Rules(16, 16, round(ratio * 256), "safe")
            for spec in (s for s in self.SWEEP_VERSIONS if s not in skip):
                points.append(spec_point("ratio", spec, r, sweep_games, ratio))
        # independent layouts for every board of the shape and size sweeps (their chi-square tests assume it); the
        # versions still share each board's layouts
        for k, (w, h) in enumerate(((16, 16), (64, 4)) if quick else self.SHAPES):
            r = Rules(w, h, round(self.DENSITY * w * h), "safe")
            for spec in (s for s in self.SHAPE_VERSIONS if s not in skip):
                points.append(replace(spec_point("shape", spec, r, sweep_games, h / w), seed_offset=1000 * (k + 1)))
        for k, side in enumerate((8, 16) if quick else self.SIDES):
            r = Rules(side, side, round(self.DENSITY * side * side), "safe")
            for spec in (s for s in self.SHAPE_VERSIONS if s not in skip):
                points.append(
                    replace(spec_point("blocks", spec, r, sweep_games, float(side * side)), seed_offset=100_000 * (k + 1))
                )
        notes = [
            f"the versions table plays {table_games:,} games per version on 9x9/10; the sweeps {sweep_games:,} per point "
            "(the paper's board sizes, mine ratios and sample sizes were lost in extraction): mine ratio 0.05-0.30 on "
            f"16x16, shapes of 256 blocks and square boards at density {self.DENSITY}"
        ]
        return Plan(points, notes)

    def extra(
        self, plan: Plan, results: list[list[GameResult]], summaries: list[Summary], out: Path
    ) -> tuple[dict[str, Any], str, list[Path]]:
        files = []
        for group, xlabel, name, title in (
            ("ratio", "mine ratio on 16x16", "seed003-ratio.png", "Figures 1-2: win rate against mine ratio"),
            ("shape", "rows / columns (256 blocks)", "seed003-shape.png", "Figure 3: dimensional ratio"),
            ("blocks", "blocks (square boards)", "seed003-blocks.png", "Figure 4: number of blocks"),
        ):
            series: dict[str, list[tuple[float, Summary]]] = {}
            for p, s in zip(plan.points, summaries, strict=True):
                if p.group == group:
                    series.setdefault(p.strategy, []).append((p.x or 0.0, s))
            if series:
                files.append(plots.win_line(series, xlabel, name, out, f"seed 003 {title}"))
                if group == "ratio":
                    files.append(plots.cpu_line(series, [], out / "seed003-time.png"))
        return {}, "", files

    def claims(self, plan: Plan, results: list[list[GameResult]], summaries: list[Summary]) -> list[Claim]:
        out: list[Claim] = []
        by: dict[tuple[str, str], list[tuple[Point, Summary, list[GameResult]]]] = {}
        for p, s, r in zip(plan.points, summaries, results, strict=True):
            by.setdefault((p.group, p.strategy), []).append((p, s, r))

        def pooled_pair(group: str, a: str, b: str) -> tuple[float, float, int]:
            """Paired win difference a - b pooled over the group's points (same layouts point by point)."""
            diffs = []
            for (_, _, ra), (_, _, rb) in zip(by[(group, a)], by[(group, b)], strict=True):
                diffs += [int(x.won) - int(y.won) for x, y in zip(ra, rb, strict=True)]
            n = len(diffs)
            mean = sum(diffs) / n
            var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else math.nan
            return mean, math.sqrt(var / n), n

        def pooled_cpu(group: str, strategy: str) -> tuple[float, float]:
            return cpu_mean_se([g for _, _, r in by[(group, strategy)] for g in r])

        for a, b, what, claim_text in EQUIVALENCE_CLAIMS:
            if ("ratio", a) not in by or ("ratio", b) not in by:
                continue
            d, se, n = pooled_pair("ratio", a, b)
            out.append(equivalence_claim(a, b, what, claim_text, d, se, n))
        for fast, slow, claim_text in (
            ("dsscsp", "backtracking", "DSScsp is much faster than backtracking"),
            ("dsscsp-limited", "dsscsp", "the limited versions are much faster than the full ones"),
            ("dss[limited=True]", "dss", "limited backtracking is much faster than full backtracking"),
        ):
            if ("ratio", fast) not in by or ("ratio", slow) not in by:
                continue
            cf, sf = pooled_cpu("ratio", fast)
            cs, ss = pooled_cpu("ratio", slow)
            speedup, se = ratio_se(cs, ss, cf, sf)
            z = zscore(speedup, se, 1.0)
            out.append(
                Claim(
                    f"seed 003 | {slow} / {fast} | CPU",
                    "seed 003, 5.3 and Figure 5",
                    claim_text,
                    "much faster (no number)",
                    f"CPU {slow} / {fast} = {speedup:.2f} ± {se:.2f}",
                    z,
                    REPRODUCED if speedup >= 2 and z is not None and z > 2 else NOT_REPRODUCED,
                    f"Over the mine-ratio sweep {slow} spends {1000 * cs:.2f} ms per game and {fast} {1000 * cf:.2f} ms "
                    f"(ratio {speedup:.2f} ± {se:.2f}); 'much faster' is taken to mean at least twice as fast.",
                )
            )
        for heuristic, base in (
            ("dsscsp-manhattan", "dsscsp"),
            ("dsscsp-limited-manhattan", "dsscsp-limited"),
            ("dsscsp[heuristic=location]", "dsscsp"),
        ):
            if ("ratio", heuristic) not in by or ("ratio", base) not in by:
                continue
            d, se, n = pooled_pair("ratio", heuristic, base)
            z = zscore(d, se, 0.0)
            out.append(
                Claim(
                    f"seed 003 | {heuristic} - {base} | win rate",
                    "seed 003, 4.2.1 and 5.3",
                    f"the heuristic improves on the plain least-probability guess ({heuristic})",
                    GAIN_PUBLISHED,
                    points_diff(d, se),
                    z,
                    gain_verdict(z),
                    f"Over the mine-ratio sweep ({n:,} paired games) {heuristic} wins {points_diff(d, se)} against {base}.",
                )
            )
        for _, learned in SEED_003_LEARNED:
            if ("ratio", learned) not in by or ("ratio", "dsscsp-manhattan") not in by:
                continue
            d, se, n = pooled_pair("ratio", learned, "dsscsp-manhattan")
            z = zscore(d, se, 0.0)
            out.append(
                Claim(
                    f"seed 003 | {learned} - dsscsp-manhattan | win rate",
                    "seed 003, 5.3 and 6 (Figures 1-2)",
                    f"the learned version outperforms the Manhattan version it learns from ({learned})",
                    GAIN_PUBLISHED,
                    points_diff(d, se),
                    z,
                    gain_verdict(z),
                    f"Over the mine-ratio sweep ({n:,} paired games on 16x16) {learned} wins {points_diff(d, se)} "
                    "against dsscsp-manhattan.",
                )
            )
        for group, what in (("shape", "the dimensional ratio"), ("blocks", "the number of blocks")):
            for strategy in self.SHAPE_VERSIONS:
                rows = by.get((group, strategy))
                if not rows or len(rows) < 2:
                    continue
                stat, df, pvalue = chi_square_homogeneity([s.wins for _, s, _ in rows], [s.games for _, s, _ in rows])
                lo = min(rows, key=lambda t: t[1].win_rate)[1]
                hi = max(rows, key=lambda t: t[1].win_rate)[1]
                spread = zscore(hi.win_rate, hi.sem, lo.win_rate, lo.sem)
                out.append(
                    Claim(
                        f"seed 003 | {group} | {strategy}",
                        "seed 003, 5.3 (Figures 3 and 4)",
                        f"{what} does not affect the accuracy ({strategy})",
                        "no effect",
                        f"{pp(lo.win_rate)} ({lo.board}) to {pp(hi.win_rate)} ({hi.board}); chi-square p = {pvalue:.2g}",
                        spread,
                        REPRODUCED if pvalue >= 0.05 else NOT_REPRODUCED,
                        f"{strategy}'s win rate runs from {pp(lo.win_rate, lo.sem)} on {lo.board} to {pp(hi.win_rate, hi.sem)} "
                        f"on {hi.board} (chi-square {stat:.1f} on {df} degrees of freedom, p = {pvalue:.2g}); the claim "
                        f"holds when p is at least 0.05.",
                    )
                )
        return out
