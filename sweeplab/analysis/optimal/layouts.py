"""A small board's layouts as mine bitmasks: every one, the ones each first-click rule deals, and the board's symmetries.

A layout is a set of ``mines`` cells, kept as a bitmask (bit ``c`` is cell ``c = y * width + x``). :func:`dealt_layouts`
is a faithful copy of :class:`sweeplab.core.game.Game`'s dealing for each first-click rule: ``unsafe`` deals uniformly
and the first click can lose; ``safe`` deals uniformly among the layouts that leave the first click free; ``zero``
among those that leave the click and its neighbours free (on a board too dense for that, only the click, as the game
does); ``xp`` deals uniformly and then moves a mine under the first click to the first free cell from the top-left, so
a few layouts are dealt by more than one way (they are listed once per way: a multiset). The ``hint`` rule is not
modelled: which cell the game opens depends on the layout, so the opening itself carries information that an
information state of revealed numbers does not hold.
"""

from __future__ import annotations

from collections.abc import Callable

from sweeplab.analysis.optimal.gametree import SearchError
from sweeplab.core.geometry import Board
from sweeplab.core.rules import Rules

#: First-click rules the search models (``hint`` is not: see the module docstring).
RULES = ("unsafe", "safe", "zero", "xp")


def layout_masks(cells: int, mines: int) -> list[int]:
    """Every layout of ``mines`` mines on ``cells`` cells as a bitmask, in increasing order (Gosper's hack).

    >>> layout_masks(4, 2)
    [3, 5, 6, 9, 10, 12]
    """
    if mines == 0:
        return [0]
    out: list[int] = []
    x = (1 << mines) - 1
    limit = 1 << cells
    append = out.append
    while x < limit:
        append(x)
        low = x & -x
        ripple = x + low
        x = ripple | (((ripple ^ x) // low) >> 2)
    return out


def zero_keeps_neighbours(rules: Rules, click: int) -> bool:
    """Whether the ``zero`` rule keeps the click's neighbours free too (False on a board too dense for it), as
    :meth:`sweeplab.core.game.Game._deal_around` decides."""
    board = rules.board
    return board.cells - len(board.neighbours[click]) - 1 >= rules.mines


def xp_move(layout: int, click: int, cells: int) -> int:
    """The ``xp`` rule's layout after the first click: a mine under ``click`` moves to the first free cell (lowest
    index, other than the click), as :meth:`sweeplab.core.game.Game._xp_move` does.

    >>> bin(xp_move(0b0011, 0, 4))  # the mine at 0 moves to cell 2, the first free one
    '0b110'
    """
    bit = 1 << click
    if not layout & bit:
        return layout
    occupied = layout | bit
    free = ~occupied & ((1 << cells) - 1)
    target = free & -free
    return (layout & ~bit) | target


def dealt_layouts(rules: Rules, click: int, every: list[int] | None = None) -> list[int]:
    """The layouts the game deals when the first reveal is ``click``, one entry per equally likely way of dealing
    (so for ``xp`` a layout reached from two dealt layouts is listed twice). ``every`` may pass
    ``layout_masks(cells, mines)`` when the caller already has it.

    >>> len(dealt_layouts(Rules(3, 3, 2, "unsafe"), 4)), len(dealt_layouts(Rules(3, 3, 2, "safe"), 4))
    (36, 28)
    >>> len(dealt_layouts(Rules(3, 3, 2, "zero"), 0)), len(dealt_layouts(Rules(3, 3, 2, "xp"), 0))
    (10, 36)
    """
    rule = rules.first_click
    if rule == "noguess":
        raise SearchError(
            "the 'noguess' rule is not modelled: its layouts are those that certain deductions clear from the click, "
            f"so a player that takes every certain cell wins them all; use one of {', '.join(RULES)}"
        )
    if rule not in RULES:
        raise SearchError(
            f"the {rule!r} rule is not modelled: the cell the game opens depends on the layout, so the opening itself "
            f"tells the player something; use one of {', '.join(RULES)}"
        )
    board = rules.board
    if not board.contains(click):
        raise SearchError(f"first click {click} is off the {board.width}x{board.height} board")
    cells = board.cells
    layouts = every if every is not None else layout_masks(cells, rules.mines)
    if rule == "unsafe":
        return list(layouts)
    if rule == "xp":
        return [xp_move(layout, click, cells) for layout in layouts]
    keep = 1 << click
    if rule == "zero" and zero_keeps_neighbours(rules, click):
        for n in board.neighbours[click]:
            keep |= 1 << n
    return [layout for layout in layouts if not layout & keep]


def symmetries(board: Board) -> list[tuple[int, ...]]:
    """The board's symmetries as cell permutations (``perm[c]`` is where cell ``c`` goes), identity first.

    >>> len(symmetries(Board(4, 4))), len(symmetries(Board(5, 4))), len(symmetries(Board(3, 1)))
    (8, 4, 2)
    """
    w, h = board.width, board.height
    maps: list[Callable[[int, int], tuple[int, int]]] = [
        lambda x, y: (x, y),
        lambda x, y: (w - 1 - x, y),
        lambda x, y: (x, h - 1 - y),
        lambda x, y: (w - 1 - x, h - 1 - y),
    ]
    if w == h:
        maps += [
            lambda x, y: (y, x),
            lambda x, y: (h - 1 - y, x),
            lambda x, y: (y, w - 1 - x),
            lambda x, y: (h - 1 - y, w - 1 - x),
        ]
    seen: dict[tuple[int, ...], None] = {}
    for f in maps:
        perm = []
        for c in range(board.cells):
            nx, ny = f(c % w, c // w)
            perm.append(ny * w + nx)
        seen.setdefault(tuple(perm), None)
    return list(seen)
