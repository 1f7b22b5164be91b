"""What seed 000's text says about its Figures 7-10 (plots whose values are lost), tested against our data.

The density, size and aspect experiments (:mod:`sweeplab.studies.papers.seed000_sweeps`) write win rates and CPU times per
point; the paper printed only plots, with a sentence each. These functions turn each sentence into a
:class:`~sweeplab.studies.claim.Claim` with a test stated in its sentence, for docs/results.md.
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import numpy as np

from sweeplab.bench.stats import binomial_se
from sweeplab.studies.claim import NOT_REPRODUCED, REPRODUCED, Claim, pp, zscore
from sweeplab.studies.published import SEED_000_FRONTIER

SOURCE = "seed 000"
#: Share of points expected beyond 2 SE of a correct model by chance (two-sided normal tail).
CHANCE = math.erfc(2 / math.sqrt(2))


def _spearman(x: list[float], y: list[float]) -> float:
    """Spearman's rank correlation (average ranks for ties)."""

    def ranks(v: list[float]) -> np.ndarray:
        order = np.argsort(v, kind="stable")
        r = np.empty(len(v))
        r[order] = np.arange(len(v), dtype=float)
        values = np.asarray(v)
        for value in set(v):
            tied = values == value
            r[tied] = r[tied].mean()
        return r

    rx, ry = ranks(x), ranks(y)
    if rx.std() == 0 or ry.std() == 0:
        return 0.0
    return float(np.corrcoef(rx, ry)[0, 1])


def _se(point: dict[str, Any]) -> float:
    """A point's win-rate standard error as the pages state it: over its equal sets of games (seed 000's method),
    the binomial one only for a point played without sets."""
    sem = point.get("sem")
    return float(sem) if isinstance(sem, int | float) and not math.isnan(sem) else binomial_se(point["wins"], point["games"])


def _series(data: dict[str, Any]) -> list[tuple[str, list[dict[str, Any]]]]:
    """Per strategy, its points in order of the swept variable ``x`` (only series of three points or more)."""
    series = []
    for strategy in dict.fromkeys(p["strategy"] for p in data["points"]):
        pts = sorted((p for p in data["points"] if p["strategy"] == strategy), key=lambda p: p["x"])
        if len(pts) >= 3:
            series.append((strategy, pts))
    return series


def _cells(board: str) -> tuple[int, int, int]:
    w, h, m = (int(v) for v in board.split("x"))
    return w, h, m


def _density(board: str) -> float:
    w, h, m = _cells(board)
    return m / (w * h)


def density_claims(data: dict[str, Any]) -> list[Claim]:
    """Figure 7: "the logistic fit is not quite perfect", per board series: how many points lie more than 2 SE
    (the fitted rate's binomial SE at the point's games) from the fitted curve, against the share expected by chance."""
    found = []
    for fit in data.get("fits", []):
        series = [p for p in data["points"] if p["strategy"] == fit["strategy"] and p["board"].startswith(fit["size"] + "x")]
        off = []
        for p in series:
            w, h, m = _cells(p["board"])
            expected = 1 / (1 + math.exp(fit["slope"] * (m / (w * h) - fit["midpoint"])))
            se = math.sqrt(expected * (1 - expected) / p["games"])
            z = (p["win_rate"] - expected) / se if se else 0.0
            if abs(z) > 2:
                off.append((p["board"], p["win_rate"], expected, z))
        n = len(series)
        chance = n * CHANCE
        bar = chance + 2 * math.sqrt(n * CHANCE * (1 - CHANCE))
        worst = max(off, key=lambda t: abs(t[3]), default=None)
        ok = len(off) > bar
        detail = (
            f"; the worst, {worst[0]}, wins {pp(worst[1])} against the curve's {pp(worst[2])} ({worst[3]:+.1f} SE)"
            if worst
            else ""
        )
        found.append(
            Claim(
                key=f"seed 000 Figure 7 | {fit['strategy']} | {fit['size']} | logistic fit",
                source=SOURCE,
                claim=f'the logistic fit "is not quite perfect" ({fit["size"]})',
                published="no number",
                measured=f"{len(off)} of {n} points beyond 2 SE",
                z=None,
                verdict=REPRODUCED if ok else NOT_REPRODUCED,
                sentence=(
                    f"On {fit['size']} the fitted logistic (midpoint {fit['midpoint']:.4f}, slope {fit['slope']:.1f}) misses "
                    f"{len(off)} of {n} points by more than 2 SE, against {chance:.1f} expected by chance (more than "
                    f"{bar:.1f} says the curve is not the whole story){detail}."
                ),
            )
        )
    return found


def _least_squares(x: np.ndarray, y: np.ndarray, degree: int) -> tuple[np.ndarray, np.ndarray]:
    """Polynomial coefficients (constant first) and their standard errors from ordinary least squares."""
    design = np.vander(x, degree + 1, increasing=True)
    coef, *_ = np.linalg.lstsq(design, y, rcond=None)
    residual = y - design @ coef
    dof = max(len(x) - degree - 1, 1)
    sigma2 = float(residual @ residual) / dof
    cov = sigma2 * np.linalg.inv(design.T @ design)
    return coef, np.sqrt(np.diag(cov))


def size_claims(data: dict[str, Any]) -> list[Claim]:
    """Figures 8-9: "larger boards are harder at fixed density" (the largest side against the smallest, and the rank
    correlation of side and win rate) and "CPU time looks sub-exponential in the side" (the curvature of log CPU
    against the side: negative, beyond 2 SE, is slower than exponential)."""
    found = []
    for strategy, pts in _series(data):
        small, large = pts[0], pts[-1]
        z = zscore(large["win_rate"], _se(large), small["win_rate"], _se(small))
        rho = _spearman([p["x"] for p in pts], [p["win_rate"] for p in pts])
        ups = [
            f"{a['board']} to {b['board']} ({pp(a['win_rate'])} to {pp(b['win_rate'])}; densities "
            f"{_density(a['board']):.3f} and {_density(b['board']):.3f})"
            for a, b in itertools.pairwise(pts)
            if (zscore(b["win_rate"], _se(b), a["win_rate"], _se(a)) or 0.0) > 2
        ]
        harder = z is not None and z < -2 and rho < 0
        found.append(
            Claim(
                key=f"seed 000 Figure 8 | {strategy} | larger boards harder",
                source=SOURCE,
                claim="larger boards are harder at a fixed density (0.2)",
                published="no number",
                measured=f"{pp(small['win_rate'], _se(small))} ({small['board']}) to {pp(large['win_rate'], _se(large))} "
                f"({large['board']}); rank correlation {rho:+.2f}",
                z=z,
                verdict=REPRODUCED if harder else NOT_REPRODUCED,
                sentence=(
                    f"The win rate falls from {pp(small['win_rate'])} on {small['board']} to {pp(large['win_rate'])} on "
                    f"{large['board']} ({'' if z is None else f'{z:+.1f} SE; '}rank correlation of side and win rate "
                    f"{rho:+.2f})"
                    + (f"; it rises beyond 2 SE from one side to the next at {', '.join(ups)}" if ups else "")
                    + "."
                ),
            )
        )
        cpu = [p for p in pts if p["cpu_mean"] > 0]
        if len(cpu) >= 4:
            side = np.array([float(p["x"]) for p in cpu])
            log_cpu = np.log(np.array([p["cpu_mean"] for p in cpu]))
            coef, se = _least_squares(side, log_cpu, 2)
            curvature, curvature_se = float(coef[2]), float(se[2])
            zc = curvature / curvature_se if curvature_se else None
            slower = zc is not None and zc < -2
            found.append(
                Claim(
                    key=f"seed 000 Figure 9 | {strategy} | CPU sub-exponential",
                    source=SOURCE,
                    claim="CPU time per game looks sub-exponential in the side",
                    published="no number",
                    measured=f"curvature of log CPU {curvature:+.2e} ± {curvature_se:.1e} per side²",
                    z=zc,
                    verdict=REPRODUCED if slower else NOT_REPRODUCED,
                    sentence=(
                        f"log(CPU per game) against the side, fitted with a quadratic over {len(cpu)} sides "
                        f"({cpu[0]['board']} to {cpu[-1]['board']}): the growth rate "
                        + ("slows" if curvature < 0 else "does not slow")
                        + f" (curvature {curvature:+.2e} ± {curvature_se:.1e}, {'-' if zc is None else f'{zc:+.1f}'} SE); "
                        + ("slower than exponential, as the paper says" if slower else "not shown to be slower than exponential")
                        + "."
                    ),
                )
            )
            outlier = _outlier(cpu, strategy)
            if outlier is not None:
                found.append(outlier)
    return found


def _outlier(cpu: list[dict[str, Any]], strategy: str, side: int = 10) -> Claim | None:
    """Figure 9's "10x10 outlier": the board's log CPU against a quadratic through the other sides, in units of the
    other sides' own scatter about that fit (the RMS of their residuals)."""
    at = [p for p in cpu if int(p["x"]) == side]
    rest = [p for p in cpu if int(p["x"]) != side]
    if not at or len(rest) < 5:
        return None
    x = np.array([float(p["x"]) for p in rest])
    y = np.log(np.array([p["cpu_mean"] for p in rest]))
    coef, _ = _least_squares(x, y, 2)
    fitted = np.polyval(coef[::-1], x)
    scatter = float(np.sqrt(np.mean((y - fitted) ** 2)))
    expected = float(np.polyval(coef[::-1], float(side)))
    residual = float(np.log(at[0]["cpu_mean"])) - expected
    z = residual / scatter if scatter else None
    return Claim(
        key=f"seed 000 Figure 9 | {strategy} | 10x10 outlier",
        source=SOURCE,
        claim=f"CPU time has an outlier at {side}x{side} (a game with over 6 million solutions)",
        published="an outlier (no number)",
        measured=f"{1000 * at[0]['cpu_mean']:.2f} ms against {1000 * np.exp(expected):.2f} ms from the other sides' fit",
        z=z,
        verdict=REPRODUCED if z is not None and z > 3 else NOT_REPRODUCED,
        sentence=(
            f"On {at[0]['board']} {strategy}'s mean CPU per game is {1000 * at[0]['cpu_mean']:.2f} ms over "
            f"{at[0]['games']:,} games; a quadratic in the side through the other {len(rest)} boards' log CPU predicts "
            f"{1000 * np.exp(expected):.2f} ms, a residual of {'-' if z is None else f'{z:+.1f}'} times the other "
            "boards' scatter about the fit (an outlier: beyond 3)."
        ),
    )


def aspect_claims(data: dict[str, Any]) -> list[Claim]:
    """Figure 10: "long, skinny boards are harder" (the narrowest board against the square one, and the rank
    correlation of the number of rows and the win rate) and "square ones easiest" (the square board against the
    best of the others)."""
    found = []
    for strategy, pts in _series(data):
        narrow = pts[0]
        square = next((p for p in pts if _cells(p["board"])[0] == _cells(p["board"])[1]), pts[-1])
        rho = _spearman([p["x"] for p in pts], [p["win_rate"] for p in pts])
        z = zscore(narrow["win_rate"], _se(narrow), square["win_rate"], _se(square))
        found.append(
            Claim(
                key=f"seed 000 Figure 10 | {strategy} | skinny boards harder",
                source=SOURCE,
                claim="long, skinny boards are harder",
                published="no number",
                measured=f"{pp(narrow['win_rate'], _se(narrow))} ({narrow['board']}) against "
                f"{pp(square['win_rate'], _se(square))} ({square['board']}); rank correlation {rho:+.2f}",
                z=z,
                verdict=REPRODUCED if z is not None and z < -2 and rho > 0 else NOT_REPRODUCED,
                sentence=(
                    f"{narrow['board']} wins {pp(narrow['win_rate'])} against {pp(square['win_rate'])} on "
                    f"{square['board']}, and the win rate rises with the number of rows (rank correlation {rho:+.2f})."
                ),
            )
        )
        others = [p for p in pts if p is not square]
        best = max(others, key=lambda p: p["win_rate"])
        zb = zscore(square["win_rate"], _se(square), best["win_rate"], _se(best))
        easiest = zb is not None and zb > -2
        found.append(
            Claim(
                key=f"seed 000 Figure 10 | {strategy} | square easiest",
                source=SOURCE,
                claim="square boards are the easiest",
                published="no number",
                measured=f"{pp(square['win_rate'], _se(square))} ({square['board']}); best other "
                f"{pp(best['win_rate'], _se(best))} ({best['board']})",
                z=zb,
                verdict=REPRODUCED if easiest else NOT_REPRODUCED,
                sentence=(
                    f"The square {square['board']} wins {pp(square['win_rate'])}; the best of the other shapes, "
                    f"{best['board']}, wins {pp(best['win_rate'])} ({'-' if zb is None else f'{zb:+.1f}'} SE for the "
                    "square against it): "
                    + ("the square is the easiest or within 2 SE of it." if easiest else "a less square board is easier.")
                ),
            )
        )
    return found


def frontier_claims(data: dict[str, Any]) -> list[Claim]:
    """The largest coupled sets: "more than 99% of the sets solved had fewer than 1,000 solutions" (tested on each
    game's largest set, which is stricter: when it has fewer, every set of the game has), and the paper's three
    extremes beside ours (an extreme of a sample has no standard error: it is compared in size, and grows with the
    sample, so it is reproduced when ours is at least as large or within a factor of two)."""
    found = []
    extremes = data.get("extremes", [])
    for strategy in dict.fromkeys(e["strategy"] for e in extremes):
        mine = {e["what"]: e for e in extremes if e["strategy"] == strategy}
        share = next((e for e in mine.values() if "small" in e), None)
        if share is not None and share["games_with_sets"]:
            n, k = share["games_with_sets"], share["small"]
            rate = k / n
            found.append(
                Claim(
                    key=f"seed 000 | largest coupled sets | {strategy} | under 1,000 solutions",
                    source=SOURCE,
                    claim="more than 99% of the sets solved had fewer than 1,000 solutions",
                    published="> 99%",
                    measured=pp(rate, binomial_se(k, n), 2) + " of games' largest sets",
                    z=None,
                    verdict=REPRODUCED if rate > 0.99 else NOT_REPRODUCED,
                    sentence=(
                        f"In {k:,} of the {n:,} games that met a coupled set ({pp(rate, None, 2)}), even the largest set "
                        "had fewer than 1,000 solutions, so every set of those games did."
                    ),
                )
            )
        for what, *published in SEED_000_FRONTIER:  # published: variables, constraints, degrees of freedom, solutions
            ours = mine.get(what)
            if ours is None:
                continue
            field, theirs = {
                "most degrees of freedom": ("dof", published[2]),
                "most variables and constraints": ("variables", published[0]),
            }.get(what, ("solutions", published[3]))
            ratio = ours[field] / theirs if theirs else math.inf
            found.append(
                Claim(
                    key=f"seed 000 | largest coupled sets | {strategy} | {what}",
                    source=SOURCE,
                    claim=f"the set with the {what}",
                    published=f"{theirs:,} {field.replace('dof', 'degrees of freedom')}",
                    measured=f"{ours[field]:,} ({ours['board']}, game {ours['game']})",
                    z=None,
                    verdict=REPRODUCED if ratio >= 0.5 else NOT_REPRODUCED,
                    sentence=(
                        f"The {what} the paper met: {', '.join(f'{v:,}' for v in published)} (variables, constraints, "
                        f"degrees of freedom, solutions); ours: {ours['variables']:,}, {ours['constraints']:,}, "
                        f"{ours['dof']:,}, {ours['solutions']:,} on {ours['board']}, {ratio:.2g} times the paper's "
                        f"{field.replace('dof', 'degrees of freedom')}."
                    ),
                )
            )
    return found


CLAIMS = {"density": density_claims, "size": size_claims, "aspect": aspect_claims, "frontier": frontier_claims}
