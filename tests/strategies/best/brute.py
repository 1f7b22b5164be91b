"""Plain references for the best strategy's tests: every consistent layout, and the game tree over views."""

from __future__ import annotations

from fractions import Fraction
from functools import cache

from sweeplab.core.geometry import Board
from sweeplab.core.observation import COVERED, FLAGGED, Observation


def consistent_layouts(observation: Observation) -> list[frozenset[int]]:
    """Every set of mines (flags included) that produces ``observation``: cell by cell backtracking that checks each
    number once all its neighbours are decided, and the mine total at the end."""
    board, view = observation.board, observation.view
    covered = [c for c, v in enumerate(view) if v == COVERED]
    flags = frozenset(c for c, v in enumerate(view) if v == FLAGGED)
    numbers = [(c, v) for c, v in enumerate(view) if v >= 0]
    position = {c: i for i, c in enumerate(covered)}
    closes: list[list[tuple[int, int]]] = [[] for _ in covered]  # numbers whose last covered neighbour is this cell
    for c, v in numbers:
        last = max((position[n] for n in board.neighbours[c] if n in position), default=-1)
        if last < 0:
            if sum(n in flags for n in board.neighbours[c]) != v:
                return []
        else:
            closes[last].append((c, v))
    out: list[frozenset[int]] = []
    chosen: set[int] = set(flags)
    left = observation.mines - len(flags)

    def step(i: int, left: int) -> None:
        if left < 0 or left > len(covered) - i:
            return
        if i == len(covered):
            out.append(frozenset(chosen))
            return
        cell = covered[i]
        for mine in (False, True):
            if mine:
                chosen.add(cell)
            if all(sum(n in chosen for n in board.neighbours[c]) == v for c, v in closes[i]):
                step(i + 1, left - mine)
            if mine:
                chosen.discard(cell)

    step(0, left)
    return out


def reveal(board: Board, view: tuple[int, ...], cell: int, mines: frozenset[int]) -> tuple[int, ...]:
    """The view after opening safe ``cell`` in layout ``mines``, zeros flood-filled as the game does."""
    out = list(view)
    stack = [cell]
    while stack:
        c = stack.pop()
        if out[c] != COVERED:
            continue
        out[c] = sum(n in mines for n in board.neighbours[c])
        if out[c] == 0:
            stack.extend(n for n in board.neighbours[c] if out[n] == COVERED)
    return tuple(out)


def game_value(observation: Observation) -> Fraction:
    """The best chance of winning from ``observation``, by a plain game tree over views (every covered cell tried,
    outcomes grouped by the view they lead to), memoised on the view."""
    board = observation.board
    layouts_of: dict[tuple[int, ...], list[frozenset[int]]] = {observation.view: consistent_layouts(observation)}

    @cache
    def value(view: tuple[int, ...]) -> Fraction:
        layouts = layouts_of[view]
        if len(layouts) == 1:
            return Fraction(1)
        best = Fraction(0)
        for c, v in enumerate(view):
            if v != COVERED:
                continue
            groups: dict[tuple[int, ...], list[frozenset[int]]] = {}
            for mines in layouts:
                if c not in mines:
                    groups.setdefault(reveal(board, view, c, mines), []).append(mines)
            total = Fraction(0)
            for after, group in groups.items():
                layouts_of[after] = group
                total += len(group) * value(after)
            best = max(best, total / len(layouts))
        return best

    return value(observation.view)


def move_value(observation: Observation, cell: int) -> Fraction:
    """The chance of winning when opening ``cell`` now and playing perfectly afterwards."""
    board = observation.board
    layouts = consistent_layouts(observation)
    groups: dict[tuple[int, ...], list[frozenset[int]]] = {}
    for mines in layouts:
        if cell not in mines:
            groups.setdefault(reveal(board, observation.view, cell, mines), []).append(mines)
    total = Fraction(0)
    for after, group in groups.items():
        total += len(group) * game_value(Observation(board, observation.mines, after))
    return total / len(layouts)
