"""``sweeplab evaluate`` and ``sweeplab optimal``: exact win probabilities on small boards (every layout, not a sample)."""

from __future__ import annotations

import json
import math
import sys
import time
from pathlib import Path
from typing import Any

import click

from sweeplab.cli.app import BOARD_HELP, EXECUTOR_CHOICE, SECONDS, executor_for, friendly_errors, main, parse_cell, strategy_list
from sweeplab.cli.outputs import prepare_output, write_output
from sweeplab.core.numbers import count_text
from sweeplab.core.rules import Rules, make_rules

#: Exit status when the search ran out of its budget (the project's "undecided within the budget").
EXIT_BUDGET = 4

MODELLED_RULES = click.Choice(["unsafe", "safe", "zero", "xp"])


def _percent(value: Any) -> str:
    return f"{100 * float(value):.4f}%"


@main.command("evaluate", short_help="A strategy's exact win rate over every layout.")
@click.option(
    "--strategy",
    "-s",
    default="exact",
    show_default=True,
    help="strategy spec, e.g. exact or cspstrategy or optimal[rule=zero] (see `sweeplab strategies --options NAME`)",
)
@click.option("--board", "-b", required=True, help=BOARD_HELP + " (small: every layout is played)")
@click.option("--rule", "-r", type=MODELLED_RULES, default="safe", show_default=True, help="first-click rule")
@click.option(
    "--seed",
    type=int,
    default=0,
    show_default=True,
    help="the strategy's seed, the same for every layout: a strategy with random choices is evaluated as the one "
    "deterministic player this seed makes of it",
)
@click.option(
    "--first-click", default=None, metavar="X,Y", help="reveal this cell before the strategy plays (as bench --first-click)"
)
@click.option(
    "--max-layouts",
    type=click.IntRange(min=1),
    default=2_000_000,
    show_default=True,
    help="refuse a board with more layouts than this",
)
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None, help="worker processes  [default: all cores]")
@click.option("--executor", type=EXECUTOR_CHOICE, default="local", show_default=True, help="local processes, or Dask")
@click.option("--scheduler", default=None, metavar="tcp://HOST:PORT", help="an existing Dask scheduler (with --executor dask)")
@click.option("--json", "as_json", is_flag=True, help="print the result as JSON (no progress on stderr)")
@friendly_errors
def evaluate_command(
    strategy: str,
    board: str,
    rule: str,
    seed: int,
    first_click: str | None,
    max_layouts: int,
    jobs: int | None,
    executor: str,
    scheduler: str | None,
    as_json: bool,
) -> None:
    """Play a strategy on every layout the rule can deal on BOARD and print its exact win probability.

    Each layout is played through the real engine, as `bench` plays a game, by a fresh strategy with the same --seed.
    Under safe, zero and xp the deal depends on the first click: the strategy's opening move on the empty board is
    found first and the layouts dealt for it are played (each counted once per way the game deals it). Prints the
    fraction, the decimal, the layouts and the time.
    """
    from sweeplab.bench.evaluate import evaluate
    from sweeplab.cli.progress import game_progress

    specs = strategy_list(strategy)
    if len(specs) != 1:
        raise click.BadParameter(f"give one strategy, not {len(specs)}", param_hint="--strategy")
    spec = specs[0]
    rules = make_rules(board, rule)
    click_cell = parse_cell(first_click, rules.board) if first_click is not None else None
    total = math.comb(rules.board.cells, rules.mines)
    with executor_for(executor, jobs, scheduler) as ex, game_progress("evaluate", total, quiet=as_json) as advance:
        result = evaluate(spec, rules, seed=seed, first_click=click_cell, executor=ex, max_layouts=max_layouts, on_games=advance)
    if as_json:
        click.echo(json.dumps(result.to_dict(), indent=2))
        return
    x, y = rules.board.xy(result.first_click)
    who = "the harness's" if result.harness_click else "its"
    wins = f"{result.wins}/{result.layouts}"
    reduced = f"{result.value.numerator}/{result.value.denominator}"
    wins += f" = {reduced}" if reduced != wins else ""  # the fraction in lowest terms, when it is another
    click.echo(
        f"{spec} on {rules.spec()} ({rule}), strategy seed {seed}: wins {wins} = {float(result.value):.6f} "
        f"({_percent(result.value)})"
    )
    click.echo(
        f"{who} first click ({x}, {y}); {result.games:,} layouts played in {result.seconds:.1f} s "
        f"({result.cpu_seconds:.1f} s CPU)"
    )


@main.command("optimal", short_help="The best possible win probability, exactly.")
@click.option("--board", "-b", required=True, help=BOARD_HELP + " (small: the search enumerates every layout)")
@click.option("--rule", "-r", type=MODELLED_RULES, default="safe", show_default=True, help="first-click rule")
@click.option(
    "--policy",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="write every first click's exact value and the optimal replies to it (JSON) here",
)
@click.option(
    "--depth",
    type=click.IntRange(min=1, max=4),
    default=2,
    show_default=True,
    help="with --policy: moves of the optimal policy to write (1: the first clicks only)",
)
@click.option("--no-symmetry", is_flag=True, help="do not fold the board's symmetries (slower; for checking)")
@click.option(
    "--time-limit",
    type=SECONDS,
    default=None,
    metavar="SECONDS",
    help=f"give up after this long (exit status {EXIT_BUDGET})",
)
@click.option("--max-layouts", type=click.IntRange(min=1), default=50_000_000, show_default=True, help="refuse larger boards")
@click.option("--json", "as_json", is_flag=True, help="print the result as JSON (no progress on stderr)")
@friendly_errors
def optimal_command(
    board: str,
    rule: str,
    policy: Path | None,
    depth: int,
    no_symmetry: bool,
    time_limit: float | None,
    max_layouts: int,
    as_json: bool,
) -> None:
    """Compute the highest probability with which any player can win on BOARD under RULE.

    The search runs over what the player sees (the revealed numbers), with every layout still possible counted
    exactly, memoised, with the board's symmetries folded and branches cut when a bound shows they cannot beat the
    best move found. Prints the exact fraction, the states searched and the time. Only reveals are moves (flags
    change nothing the player knows); under unsafe the first click can lose.
    """
    from sweeplab.analysis.optimal.search import OptimalSearch, SearchBudgetExceeded

    rules = make_rules(board, rule)
    if policy is not None:
        prepare_output(policy, "--policy")
    search = OptimalSearch(rules.width, rules.height, rules.mines, symmetry=not no_symmetry, max_layouts=max_layouts)
    if time_limit is not None:
        search.deadline = time.perf_counter() + time_limit
    if not as_json:
        from sweeplab.cli.progress import search_progress

        search.progress = search_progress(search)
    try:
        result = search.solve(rule, every_first_click=policy is not None)
        tree = _policy(search, rules, result, depth) if policy is not None else None
    except SearchBudgetExceeded as error:
        click.echo(f"error: {error} ({search.stats.states:,} states searched); the value is undecided", err=True)
        sys.exit(EXIT_BUDGET)
    if tree is not None and policy is not None:
        write_output(policy, json.dumps(tree, indent=1) + "\n", "--policy")
    data = _result_dict(result, rules)
    if as_json:
        click.echo(json.dumps(data, indent=2))
        return
    cells = ", ".join(str(rules.board.xy(c)) for c in result.best)
    click.echo(
        f"optimal on {rules.spec()} ({rule}): {result.value.numerator}/{result.value.denominator} = "
        f"{float(result.value):.6f} ({_percent(result.value)}), {count_text(result.wins)} of {count_text(result.layouts)} layouts"
    )
    click.echo(f"best first click(s): {cells}")
    click.echo(f"{result.states:,} states searched ({result.stored:,} kept) in {result.seconds:.2f} s")
    if policy is not None:
        click.echo(f"wrote {policy}")


def _result_dict(result: Any, rules: Rules) -> dict[str, Any]:
    board = rules.board
    return {
        "board": rules.spec(),
        "rule": rules.first_click,
        "win_probability": str(result.value),
        "win_rate": float(result.value),
        "wins": result.wins,
        "layouts": result.layouts,
        "best_first_clicks": ["{},{}".format(*board.xy(c)) for c in result.best],
        "states": result.states,
        "stored": result.stored,
        "seconds": round(result.seconds, 3),
        "symmetry": result.symmetry,
    }


def _policy(search: Any, rules: Rules, result: Any, depth: int) -> dict[str, Any]:
    """Every first click's exact value, then for the best first click the optimal reply to each thing it can show,
    down to ``depth`` moves."""
    board = rules.board
    clicks = []
    for f in result.first_clicks:
        for c in f.cells:
            x, y = board.xy(c)
            clicks.append({"cell": f"{x},{y}", "wins": f.wins, "layouts": f.layouts, "win_probability": str(f.value)})
    clicks.sort(key=lambda d: -d["wins"] / d["layouts"])
    first = result.best[0]
    out: dict[str, Any] = _result_dict(result, rules)
    out["first_clicks"] = clicks
    out["policy"] = search.policy_tree(rules.first_click, first, depth - 1) if depth > 1 else None
    out["policy_note"] = (
        "cells are x,y (0-based). policy: from the best first click, for each thing it can show ('shows': the cells "
        "revealed, with every certainly safe cell revealed too, and their numbers), the optimal next reveal ('move') with "
        "the layouts it wins of those still possible"
    )
    return out


@main.command("optimal-table", short_help="Optimal play beside strategies on many small boards.")
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("results/optimal"),
    show_default=True,
    help="write data.json, data.csv, table.md and win-density.png here",
)
@click.option("--boards", default=None, metavar="LIST", help="WxHxM or WxHxA-B (mines A to B), comma-separated  [default: "
              "3x3x1-7,4x4x1-10,4x5x1-8,5x5x1-6,6x6x1-4,8x8x1-4]")  # fmt: skip
@click.option("--strategies", "-s", default="exact,best,cspstrategy", show_default=True, help="strategies to evaluate exactly")
@click.option("--rules", "rule_list", default="unsafe,safe,zero", show_default=True, help="first-click rules")
@click.option(
    "--time-limit",
    type=SECONDS,
    default=600.0,
    show_default=True,
    metavar="SECONDS",
    help="per board: a search still running after this long is recorded as not finished ",
)
@click.option(
    "--max-layouts",
    type=click.IntRange(min=1),
    default=200_000,
    show_default=True,
    help="evaluate strategies only on boards with at most this many layouts",
)
@click.option(
    "--cap",
    "caps",
    multiple=True,
    metavar="STRATEGY=N",
    help="a lower --max-layouts for one strategy (repeatable; best=20000 unless changed)",
)
@click.option("--seed", type=int, default=0, show_default=True, help="the strategies' seed (the same for every layout)")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None, help="worker processes  [default: all cores]")
@click.option("--resume", is_flag=True, help="keep the results already in --out and run only the rest")
@friendly_errors
def optimal_table_command(
    out: Path,
    boards: str | None,
    strategies: str,
    rule_list: str,
    time_limit: float,
    max_layouts: int,
    caps: tuple[str, ...],
    seed: int,
    jobs: int | None,
    resume: bool,
) -> None:
    """The optimal-play table: on every board listed, for each rule, the optimal win probability (a search per board,
    stopped after --time-limit) and each strategy's exact win probability over every layout, with its gap to optimal.

    Results are written after every finished task, so an interrupted run keeps them; --resume runs only the rest.
    Prints the largest board whose search finished.
    """
    import os
    import shlex

    from sweeplab.studies import optimal_table as table

    specs = strategy_list(strategies)
    rules = [r.strip() for r in rule_list.split(",") if r.strip()]
    for rule in rules:
        if rule not in table.RULES:
            raise click.BadParameter(f"{rule!r} is not one of {', '.join(table.RULES)}", param_hint="--rules")
    if not rules:
        raise click.BadParameter("name at least one rule", param_hint="--rules")
    cap_map: dict[str, int] = dict(table.DEFAULT_CAPS)  # a --cap adds to (or changes) the default caps
    for item in caps:
        name, sep, value = item.partition("=")
        if not sep or not value.strip().isdigit() or int(value) < 1:
            raise click.BadParameter(f"{item!r}: expected STRATEGY=N with N a positive whole number", param_hint="--cap")
        cap_map[name.strip()] = int(value)
    settings = table.Settings(
        boards=table.parse_boards(table.DEFAULT_BOARDS if boards is None else boards),
        strategies=specs,
        rules=rules,
        time_limit=time_limit,
        max_layouts=max_layouts,
        caps=cap_map,
        seed=seed,
        command="sweeplab " + " ".join(shlex.quote(a) for a in sys.argv[1:] if a != "--resume"),
    )
    workers = jobs or os.cpu_count() or 1

    def report(task: Any, rows: list[dict[str, Any]], done: int, total: int) -> None:
        what = ", ".join(
            f"{r['rule']}{' from the best click' if '@' in r['player'] else ''} "
            + (_percent(r["win_rate"]) if r["status"] == "done" else str(r["note"]))
            for r in rows
        )
        spent = sum(r["seconds"] or 0 for r in rows) if task.player != "optimal" else max(r["seconds"] or 0 for r in rows)
        click.echo(f"[{done}/{total}] {task.board.spec} {task.player}: {what} ({spent:.1f} s)", err=True)

    data = table.run_table(settings, out, resume=resume, jobs=workers, on_task=report)
    biggest = table.largest_finished(data)
    plots = [name for name in ("win-density.png", "cost.png") if (out / name).exists()]
    click.echo(f"wrote {out}/" + ", ".join(["data.json", "data.csv", "table.md", *plots]))
    if biggest:
        click.echo(f"largest board finished: {biggest[0]} ({count_text(biggest[1], grouped=True)} layouts)")
