"""Issue 10's table: the optimal win probability beside strategies' exact win probabilities on every small board, per
first-click rule, with the search's cost; written by ``sweeplab optimal-table --out results/optimal``.

Each board (width x height x mines) is one optimal search (:class:`sweeplab.analysis.optimal.OptimalSearch`, its
table shared by the rules, so the first rule searched pays for most of the others) with a time limit, and one exact
evaluation per strategy and rule (:func:`sweeplab.bench.evaluate.evaluate`: every layout played through the engine,
the strategy choosing its own first click). A strategy is evaluated only on boards with at most its cap of layouts
(``best`` is ~10 times slower per game than ``exact``); a skipped evaluation or a search that ran out of time is a row
saying so, never a missing one. ``DIR/data.json`` holds every row; ``--resume`` keeps the (board, player) results
already there, so a cut-off run loses only the work in flight. The docs/results.md section is :func:`section`.
"""

from __future__ import annotations

import csv
import itertools
import json
import math
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from sweeplab.core.errors import SweeplabError
from sweeplab.core.rules import Rules

RULES = ("unsafe", "safe", "zero")
STRATEGIES = ("exact", "best", "cspstrategy")
#: 3x3, 4x4, 4x5 and 5x5 over a range of mine counts (to the density where a win is rare, or where the search stops
#: finishing in minutes), then 6x6 and 8x8 with few mines.
DEFAULT_BOARDS = "3x3x1-7,4x4x1-10,4x5x1-8,5x5x1-6,6x6x1-4,8x8x1-4"
#: Layouts (of the board, every rule) above which a strategy is not evaluated; ``best`` costs ~2-4 ms a game.
DEFAULT_MAX_LAYOUTS = 200_000
DEFAULT_CAPS = {"best": 20_000}
DEFAULT_TIME_LIMIT = 600.0
COLUMNS = [
    "board", "width", "height", "mines", "cells", "density", "layouts", "rule", "player", "status", "wins", "dealt",
    "win_probability", "win_rate", "gap", "gap_rate", "first_click", "best_first_clicks", "states", "stored",
    "seconds", "cpu_seconds", "time_limit", "note",
]  # fmt: skip


class TableError(SweeplabError):
    """The table was asked for something it cannot do (a malformed board list, a data file from another run)."""


@dataclass(frozen=True)
class Board:
    width: int
    height: int
    mines: int

    @property
    def spec(self) -> str:
        return f"{self.width}x{self.height}x{self.mines}"

    @property
    def cells(self) -> int:
        return self.width * self.height

    @property
    def layouts(self) -> int:
        return math.comb(self.cells, self.mines)

    def rules(self) -> list[str]:
        """The rules that can deal this board (``safe`` needs a free cell, ``zero`` a free click and neighbour)."""
        out = []
        for rule in RULES:
            try:
                Rules(self.width, self.height, self.mines, rule)
            except SweeplabError:
                continue
            out.append(rule)
        return out


def parse_boards(text: str) -> list[Board]:
    """``WxHxM`` or ``WxHxA-B`` (mines A to B), comma-separated, e.g. ``3x3x1-7,8x8x2``.

    >>> [b.spec for b in parse_boards("3x3x1-2, 5x4x3")]
    ['3x3x1', '3x3x2', '5x4x3']
    """
    out: list[Board] = []
    for item in (part.strip() for part in text.split(",")):
        match = re.fullmatch(r"(\d+)x(\d+)x(\d+)(?:-(\d+))?", item)
        if not match:
            raise TableError(f"board {item!r}: expected WxHxM or WxHxA-B (mines A to B), e.g. 4x4x1-10")
        w, h, a = int(match[1]), int(match[2]), int(match[3])
        b = int(match[4]) if match[4] else a
        if b < a:
            raise TableError(f"board {item!r}: the mine range {a}-{b} is empty")
        if w * h > 64:
            raise TableError(f"board {item!r}: the optimal search handles at most 64 cells")
        for m in range(a, min(b, w * h + 1) + 1):
            try:
                Rules(w, h, m, "unsafe")
            except SweeplabError as error:
                raise TableError(f"board {item!r}: {error}") from None
            board = Board(w, h, m)
            if board not in out:
                out.append(board)
    return out


@dataclass(frozen=True)
class Task:
    """One unit of work: the optimal search on a board (``player`` "optimal") or a strategy's evaluations on it."""

    board: Board
    player: str
    rules: tuple[str, ...]
    time_limit: float = DEFAULT_TIME_LIMIT
    seed: int = 0

    def estimate(self) -> float:
        """A rough cost in seconds, to start the longest tasks first."""
        n = self.board.layouts * len(self.rules)
        if self.player == "optimal":
            density = self.board.mines / self.board.cells  # the search's cost grows with the layouts and the density
            size = (self.board.cells / 20) ** 4
            return min(self.time_limit, 1e-5 * self.board.layouts**1.3 * (density / 0.2) ** 3 * size)
        per_game = (2.5e-3 if self.player.startswith("best") else 3e-4) * self.board.cells / 16
        return n * per_game


def _base(board: Board, rule: str, player: str) -> dict[str, Any]:
    row: dict[str, Any] = dict.fromkeys(COLUMNS)
    row.update(
        board=board.spec,
        width=board.width,
        height=board.height,
        mines=board.mines,
        cells=board.cells,
        density=round(board.mines / board.cells, 4),
        layouts=board.layouts,
        rule=rule,
        player=player,
    )
    return row


def run_task(task: Task) -> list[dict[str, Any]]:
    """The rows of one task (one per rule), computed in this process."""
    board = task.board
    rows = []
    if task.player == "optimal":
        from sweeplab.analysis.optimal import OptimalSearch, SearchBudgetExceeded

        search = OptimalSearch(board.width, board.height, board.mines)
        start = time.perf_counter()
        search.deadline = start + task.time_limit
        stopped = False
        for rule in task.rules:
            row = _base(board, rule, "optimal")
            row["time_limit"] = task.time_limit
            states0 = search.stats.states
            try:
                if stopped:  # out of time on an earlier rule: this one is not tried
                    raise SearchBudgetExceeded("")
                result = search.solve(rule)
            except SearchBudgetExceeded:
                stopped = True
                row.update(
                    status="not finished",
                    states=search.stats.states - states0,
                    stored=search.stored,
                    seconds=round(time.perf_counter() - start, 3),
                    note=f"not finished within {task.time_limit:g} s",
                )
                rows.append(row)
                continue
            row.update(
                status="done",
                wins=result.wins,
                dealt=result.layouts,
                win_probability=str(result.value),
                win_rate=float(result.value),
                best_first_clicks=" ".join("{},{}".format(*search.board.xy(c)) for c in result.best),
                states=result.states,
                stored=result.stored,
                seconds=round(result.seconds, 3),
            )
            rows.append(row)
        return rows
    from sweeplab.bench.evaluate import evaluate

    for rule in task.rules:
        rules = Rules(board.width, board.height, board.mines, rule)
        evaluation = evaluate(task.player, rules, seed=task.seed, max_layouts=board.layouts)
        row = _base(board, rule, task.player)
        row.update(
            status="done",
            wins=evaluation.wins,
            dealt=evaluation.layouts,
            win_probability=str(evaluation.value),
            win_rate=float(evaluation.value),
            first_click="{},{}".format(*board_xy(board, evaluation.first_click)),
            seconds=round(evaluation.seconds, 3),
            cpu_seconds=round(evaluation.cpu_seconds, 3),
            note=f"seed {task.seed}",
        )
        rows.append(row)
        if rule == "zero":
            rows.append(_from_best_click(task, rules))
    return rows


#: Under ``zero`` the first click decides most of the value, so each strategy is also played from the optimal player's
#: first click (the harness reveals it, as ``bench --first-click``): the row's player is the spec with this suffix.
BEST_CLICK = "@best-click"


def _from_best_click(task: Task, rules: Rules) -> dict[str, Any]:
    from sweeplab.analysis.optimal import OptimalSearch, SearchBudgetExceeded
    from sweeplab.bench.evaluate import evaluate

    board = task.board
    row = _base(board, rules.first_click, task.player + BEST_CLICK)
    search = OptimalSearch(board.width, board.height, board.mines)
    search.deadline = time.perf_counter() + task.time_limit
    try:
        click = search.solve(rules.first_click).best[0]
    except SearchBudgetExceeded:
        row.update(status="not finished", note=f"the optimal first click was not found within {task.time_limit:g} s")
        return row
    evaluation = evaluate(task.player, rules, seed=task.seed, first_click=click, max_layouts=board.layouts)
    row.update(
        status="done",
        wins=evaluation.wins,
        dealt=evaluation.layouts,
        win_probability=str(evaluation.value),
        win_rate=float(evaluation.value),
        first_click="{},{}".format(*board_xy(board, click)),
        seconds=round(evaluation.seconds, 3),
        cpu_seconds=round(evaluation.cpu_seconds, 3),
        note=f"seed {task.seed}; first click {board_xy(board, click)}, the optimal player's, revealed by the harness",
    )
    return row


def board_xy(board: Board, cell: int) -> tuple[int, int]:
    return cell % board.width, cell // board.width


@dataclass
class Settings:
    boards: list[Board]
    strategies: list[str] = field(default_factory=lambda: list(STRATEGIES))
    rules: list[str] = field(default_factory=lambda: list(RULES))
    time_limit: float = DEFAULT_TIME_LIMIT
    max_layouts: int = DEFAULT_MAX_LAYOUTS
    caps: dict[str, int] = field(default_factory=lambda: dict(DEFAULT_CAPS))
    seed: int = 0
    command: str = ""

    def cap(self, strategy: str) -> int:
        return min(self.max_layouts, self.caps.get(strategy.partition("[")[0], self.max_layouts))


def plan(settings: Settings, done: Sequence[dict[str, Any]]) -> tuple[list[Task], list[dict[str, Any]]]:
    """The tasks still to run (longest first) and the rows recording evaluations skipped for their cap."""
    kept = {(r["board"], r["player"], r["rule"]) for r in done if _keep(r, settings)}
    tasks: list[Task] = []
    skipped: list[dict[str, Any]] = []
    for board in settings.boards:
        rules = tuple(r for r in settings.rules if r in board.rules())
        for player in ["optimal", *settings.strategies]:
            todo = tuple(r for r in rules if (board.spec, player, r) not in kept)
            if not todo:
                continue
            if player != "optimal" and board.layouts > settings.cap(player):
                for rule in todo:
                    for name in (player, player + BEST_CLICK) if rule == "zero" else (player,):
                        row = _base(board, rule, name)
                        note = f"not evaluated: {board.layouts:,} layouts, cap {settings.cap(player):,}"
                        row.update(status="skipped", note=note)
                        skipped.append(row)
                continue
            # the search's cost is only known when it runs all rules in one go, so it redoes every rule
            tasks.append(Task(board, player, rules if player == "optimal" else todo, settings.time_limit, settings.seed))
    tasks.sort(key=lambda t: -t.estimate())
    return tasks, skipped


def _keep(row: dict[str, Any], settings: Settings) -> bool:
    """Whether a stored row stands: a result, or a search out of time under a limit at least as long as this run's."""
    if row["status"] == "done":
        return True
    return row["status"] == "not finished" and float(row["time_limit"] or 0) >= settings.time_limit


def with_gaps(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rows sorted (board, rule, player) with each strategy's gap to the optimal value (exact and as a rate)."""
    optimal = {(r["board"], r["rule"]): r for r in rows if r["player"] == "optimal" and r["status"] == "done"}
    order = {p: i for i, p in enumerate(["optimal", *STRATEGIES])}
    out = []
    for r in rows:
        r = {**r, "gap": None, "gap_rate": None}
        best = optimal.get((r["board"], r["rule"]))
        if r["player"] != "optimal" and r["status"] == "done" and best is not None:
            gap = Fraction(best["win_probability"]) - Fraction(r["win_probability"])
            r["gap"], r["gap_rate"] = str(gap), float(gap)
        out.append(r)
    out.sort(key=lambda r: (r["width"] * r["height"], r["width"], r["mines"], RULES.index(r["rule"]) if r["rule"] in RULES else 9,
                            order.get(r["player"], 99), r["player"]))  # fmt: skip
    return out


def load(out: Path) -> dict[str, Any] | None:
    path = out / "data.json"
    if not path.exists():
        return None
    try:
        data = json.loads(path.read_text())
        rows = data["rows"]
        assert isinstance(rows, list)
    except (ValueError, KeyError, AssertionError) as error:
        raise TableError(f"{path}: not an optimal-table data file ({error})") from None
    return data


def run_table(
    settings: Settings,
    out: Path,
    *,
    resume: bool = False,
    jobs: int = 1,
    on_task: Callable[[Task, list[dict[str, Any]], int, int], None] | None = None,
) -> dict[str, Any]:
    """Run the tasks not already in ``out/data.json`` (with ``resume``) and write the data, table and plots after each
    finished task. ``on_task(task, rows, done, total)`` reports progress."""
    from sweeplab.bench.executors import LocalExecutor

    old = load(out)
    if old is not None and not resume:
        raise TableError(f"{out / 'data.json'} exists: pass --resume to keep its results, or choose another --out")
    done = [r for r in (old["rows"] if old else []) if _keep(r, settings)]
    tasks, skipped = plan(settings, done)
    redo = {(t.board.spec, t.player) for t in tasks if t.player == "optimal"}
    rows = [r for r in done if (r["board"], r["player"]) not in redo] + skipped
    out.mkdir(parents=True, exist_ok=True)
    started = time.time()
    data = _write(out, settings, rows, started, final=not tasks)
    finished = 0

    def record(part: list[dict[str, Any]]) -> None:
        nonlocal finished, data
        finished += 1
        first = part[0]
        task = next(t for t in tasks if t.board.spec == first["board"] and t.player == first["player"])
        rows.extend(part)
        data = _write(out, settings, rows, started, final=False)
        if on_task is not None:
            on_task(task, part, finished, len(tasks))

    if tasks:
        with LocalExecutor(jobs) as ex:
            ex.run(run_task, tasks, record)
        data = _write(out, settings, rows, started, final=True)
    return data


def _write(out: Path, settings: Settings, rows: list[dict[str, Any]], started: float, final: bool) -> dict[str, Any]:
    from sweeplab.bench.journal import write_text

    table = with_gaps(rows)
    data = {
        "command": settings.command,
        "settings": {
            "boards": [b.spec for b in settings.boards],
            "strategies": settings.strategies,
            "rules": settings.rules,
            "time_limit": settings.time_limit,
            "max_layouts": settings.max_layouts,
            "caps": settings.caps,
            "seed": settings.seed,
        },
        "rows": table,
    }
    write_text(out / "data.json", json.dumps(data, indent=1) + "\n")
    lines = []
    for r in table:
        lines.append({k: ("" if r.get(k) is None else r[k]) for k in COLUMNS})
    path = out / "data.csv"
    with open(path, "w", newline="") as handle:
        writer = csv.DictWriter(handle, COLUMNS)
        writer.writeheader()
        writer.writerows(lines)
    write_text(out / "table.md", markdown(data))
    if final:
        plot(data, out / "win-density.png")
        plot_cost(data, out / "cost.png")
    return data


# ----------------------------------------------------------------------------------------------- presentation


def _pct(rate: float) -> str:
    return f"{100 * rate:.2f}"


def _cell(row: dict[str, Any] | None) -> str:
    if row is None:
        return ""
    if row["status"] == "skipped":
        return "not evaluated"
    if row["status"] != "done":
        return str(row["note"] or row["status"])
    text = _pct(row["win_rate"])
    if row.get("gap_rate") is not None:
        gap = -100 * row["gap_rate"]
        text += " (0)" if not gap else f" ({gap:+.2f})" if abs(gap) >= 0.005 else f" ({gap:+.1e})"
    return text


def _optimal_cell(row: dict[str, Any] | None) -> str:
    if row is None:
        return ""
    if row["status"] != "done":
        return str(row["note"] or row["status"])
    return f"{_pct(row['win_rate'])} ({row['wins']}/{row['dealt']})"


def _clicks(row: dict[str, Any] | None, most: int = 2) -> str:
    """The optimal first clicks as "(x,y)", the first ``most`` of them and how many more."""
    if row is None or not row.get("best_first_clicks"):
        return ""
    clicks = row["best_first_clicks"].split()
    text = " ".join(f"({c})" for c in clicks[:most])
    return text + (f" +{len(clicks) - most}" if len(clicks) > most else "")


def rule_table(data: dict[str, Any], rule: str) -> str:
    """One rule's table: per board the optimal value and each strategy's value with its gap (percentage points)."""
    rows = [r for r in data["rows"] if r["rule"] == rule]
    strategies = data["settings"]["strategies"]
    boards = list(dict.fromkeys(r["board"] for r in rows))
    by = {(r["board"], r["player"]): r for r in rows}
    players = [*strategies, *([s + BEST_CLICK for s in strategies] if rule == "zero" else [])]
    header = ["board", "density", "layouts", "optimal % (wins/dealt)", "its first clicks", *[f"{s} % (gap)" for s in players]]
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    for b in boards:
        first = next(r for r in rows if r["board"] == b)
        opt = by.get((b, "optimal"))
        cells = [b, f"{first['density']:.3f}", f"{first['layouts']:,}", _optimal_cell(opt), _clicks(opt)]
        cells += [_cell(by.get((b, s))) for s in players]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def cost_table(data: dict[str, Any]) -> str:
    """The search's cost per board: states expanded and seconds, per rule in the order searched, and in total."""
    rows = [r for r in data["rows"] if r["player"] == "optimal"]
    rules = data["settings"]["rules"]
    boards = list(dict.fromkeys(r["board"] for r in rows))
    by = {(r["board"], r["rule"]): r for r in rows}
    header = ["board", "layouts", *[f"{rule}: states, s" for rule in rules], "total states", "total s", "kept states"]
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    for b in boards:
        mine = [by.get((b, rule)) for rule in rules]
        present = [r for r in mine if r is not None]
        cells = [b, f"{present[0]['layouts']:,}"]
        for r in mine:
            if r is None:
                cells.append("-")
            elif r["status"] == "done":
                cells.append(f"{r['states']:,}, {r['seconds']:.2f}")
            else:
                cells.append(f"{r['note']} ({r['states']:,} states)")
        finished = all(r["status"] == "done" for r in present)
        total_s = sum(r["seconds"] for r in present if r["status"] == "done") if finished else max(r["seconds"] for r in present)
        cells += [f"{sum(r['states'] or 0 for r in present):,}", f"{total_s:.2f}" + ("" if finished else " (stopped)")]
        cells.append(f"{max(r['stored'] or 0 for r in present):,}")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def largest_finished(data: dict[str, Any]) -> tuple[str, int] | None:
    """The board with the most layouts whose search finished under every rule searched, and its layouts."""
    per: dict[str, list[dict[str, Any]]] = {}
    for r in data["rows"]:
        if r["player"] == "optimal":
            per.setdefault(r["board"], []).append(r)
    done = [(rs[0]["layouts"], b) for b, rs in per.items() if all(r["status"] == "done" for r in rs)]
    if not done:
        return None
    layouts, board = max(done)
    return board, layouts


def notes(data: dict[str, Any]) -> list[str]:
    """Plain sentences about what the table leaves out and why."""
    s = data["settings"]
    out = []
    skipped: dict[str, list[str]] = {}
    for r in data["rows"]:
        if r["status"] == "skipped" and r["board"] not in skipped.setdefault(r["player"], []):
            skipped[r["player"]].append(r["board"])
    for player, boards in skipped.items():
        if boards and BEST_CLICK not in player:  # skipped with the strategy itself
            cap = min(s["max_layouts"], s["caps"].get(player.partition("[")[0], s["max_layouts"]))
            out.append(f"`{player}` is not evaluated on {', '.join(boards)} (more than its cap of {cap:,} layouts).")
    stopped = sorted({r["board"] for r in data["rows"] if r["status"] == "not finished"})
    if stopped:
        out.append(f"The search did not finish within {s['time_limit']:g} s on {', '.join(stopped)}.")
    missing = []
    for spec in s["boards"]:
        w, h, m = (int(v) for v in spec.split("x"))
        for rule in s["rules"]:
            if rule not in Board(w, h, m).rules():
                missing.append(f"{spec} {rule}")
    if missing:
        out.append(f"Rules that cannot deal the board (too many mines for a free click or opening): {', '.join(missing)}.")
    return out


def markdown(data: dict[str, Any]) -> str:
    parts = [
        "# Optimal play against strategies, exactly, on small boards\n\n",
        f"Produced by `{data['command']}`.\n\n" if data["command"] else "",
        "Win probabilities in percent, exact over every layout (no sampling error); the gap is the strategy's value minus "
        "the optimal value, in percentage points. Strategies choose their own first click; the optimal value uses the "
        "best first click; under zero, `@best-click` plays the strategy from the optimal player's first click.\n\n",
    ]
    for rule in data["settings"]["rules"]:
        parts.append(f"## {rule}\n\n{rule_table(data, rule)}\n")
    parts.append("## Cost of the search\n\n" + cost_table(data) + "\n")
    steps = growth(data)
    if steps:
        parts.append("Time per added mine: " + "; ".join(steps) + ".\n\n")
    for note in notes(data):
        parts.append(f"- {note}\n")
    return "".join(parts)


def plot(data: dict[str, Any], path: Path) -> Path | None:
    """Win probability against mine density, one panel per board shape (columns) and rule (rows), one line per player."""
    from sweeplab.studies import plots

    if not plots.available():
        return None
    plt = plots._pyplot()
    rows = [r for r in data["rows"] if r["status"] == "done"]
    shapes = list(dict.fromkeys(f"{r['width']}x{r['height']}" for r in rows))
    rules = data["settings"]["rules"]
    players = ["optimal", *data["settings"]["strategies"]]
    if not shapes:
        return None
    fig, axes = plt.subplots(len(rules), len(shapes), figsize=(2.6 * len(shapes) + 1, 2.4 * len(rules) + 0.5), squeeze=False)
    styles = {"optimal": ("black", "o", 2.0)}
    top: dict[str, float] = {}
    for r in rows:
        shape = f"{r['width']}x{r['height']}"
        top[shape] = max(top.get(shape, 0.0), 1.1 * r["density"])
    colours = ["tab:blue", "tab:orange", "tab:green", "tab:red", "tab:purple"]
    for i, rule in enumerate(rules):
        for j, shape in enumerate(shapes):
            ax = axes[i][j]
            for k, player in enumerate(players):
                pts = sorted(
                    (r["density"], r["win_rate"])
                    for r in rows
                    if r["rule"] == rule and r["player"] == player and f"{r['width']}x{r['height']}" == shape
                )
                if not pts:
                    continue
                colour, marker, width = styles.get(player, (colours[k % len(colours)], ".", 1.0))
                ax.plot([p[0] for p in pts], [p[1] for p in pts], marker=marker, color=colour, lw=width, ms=3, label=player)
            ax.set_ylim(-0.02, 1.02)
            ax.set_xlim(0, top[shape])
            ax.grid(alpha=0.3)
            if i == 0:
                ax.set_title(shape)
            if j == 0:
                ax.set_ylabel(f"{rule}: P(win)")
            if i == len(rules) - 1:
                ax.set_xlabel("mine density")
    axes[0][0].legend(fontsize=7, loc="lower left")
    plots._save(fig, path)
    return path


def search_cost(data: dict[str, Any]) -> dict[str, tuple[int, int, float, bool]]:
    """Per board: (layouts, states expanded, seconds, finished) of its search over every rule."""
    per: dict[str, list[dict[str, Any]]] = {}
    for r in data["rows"]:
        if r["player"] == "optimal":
            per.setdefault(r["board"], []).append(r)
    out = {}
    for board, rs in per.items():
        finished = all(r["status"] == "done" for r in rs)
        seconds = sum(r["seconds"] for r in rs) if finished else max(r["seconds"] for r in rs)
        out[board] = (rs[0]["layouts"], sum(r["states"] or 0 for r in rs), seconds, finished)
    return out


def growth(data: dict[str, Any]) -> list[str]:
    """Per board shape, how the search's time grows with each added mine, for the boards that took over 0.1 s."""
    cost = search_cost(data)
    shapes: dict[str, list[tuple[int, str, float, bool]]] = {}
    for board, (_, _, seconds, finished) in cost.items():
        shape, _, mines = board.rpartition("x")
        shapes.setdefault(shape, []).append((int(mines), board, seconds, finished))
    out = []
    for shape, items in shapes.items():
        items.sort()
        steps = []
        for (_, a, sa, fa), (_, b, sb, fb) in itertools.pairwise(items):
            if sa >= 0.1 and fa:
                steps.append(f"{a} to {b} x{sb / sa:.0f}" + ("" if fb else " (at least: not finished)"))
        if steps:
            out.append(f"{shape}: " + ", ".join(steps))
    return out


def plot_cost(data: dict[str, Any], path: Path) -> Path | None:
    """The search's states expanded and seconds against the board's layouts (log-log), one marker per board shape."""
    from sweeplab.studies import plots

    cost = search_cost(data)
    if not plots.available() or not cost:
        return None
    plt = plots._pyplot()
    fig, axes = plt.subplots(1, 2, figsize=(10, 4))
    shapes = list(dict.fromkeys(b.rpartition("x")[0] for b in cost))
    markers = "os^vD<>p*h"
    for k, shape in enumerate(shapes):
        pts = sorted(v for b, v in cost.items() if b.rpartition("x")[0] == shape)
        for ax, index in ((axes[0], 1), (axes[1], 2)):
            done = [(p[0], max(p[index], 1 if index == 1 else 1e-3)) for p in pts if p[3]]
            stopped = [(p[0], max(p[index], 1e-3)) for p in pts if not p[3]]
            (line,) = ax.plot([p[0] for p in done], [p[1] for p in done], marker=markers[k % len(markers)], ls="-", label=shape)
            if stopped:
                ax.plot([p[0] for p in stopped], [p[1] for p in stopped], marker="x", ls="", color=line.get_color(), ms=9)
    for ax, label in ((axes[0], "states expanded (all rules)"), (axes[1], "seconds (all rules)")):
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("layouts of the board")
        ax.set_ylabel(label)
        ax.grid(alpha=0.3, which="both")
    axes[1].legend(title="board (x: not finished)", fontsize=8)
    plots._save(fig, path)
    return path


def section(results: Path) -> str:
    """The docs/results.md section (empty until results/optimal/data.json exists)."""
    data = load(results / "optimal")
    if data is None:
        return ""
    biggest = largest_finished(data)
    clicks = sorted(
        {r["first_click"] for r in data["rows"] if r["status"] == "done" and r["player"] in data["settings"]["strategies"]}
    )
    opened = "they opened at " + ", ".join(f"({c})" for c in clicks) if clicks else "none was evaluated"
    parts = [
        "## The limit of the game: optimal play on small boards (issue 10)\n\n"
        f"Produced by `{data['command']}` (data: `results/optimal/data.json`, `data.csv`; table: `table.md`). The optimal "
        "value is the highest win probability any player can reach, from a search over what the player sees "
        "(`sweeplab optimal`); the strategies are played through the engine on every layout the rule deals "
        f"(`sweeplab evaluate`, strategy seed {data['settings']['seed']}), choosing their own first click "
        f"({opened}), so each number is an exact fraction (in `data.json`) with no sampling error: no standard "
        "error applies. Percent, with each strategy's gap to "
        "the optimal value in percentage points. Under `zero` the strategies open in a corner while the optimal "
        "player picks the best first click, so most of that gap is the first click: the `@best-click` columns play "
        "each strategy after the harness reveals the optimal player's first click. The `zero` values are not monotone "
        "in the mines: the rule frees the click's neighbours only while the other cells can hold every mine (else "
        "only the click, as the game deals), and a board whose free opening leaves only mines covered is won at once.\n",
    ]
    for rule in data["settings"]["rules"]:
        parts.append(f"### {rule}\n\n{rule_table(data, rule)}")
    parts.append(
        "### The search's cost\n\nStates expanded and wall seconds per board, per rule in the order searched (one table "
        "of values serves all rules, so the first pays for the others); one core of a shared 2-core machine.\n\n"
        + cost_table(data)
    )
    if biggest:
        cost = search_cost(data)
        slow = max((v[2], b) for b, v in cost.items() if v[3])
        parts.append(
            f"Largest board finished under every rule: {biggest[0]} ({biggest[1]:,} layouts); the longest search "
            f"finished: {slow[1]} ({slow[0]:.0f} s, {cost[slow[1]][1]:,} states).\n"
        )
    steps = growth(data)
    if steps:
        parts.append("How the time grows with each added mine (boards whose search took over 0.1 s): " + "; ".join(steps) + ".\n")
    found = notes(data)
    if found:
        parts.append("".join(f"- {note}\n" for note in found))
    if (results / "optimal" / "win-density.png").exists():
        parts.append("\n![win probability against mine density](../results/optimal/win-density.png)\n")
    if (results / "optimal" / "cost.png").exists():
        parts.append("![the search's cost against the board's layouts](../results/optimal/cost.png)\n")
    return "\n".join(parts)
