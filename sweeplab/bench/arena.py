"""The arena's leaderboard: several players on the same games, from a bench run's ``games.csv``.

Per player: win rate ± its binomial standard error, CPU per game and per move (an outside program's own CPU
included), and its losses by reason (the games' outcomes); for every pair: the paired difference of win rates with
its standard error, and McNemar's p on the games only one of the two won. Written as Markdown, JSON and a PNG (the
PNG when matplotlib, the ``plot`` extra, is installed), each with the command that reproduces it.
"""

from __future__ import annotations

import csv
import json
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from sweeplab.bench.journal import write_text
from sweeplab.bench.stats import binomial_se, mcnemar, paired_difference
from sweeplab.bench.summary import Paired
from sweeplab.core.errors import SweeplabError


class ArenaError(SweeplabError):
    """A games.csv the leaderboard cannot be made from (missing, unreadable, or its players on different games)."""


@dataclass(frozen=True)
class Standing:
    """One player's line of the leaderboard."""

    player: str
    games: int
    wins: int
    win_rate: float
    se: float
    cpu_per_game: float
    cpu_per_move: float | None
    moves_per_game: float
    losses: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Pair(Paired):
    """Player ``a`` minus player ``b`` over the same games (the bench's paired comparison), with McNemar's p."""

    mcnemar_p: float


@dataclass(frozen=True)
class Leaderboard:
    board: str
    rule: str
    seed: int
    command: str
    standings: list[Standing]
    pairs: list[Pair]

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def read_games(path: Path) -> dict[str, list[dict[str, str]]]:
    """``games.csv``'s rows by player, in the file's order."""
    try:
        with path.open(newline="") as handle:
            rows = list(csv.DictReader(handle))
    except OSError as error:
        raise ArenaError(f"cannot read {path}: {error.strerror or error}") from None
    players: dict[str, list[dict[str, str]]] = {}
    for row in rows:
        try:
            players.setdefault(row["strategy"], []).append(row)
        except KeyError:
            raise ArenaError(f"{path} is not a bench run's games.csv (no 'strategy' column)") from None
    if not players:
        raise ArenaError(f"{path} holds no games")
    return players


def leaderboard(players: dict[str, list[dict[str, str]]], board: str, rule: str, seed: int, command: str) -> Leaderboard:
    """The standings (best win rate first) and every pair, from ``games.csv``'s rows by player."""
    standings = []
    outcomes: dict[str, dict[int, bool]] = {}
    for player, rows in players.items():
        won = {int(r["game"]): r["won"] == "1" for r in rows}
        outcomes[player] = won
        games, wins = len(rows), sum(won.values())
        cpu = sum(float(r["cpu_seconds"]) for r in rows)
        moves = sum(int(r["moves"]) for r in rows)
        losses = Counter(r["outcome"] for r in rows if r["won"] != "1")
        standings.append(
            Standing(
                player, games, wins, wins / games, binomial_se(wins, games), cpu / games,
                cpu / moves if moves else None, moves / games, dict(sorted(losses.items(), key=lambda kv: -kv[1])),
            )
        )  # fmt: skip
    standings.sort(key=lambda s: (-s.win_rate, s.player))
    pairs = []
    for i, first in enumerate(standings):
        for second in standings[i + 1 :]:
            a, b = outcomes[first.player], outcomes[second.player]
            if set(a) != set(b):
                raise ArenaError(f"{first.player} and {second.player} did not play the same games")
            order = sorted(a)
            wa, wb = [a[g] for g in order], [b[g] for g in order]
            difference, se = paired_difference(wa, wb)
            a_only = sum(x and not y for x, y in zip(wa, wb, strict=True))
            b_only = sum(y and not x for x, y in zip(wa, wb, strict=True))
            pairs.append(Pair(first.player, second.player, len(order), difference, se, a_only, b_only, mcnemar(a_only, b_only)))
    return Leaderboard(board, rule, seed, command, standings, pairs)


def _ms(seconds: float | None) -> str:
    return "n/a" if seconds is None else f"{seconds * 1000:.3f} ms"


def _p(p: float) -> str:
    return f"{p:.3g}" if p >= 1e-4 else f"{p:.1e}"


def markdown(board: Leaderboard) -> str:
    """The leaderboard as a Markdown page."""
    lines = [
        f"# Arena: {board.board} ({board.rule}), seed {board.seed}",
        "",
        "| rank | player | games | wins | win % ± SE | CPU per game | CPU per move | moves per game |",
        "|---:|---|---:|---:|---:|---:|---:|---:|",
    ]
    for rank, s in enumerate(board.standings, 1):
        lines.append(
            f"| {rank} | `{s.player}` | {s.games:,} | {s.wins:,} | {s.win_rate:.2%} ± {s.se:.2%} | "
            f"{_ms(s.cpu_per_game)} | {_ms(s.cpu_per_move)} | {s.moves_per_game:.1f} |"
        )
    if board.pairs:
        lines += ["", "## Every pair, on the same games", ""]
        lines += ["| a | b | a - b ± SE | only a won | only b won | McNemar p |", "|---|---|---:|---:|---:|---:|"]
        for p in board.pairs:
            lines.append(
                f"| `{p.a}` | `{p.b}` | {p.difference:+.2%} ± {p.se:.2%} | {p.a_only:,} | {p.b_only:,} | {_p(p.mcnemar_p)} |"
            )
    lines += ["", "## Losses by reason", ""]
    for s in board.standings:
        reasons = ", ".join(f"{reason} {count:,}" for reason, count in s.losses.items()) or "none"
        lines.append(f"- `{s.player}`: {reasons}")
    lines += [
        "",
        "Win % ± SE: the binomial standard error. a - b: the paired difference over the same games, with its standard "
        "error; McNemar p: the chance of a split of the games only one of them won at least this uneven if both "
        "were equally strong. CPU includes an outside program's own (docs/arena.md).",
        "",
        "Reproduce with:",
        "",
        "```sh",
        board.command,
        "```",
        "",
    ]
    return "\n".join(lines)


def plot(board: Leaderboard, path: Path) -> Path | None:
    """The win rates with 95% intervals as a PNG; None when matplotlib is not installed."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    standings = board.standings[::-1]
    figure, axes = plt.subplots(figsize=(8, 1.2 + 0.45 * len(standings)))
    rates = [100 * s.win_rate for s in standings]
    errors = [196 * s.se for s in standings]
    axes.barh(range(len(standings)), rates, xerr=errors, color="#4c78a8", capsize=3)
    axes.set_yticks(range(len(standings)), [s.player if len(s.player) <= 40 else s.player[:37] + "..." for s in standings])
    axes.set_xlabel("win % (95% interval)")
    axes.set_title(f"{board.board} ({board.rule}), seed {board.seed}, {standings[0].games:,} games each")
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)
    return path


def write(board: Leaderboard, out: Path) -> list[Path]:
    """``leaderboard.md``, ``leaderboard.json`` and (with matplotlib) ``leaderboard.png`` in ``out``."""
    files = [
        write_text(out / "leaderboard.md", markdown(board)),
        write_text(out / "leaderboard.json", json.dumps(board.to_dict(), indent=1) + "\n"),
    ]
    png = plot(board, out / "leaderboard.png")
    return files + ([png] if png is not None else [])


__all__ = ["ArenaError", "Leaderboard", "Pair", "Standing", "leaderboard", "markdown", "read_games", "write"]
