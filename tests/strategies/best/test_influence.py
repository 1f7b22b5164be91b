"""The fifty-fifty influence against counts over every consistent layout."""

from __future__ import annotations

import pytest

from sweeplab.analysis import Analyzer
from sweeplab.core.game import Game
from sweeplab.core.geometry import Board
from sweeplab.core.observation import COVERED, Observation
from sweeplab.core.rules import Rules
from sweeplab.formats.position import parse_position
from sweeplab.strategies.best.influence import MAX_FLANK, NEGLIGIBLE, THRESHOLD, WEIGHT, Influence
from sweeplab.strategies.registry import make_spec
from tests.strategies.best.brute import consistent_layouts

#: A 2x1 trap on the top edge: one mine in (2,0)-(3,0), and the cells that could tell them apart, (1,0) and (1,1),
#: are certain mines. (0,0) and (0,1) are certainly safe and tell nothing about the pair.
TRAP = "4x3x3\nHHHH\nHH31\n1110\n"


def brute_influence(observation: Observation, cell: int, mines: frozenset[int]) -> float:
    """The module docstring's definition, counted over the layouts themselves."""
    layouts = consistent_layouts(observation)
    total = len(layouts)
    board, view = observation.board, observation.view
    w, h = board.width, board.height

    def at(x: int, y: int) -> int | None:
        return y * w + x if 0 <= x < w and 0 <= y < h else None

    def count(must: list[int], free: list[int], floor: float) -> int:
        if sum(set(must) <= layout for layout in layouts) <= floor * total:
            return 0
        return sum(set(must) <= layout and not set(free) & layout for layout in layouts)

    def hidden(c: int | None) -> bool:
        return c is not None and view[c] == COVERED and c not in mines

    def flank(cells: list[tuple[int, int]]) -> list[int] | None:
        out = []
        for x, y in cells:
            c = at(x, y)
            if c is None or c in mines:
                continue
            if view[c] != COVERED:
                return None
            out.append(c)
        return out

    def pair(x: int, y: int, horizontal: bool) -> tuple[int, int, list[int]] | None:
        a, b = (at(x, y), at(x + 1, y)) if horizontal else (at(x, y), at(x, y + 1))
        if not (hidden(a) and hidden(b)):
            return None
        sides = (
            [(x - 1, y + d) for d in (-1, 0, 1)] + [(x + 2, y + d) for d in (-1, 0, 1)]
            if horizontal
            else [(x + d, y - 1) for d in (-1, 0, 1)] + [(x + d, y + 2) for d in (-1, 0, 1)]
        )
        f = flank(sides)
        assert a is not None and b is not None
        return None if f is None else (a, b, f)

    def box(x: int, y: int) -> tuple[list[int], list[int]] | None:
        cells = [at(x, y), at(x + 1, y + 1), at(x + 1, y), at(x, y + 1)]
        if not all(hidden(c) for c in cells):
            return None
        f = flank([(x - 1, y - 1), (x + 2, y - 1), (x - 1, y + 2), (x + 2, y + 2)])
        return None if f is None else ([c for c in cells if c is not None], f)

    x, y = cell % w, cell // w
    value = 0
    for px, py, hz in ((x, y, True), (x - 1, y, True), (x, y, False), (x, y - 1, False)):
        p = pair(px, py, hz)
        if p is not None and len(p[2]) <= MAX_FLANK:
            value += count([p[0], *p[2]], [p[1]], NEGLIGIBLE)
    boxes = [0]
    for bx, by in ((x, y), (x - 1, y), (x, y - 1), (x - 1, y - 1)):
        b = box(bx, by)
        if b is not None and len(b[1]) <= MAX_FLANK:
            (tl, br, tr, bl), corners = b
            boxes.append(count([tl, br, *corners], [tr, bl], NEGLIGIBLE))
    value += max(boxes)
    for d in (-1, 0, 1):
        for p in (pair(x + 1, y + d, True), pair(x - 2, y + d, True), pair(x + d, y + 1, False), pair(x + d, y - 2, False)):
            if p is not None and p[2] == [cell]:
                n = count([p[0], cell], [p[1]], THRESHOLD)
                value += n if n > THRESHOLD * total else 0
    for bx, by in ((x + 1, y + 1), (x - 2, y + 1), (x + 1, y - 2), (x - 2, y - 2)):
        b = box(bx, by)
        if b is not None and cell in b[1] and len(b[1]) <= 2:
            (tl, br, tr, bl), corners = b
            n = count([tl, br, *corners], [tr, bl], THRESHOLD)
            value += n if n > THRESHOLD * total else 0
    unsafe = sum(cell in layout for layout in layouts)
    return min(value, total - unsafe, unsafe) / total


def positions() -> list[Observation]:
    """The trap above and positions from real games on a small board (opened at a corner, then a few safe cells)."""
    found = [parse_position(TRAP)]
    for seed in range(40):
        game = Game(Rules(6, 4, 5, "zero"), seed)
        game.reveal(0)
        covered = [c for c, v in enumerate(game.observation().view) if v == COVERED]
        if 6 <= len(covered) <= 20:
            found.append(game.observation())
        if len(found) == 6:
            break
    return found


@pytest.mark.parametrize("index", range(6))
def test_influence_equals_the_count_over_every_layout(index):
    observation = positions()[index]
    analyzer = Analyzer()
    result = analyzer.analyze(observation)
    mines = frozenset(result.mines)
    influence = Influence(analyzer, observation, result, mines)
    for cell, p in result.covered():
        if cell in mines:
            continue
        assert influence.of(cell, 1 - p) == pytest.approx(brute_influence(observation, cell, mines), abs=1e-12), cell


def test_the_positions_hold_traps():
    """The comparison above is not vacuous: most positions have a cell with influence."""
    held = 0
    for observation in positions():
        analyzer = Analyzer()
        result = analyzer.analyze(observation)
        influence = Influence(analyzer, observation, result, result.mines)
        held += any(influence.of(c, 1 - p) > 0 for c, p in result.covered() if 0 < p < 1)
    assert held >= 3


def test_a_cell_in_the_corner_trap_has_influence_and_the_factor_follows_it():
    observation = parse_position(TRAP)
    analyzer = Analyzer()
    result = analyzer.analyze(observation)
    influence = Influence(analyzer, observation, result, result.mines)
    corner = observation.board.index(3, 0)
    safety = 1 - result.probability(corner)
    assert safety == pytest.approx(0.5)
    assert influence.of(corner, safety) == pytest.approx(0.5)  # capped: every layout where it is a mine is a trap
    assert influence.factor(corner, safety) == pytest.approx(1 + WEIGHT)


def test_a_cell_no_trap_can_hold_has_none():
    observation = parse_position(TRAP)
    analyzer = Analyzer()
    result = analyzer.analyze(observation)
    influence = Influence(analyzer, observation, result, result.mines)
    cell = observation.board.index(0, 1)  # beside a certain mine and the revealed bottom row
    assert influence.of(cell, 1 - result.probability(cell)) == 0
    assert influence.factor(cell, 1 - result.probability(cell)) == 1.0


#: TRAP after its two certainly safe cells are opened: only the pair (2,0)-(3,0) is left, a pure 50/50 (a craps
#: shoot, so `forced` and `endgame` are off to let the look-ahead weigh it).
TRAP_LEFT = "4x3x3\n2HHH\n2H31\n1110\n"


def test_the_option_shows_in_the_guess_and_its_explanation():
    observation = parse_position(TRAP_LEFT)
    pair = {observation.board.index(2, 0), observation.board.index(3, 0)}
    plain = "best[endgame=False,forced=False"
    for spec, factor in ((plain + "]", 1 + WEIGHT), (plain + ",influence=False]", 1.0)):
        player = make_spec(spec, seed=1)
        move = player.choose(observation)
        guess = player.pending_guess
        assert move.cell in pair and guess is not None
        assert guess.explanation.figures["influence_factor"] == pytest.approx(factor)
        assert ("50/50 influence)" in guess.explanation.text) == (factor > 1)


def test_a_board_past_float_range_plays_without_the_influence():
    """More layouts than a float holds: the influence is skipped (factors 1.0) instead of overflowing."""
    view = [-1] * 3600
    view[0] = 1
    observation = Observation(Board(60, 60), 1000, tuple(view))
    player = make_spec("best[endgame=False]", seed=1)
    move = player.choose(observation)
    assert 0 <= move.cell < 3600 and player.pending_guess is not None
    assert player.pending_guess.explanation.figures["influence_factor"] == 1.0


@pytest.mark.parametrize("index", range(6))
def test_the_cheap_bound_is_never_below_the_figure(index):
    observation = positions()[index]
    analyzer = Analyzer()
    result = analyzer.analyze(observation)
    influence = Influence(analyzer, observation, result, result.mines)
    for cell, p in result.covered():
        if 0 < p < 1:
            assert influence.of(cell, 1 - p, upper=True) >= influence.of(cell, 1 - p) - 1e-15
