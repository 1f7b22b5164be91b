"""Runs the optimal table: per board one optimal search over the rules with a time limit and one exact evaluation per
strategy and rule, longest first on an executor, the data, table and plots rewritten after each task."""

from __future__ import annotations

import csv
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from sweeplab.core.numbers import count_text
from sweeplab.core.rules import Rules
from sweeplab.studies.optimal_table.boards import (
    BEST_CLICK,
    COLUMNS,
    DEFAULT_CAPS,
    DEFAULT_MAX_LAYOUTS,
    DEFAULT_TIME_LIMIT,
    RULES,
    STRATEGIES,
    Board,
    TableError,
    board_xy,
    load,
)
from sweeplab.studies.optimal_table.report import markdown, plot, plot_cost


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
        from sweeplab.analysis.optimal.search import OptimalSearch, SearchBudgetExceeded

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


def _from_best_click(task: Task, rules: Rules) -> dict[str, Any]:
    from sweeplab.analysis.optimal.search import OptimalSearch, SearchBudgetExceeded
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
                        note = f"not evaluated: {count_text(board.layouts, grouped=True)} layouts, cap {settings.cap(player):,}"
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


def run_table(
    settings: Settings,
    out: Path,
    *,
    resume: bool = False,
    jobs: int = 1,
    on_task: Callable[[Task, list[dict[str, Any]], int, int], None] | None = None,
) -> dict[str, Any]:
    """Run the tasks not already in ``out/data.json`` (with ``resume``) and write the data, table and plots after each
    finished task. ``on_task(task, rows, done, total)`` reports progress.

    Each board is one optimal search (:class:`sweeplab.analysis.optimal.search.OptimalSearch`, its table shared by the rules,
    so the first rule searched pays for most of the others) and one exact evaluation per strategy and rule
    (:func:`sweeplab.bench.evaluate.evaluate`: every layout played through the engine, the strategy choosing its own
    first click). A strategy is evaluated only on boards with at most its cap of layouts (``best`` is ~10 times slower
    per game than ``exact``); a skipped evaluation or a search that ran out of time is a row saying so, never a missing
    one. With ``resume`` the (board, player) results already there are kept, so a cut-off run loses only the work in
    flight.
    """
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
