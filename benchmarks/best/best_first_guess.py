"""Is `best`'s first guess the best one? A paired survey of the position after the first click shows a number (issue 9).

Under the `safe` rule the first click may show a number k >= 1 and open nothing: then every other cell is covered, the
position depends on k alone, and the player must guess. `best` plays one cell for each k (its look-ahead's choice).
This script measures every alternative directly: on each layout whose first click shows a number, it plays `best`
as it is, and then, on the same layout, each candidate cell forced as the first guess with `best` playing on from
there. The paired differences (candidate minus `best`'s own game, layout by layout) say whether an opening book of
first guesses could win more games than the look-ahead.

  python benchmarks/best/best_first_guess.py collect --board beginner --layouts 30000 \
      --out results/best/first-guess/beginner-safe.csv.gz
  python benchmarks/best/best_first_guess.py summarise results/best/first-guess/*.csv.gz --out results/best/first-guess

`collect` tries every covered cell up to the board's symmetries that keep the first click (on a square board with the
click on the diagonal, a cell and its mirror image are one) unless `--cells` names a shortlist. It writes a CSV.gz of
layout,k,candidate,cell,won (candidate `best` is `best`'s own game) and a JSON sidecar with its settings. `summarise`
writes data.json and table.md: per board and k, `best`'s cell and win rate, and each candidate's paired difference.
Many candidates are compared at once, so the largest difference is biased upwards (by about 2 SE with 40 candidates):
a candidate counts as better only if it beats `best` by more than 3 SE.
"""

from __future__ import annotations

import argparse
import csv
import gzip
import io
import json
import math
import multiprocessing
from collections import defaultdict
from pathlib import Path
from typing import Any

from sweeplab.bench.runner import game_seeds
from sweeplab.core.game import Game, GameState
from sweeplab.core.geometry import Board
from sweeplab.core.rules import Rules, parse_board
from sweeplab.strategies.base import play
from sweeplab.strategies.registry import make
from sweeplab.studies.best import first_click_arg

FIELDS = ("layout", "k", "candidate", "cell", "won")
#: A candidate beats `best`'s choice only by more than this many standard errors of the paired difference.
BAR = 3.0


def symmetric_cells(width: int, height: int, first: tuple[int, int]) -> list[tuple[int, int]]:
    """Every cell but the first click, one per class of the board's symmetries that keep the first click in place
    (the mirror images in the board's middle lines and, on a square board, its diagonals)."""
    fx, fy = first
    maps = [lambda x, y: (x, y), lambda x, y: (width - 1 - x, y), lambda x, y: (x, height - 1 - y)]
    maps.append(lambda x, y: (width - 1 - x, height - 1 - y))
    if width == height:
        maps += [lambda x, y, m=m: m(y, x) for m in list(maps)]
    keep = [m for m in maps if m(fx, fy) == (fx, fy)]
    seen: set[tuple[int, int]] = set()
    out = []
    for y in range(height):
        for x in range(width):
            if (x, y) == first or (x, y) in seen:
                continue
            seen.update(m(x, y) for m in keep)
            out.append((x, y))
    return out


def _layout(task: tuple[int, int, int, str, int, int, int, tuple[tuple[int, int], ...], int | None]) -> list[tuple[Any, ...]]:
    width, height, mines, rule, first, root, index, cells, shown = task
    rules = Rules(width, height, mines, rule)
    layout_seed, strategy_seed = game_seeds(root, index)

    def opened() -> Game:
        game = Game(rules, layout_seed)
        game.reveal(first)
        return game

    game = opened()
    k = game.observation().view[first]
    if game.state is not GameState.PLAYING or k <= 0 or (shown is not None and k != shown):
        return []  # the first click opened an area (or ended the game, or shows another number): not surveyed
    player = make("best", seed=strategy_seed)
    play(player, game)
    own = player.guesses[0].cell if player.guesses else -1
    rows: list[tuple[Any, ...]] = [(index, k, "best", own, int(game.state is GameState.WON))]
    for x, y in cells:
        cell = y * width + x
        game = opened()
        game.reveal(cell)
        if game.state is GameState.PLAYING:
            play(make("best", seed=strategy_seed), game)
        rows.append((index, k, f"{x},{y}", cell, int(game.state is GameState.WON)))
    return rows


def collect(
    board: str,
    rule: str,
    first: tuple[int, int],
    layouts: int,
    seed: int,
    out: Path,
    jobs: int,
    cells: str | None,
    shown: int | None = None,
) -> int:
    """Play the survey and write ``out`` (CSV.gz) and its sidecar; returns the number of layouts that needed a guess."""
    width, height, mines = parse_board(board)
    if rule in ("zero", "hint"):
        why = "always opens an area at the first click" if rule == "zero" else "opens a cell of its own before the first click"
        raise SystemExit(f"best_first_guess: --rule {rule}: the game {why}, so no position depends on k alone")
    if not (0 <= first[0] < width and 0 <= first[1] < height):
        raise SystemExit(f"best_first_guess: --first-click {first[0]},{first[1]} is off the {width}x{height} board")
    shortlist = parse_cells(cells, width, height, first) if cells else symmetric_cells(width, height, first)
    click = first[1] * width + first[0]
    tasks = [(width, height, mines, rule, click, seed, i, tuple(shortlist), shown) for i in range(layouts)]
    rows: list[tuple[Any, ...]] = []
    guessed = 0
    print(f"best_first_guess: {layouts:,} layouts, {len(shortlist)} candidate cells, {jobs} jobs", flush=True)
    with multiprocessing.Pool(jobs) as pool:
        for done, found in enumerate(pool.imap(_layout, tasks, chunksize=8), 1):
            rows.extend(found)
            guessed += bool(found)
            if done % 500 == 0 or done == layouts:
                print(f"best_first_guess: {done:,}/{layouts:,} layouts, {guessed:,} needed a first guess", flush=True)
    out.parent.mkdir(parents=True, exist_ok=True)
    text = io.StringIO()
    writer = csv.writer(text)
    writer.writerow(FIELDS)
    writer.writerows(rows)
    out.write_bytes(gzip.compress(text.getvalue().encode(), mtime=0))
    settings = {"board": f"{width}x{height}x{mines}", "rule": rule, "first_click": list(first), "layouts": layouts}
    settings |= {"seed": seed, "guessed": guessed, "candidates": [list(c) for c in shortlist], "strategy": "best"}
    if shown is not None:
        settings["shown"] = shown
    _sidecar(out).write_text(json.dumps(settings, indent=1) + "\n")
    return guessed


def parse_cells(text: str, width: int, height: int, first: tuple[int, int]) -> list[tuple[int, int]]:
    """``--cells "X,Y X,Y ..."`` as a list of cells; a malformed, repeated or off-board cell, or the first click, is a
    SystemExit naming it."""
    cells: list[tuple[int, int]] = []
    for word in text.split():
        try:
            x, y = (int(t) for t in word.split(","))
        except ValueError:
            raise SystemExit(f"best_first_guess: --cells: {word!r} is not X,Y (two whole numbers)") from None
        if not (0 <= x < width and 0 <= y < height):
            raise SystemExit(f"best_first_guess: --cells: {x},{y} is off the {width}x{height} board")
        if (x, y) == first or (x, y) in cells:
            why = "the first click" if (x, y) == first else "named twice"
            raise SystemExit(f"best_first_guess: --cells: {x},{y} is {why}")
        cells.append((x, y))
    if not cells:
        raise SystemExit("best_first_guess: --cells names no cell")
    return cells


def _sidecar(path: Path) -> Path:
    return path.with_name(path.name.split(".")[0] + ".json")


def read(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A collected file's settings and rows; a missing or malformed one is a SystemExit naming the file and line."""
    try:
        text = gzip.decompress(path.read_bytes()).decode()
        settings = json.loads(_sidecar(path).read_text())
    except (OSError, EOFError, UnicodeDecodeError) as error:
        why = getattr(error, "strerror", None) or str(error) or type(error).__name__
        name = getattr(error, "filename", None) or path
        raise SystemExit(f"best_first_guess: cannot read {name}: {why}") from None
    except ValueError as error:
        raise SystemExit(f"best_first_guess: {_sidecar(path)}: not JSON ({error})") from None
    reader = csv.DictReader(io.StringIO(text))
    if tuple(reader.fieldnames or ()) != FIELDS:
        raise SystemExit(f"best_first_guess: {path}: the header is not {','.join(FIELDS)}")
    rows = []
    for number, row in enumerate(reader, 2):
        try:
            rows.append(
                {
                    "layout": int(row["layout"]),
                    "k": int(row["k"]),
                    "candidate": row["candidate"],
                    "cell": int(row["cell"]),
                    "won": int(row["won"]),
                }
            )
        except (TypeError, ValueError):
            raise SystemExit(f"best_first_guess: {path}, line {number}: not a row of the survey") from None
        if rows[-1]["won"] not in (0, 1):
            raise SystemExit(f"best_first_guess: {path}, line {number}: won must be 0 or 1")
    if not rows:
        raise SystemExit(f"best_first_guess: {path}: no layout needed a first guess")
    return settings, rows


def compare(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per number k shown by the first click: `best`'s cell and win rate, and every candidate's paired difference."""
    games: dict[int, dict[int, dict[str, int]]] = defaultdict(dict)
    own_cell: dict[int, set[int]] = defaultdict(set)
    for row in rows:
        games[row["k"]].setdefault(row["layout"], {})[row["candidate"]] = row["won"]
        if row["candidate"] == "best":
            own_cell[row["k"]].add(row["cell"])
    out = []
    for k in sorted(games):
        layouts = list(games[k].values())
        n = len(layouts)
        if any("best" not in g for g in layouts):
            raise SystemExit(f"best_first_guess: k = {k}: a layout has no game of `best` itself")
        names = sorted({c for g in layouts for c in g} - {"best"})
        candidates = []
        for name in names:
            diffs = [g[name] - g["best"] for g in layouts if name in g]
            if len(diffs) != n:
                raise SystemExit(f"best_first_guess: k = {k}: candidate {name} is missing from some layouts")
            mean = sum(diffs) / n
            var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else 0.0
            wins = sum(g[name] for g in layouts) / n
            candidates.append({"cell": name, "win": wins, "difference": mean, "se": math.sqrt(var / n)})
        candidates.sort(key=lambda c: -c["difference"])
        base = sum(g["best"] for g in layouts) / n
        cells = sorted(own_cell[k])
        better = [c["cell"] for c in candidates if c["se"] > 0 and c["difference"] > BAR * c["se"]]
        out.append(
            {
                "k": k,
                "layouts": n,
                "best_cells": cells,
                "best_win": base,
                "best_se": math.sqrt(base * (1 - base) / n),
                "candidates": candidates,
                "better": better,
            }
        )
    return out


def lookahead_scores(settings: dict[str, Any], k: int, cells: list[int]) -> dict[int, float]:
    """`best`'s look-ahead score (times its 50/50 influence factor) of each of ``cells`` as a first guess in the position
    where the first click shows ``k`` and nothing else is open: what the look-ahead ranks the candidates by."""
    from sweeplab.strategies.best.influence import Influence
    from sweeplab.strategies.best.lookahead import Candidate, evaluate

    width, height, mines = parse_board(settings["board"])
    fx, fy = settings["first_click"]
    click = fy * width + fx
    rules = Rules(width, height, mines, "unsafe")
    near = Board(width, height).neighbours[click]
    far = [c for c in range(width * height) if c != click and c not in near]
    game = Game(rules, layout=[*near[:k], *far[: mines - k]])  # any layout that shows k there
    game.reveal(click)
    observation = game.observation()
    assert observation.view[click] == k
    player = make("best")
    player.begin(Rules(width, height, mines, settings["rule"]))
    result = player.analyzer.analyze(observation)
    influence = Influence(player.analyzer, observation, result, result.mines)
    scores = {}
    for cell in cells:
        safety = 1.0 - result.probability(cell)
        candidate = Candidate(cell, safety, factor=influence.factor(cell, safety) if safety > 0 else 1.0)
        evaluate(player.analyzer, observation, result, candidate, -1.0, frozenset(result.mines), player.progress)
        scores[cell] = candidate.score or 0.0
    return scores


def spearman(xs: list[float], ys: list[float]) -> float | None:
    """Spearman's rank correlation (scipy's; ties at their mean rank); None with fewer than three points or no spread."""
    if len(xs) < 3 or len(set(xs)) < 2 or len(set(ys)) < 2:
        return None
    from scipy.stats import spearmanr

    return float(spearmanr(xs, ys).statistic)


def command(settings: dict[str, Any], path: Path) -> str:
    """The ``collect`` command that wrote a survey, from its sidecar (``--cells`` only where not every cell was tried)."""
    width, height, _ = parse_board(settings["board"])
    x, y = settings["first_click"]
    words = ["python benchmarks/best/best_first_guess.py collect", f"--board {settings['board']}", f"--rule {settings['rule']}"]
    words += [f"--first-click {x},{y}", f"--layouts {settings['layouts']}", f"--seed {settings['seed']}"]
    if settings.get("shown") is not None:
        words.append(f"--shown {settings['shown']}")
    cells = [tuple(c) for c in settings["candidates"]]
    if cells != symmetric_cells(width, height, (x, y)):
        words.append('--cells "' + " ".join(f"{a},{b}" for a, b in cells) + '"')
    return " ".join([*words, f"--out {path}"])


def summarise(paths: list[Path], out: Path, top: int = 5, tree: str | None = None) -> dict[str, Any]:
    """Write OUT/data.json and OUT/table.md for the collected files (``tree``: the commit they were played at)."""
    boards = []
    for path in paths:
        settings, rows = read(path)
        for key in ("board", "rule", "first_click", "layouts", "seed", "candidates"):
            if key not in settings:
                raise SystemExit(f"best_first_guess: {_sidecar(path)}: no {key!r} (not written by collect)")
        cell_of = {row["candidate"]: row["cell"] for row in rows}
        positions = compare(rows)
        for p in positions:
            cells = [cell_of[c["cell"]] for c in p["candidates"]]
            scores = lookahead_scores(settings, p["k"], cells + p["best_cells"])
            for c, cell in zip(p["candidates"], cells, strict=True):
                c["score"] = scores[cell]
            p["best_score"] = [scores[c] for c in p["best_cells"]]
            p["rank_correlation"] = spearman([c["score"] for c in p["candidates"]], [c["win"] for c in p["candidates"]])
        boards.append({"file": path.name, "settings": settings, "command": command(settings, path), "positions": positions})
    data: dict[str, Any] = {"bar_se": BAR, "boards": boards}
    if tree:
        data["tree"] = tree
    data["command"] = " ".join(["python benchmarks/best/best_first_guess.py summarise", *map(str, paths), f"--out {out}"])
    data["command"] += f" --tree {tree}" if tree else ""
    out.mkdir(parents=True, exist_ok=True)
    (out / "data.json").write_text(json.dumps(data, indent=1) + "\n")
    lines = [
        "# `best`'s first guess against every alternative, paired on the same layouts",
        "",
        "Written by `python benchmarks/best/best_first_guess.py summarise`. For each layout whose first click shows k >= 1"
        " and opens nothing, `best` played as it is and with each candidate forced as its first guess. Differences are"
        f" candidate minus `best`'s own game, paired by layout (± SE); a candidate counts as better only past {BAR:g} SE.",
        "",
        "`best`'s look-ahead ranks the candidates by their score (times the 50/50 influence factor); ρ is Spearman's"
        " rank correlation of that score with the measured win rate across the candidates.",
        "",
        "| board, rule, first click | k | layouts | `best`'s cell | `best` wins | candidates | better | ρ"
        " | top candidates (difference ± SE) |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for board in boards:
        s = board["settings"]
        width = int(s["board"].split("x")[0])
        where = f"{s['board']} {s['rule']} ({s['first_click'][0]},{s['first_click'][1]})"
        for p in board["positions"]:
            own = ", ".join(f"({c % width},{c // width})" for c in p["best_cells"])
            rho = "" if p["rank_correlation"] is None else f"{p['rank_correlation']:.2f}"
            tops = "; ".join(f"({c['cell']}) {100 * c['difference']:+.2f} ± {100 * c['se']:.2f}" for c in p["candidates"][:top])
            lines.append(
                f"| {where} | {p['k']} | {p['layouts']:,} | {own} | {100 * p['best_win']:.2f}% ± {100 * p['best_se']:.2f} |"
                f" {len(p['candidates'])} | {', '.join(p['better']) or 'none'} | {rho} | {tops} |"
            )
    lines += ["", "Commands:", "", "```", *(b["command"] for b in boards), data["command"], "```"]
    (out / "table.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    return data


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="what", required=True)
    one = sub.add_parser("collect", help="play best and every forced first guess on the same layouts")
    one.add_argument("--board", default="beginner", help="a preset or WIDTHxHEIGHTxMINES (default beginner)")
    one.add_argument("--rule", default="safe", help="the first-click rule: safe (default), unsafe or xp")
    one.add_argument("--first-click", type=first_click_arg, default=(0, 0), help="X,Y of the first click (default 0,0)")
    one.add_argument("--shown", type=int, help="survey only the layouts whose first click shows this number (default: any)")
    one.add_argument("--cells", help='the candidate first guesses, "X,Y X,Y ..." (default: every cell up to symmetry)')
    one.add_argument("--layouts", type=int, required=True, help="layouts dealt (about a third to a half need a guess)")
    one.add_argument("--seed", type=int, default=201, help="root seed of the layouts (default 201)")
    one.add_argument("--out", type=Path, required=True, help="the CSV.gz to write (a .json sidecar goes beside it)")
    one.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    two = sub.add_parser("summarise", help="compare the candidates and write data.json and table.md")
    two.add_argument("surveys", type=Path, nargs="+")
    two.add_argument("--out", type=Path, required=True)
    two.add_argument("--tree", help="the commit the surveys were played at, kept in data.json")
    args = parser.parse_args()
    if args.what == "collect":
        for name in ("layouts", "jobs"):
            if getattr(args, name) < 1:
                parser.error(f"--{name} must be at least 1, not {getattr(args, name)}")
        x, y = args.first_click
        try:
            Rules(*parse_board(args.board), args.rule)
        except ValueError as error:
            parser.error(f"--board {args.board!r} / --rule {args.rule!r}: {error}")
        if args.shown is not None and not 1 <= args.shown <= 8:
            parser.error(f"--shown must be 1 to 8 (a number the first click can show without opening an area), not {args.shown}")
        count = collect(args.board, args.rule, (x, y), args.layouts, args.seed, args.out, args.jobs, args.cells, args.shown)
        print(f"best_first_guess: {count:,} layouts needed a first guess; written to {args.out}")
    else:
        summarise(args.surveys, args.out, tree=args.tree)


if __name__ == "__main__":
    main()
