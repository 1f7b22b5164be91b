"""What a position after a look-ahead guess is worth, measured on `best`'s own games (issue 9).

`best`'s look-ahead scores a guess by sum over numbers v of P(safe, shows v) * next(v), where next(v) is set by hand
(sweeplab/strategies/best/lookahead.py): 1 when the position after v has two living safe cells, (4 + b1) / 5 with
one, and the blend (4 b1 + b2) / 5 of its two best safeties with none. This script asks the games what those
positions are worth: it plays `best` and, at every look-ahead guess that survives, records the position the
look-ahead saw for the number that appeared (how many living safe cells, b1, b2) and whether the game was won.

`fit` estimates P(win) = h(phase) * g(position), with h one factor per bin of covered cells (the phase of the game)
and g the relative worth: 1 with two living safe cells, ((4 + b1) / 5) ** k1 with one, ((4 b1 + b2) / 5) ** k0 with
none. k0 = k1 = 1 is the hand-set rule. It writes OUT/data.json and OUT/table.md: the win rates by phase and kind of
position, and the maximum-likelihood k0, k1 with their log-likelihood beside the hand-set rule's.

  python benchmarks/best/best_calibrate.py collect --games 20000 --seed 101 --out results/best/calibration/expert-safe.csv.gz
  python benchmarks/best/best_calibrate.py fit results/best/calibration/expert-safe.csv.gz --out results/best/calibration

The fit needs scipy (in the `dev` extra, which `make test` installs).
"""

from __future__ import annotations

import argparse
import csv
import gzip
import io
import json
import multiprocessing
from pathlib import Path
from typing import Any

from sweeplab.analysis import Analyzer
from sweeplab.bench.runner import game_seeds
from sweeplab.core.game import Game, GameState, Move
from sweeplab.core.observation import COVERED
from sweeplab.core.rules import Rules, parse_board
from sweeplab.strategies.base import play_move
from sweeplab.strategies.best.lookahead import best_two, living_safe
from sweeplab.strategies.registry import make
from sweeplab.studies.best import first_click_arg

FIELDS = ("game", "move", "covered", "living", "b1", "b2", "won")
#: Bins of covered cells (equal counts) that stand for the phase of the game in the fit.
PHASES = 15


def _collect_game(task: tuple[int, int, int, str, int, int, int]) -> list[tuple[Any, ...]]:
    width, height, mines, rule, first, root, index = task
    rules = Rules(width, height, mines, rule)
    layout_seed, strategy_seed = game_seeds(root, index)
    game = Game(rules, layout_seed)
    game.apply(Move.reveal(first))
    player = make("best", seed=strategy_seed)
    player.begin(rules)
    analyzer = Analyzer()
    found = []
    while game.state is GameState.PLAYING:
        observation = game.observation()
        _, guess = play_move(player, game)
        text = guess.explanation.text if guess is not None and guess.explanation is not None else ""
        if guess is None or not guess.outcome or not text.startswith("look-ahead"):
            continue
        value = game.observation().view[guess.cell]
        after = analyzer.try_analyze(observation.with_cells({guess.cell: value}, observation.moves + 1))
        if after is None or not after.layouts:
            continue
        b1, b2 = best_two(after)
        living = min(living_safe(after.observation, after), 2) if after.safe else 0
        if b1 == 0.0:  # nothing uncertain is left: worth 1, as two living safe cells
            living = 2
        covered = sum(1 for v in observation.view if v == COVERED)
        found.append((observation.moves, covered, living, round(b1, 6), round(b2, 6)))
    won = int(game.state is GameState.WON)
    return [(index, *row, won) for row in found]


def collect(board: str, rule: str, first: tuple[int, int], games: int, seed: int, out: Path, jobs: int) -> int:
    width, height, mines = parse_board(board)
    if not (0 <= first[0] < width and 0 <= first[1] < height):
        raise SystemExit(f"best_calibrate: --first-click {first[0]},{first[1]} is off the {width}x{height} board")
    cell = first[1] * width + first[0]
    tasks = [(width, height, mines, rule, cell, seed, i) for i in range(games)]
    rows: list[tuple[Any, ...]] = []
    with multiprocessing.Pool(jobs) as pool:
        for done, found in enumerate(pool.imap(_collect_game, tasks, chunksize=16), 1):
            rows.extend(found)
            if done % 1000 == 0 or done == games:
                print(f"best_calibrate: {done:,}/{games:,} games, {len(rows):,} positions", flush=True)
    out.parent.mkdir(parents=True, exist_ok=True)
    text = io.StringIO()
    writer = csv.writer(text)
    writer.writerow(FIELDS)
    writer.writerows(rows)
    out.write_bytes(gzip.compress(text.getvalue().encode(), mtime=0))
    settings = {"board": f"{width}x{height}x{mines}", "rule": rule, "first_click": list(first), "games": games}
    settings |= {"seed": seed, "positions": len(rows), "strategy": "best"}
    out.with_name(out.name.split(".")[0] + ".json").write_text(json.dumps(settings, indent=1) + "\n")
    return len(rows)


def read_rows(path: Path) -> list[dict[str, float]]:
    """The rows of a collected file; a missing or malformed one is a SystemExit naming the file and line."""
    try:
        text = gzip.decompress(path.read_bytes()).decode()
    except (OSError, EOFError, UnicodeDecodeError) as error:
        why = getattr(error, "strerror", None) or str(error) or type(error).__name__
        raise SystemExit(f"best_calibrate: cannot read {path}: {why}") from None
    rows = []
    reader = csv.DictReader(io.StringIO(text))
    if tuple(reader.fieldnames or ()) != FIELDS:
        raise SystemExit(f"best_calibrate: {path}: the header is not {','.join(FIELDS)}")
    for number, row in enumerate(reader, 2):
        try:
            rows.append({k: float(row[k]) for k in FIELDS})
        except (TypeError, ValueError):
            raise SystemExit(f"best_calibrate: {path}, line {number}: not a row of numbers") from None
    if not rows:
        raise SystemExit(f"best_calibrate: {path}: no positions")
    return rows


def _settings(path: Path) -> dict[str, Any] | None:
    """What ``collect`` wrote beside a positions file (how they were collected), or None when it is not there."""
    sidecar = path.with_name(path.name.split(".")[0] + ".json")
    if not sidecar.exists():
        return None
    try:
        settings: dict[str, Any] = json.loads(sidecar.read_text())
    except ValueError as error:
        raise SystemExit(f"best_calibrate: {sidecar}: not JSON ({error})") from None
    return settings


def fit(path: Path, out: Path) -> dict[str, Any]:
    import numpy as np

    try:
        from scipy.optimize import minimize
    except ImportError:
        raise SystemExit("best_calibrate: fit needs scipy: pip install -e '.[dev]'") from None
    rows = read_rows(path)
    collected = _settings(path)
    covered = np.array([r["covered"] for r in rows])
    won = np.array([r["won"] for r in rows])
    living = np.array([r["living"] for r in rows]).astype(int)
    b1 = np.array([r["b1"] for r in rows])
    b2 = np.array([r["b2"] for r in rows])
    edges = np.unique(np.quantile(covered, np.linspace(0, 1, PHASES + 1)[1:-1]))
    _, phase = np.unique(np.searchsorted(edges, covered, side="right"), return_inverse=True)  # no empty phase
    phases = int(phase.max()) + 1
    none = (4 * b1 + b2) / 5
    one = (4 + b1) / 5

    def worth(k: np.ndarray) -> np.ndarray:
        g = np.ones(len(rows))
        g[living == 0] = none[living == 0] ** k[0]
        g[living == 1] = one[living == 1] ** k[1]
        return g

    def nll(params: np.ndarray, k: np.ndarray | None = None) -> float:
        h = np.exp(params[:phases])
        p = np.clip(h[phase] * worth(params[phases:] if k is None else k), 1e-9, 1 - 1e-9)
        return float(-np.sum(won * np.log(p) + (1 - won) * np.log(1 - p)))

    start = np.log(np.full(phases, 0.5))
    hand = minimize(lambda h: nll(h, np.array([1.0, 1.0])), start, method="BFGS")
    fitted = minimize(nll, np.concatenate([hand.x, [1.0, 1.0]]), method="BFGS")
    k0, k1 = (float(x) for x in fitted.x[phases:])
    table = []
    for b in range(phases):
        inside = phase == b
        row: dict[str, Any] = {"covered_at_most": int(covered[inside].max())}
        for kind in (0, 1, 2):
            mask = inside & (living == kind)
            row[f"n{kind}"] = int(mask.sum())
            row[f"won{kind}"] = float(won[mask].mean()) if mask.any() else None
        table.append(row)
    data = {
        "collected": collected,
        "positions": len(rows),
        "k0": k0,
        "k1": k1,
        "log_likelihood_fitted": -fitted.fun,
        "log_likelihood_hand_set": -hand.fun,
        "phases": table,
    }
    out.mkdir(parents=True, exist_ok=True)
    (out / "data.json").write_text(json.dumps(data, indent=1) + "\n")
    lines = [
        f"What a position after a look-ahead guess is worth, on {len(rows):,} surviving guesses of `best`"
        + (f" ({data['collected']['games']:,} games)" if data["collected"] else "")
        + "; P(win) by phase (covered cells) and by the position the look-ahead saw: two living safe cells (L2, worth"
        " 1), one (L1), none (L0).",
        "",
        "| covered cells at most | L0 guesses | L0 won | L1 guesses | L1 won | L2 guesses | L2 won |",
        "|---|---|---|---|---|---|---|",
    ]
    for row in table:
        cells = [f"{row['covered_at_most']}"]
        for kind in (0, 1, 2):
            share = row[f"won{kind}"]
            cells += [f"{row[f'n{kind}']:,}", "-" if share is None else f"{100 * share:.1f}%"]
        lines.append("| " + " | ".join(cells) + " |")
    lines += [
        "",
        f"Maximum likelihood with one factor per phase: L0 worth ((4 b1 + b2) / 5) ** {k0:.2f}, L1 worth"
        f" ((4 + b1) / 5) ** {k1:.2f} (the hand-set rule is 1 and 1); log-likelihood {-fitted.fun:,.1f} against"
        f" {-hand.fun:,.1f} for the hand-set rule. At b1 = b2 = 0.8: L0 {0.8**k0:.3f} (hand-set 0.800), L1"
        f" {0.96**k1:.3f} (hand-set 0.960).",
    ]
    (out / "table.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    return data


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="what", required=True)
    one = sub.add_parser("collect", help="play best and record the position after each look-ahead guess it survives")
    one.add_argument("--board", default="expert", help="a preset or WIDTHxHEIGHTxMINES (default expert)")
    one.add_argument("--rule", default="safe", help="the first-click rule (default safe)")
    one.add_argument("--first-click", type=first_click_arg, default=(0, 0), help="X,Y of the first click (default 0,0)")
    one.add_argument("--games", type=int, required=True)
    one.add_argument("--seed", type=int, default=101)
    one.add_argument("--out", type=Path, required=True)
    one.add_argument("--jobs", type=int, default=2)
    two = sub.add_parser("fit", help="fit the worth of the positions and write data.json and table.md")
    two.add_argument("positions", type=Path)
    two.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    if args.what == "collect":
        for name in ("games", "jobs"):
            if getattr(args, name) < 1:
                parser.error(f"--{name} must be at least 1, not {getattr(args, name)}")
        x, y = args.first_click
        try:
            Rules(*parse_board(args.board), args.rule)
        except ValueError as error:
            parser.error(f"--board {args.board!r} / --rule {args.rule!r}: {error}")
        count = collect(args.board, args.rule, (x, y), args.games, args.seed, args.out, args.jobs)
        print(f"best_calibrate: {count:,} positions written to {args.out}")
    else:
        fit(args.positions, args.out)


if __name__ == "__main__":
    main()
