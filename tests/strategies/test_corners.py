import itertools
import time

from hypothesis import given, settings
from hypothesis import strategies as st

from sweeplab.core.game import Game, GameState, Move
from sweeplab.core.geometry import Board
from sweeplab.core.observation import COVERED, Observation
from sweeplab.core.rules import Rules
from sweeplab.formats.position import parse_position
from sweeplab.strategies import make, play
from sweeplab.strategies.corners import CORNER_MOVES, count_universes, infer


def brute_force(observation):
    """Every placement of the mines left over the covered cells that fits every number: (total, per-cell counts)."""
    view, neighbours = observation.view, observation.board.neighbours
    covered = observation.covered()
    flags = set(observation.flagged())
    total, counts = 0, dict.fromkeys(covered, 0)
    for mines in itertools.combinations(covered, observation.mines_left):
        layout = flags | set(mines)
        if all(sum(n in layout for n in neighbours[c]) == v for c, v in enumerate(view) if v >= 0):
            total += 1
            for m in mines:
                counts[m] += 1
    return total, counts


def test_corner_order_when_every_corner_shows_a_number():
    # one mine diagonally inside each corner: every corner shows 1 and nothing is certain
    rules = Rules(10, 10, 4, "unsafe")
    layout = [11, 88, 18, 81]
    game = Game(rules, layout=layout)
    player = make("corners", seed=0)
    moves = []
    for _ in range(4):
        move = player.choose(game.observation())
        moves.append(move)
        game.apply(move)
    assert moves == [Move.reveal(0), Move.reveal(99), Move.reveal(9), Move.reveal(90)]
    assert player.pending_guess.kind == "unconstrained"  # the fourth corner; only the very first is "first"
    # all four mines now sit next to the open corners, so every other cell is certainly safe: no guess
    fifth = player.choose(game.observation())
    assert fifth == Move.reveal(2)


def test_a_corner_showing_zero_ends_the_corner_openings():
    board = Board(10, 10)
    view = [COVERED] * 100
    view[0], view[1], view[10], view[11] = 1, 1, 1, 1
    player = make("corners", seed=0)
    assert player.next_corner(Observation(board, 10, tuple(view), moves=3)) == 99
    view[0] = 0
    assert player.next_corner(Observation(board, 10, tuple(view), moves=3)) is None
    view[0], view[99] = 1, 0  # any corner showing 0 ends them
    assert player.next_corner(Observation(board, 10, tuple(view), moves=3)) is None


def test_corner_openings_stop_after_twelve_moves():
    view = [COVERED] * 100
    view[0] = 1  # (0,0) shows 1: nothing certain anywhere
    board = Board(10, 10)
    early = make("corners", seed=0).choose(Observation(board, 10, tuple(view), moves=CORNER_MOVES - 1))
    late = make("corners", seed=0).choose(Observation(board, 10, tuple(view), moves=CORNER_MOVES))
    assert early == Move.reveal(99)
    # after 12 moves: fewest mines across universes; 1, 10, 11 hold a mine in 1/3 of them, the other cells in 9/96
    assert late == Move.reveal(2)


def test_certain_safe_cells_come_before_corners():
    # 1 H 1 / 2 H H / H H H ...: superset reduction proves (3,0), (2,1), (3,1) safe; no corner is opened
    obs = parse_position("5x3x3\n1H1HH\n2HHHH\nHHHHH\n")
    player = make("corners", seed=0)
    move = player.choose(obs)
    assert move == Move.reveal(3) and player.pending_guess is None


def test_superset_reduction_within_manhattan_distance_two():
    # the 1 at (0,0) sees {(1,0),(1,1)}, a subset of what the 1 at (2,0) sees (distance 2): the rest of it is safe
    near = parse_position("5x3x3\n1H1HH\n2HHHH\nHHHHH\n")
    assert infer(near) == ({3, 7, 8}, set())
    # the same subset with the 1 at (2,1), Manhattan distance 3: the paper's reduction does not pair them ...
    far = parse_position("5x3x3\n1HHHH\n2H1HH\nHHHHH\n")
    assert infer(far) == (set(), set())
    # ... though the cells are safe, which the universe count then finds
    universes = count_universes(far)
    assert {c for c, k in universes.mines.items() if k == 0} == {2, 3, 8, 11, 12, 13}
    assert make("corners", seed=0).choose(Observation(far.board, far.mines, far.view, moves=20)) == Move.reveal(2)


def test_flag_rule_and_zero_rule():
    # 1 H on a 2x1 board: the H is a mine and is flagged; with the flag, the other number's cells are safe
    assert make("corners", seed=0).choose(parse_position("2x1x1\n1H\n")) == Move.flag(1)
    assert infer(parse_position("3x2x1\n1HH\nFHH\n")) == ({1, 4}, set())


def test_universes_choice_fewest_mines():
    # 1 2 H / H H H / H H H with 2 mines, after the corner phase: no rule applies; count the universes
    obs = parse_position("4x3x3\n12HH\nHHHH\nHHHH\n")
    obs = Observation(obs.board, obs.mines, obs.view, moves=20)
    total, counts = brute_force(obs)
    universes = count_universes(obs)
    assert universes.total == total and universes.mines == counts
    best = min(counts.values())
    expected = min(c for c, k in counts.items() if k == best)  # ties: first in row-major order
    player = make("corners", seed=0)
    assert player.choose(obs) == Move.reveal(expected)
    assert player.pending_guess.kind in ("educated", "unconstrained")
    assert abs(player.pending_guess.safety - (1 - best / total)) < 1e-12


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_universe_count_matches_brute_force(data):
    width, height = data.draw(st.integers(3, 4)), data.draw(st.integers(2, 4))
    cells = width * height
    mines = data.draw(st.integers(1, min(4, cells - 2)))
    layout = data.draw(st.lists(st.integers(0, cells - 1), min_size=mines, max_size=mines, unique=True))
    game = Game(Rules(width, height, mines, "unsafe"), layout=layout)
    safe = [c for c in range(cells) if c not in layout]
    for c in data.draw(st.lists(st.sampled_from(safe), max_size=4)):
        if not game.over and game.observation().view[c] == COVERED:
            game.reveal(c)
    obs = game.observation()
    total, counts = brute_force(obs)
    universes = count_universes(obs)
    assert universes.total == total
    assert universes.mines == counts


def test_guard_on_a_large_board_returns_quickly():
    # expert-sized board, rows 1, 4, 7, 10, 13 show 1s (x = 1..28): thousands of ways to fill each band, their
    # product in all; every number sees 6 covered cells, so no set nests in another and no rule applies
    width, height = 30, 16
    view = [COVERED] * (width * height)
    for y in (1, 4, 7, 10, 13):
        for x in range(1, width - 1):
            view[y * width + x] = 1
    obs = Observation(Board(width, height), 60, tuple(view), moves=50)
    player = make("corners", seed=0)
    start = time.process_time()
    move = player.choose(obs)
    assert time.process_time() - start < 5.0
    assert player.fallbacks == 1
    assert move.kind == "reveal" and obs.view[move.cell] == COVERED
    # the fallback's local risk: a frontier cell is 1/6, an unconstrained one 60/340 = 0.18
    assert move.cell == 0


def test_wins_on_the_papers_board():
    wins = sum(play(make("corners", seed=s), Game(Rules(10, 10, 10, "unsafe"), s)).state is GameState.WON for s in range(40))
    assert wins >= 20  # measured 88/100 on this board; a broken agent wins far fewer
