"""The optimal table presented: its Markdown tables per rule, the search's cost and how it grows, notes, plots, and
its section of docs/results.md."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

from sweeplab.core.numbers import count_text
from sweeplab.studies.optimal_table.boards import BEST_CLICK, Board, load


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
        cells = [b, f"{first['density']:.3f}", count_text(first["layouts"], grouped=True), _optimal_cell(opt), _clicks(opt)]
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
        cells = [b, count_text(present[0]["layouts"], grouped=True)]
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
        "## The limit of the game: optimal play on small boards\n\n"
        f"Produced by `{data['command']}` (data: `results/optimal/data.json`, `data.csv`; table: `table.md`). The optimal "
        "value is the highest win probability any player can reach, from a search over what the player sees "
        "(`sweeplab optimal`); the strategies are played through the engine on every layout the rule deals "
        f"(`sweeplab evaluate`, strategy seed {data['settings']['seed']}), choosing their own first click "
        f"({opened}), so each number is an exact fraction (in `data.json`) with no sampling error: no standard "
        "error applies. Percent, with each strategy's gap to "
        "the optimal value in percentage points. Each strategy is told the rule before its first click, as in a game "
        "(`exact` and `cspstrategy` open in a corner under every rule, `best` under `zero` two cells in from the corner "
        "on boards it has not measured). Under `zero` the optimal player picks the best first click, so much of a "
        "strategy's gap is its first click: the `@best-click` columns play "
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
            f"Largest board finished under every rule: {biggest[0]} ({count_text(biggest[1], grouped=True)} layouts); "
            f"the longest search finished: {slow[1]} ({slow[0]:.0f} s, {cost[slow[1]][1]:,} states).\n"
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
