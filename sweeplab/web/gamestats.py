"""A finished game's statistics as minesweeper players compare them: time, 3BV (solved and total), 3BV/s, clicks
and efficiency, and whether the player was assisted (an undo, or a move of the auto-solver)."""

from __future__ import annotations

from typing import Any

from sweeplab.core.game import Game
from sweeplab.core.observation import COVERED, FLAGGED


def solved_three_bv(game: Game) -> int:
    """How much of :meth:`Game.three_bv` the player has done: each zero region (an opening, with its border of
    numbers) with a revealed zero counts 1, and each revealed number that borders no zero counts 1. Equals
    ``game.three_bv()`` once every safe cell is revealed. Needs the layout (the game must be dealt)."""
    mines, board = game.mine_cells(), game.board
    view, neighbours = game.observation().view, board.neighbours
    number = [0 if c in mines else game.number(c) for c in range(board.cells)]
    bordering_zero = [False] * board.cells
    seen = [False] * board.cells
    solved = 0
    for start in range(board.cells):
        if start in mines or number[start] != 0 or seen[start]:
            continue
        seen[start] = True
        stack, opened = [start], False
        while stack:
            c = stack.pop()
            opened |= view[c] == 0
            for n in neighbours[c]:
                bordering_zero[n] = True
                if number[n] == 0 and not seen[n] and n not in mines:
                    seen[n] = True
                    stack.append(n)
        solved += opened
    for c in range(board.cells):
        if c not in mines and number[c] > 0 and not bordering_zero[c] and view[c] not in (COVERED, FLAGGED):
            solved += 1
    return solved


def game_statistics(game: Game, seconds: float, clicks: int, undos: int, solver_moves: int) -> dict[str, Any]:
    """The statistics of a game that is over: ``seconds`` from the first move to the last, ``clicks`` the player's
    moves (reveals, flags, unflags and chords, undone ones included), 3BV/s and efficiency (3BV / clicks) from the
    3BV solved (all of it in a won game). The auto-solver's ``solver_moves`` count as clicks too (a game it finished
    is not a one-click game of 17,300% efficiency). None where a figure has no meaning (no time, no click)."""
    total = game.three_bv()
    solved = total if game.state.value == "won" else solved_three_bv(game)
    clicks += solver_moves
    return {
        "time": round(seconds, 3),
        "three_bv": total,
        "three_bv_solved": solved,
        "three_bv_per_second": round(solved / seconds, 3) if seconds > 0 else None,
        "clicks": clicks,
        "efficiency": round(solved / clicks, 3) if clicks else None,
        "undos": undos,
        "solver_moves": solver_moves,
        "assisted": undos > 0 or solver_moves > 0,
    }


__all__ = ["game_statistics", "solved_three_bv"]
