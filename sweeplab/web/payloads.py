"""What the web API sends: positions, analyses and the helper's three levels as JSON-ready dicts, cells as [x, y].

Nothing here reads a game's mine layout: everything is computed from an :class:`Observation`, what a player sees.
Only :mod:`sweeplab.web.games` adds the layout to a game's payload, and only once the game is over.
"""

from __future__ import annotations

from typing import Any

from sweeplab.analysis import ROUNDING, Budget, Probabilities, analyze
from sweeplab.analysis.exact.constraints import constraints_from
from sweeplab.core.geometry import Board
from sweeplab.core.numbers import count_json
from sweeplab.core.observation import COVERED, Observation
from sweeplab.formats.position import format_position
from sweeplab.strategies.base import Guess
from sweeplab.strategies.exact import TIE, ExactStrategy
from sweeplab.strategies.levels import average_probabilities, guess_candidates, trivial_moves

#: The analysis budget of one request: the page waits for the answer, so it is kept short; past it the engine
#: estimates and says so (``exact: false`` with its error).
WEB_BUDGET = Budget(seconds=2.0)

LEVELS = {
    1: "level 1, single-point reasoning (seed 002's trivial patterns): a number whose flags equal it makes its "
    "other covered neighbours safe; one whose flags plus covered neighbours equal it makes them mines",
    2: "level 2, seed 002's averaged probabilities: each number gives (K - F) / N to its N covered neighbours and "
    "a cell touched by several numbers gets the average; trivial patterns first",
    3: "level 3, the exact engine: every layout consistent with the position and the mine count, weighted; "
    "certain cells, then the safest guess",
}


def xy(board: Board, cell: int) -> list[int]:
    """A cell as the API writes it: [x, y]."""
    return list(board.xy(cell))


def cells_xy(board: Board, cells: Any) -> list[list[int]]:
    return [xy(board, c) for c in cells]


def guess_payload(board: Board, guess: Guess | None) -> dict[str, Any] | None:
    """A strategy's guess record: kind, estimated safety, outcome and, where the strategy gives one, its explanation."""
    if guess is None:
        return None
    return {
        "cell": xy(board, guess.cell),
        "kind": guess.kind,
        "safety": guess.safety,
        "outcome": guess.outcome,
        "explanation": guess.explanation.to_dict() if guess.explanation is not None else None,
    }


def analysis_payload(observation: Observation, result: Probabilities | None = None) -> dict[str, Any]:
    """Every covered cell's mine probability (flat, row by row; null for revealed cells, 1 for flags), the certain
    safes and mines, craps shoots and the exact strategy's move, as ``sweeplab analyze --json`` reports them."""
    if result is None:
        result = analyze(observation, WEB_BUDGET)
    board, view = observation.board, observation.view
    probabilities = [None if v >= 0 else result.probability(c) for c, v in enumerate(view)]
    best: dict[str, Any] | None = None
    if result.safe:
        cell = min(c for c in result.safe if view[c] == COVERED) if any(view[c] == COVERED for c in result.safe) else None
        if cell is not None:
            best = {"cell": xy(board, cell), "probability": 0.0, "certain": True, "kind": "safe", "ties": len(result.safe)}
    if best is None and observation.covered():
        player = ExactStrategy()
        player.pick_guess(observation, result)
        guess = player.pending_guess
        assert guess is not None
        p = result.probability(guess.cell)
        ties = sum(1 for _, q in result.covered() if q <= p + TIE)
        best = {"cell": xy(board, guess.cell), "probability": p, "certain": False, "kind": guess.kind, "ties": ties}
    return {
        "width": board.width,
        "height": board.height,
        "total_mines": observation.mines,
        "mines_left": observation.mines_left,
        "exact": result.exact,
        "error": result.error,
        "layouts": count_json(result.layouts),
        "probabilities": probabilities,
        "safe": cells_xy(board, result.safe),
        "mines": cells_xy(board, result.mines),
        "craps_shoots": [
            {"cells": cells_xy(board, s.cells), "best": xy(board, s.best), "safety": s.safety} for s in result.craps
        ],
        "unconstrained": {"cells": len(result.unconstrained), "probability": result.unconstrained_probability},
        "best": best,
        "position": format_position(observation),
    }


def hint_payload(observation: Observation, level: int) -> dict[str, Any]:
    """What the helper at ``level`` (seed 002's three) marks on the board: certain safes and mines, level 2's
    averaged values, and the guess that level would make when nothing is certain. Computed from the observation
    only. Raises ``InconsistentPositionError`` (naming the number) when the flags contradict the numbers."""
    board = observation.board
    out: dict[str, Any] = {"level": level, "about": LEVELS[level], "safe": [], "mines": [], "values": [], "guess": None}
    if observation.is_start():
        out["text"] = "Nothing is revealed yet: the first click is a guess (the first-click rule says what it risks)."
        return out
    if level == 3:
        result = analyze(observation, WEB_BUDGET)
        analysis = analysis_payload(observation, result)
        out["safe"], out["mines"] = analysis["safe"], analysis["mines"]
        best = analysis["best"]
        estimated = "" if result.exact or result.error <= ROUNDING else f" (estimated, within about ±{result.error:.3f})"
        if result.safe:
            out["text"] = f"{len(result.safe)} cell(s) certainly safe, {len(result.mines)} certainly mines{estimated}."
        elif best is not None:
            out["guess"] = {"cells": [best["cell"]], "kind": best["kind"], "safety": 1 - best["probability"]}
            x, y = best["cell"]
            out["text"] = (
                f"Nothing is certainly safe{estimated}. Safest guess: ({x}, {y}), a mine with probability "
                f"{best['probability']:.1%}" + (f" ({best['ties']} cells tie)." if best["ties"] > 1 else ".")
            )
        return out
    problem = constraints_from(observation)
    sets = [(c.cells, c.mines) for c in problem.constraints]
    safe, mines = trivial_moves(sets)
    out["safe"], out["mines"] = cells_xy(board, safe), cells_xy(board, mines)
    if level == 2:
        values = average_probabilities(sets)
        out["values"] = [{"cell": xy(board, c), "p": float(p)} for c, p in sorted(values.items())]
    if safe or mines:
        out["text"] = f"Trivial patterns: {len(safe)} cell(s) safe, {len(mines)} mine(s)."
        return out
    if level == 1:
        out["text"] = "No trivial pattern: single-point reasoning proves nothing here; a guess is needed."
        return out
    cells, kind, safety = guess_candidates(observation, problem, values)
    out["guess"] = {"cells": cells_xy(board, cells), "kind": kind, "safety": safety}
    if kind == "educated" and safety is not None:
        out["text"] = f"No trivial pattern. Level 2 picks among the {len(cells)} cell(s) of smallest average ({1 - safety:.1%})."
    elif kind == "unconstrained" and safety is not None:
        out["text"] = (
            "No trivial pattern, and every averaged value is above the board's average "
            f"({1 - safety:.1%}): level 2 picks a random cell no number touches."
        )
    else:
        out["text"] = "No trivial pattern and no estimate: level 2 picks a random covered cell."
    return out
