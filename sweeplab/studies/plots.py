"""PNG plots for the experiments, drawn with matplotlib's Agg backend (imported only inside these functions)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sweeplab.bench.journal import replacing

if TYPE_CHECKING:
    from sweeplab.bench.summary import Summary
    from sweeplab.studies.experiment import Point

DPI = 120


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def available() -> bool:
    """Whether matplotlib can be imported (the ``plot`` extra); experiments check this before playing a game."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def _save(fig: Any, path: Path) -> Path:
    """Write the figure whole or not at all (a temporary name, then a rename) and close it."""
    fig.tight_layout()
    try:
        with replacing(path) as temp:  # no version stamp: reruns give the same bytes
            fig.savefig(temp, dpi=DPI, metadata={"Software": None}, format=path.suffix.lstrip(".") or "png")
    finally:
        _pyplot().close(fig)
    return path


def level_bars(points: Sequence[Point], summaries: Sequence[Summary], title: str, path: Path) -> Path:
    """Seed 000's Figures 2-4: percent wins per level, one bar per strategy, one panel per first-click rule."""
    plt = _pyplot()
    rules = list(dict.fromkeys(s.rule for s in summaries))
    boards = list(dict.fromkeys(s.board for s in summaries))
    strategies = list(dict.fromkeys(s.strategy for s in summaries))
    fig, axes = plt.subplots(1, len(rules), figsize=(4.2 * len(rules), 3.6), squeeze=False, sharey=True)
    width = 0.8 / max(1, len(strategies))
    for ax, rule in zip(axes[0], rules, strict=True):
        for j, strategy in enumerate(strategies):
            xs, ys, es = [], [], []
            for i, board in enumerate(boards):
                for s in summaries:
                    if s.rule == rule and s.board == board and s.strategy == strategy:
                        xs.append(i + (j - (len(strategies) - 1) / 2) * width)
                        ys.append(100 * s.win_rate)
                        es.append(100 * s.sem)
            ax.bar(xs, ys, width, yerr=es, capsize=2, label=strategy)
        for p, s in zip(points, summaries, strict=True):
            if s.rule == rule and p.published is not None:
                j = strategies.index(s.strategy)
                ax.plot(boards.index(s.board) + (j - (len(strategies) - 1) / 2) * width, p.published, "k_", markersize=12, mew=2)
        ax.set_xticks(range(len(boards)), boards, rotation=20)
        ax.set_ylim(0, 100)
        ax.set_title(f"{title}: {rule}")
        ax.set_ylabel("percent wins")
    axes[0][0].legend(fontsize=7)
    if any(p.published is not None for p in points):
        fig.text(0.01, 0.01, "black dash: published", fontsize=7)
    return _save(fig, path)


def cpu_bars(summaries: Sequence[Summary], path: Path) -> Path:
    """Seed 000's Figure 5: mean CPU time per game per level and strategy (standard rules), log scale."""
    plt = _pyplot()
    boards = list(dict.fromkeys(s.board for s in summaries))
    strategies = list(dict.fromkeys(s.strategy for s in summaries))
    fig, ax = plt.subplots(figsize=(5.5, 3.6))
    width = 0.8 / max(1, len(strategies))
    for j, strategy in enumerate(strategies):
        pts = [(boards.index(s.board), s.cpu_mean) for s in summaries if s.strategy == strategy]
        ax.bar([i + (j - (len(strategies) - 1) / 2) * width for i, _ in pts], [c for _, c in pts], width, label=strategy)
    ax.set_xticks(range(len(boards)), boards)
    ax.set_yscale("log")
    ax.set_ylabel("CPU seconds per game")
    ax.set_title("CPU time per game (safe first click)")
    ax.legend(fontsize=7)
    return _save(fig, path)


def density_plot(series: dict[tuple[str, str], list[tuple[float, Summary]]], fits: Sequence[dict[str, Any]], path: Path) -> Path:
    """Seed 000's Figure 7: triangles, squares and diamonds for the three sizes, with fitted logistic curves."""
    from sweeplab.bench.stats import logistic

    plt = _pyplot()
    markers = {"beginner-classic": "^", "intermediate-classic": "s", "expert": "D"}
    fig, ax = plt.subplots(figsize=(6, 4))
    for (board, strategy), pts in series.items():
        xs = [x for x, _ in pts]
        line = ax.errorbar(
            xs,
            [100 * s.win_rate for _, s in pts],
            yerr=[100 * s.sem for _, s in pts],
            fmt=markers.get(board, "o"),
            capsize=2,
            label=f"{strategy} {pts[0][1].board}",
        )
        fit = next((f for f in fits if f["board"] == board and f["strategy"] == strategy), None)
        if fit and not math.isnan(fit["midpoint"]):
            grid = [max(xs) * i / 200 for i in range(201)]
            ax.plot(grid, [100 * logistic(g, fit["midpoint"], fit["slope"]) for g in grid], color=line[0].get_color(), lw=1)
    ax.set_xlabel("mine density")
    ax.set_ylabel("percent wins")
    ax.set_ylim(0, 100)
    ax.set_xlim(0, None)
    ax.legend(fontsize=7)
    ax.set_title("Win rate against mine density")
    return _save(fig, path)


def _style(k: int, n: int) -> dict[str, Any]:
    """Line style of the ``k``-th of ``n`` series: matplotlib's default colours up to ten, else twenty distinct colours
    with every second series dashed, so that no two lines of a crowded plot look alike."""
    if n <= 10:
        return {}
    from matplotlib import colormaps

    return {"color": colormaps["tab20"](k % 20), "linestyle": "--" if k % 2 else "-"}


def win_line(series: dict[str, list[tuple[float, Summary]]], xlabel: str, name: str, out: Path, title: str) -> Path:
    """Percent wins against a swept variable, one line per strategy (seed 000's Figures 8 and 10)."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6, 4))
    for k, (strategy, pts) in enumerate(series.items()):
        ax.errorbar(
            [x for x, _ in pts],
            [100 * s.win_rate for _, s in pts],
            yerr=[100 * s.sem for _, s in pts],
            marker="o",
            capsize=2,
            label=strategy,
            **_style(k, len(series)),
        )
    ax.set_xlabel(xlabel)
    ax.set_ylabel("percent wins")
    ax.set_ylim(0, 100)
    ax.legend(fontsize=7)
    ax.set_title(title)
    return _save(fig, out / name)


def cpu_line(series: dict[str, list[tuple[float, Summary]]], fits: Sequence[dict[str, Any]], path: Path) -> Path:
    """Seed 000's Figure 9: mean CPU time per game against the side, semi-log, with an exponential trend line."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6, 4))
    for k, (strategy, pts) in enumerate(series.items()):
        xs = [x for x, _ in pts]
        color = _style(k, len(series)).get("color")
        line = ax.plot(xs, [max(s.cpu_mean, 1e-9) for _, s in pts], "o", label=f"{strategy} mean", color=color)
        ax.plot(xs, [max(s.cpu_p99, 1e-9) for _, s in pts], "x", color=line[0].get_color(), label=f"{strategy} p99")
        fit = next((f for f in fits if f["strategy"] == strategy), None)
        if fit and not math.isnan(fit["cpu_rate_per_side"]):
            grid = [min(xs) + (max(xs) - min(xs)) * i / 100 for i in range(101)]
            ax.plot(
                grid, [fit["cpu_scale"] * math.exp(fit["cpu_rate_per_side"] * g) for g in grid], color=line[0].get_color(), lw=1
            )
    ax.set_yscale("log")
    ax.set_xlabel("side of the square board")
    ax.set_ylabel("CPU seconds per game")
    ax.legend(fontsize=7)
    ax.set_title("Figure 9: CPU time per game")
    return _save(fig, path)


def outcome_bars(table: Sequence[dict[str, Any]], path: Path) -> Path:
    """Seed 000's Figure 6 as stacked horizontal bars: one bar per strategy (and the published one)."""
    from sweeplab.bench.summary import OUTCOMES
    from sweeplab.studies.published import SEED_000_FIGURE_6

    plt = _pyplot()
    strategies = list(dict.fromkeys(r["strategy"] for r in table))
    bars = [("seed 000 (published)", [SEED_000_FIGURE_6.get(o, 0.0) for o in OUTCOMES])]
    for s in strategies:
        bars.append((s, [next(r["percent"] for r in table if r["strategy"] == s and r["outcome"] == o) for o in OUTCOMES]))
    fig, ax = plt.subplots(figsize=(9.5, 1.6 + 0.45 * len(bars)))
    colours = plt.get_cmap("tab10").colors
    for i, (_, values) in enumerate(bars):
        left = 0.0
        for k, v in enumerate(values):
            ax.barh(i, v, left=left, color=colours[k % 10], label=OUTCOMES[k] if i == 0 else None)
            left += v
    ax.set_yticks(range(len(bars)), [b[0] for b in bars])
    ax.set_xlabel("percent of games")
    ax.set_xlim(0, 100)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    ax.set_title("Why games are won or lost")
    return _save(fig, path)


def reliability(per_strategy: Mapping[str, Sequence[Any]], path: Path) -> Path:
    """A reliability plot: observed success rate (± 2 SE) against the mean estimate, per strategy and guess kind."""
    plt = _pyplot()
    n = max(1, len(per_strategy))
    fig, axes = plt.subplots(1, n, figsize=(4.2 * n, 4), squeeze=False)
    for ax, (strategy, bins) in zip(axes[0], per_strategy.items(), strict=False):
        for kind in dict.fromkeys(b.kind for b in bins):
            kb = [b for b in bins if b.kind == kind]
            ax.errorbar(
                [b.mean_estimate for b in kb], [b.rate for b in kb], yerr=[2 * b.se for b in kb], fmt="o", capsize=2, label=kind
            )
        ax.set_title(strategy)
    for ax in axes[0]:
        ax.plot([0, 1], [0, 1], "k--", lw=1)
        ax.set_xlim(0, 1.02)
        ax.set_ylim(0, 1.02)
        ax.set_xlabel("estimated chance of success")
        ax.set_ylabel("observed success rate (± 2 SE)")
        if ax.get_legend_handles_labels()[0]:
            ax.legend(fontsize=7)
    if not per_strategy:
        axes[0][0].set_title("no strategy reported estimated chances")
    return _save(fig, path)


def frontier_hist(data: Mapping[str, Sequence[tuple[int, ...]]], path: Path) -> Path:
    """How many games' largest coupled set had each number of degrees of freedom."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6, 4))
    for strategy, sets in data.items():
        dofs = [s[2] for s in sets]
        ax.hist(dofs, bins=range(0, max(dofs) + 2), histtype="step", label=strategy)
    ax.set_yscale("log")
    ax.set_xlabel("degrees of freedom of the largest coupled set (variables - constraints)")
    ax.set_ylabel("games")
    if data:
        ax.legend(fontsize=7)
    else:
        ax.set_title("no strategy exposed largest_set")
    return _save(fig, path)
