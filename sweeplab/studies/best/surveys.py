"""The docs sections of the ``best`` strategy's surveys (``benchmarks/best_*.py``): the fitted worth of a position,
first guesses, each guess against the exact optimum, and the gap to optimal play on small boards."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sweeplab.studies.best.runs import _load, _pct


def _table(header: list[str], rows: list[list[Any]]) -> str:
    out = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(out) + "\n"


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
            f"`python benchmarks/best/best_calibrate.py collect --games {games} --seed {data['collected']['seed']} --out "
            "results/best/calibration/expert-safe.csv.gz`, then `python benchmarks/best/best_calibrate.py fit "
            "results/best/calibration/expert-safe.csv.gz --out results/best/calibration`). "
            if games
            else "`benchmarks/best/best_calibrate.py`). "
        )
    )


def _first_guess(root: Path) -> str:
    """The first-guess survey (``results/best/first-guess/``, ``benchmarks/best/best_first_guess.py``), or ""."""
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


def optimal_gap_shares(board: dict[str, Any]) -> tuple[float, float, float, float]:
    """A board's gap to the optimum (a file of ``benchmarks/best/best_optimal_gap.py run``) in points: at the first guess,
    at the second and third, later (these three add up to the gap), and in guesses the look-ahead decided."""
    part = board["by_guess_number"]
    first = part.get("1", {}).get("regret_points", 0.0)
    middle = sum(part.get(k, {}).get("regret_points", 0.0) for k in ("2", "3"))
    look = sum(v["regret_points"] for k, v in board["by_decision"].items() if "look-ahead" in k)
    return first, middle, board["gap_points"] - first - middle, look


def _optimal_gap(root: Path) -> str:
    """The exact split of `best`'s gap to optimal play on small boards (``results/best/optimal-gap/``,
    ``benchmarks/best/best_optimal_gap.py``), or ""."""
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
        '\nThe table in "The limit of the game" was played by earlier versions of the strategies; where '
        "those here win a different share of the same layouts: " + "; ".join(changed) + ".\n"
        if changed
        else ""
    )
    return (
        "### Against optimal play on small boards\n\n"
        "Where does `best` lose against a perfect player? On boards small enough for the optimal search, "
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
        f"python benchmarks/best/best_regret.py collect --games {got.get('games', 'N')} --seed {got.get('seed', 'S')} "
        "--out results/best/regret/positions.jsonl.gz\n"
        + "\n".join(
            f"python benchmarks/best/best_regret.py evaluate results/best/regret/positions.jsonl.gz {c}" for c in commands
        )
        + "\n```"
    )
