"""docs/strategies.md, docs/performance.md and docs/arena.md: their prose from the templates in ``templates/``,
every figure from the committed data under results/.

A template is Markdown with two kinds of placeholder: a line ``{{table NAME}}``, replaced by the table (with its
command, sample size, standard errors and, for speeds, the date and machine of the run) that ``TABLES[NAME]`` writes
from results/, and ``{{FILE#PATH:FORMAT}}``, one value from a committed JSON file (:func:`sweeplab.studies.explanations.fill`).
"""

from __future__ import annotations

import csv
import math
import re
from collections.abc import Callable
from pathlib import Path

from sweeplab.bench.stats import paired_difference
from sweeplab.core.heldout import verdict_seed
from sweeplab.studies.explanations import fill
from sweeplab.studies.pages.page import _table
from sweeplab.studies.pages.speeds import (
    _day,
    _read,
    best_speed,
    identity_932d948,
    identity_b36c06e,
    pseq_speed,
    whole_process,
)
from sweeplab.studies.published import PSEQ_README

TEMPLATES = Path(__file__).with_name("templates")

#: The pages written beside docs/results.md, and the folder under results/ each needs.
GUIDES = {"strategies": "strategies", "performance": "performance", "arena": "arena"}

BOARDS = {"9x9x10": "beginner 9x9/10", "16x16x40": "intermediate 16x16/40", "30x16x99": "expert 30x16/99"}


def build_guides(results: Path) -> tuple[dict[str, str], list[str]]:
    """The guide pages by name whose data ``results`` holds, and a note for each one left out."""
    pages, skipped = {}, []
    for name, needs in GUIDES.items():
        if not (results / needs).is_dir():
            skipped.append(f"docs/{name}.md: results/{needs}/ is missing, the page is not written")
            continue
        pages[name] = guide(name, results)
    return pages, skipped


def guide(name: str, results: Path) -> str:
    """The page ``name`` from its template: the tables first, then the single values. ValueError names what fails."""
    template = (TEMPLATES / f"{name}.md").read_text(encoding="utf-8")

    def table(match: re.Match[str]) -> str:
        maker = TABLES.get(match.group(1))
        if maker is None:
            raise ValueError(f"templates/{name}.md: no table named {match.group(1)!r}")
        return maker(results).rstrip("\n")

    text = re.sub(r"^\{\{table ([\w-]+)\}\}$", table, template, flags=re.MULTILINE)
    return fill(text, results.parent, f"docs/{name}.md").rstrip() + "\n"


def _cpu(games_csv: Path) -> dict[str, tuple[float, float, int]]:
    """Mean CPU seconds per game, its standard error and the games, per strategy, from a bench's games.csv."""
    found: dict[str, list[float]] = {}
    with games_csv.open(newline="") as handle:
        for row in csv.DictReader(handle):
            found.setdefault(row["strategy"], []).append(float(row["cpu_seconds"]))
    out = {}
    for strategy, cpu in found.items():
        n = len(cpu)
        mean = sum(cpu) / n
        var = sum((c - mean) ** 2 for c in cpu) / (n - 1) if n > 1 else math.nan
        out[strategy] = (mean, math.sqrt(var / n), n)
    return out


def _run_line(folder: Path) -> str:
    """When and where a bench ran, from its run.json."""
    run = _read(folder / "run.json")
    if not run.get("finished"):
        raise ValueError(f"{folder / 'run.json'}: the run has not finished (resume it with --resume)")
    return f"finished {_day(run['ended'])}, {run['cores']} cores shared with other work, {run['wall_seconds']:.0f} s wall"


def first_win_rates(results: Path) -> str:
    """The strategies on beginner and intermediate: win rate ± SE over sets and mean CPU ± SE per game."""
    boards = [results / "strategies" / name for name in ("beginner", "intermediate")]
    benches = [_read(folder / "bench.json") for folder in boards]
    cpus = [_cpu(folder / "games.csv") for folder in boards]
    settings = benches[0]["settings"]
    sets = {s["sets"] for b in benches for s in b["summaries"]}
    games = settings["games"]
    rows = []
    for s in benches[0]["summaries"]:
        row = [f"`{s['strategy']}`"]
        for bench, cpu in zip(benches, cpus, strict=True):
            other = next(o for o in bench["summaries"] if o["strategy"] == s["strategy"])
            mean, se, _ = cpu[s["strategy"]]
            row += [f"{100 * other['win_rate']:.1f}% ± {100 * other['sem']:.1f}", f"{1000 * mean:.2f} ± {1000 * se:.2f}"]
        rows.append(row)
    timeouts = sum(s["timeouts"] for b in benches for s in b["summaries"])
    lines = [
        f"{games:,} games per cell with the `{settings['rule']}` first-click rule, the same layouts for every strategy "
        f"(root seed {settings['seed']}); ± is the standard error of the mean over {'/'.join(map(str, sorted(sets)))} sets "
        f"(seed 000's method) for the win rate, over games for the CPU. Each strategy chooses its own first click.",
        "",
        _table(["strategy", "beginner 9x9/10", "CPU ms/game", "intermediate 16x16/40", "CPU ms/game"], rows),
        "Data: `results/strategies/beginner/` and `results/strategies/intermediate/` (`bench.json`, `games.csv`, "
        "`run.json`), produced by",
        "",
        "```",
        *(_read(folder / "run.json")["command"] for folder in boards),
        "```",
        "",
        f"({timeouts} games timed out.) CPU is the thread's CPU time per game, from the deal to the end, on "
        f"{settings['executor']} ({'; '.join(f'{f.name}: ' + _run_line(f) for f in boards)}): CPU per game depends "
        "on what else the machine runs, so compare strategies within one run. The papers' own boards and "
        "rules are in `docs/results.md`.",
    ]
    return "\n".join(lines)


def pseq(results: Path) -> str:
    """`pseq` against PSEQ's published rates and, paired, against `exact` on the same layouts."""
    rows, commands, within, ratios = [], [], 0, []
    for name, published in PSEQ_README.items():
        bench = _read(results / "pseq" / f"{name}.json")
        verdict_seed(bench["settings"].get("seed"), f"results/pseq/{name}.json")  # its verdict: held-out games only
        found = {s["strategy"]: s for s in bench["summaries"]}
        mine, exact = found["pseq"], found["exact"]
        pair = next(p for p in bench["paired"] if p["a"] == "pseq" and p["b"] == "exact")
        se = math.sqrt(mine["win_rate"] * (1 - mine["win_rate"]) / mine["games"])
        within += abs(100 * mine["win_rate"] - published) <= 2 * 100 * se
        ratios.append(mine["cpu_mean"] / exact["cpu_mean"])
        rows.append(
            [
                name,
                f"{mine['games']:,}",
                f"{100 * mine['win_rate']:.2f}% ± {100 * se:.2f}",
                f"{published:.2f}%",
                f"{(100 * mine['win_rate'] - published) / (100 * se):+.1f}",
                f"{100 * pair['difference']:+.2f} ± {100 * pair['se']:.2f}",
                f"{1000 * mine['cpu_mean']:.2f} / {1000 * exact['cpu_mean']:.2f}",
            ]
        )
        run = _read(results / "pseq" / name / "run.json")
        moved = "" if f"--out results/pseq/{name}" in run["command"] else f", copied to results/pseq/{name}/"
        commands.append(f"{run['command']}  # finished {_day(run['ended'])}, {run['cores']} cores{moved}")
    return "\n".join(
        [
            _table(
                [
                    "board (safe, corner)",
                    "games",
                    "`pseq` ± binomial SE",
                    "PSEQ's README",
                    "difference / SE",
                    "`pseq` − `exact`, paired",
                    "CPU ms per game, `pseq` / `exact`",
                ],
                rows,
            ),
            f"Within two standard errors of PSEQ's published rate on {within} of {len(rows)} boards, on the layouts of "
            f"the held-out root seed {bench['settings']['seed']:,} (`sweeplab/core/heldout.py`). CPU per game: "
            f"{min(ratios):.1f} to {max(ratios):.1f} times `exact`'s in the same runs.",
            "",
            "Data: `results/pseq/` (each board's `--out` folder, and its summary as `BOARD.json`), from",
            "",
            "```",
            *commands,
            "```",
            *_pseq_pure_python(results / "pseq"),
        ]
    )


def pseq_peer(results: Path) -> str:
    """PSEQ's own C++ program on the layouts of `pseq`'s runs (``results/pseq/peer/BOARD/``, written by
    ``benchmarks/peers/pseq_paired.py``): the win rates paired game by game with the run's ``pseq`` games (PSEQ as
    published, the mean of its two seeds' passes; and with its two counting slips corrected), and the cells each
    leaves to chance at PSEQ's guesses."""
    import gzip

    wins, cells, commands, outside, within = [], [], [], [], 0
    for name in PSEQ_README:
        folder = results / "pseq" / "peer" / name
        summary = _read(folder / "summary.json")
        verdict_seed(summary["seed"], f"results/pseq/peer/{name}/summary.json")
        with gzip.open(folder / "outcomes.csv.gz", "rt", newline="") as handle:
            peer = list(csv.DictReader(handle))
        games = _games(results / "pseq" / name / "games.csv.gz", "pseq")
        mine = [float(games[r["game"]][0] == "1") for r in peer]
        published = [k for k in peer[0] if k.startswith("published-")]
        both = [sum(float(r[k]) for k in published) / len(published) for r in peer]
        corrected = [float(r["corrected-" + published[0].split("-")[1]]) for r in peer]
        diff, se = paired_difference(mine, both)
        fixed = paired_difference(mine, corrected)
        within += abs(diff) <= 2 * se
        if abs(diff) > 2 * se:
            outside.append(
                f"{name}, {diff / se:+.2f} SE against PSEQ as published, {fixed[0] / fixed[1]:+.2f} against it corrected"
            )
        rate = " / ".join(f"{100 * sum(float(r[k]) for r in peer) / len(peer):.2f}" for k in published)
        wins.append(
            [name, f"{len(peer):,}", f"{100 * sum(mine) / len(mine):.2f}", rate,
             f"{100 * diff:+.2f} ± {100 * se:.2f}", f"{100 * sum(corrected) / len(corrected):.2f}",
             f"{100 * fixed[0]:+.2f} ± {100 * fixed[1]:.2f}"]
        )  # fmt: skip
        at = summary["positions"]
        cells.append(
            [name, f"{at['published']['compared']:,} / {at['corrected']['compared']:,}",
             f"{100 * at['published']['same'] / at['published']['compared']:.1f}%",
             f"{100 * at['corrected']['same'] / at['corrected']['compared']:.1f}%",
             f"{at['published']['figure_differs']:,} / {at['corrected']['figure_differs']:,}",
             f"{at['published']['ties']:,} / {at['corrected']['ties']:,}"]
        )  # fmt: skip
        commands.append(summary["command"].replace("/tmp/pseqsrc", "MineSweeperProb").replace("/tmp/peer", "results/pseq/peer"))
    layouts = summary["positions"]["published"]["layouts"]
    return "\n".join(
        [
            _table(
                [
                    "board",
                    "layouts",
                    "`pseq` win %",
                    "PSEQ as published, win % (seed 1 / 2)",
                    "`pseq` − PSEQ, paired",
                    "PSEQ corrected, win %",
                    "`pseq` − corrected, paired",
                ],
                wins,
            ),
            f"`pseq` is within two standard errors of PSEQ's own program on the same layouts on {within} of "
            f"{len(wins)} boards" + (f" (not on {'; '.join(outside)})" if outside else "") + ". PSEQ's random "
            "choice among tied cells is not `pseq`'s, so even two passes of PSEQ with different seeds part ways in "
            "some games: the `pseq` − PSEQ column pairs each game with the mean of PSEQ's two passes.",
            "",
            _table(
                [
                    "board",
                    "PSEQ's guesses compared (published / corrected)",
                    "same cells left to chance, published",
                    "same, corrected",
                    "a figure differs (published / corrected)",
                    "only a tie fell otherwise (published / corrected)",
                ],
                cells,
            ),
            f"At each guess of PSEQ's first pass on the first {layouts:,} layouts of each board, the cells it leaves "
            "to chance against those `pseq` leaves in the same position; where they differ, PSEQ's P, S, E and Q of "
            "every cell of either set are read back and set beside `pseq`'s: a figure differs, or only a tie "
            "between equal figures fell otherwise (PSEQ's `Largest` starts its list again on a double larger in "
            "its last bit). Data: `results/pseq/peer/BOARD/` (`summary.json`, `outcomes.csv.gz`, `differing.txt.gz`), "
            f"PSEQ at commit {summary['pseq_commit'][:7]}, from",
            "",
            "```",
            *commands,
            "```",
        ]
    )


#: What a game's record says of its play, CPU aside: the columns two runs of the same games must share.
PLAYED = ("won", "outcome", "revealed", "guesses", "three_bv")


def _games(path: Path, strategy: str) -> dict[str, tuple[str, ...]]:
    """Game index -> :data:`PLAYED` of ``strategy``'s games in a run's ``games.csv.gz``."""
    import gzip

    with gzip.open(path, "rt", newline="") as handle:
        return {r["game"]: tuple(r[c] for c in PLAYED) for r in csv.DictReader(handle) if r["strategy"] == strategy}


def _pseq_pure_python(folder: Path) -> list[str]:
    """A line on ``pseq`` without its C extension (``results/pseq/pure-python/``, its command with the environment
    in ``command.txt``) against the same games of the run of its board: how many play alike, and the CPU per game of
    each (none without that run)."""
    pure = folder / "pure-python"
    if not (pure / "bench.json").exists():
        return []
    bench = _read(pure / "bench.json")
    board = bench["settings"]["board"]
    name = next(n for n in PSEQ_README if _read(folder / f"{n}.json")["settings"]["board"] == board)
    if bench["settings"]["seed"] != _read(folder / f"{name}.json")["settings"]["seed"]:
        raise ValueError(f"{pure / 'bench.json'}: its seed is not that of results/pseq/{name}.json, so its games do not pair")
    c_games, py_games = _games(folder / name / "games.csv.gz", "pseq"), _games(pure / "games.csv.gz", "pseq")
    alike = sum(c_games[g] == played for g, played in py_games.items())
    c_cpu = next(s for s in _read(folder / f"{name}.json")["summaries"] if s["strategy"] == "pseq")["cpu_mean"]
    py_cpu = bench["summaries"][0]["cpu_mean"]
    return [
        "",
        f"Without the C extension, `{(pure / 'command.txt').read_text().strip()}` (`results/pseq/pure-python/`) plays "
        f"{alike:,} of its {len(py_games):,} {name} games as the run above does (the outcome, the cells revealed, "
        f"the guesses), at {1000 * py_cpu:.1f} ms per game against {1000 * c_cpu:.2f}.",
    ]


def seed004_boards(results: Path) -> str:
    """Seed 004's other boards: `corners` and `single-point` on the same layouts."""
    rows = []
    folders = sorted((p for p in (results / "strategies" / "seed004").iterdir() if re.fullmatch(r"\d+x\d+x\d+", p.name)),
                     key=lambda p: tuple(int(x) for x in p.name.split("x")))  # fmt: skip
    for folder in folders:
        bench = _read(folder / "bench.json")
        found = {s["strategy"]: s for s in bench["summaries"]}
        w, h, m = folder.name.split("x")
        rows.append(
            [f"{w}x{h}, {m} mines"]
            + [f"{100 * found[s]['win_rate']:.1f}% ± {100 * found[s]['sem']:.1f}%" for s in ("corners", "single-point")]
            + [f"{found['corners']['games']:,}"]
        )
    return _table(["board", "corners", "single-point", "games"], rows)


TABLES: dict[str, Callable[[Path], str]] = {
    "first-win-rates": first_win_rates,
    "pseq": pseq,
    "pseq-peer": pseq_peer,
    "pseq-speed": pseq_speed,
    "seed004-boards": seed004_boards,
    "whole-process": whole_process,
    "identity-932d948": identity_932d948,
    "identity-b36c06e": identity_b36c06e,
    "best-speed": best_speed,
}
