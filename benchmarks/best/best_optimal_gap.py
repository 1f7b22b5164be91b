"""How far is `best` from optimal play, and where does it lose? An exact decomposition on small boards (issue 9).

On a board small enough for the optimal search (`sweeplab.analysis.optimal.search`), a strategy is played on every layout
the rule deals, as `sweeplab evaluate` plays it, and every position where it guesses is kept with the layouts that
reach it. A deterministic player reaches a position with exactly the layouts that agree with what it shows, so the
search gives each guess its exact worth: the layouts the best move there wins with optimal play after it, against the
layouts the strategy's move wins with optimal play after it. The difference is the guess's regret, in layouts. Summed
over every position the strategy guesses in, the regrets equal the optimal player's wins less the strategy's (the
performance-difference identity; `run` checks it and fails if it does not hold), so the gap to the optimum after the
same first click is split exactly over the guesses that make it: by how many guesses came before, and by what
decided the guess (for `best`: its look-ahead, its endgame search, a forced set).

  python benchmarks/best/best_optimal_gap.py run --board 5x5x5 --out results/best/optimal-gap/5x5x5-safe.json
  python benchmarks/best/best_optimal_gap.py summarise results/best/optimal-gap/*-*.json --out results/best/optimal-gap

`run` writes one JSON per board: the settings and command, the win counts, the regret by guess number and by
decision, and the positions that lose the most (each drawn as text). `summarise` writes data.json and table.md.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from sweeplab.analysis.optimal.search import OptimalSearch, dealt_layouts
from sweeplab.bench.executors import LocalExecutor
from sweeplab.core.errors import SweeplabError
from sweeplab.core.game import Game, GameState
from sweeplab.core.rules import Rules, parse_board
from sweeplab.strategies.base import play
from sweeplab.strategies.registry import make_spec
from sweeplab.studies.best import first_click_arg, optimal_gap_shares

#: Rules whose positions the search values the same way (see sweeplab.analysis.optimal.search: `xp` weighs layouts by the
#: first click, and `hint` is not modelled).
RULES = ("unsafe", "safe", "zero")
#: Boards with more layouts than this are refused (each is played and kept in memory).
MAX_LAYOUTS = 2_000_000
#: What `summarise` reads from each file `run` wrote.
FIELDS = ("command", "layouts", "wins", "optimal_rate", "win_rate", "gap_points", "by_guess_number", "by_decision", "top")
SETTINGS = ("board", "rule", "first_click", "strategy")
CHUNK = 2_000


class GapError(Exception):
    """The split cannot be made: the strategy is not one deterministic player, or the regrets do not add up."""


def _label(guess: Any) -> str:
    """What decided a guess, from its explanation (for `best`), else the strategy's own kind of guess."""
    text = guess.explanation.text if guess.explanation is not None else ""
    for label in ("endgame search", "look-ahead", "safest cell"):
        if label in text:
            return ("forced set, " if text.startswith("forced") else "") + label
    return str(guess.kind)


def _play(task: tuple[str, int, int, int, int, list[int]]) -> tuple[int, dict[tuple[int, int], list[Any]]]:
    """Play one chunk of layouts: (wins, guess positions) with each position's (revealed, code) key mapped to
    [arriving layouts, the cell guessed, what decided it, the guess's number in the game]."""
    spec, width, height, mines, click, masks = task
    plain = Rules(width, height, mines, "unsafe")
    cells = width * height
    found: dict[tuple[int, int], list[Any]] = {}
    wins = 0
    for mask in masks:
        game = Game(plain, layout=[c for c in range(cells) if mask >> c & 1])
        game.reveal(click)
        if game.state is not GameState.PLAYING:
            wins += game.state is GameState.WON
            continue
        strategy = make_spec(spec, 0)
        choose = strategy.choose
        count = [0]

        def recording(
            observation: Any, choose: Any = choose, strategy: Any = strategy, count: list[int] = count, mask: int = mask
        ) -> Any:
            move = choose(observation)
            guess = strategy.pending_guess
            if guess is not None and move.kind == "reveal" and move.cell == guess.cell:
                count[0] += 1
                revealed = code = 0
                for c, v in enumerate(observation.view):
                    if v >= 0:
                        revealed |= 1 << c
                        code |= (v + 1) << (4 * c)
                entry = found.get((revealed, code))
                if entry is None:
                    found[(revealed, code)] = [[mask], move.cell, _label(guess), count[0]]
                else:
                    if entry[1] != move.cell:
                        raise GapError(f"{spec} guessed two cells in one position: it is not deterministic")
                    entry[0].append(mask)
            return move

        strategy.choose = recording  # type: ignore[method-assign]
        play(strategy, game)
        wins += game.state is GameState.WON
    return wins, found


def picture(width: int, height: int, revealed: int, code: int, chosen: int, best: int) -> list[str]:
    """The position as text rows: numbers, `.` covered, `S` the strategy's guess, `O` the optimal move, `*` both."""
    rows = []
    for y in range(height):
        row = ""
        for x in range(width):
            c = y * width + x
            if c == chosen:
                row += "*" if c == best else "S"
            elif c == best:
                row += "O"
            elif revealed >> c & 1:
                row += str((code >> (4 * c) & 15) - 1)
            else:
                row += "."
        rows.append(row)
    return rows


def run(
    board: str, rule: str, click_xy: tuple[int, int], spec: str, jobs: int, top: int, progress: bool = True
) -> dict[str, Any]:
    """Play ``spec`` on every layout of ``board`` dealt under ``rule`` with the harness opening at ``click_xy``, and
    split its gap to the optimal player exactly over its guesses (see the module's docstring)."""
    width, height, mines = parse(board)
    x, y = click_xy
    if not (0 <= x < width and 0 <= y < height):
        raise ValueError(f"--first-click {x},{y} is off the {width}x{height} board")
    click = y * width + x
    rules = Rules(width, height, mines, rule)
    start = time.perf_counter()
    dealt = dealt_layouts(rules, click)
    size = max(1, min(CHUNK, -(-len(dealt) // (4 * jobs))))  # several chunks per process, for an even load
    tasks = [(spec, width, height, mines, click, dealt[i : i + size]) for i in range(0, len(dealt), size)]
    wins = 0
    states: dict[tuple[int, int], list[Any]] = {}
    executor = LocalExecutor(jobs)
    try:
        for done, (part_wins, found) in enumerate(executor.imap_unordered(_play, tasks, len(tasks)), 1):
            wins += part_wins
            for key, (masks, cell, label, number) in found.items():
                entry = states.get(key)
                if entry is None:
                    states[key] = [masks, cell, label, number]
                elif entry[1] != cell:
                    raise GapError(f"{spec} guessed two cells in one position: it is not deterministic")
                else:
                    entry[0].extend(masks)
            if progress:
                print(f"played {min(done * size, len(dealt)):,}/{len(dealt):,} layouts", file=sys.stderr, flush=True)
    finally:
        executor.close()
    search = OptimalSearch(width, height, mines, max_layouts=max(len(dealt), math.comb(width * height, mines)))
    optimal_wins = search.first_click(rule, click)[0]
    rows = []
    for n, ((revealed, code), (masks, cell, label, number)) in enumerate(states.items(), 1):
        layouts = search.encode(masks)
        values = search.move_values(revealed, code, layouts)
        best_wins, best_cell = values[0][0], values[0][1]
        chosen = search.move_value(revealed, code, layouts, cell)
        safe = sum(1 for m in masks if not m >> cell & 1)
        best_safe = sum(1 for m in masks if not m >> best_cell & 1)
        row = (best_wins - chosen, revealed, code, cell, best_cell, label, number, len(masks), chosen, best_wins, safe, best_safe)
        rows.append(row)
        if progress and n % 500 == 0:
            print(f"valued {n:,}/{len(states):,} positions", file=sys.stderr, flush=True)
    regret = sum(r[0] for r in rows)
    if regret != optimal_wins - wins:
        raise GapError(
            f"the regrets add up to {regret} layouts but optimal play wins {optimal_wins - wins} more than {spec}: "
            "the strategy guessed without saying so, or the search and the engine disagree"
        )
    by_number: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    by_label: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for r in rows:
        for table, key in ((by_number, str(r[6]) if r[6] < 4 else "4+"), (by_label, r[5])):
            table[key][0] += r[0]
            table[key][1] += r[7]
            table[key][2] += 1
    rows.sort(key=lambda r: (-r[0], -r[7], r[1], r[2]))
    total = len(dealt)
    return {
        "settings": {"board": f"{width}x{height}x{mines}", "rule": rule, "first_click": [x, y], "strategy": spec},
        "command": f"python benchmarks/best/best_optimal_gap.py run --board {width}x{height}x{mines} --rule {rule} "
        f"--first-click {x},{y} --strategy '{spec}'",
        "layouts": total,
        "wins": wins,
        "optimal_wins": optimal_wins,
        "win_rate": wins / total,
        "optimal_rate": optimal_wins / total,
        "gap_points": 100 * (optimal_wins - wins) / total,
        "positions": len(rows),
        "positions_with_regret": sum(1 for r in rows if r[0]),
        "by_guess_number": {k: _part(v, total) for k, v in sorted(by_number.items())},
        "by_decision": {k: _part(v, total) for k, v in sorted(by_label.items())},
        "top": [
            {
                "regret_layouts": r[0],
                "regret_points": 100 * r[0] / total,
                "guess_number": r[6],
                "decision": r[5],
                "layouts": r[7],
                "cell": [r[3] % width, r[3] // width],
                "optimal_cell": [r[4] % width, r[4] // width],
                "wins": r[8],
                "optimal_wins": r[9],
                "safety": r[10] / r[7],
                "optimal_safety": r[11] / r[7],
                "picture": picture(width, height, r[1], r[2], r[3], r[4]),
            }
            for r in rows[:top]
            if r[0] > 0
        ],
        "seconds": round(time.perf_counter() - start, 1),
    }


def _part(v: list[int], total: int) -> dict[str, Any]:
    """One row of a breakdown: the regret (layouts and points of all games), the games reaching such guesses, and
    the number of positions."""
    return {"regret_layouts": v[0], "regret_points": 100 * v[0] / total, "arrivals": v[1], "positions": v[2]}


def parse(board: str) -> tuple[int, int, int]:
    """WIDTHxHEIGHTxMINES of a small board; a ValueError names what is wrong."""
    try:
        width, height, mines = parse_board(board)
    except SweeplabError as error:
        raise ValueError(f"--board {board!r}: expected WIDTHxHEIGHTxMINES, e.g. 5x5x5 ({error})") from None
    if not 0 < mines < width * height:
        raise ValueError(
            f"--board {board!r}: needs a width and height of at least 1 and from 1 to {max(width * height - 1, 1)} mines"
        )
    if width * height > 64:
        raise ValueError(f"--board {board!r}: the optimal search takes boards of at most 64 cells")
    layouts = math.comb(width * height, mines)
    if layouts > MAX_LAYOUTS:
        raise ValueError(f"--board {board!r} has {layouts:,} layouts, more than the {MAX_LAYOUTS:,} this plays")
    return width, height, mines


def summarise(paths: list[Path], out: Path, tree: str | None = None) -> dict[str, Any]:
    """data.json and table.md from `run`'s files, one row per board and strategy; ``tree`` (a commit) says which
    version of the strategies played them."""
    boards = []
    for path in paths:
        try:
            data = json.loads(path.read_text())
        except (OSError, ValueError) as error:
            raise ValueError(f"{path}: not a file written by `best_optimal_gap.py run` ({error})") from None
        settings = data.get("settings") if isinstance(data, dict) else None
        missing = [f for f in FIELDS if not isinstance(data, dict) or f not in data]
        missing += [f"settings.{f}" for f in SETTINGS if not isinstance(settings, dict) or f not in settings]
        if missing:
            raise ValueError(f"{path}: not a file written by `best_optimal_gap.py run` (no {', '.join(missing)})")
        data["file"] = path.name
        boards.append(data)
    boards.sort(key=lambda d: (d["settings"]["rule"], _size(d["settings"]["board"]), d["settings"]["strategy"] != "best"))
    result = {
        "boards": boards,
        "tree": tree,
        "command": "python benchmarks/best/best_optimal_gap.py summarise "
        + " ".join(f"{out.as_posix()}/{d['file']}" for d in boards)
        + f" --out {out.as_posix()}"
        + (f" --tree {tree}" if tree else ""),
    }
    out.mkdir(parents=True, exist_ok=True)
    (out / "data.json").write_text(json.dumps(result, indent=1) + "\n")
    (out / "table.md").write_text(table(result))
    return result


def _size(board: str) -> tuple[int, ...]:
    return tuple(int(p) for p in board.split("x"))


def table(result: dict[str, Any]) -> str:
    header = [
        "board, rule, first click",
        "layouts",
        "optimal % (same click)",
        "strategy %",
        "gap (points)",
        "at guess 1",
        "guesses 2-3",
        "later",
        "by look-ahead",
        "costliest position",
    ]
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    for d in result["boards"]:
        s = d["settings"]
        first, middle, later, look = optimal_gap_shares(d)
        top = d["top"][0] if d["top"] else None
        worst = (
            f"guess {top['guess_number']}: ({top['cell'][0]}, {top['cell'][1]}) instead of "
            f"({top['optimal_cell'][0]}, {top['optimal_cell'][1]}), {top['regret_points']:.2f}"
            if top
            else "none"
        )
        lines.append(
            "| "
            + " | ".join(
                [
                    f"{s['board']} {s['rule']} ({s['first_click'][0]}, {s['first_click'][1]}) `{s['strategy']}`",
                    f"{d['layouts']:,}",
                    f"{100 * d['optimal_rate']:.2f}",
                    f"{100 * d['win_rate']:.2f}",
                    f"{d['gap_points']:.3f}",
                    f"{first:.3f}",
                    f"{middle:.3f}",
                    f"{later:.3f}",
                    f"{look:.3f}" if s["strategy"].startswith("best") else "",
                    worst,
                ]
            )
            + " |"
        )
    return "\n".join(lines) + "\n"


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: must be at least 1")
    return value


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    p_run = sub.add_parser("run", help="play every layout of a small board and value each guess exactly")
    p_run.add_argument("--board", required=True, help="WIDTHxHEIGHTxMINES (at most 64 cells)")
    p_run.add_argument("--rule", default="safe", choices=RULES, help="first-click rule (default safe)")
    p_run.add_argument(
        "--first-click", type=first_click_arg, default=(0, 0), metavar="X,Y", help="opened by the harness (default 0,0)"
    )
    p_run.add_argument("--strategy", default="best", help="a strategy spec (default best)")
    p_run.add_argument("--jobs", type=_positive, default=1, help="processes playing the layouts (default 1)")
    p_run.add_argument("--top", type=_positive, default=8, help="the costliest positions to keep (default 8)")
    p_run.add_argument("--out", type=Path, required=True, help="the JSON file to write")
    p_sum = sub.add_parser("summarise", help="data.json and table.md from run's files")
    p_sum.add_argument("files", type=Path, nargs="+")
    p_sum.add_argument("--out", type=Path, required=True, help="directory for data.json and table.md")
    p_sum.add_argument("--tree", help="the commit the runs were played at, kept in data.json")
    args = parser.parse_args(argv)
    try:
        if args.command == "run":
            make_spec(args.strategy, 0)  # a bad spec fails here, by name, before any game
            data = run(args.board, args.rule, args.first_click, args.strategy, args.jobs, args.top)
            args.out.parent.mkdir(parents=True, exist_ok=True)
            args.out.write_text(json.dumps(data, indent=1) + "\n")
            print(
                f"{data['settings']['board']} {args.rule}: optimal {100 * data['optimal_rate']:.3f}%, "
                f"{args.strategy} {100 * data['win_rate']:.3f}%, gap {data['gap_points']:.3f} points "
                f"over {data['positions']:,} guess positions ({data['seconds']:.0f} s); wrote {args.out}"
            )
        else:
            result = summarise(args.files, args.out, args.tree)
            print(f"{len(result['boards'])} boards; wrote {args.out / 'data.json'} and {args.out / 'table.md'}")
    except ValueError as error:
        parser.exit(2, f"best_optimal_gap.py: error: {error}\n")
    except SweeplabError as error:  # a bad strategy spec or option names itself
        parser.exit(2, f"best_optimal_gap.py: error: {error}\n")
    except GapError as error:
        parser.exit(1, f"best_optimal_gap.py: {error}\n")


if __name__ == "__main__":
    main()
