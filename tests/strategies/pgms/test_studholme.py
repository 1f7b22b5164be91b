"""Seed 000's CSPStrategy (sweeplab.strategies.pgms.studholme): steps 1-7 on hand-built positions where the paper dictates
the move (steps 1-3 alone are tested in test_studholme_steps.py)."""

from __future__ import annotations

import itertools
import time
from math import comb

import pytest

from sweeplab.analysis.exact.constraints import constraints_from
from sweeplab.core.game import Game, GameState, Move
from sweeplab.core.geometry import Board
from sweeplab.core.observation import COVERED, FLAGGED, Observation
from sweeplab.core.rules import Rules, make_rules
from sweeplab.strategies import make, play
from sweeplab.strategies.pgms.studholme import CSPStrategy
from sweeplab.strategies.pgms.studholme_steps import CoupledSet, coupled_sets, prune_by_mine_count, simplify, solve_coupled_set


def grid(text: str) -> tuple[Observation, set[int]]:
    """A position from a picture: M a covered mine, H a covered safe cell, F a flagged mine, '.' a revealed cell
    (its number is computed from the mines). Returns the observation and the mine cells."""
    rows = [r.strip() for r in text.strip().splitlines()]
    board = Board(len(rows[0]), len(rows))
    cells = "".join(rows)
    mines = {i for i, ch in enumerate(cells) if ch in "MF"}
    view = []
    for i, ch in enumerate(cells):
        if ch in "MH":
            view.append(COVERED)
        elif ch == "F":
            view.append(FLAGGED)
        else:
            view.append(sum(n in mines for n in board.neighbours[i]))
    return Observation(board, len(mines), tuple(view)), mines


def exact_clear_probability(observation: Observation, cell: int) -> float:
    """Brute force over every layout of the covered cells that fits the numbers and the total: the weighted truth."""
    covered = observation.covered()
    problem = constraints_from(observation)
    fits = clear = 0
    for mines in itertools.combinations(covered, problem.mines_left):
        chosen = set(mines)
        if all(sum(c in chosen for c in con.cells) == con.mines for con in problem.constraints):
            fits += 1
            clear += cell not in chosen
    return clear / fits


# ----- the strategy -----
def test_starts_in_the_top_left_corner():
    s = make("cspstrategy", seed=7)
    observation = Game(make_rules("expert", "unsafe"), 1).observation()
    assert s.choose(observation) == Move.reveal(0)
    assert s.pending_guess.kind == "first" and s.pending_guess.safety == pytest.approx(1 - 99 / 480)


CRAPS_AND_CERTAIN = """
MHF.FMM.
..F.FHHM
....FHH.
"""


def test_craps_shoot_is_taken_before_a_certain_safe_elsewhere():
    # Left: (0,0)/(1,0) hold one mine, seen only by numbers that see both, walled in by flags: a 50/50 no future
    # information can change. Right: the 2 at (7,0) and the 1 at (7,2) make (6,2) safe, which only step 3's
    # enumeration finds. The paper does step 5 before step 4, so the craps shoot comes first.
    observation, _ = grid(CRAPS_AND_CERTAIN)
    board = observation.board
    problem = constraints_from(observation)
    safe, mines, rest = simplify((c.cells, c.mines) for c in problem.constraints)
    assert not safe and not mines
    right = next(solve_coupled_set(g) for g in coupled_sets(rest) if board.index(7, 1) in {c for cs, _ in g for c in cs})
    assert right.mine_solutions(board.index(6, 2)) == 0
    for seed in range(6):
        s = make("cspstrategy", seed=seed)
        move = s.choose(observation)
        assert move.kind == "reveal" and move.cell in (board.index(0, 0), board.index(1, 0))
        assert s.pending_guess.kind == "craps" and s.pending_guess.safety == 0.5
    # once the craps shoot is settled, the certain safe (6,2) is played without a guess
    settled, _ = grid(CRAPS_AND_CERTAIN.replace("MHF", "F.F"))
    s = make("cspstrategy", seed=0)
    moves = [s.choose(settled)]
    while s._queue:
        moves.append(s._queue.popleft())
    assert Move.reveal(board.index(6, 2)) in moves and Move.flag(board.index(6, 0)) in moves
    assert s.pending_guess is None


def test_craps_needs_the_set_walled_in():
    # a 1 in the corner of a 2x2 board: its three squares hold the last mine and nothing else is covered -> craps
    s = make("cspstrategy", seed=0)
    move = s.choose(Observation(Board(2, 2), 1, (1, COVERED, COVERED, COVERED)))
    assert move.cell in (1, 2, 3) and s.pending_guess.kind == "craps" and s.pending_guess.safety == pytest.approx(2 / 3)
    # on a 3x2 board the squares (2,0) and (2,1) are covered neighbours outside the set: no craps shoot, an
    # educated guess (2/3 beats the unconstrained 1 - (2 - 1)/2)
    s = make("cspstrategy", seed=0)
    move = s.choose(Observation(Board(3, 2), 2, (1,) + (COVERED,) * 5))
    assert move.cell in (1, 3, 4) and s.pending_guess.kind == "educated" and s.pending_guess.safety == pytest.approx(2 / 3)


EQUALLY_LIKELY = """
HMHFM
.F.FM
"""


def test_educated_guess_counts_solutions_equally_not_weighted():
    # a+b = 1 (the number at (0,1)) and b+c = 1 (at (2,1)): solutions {b} (1 mine) and {a, c} (2 mines). Three mines
    # remain and two unconstrained squares: weighted by the ways to place the rest, {a,c} is twice as likely as {b}, so
    # b is clear with probability 2/3. The paper counts solutions equally: every variable 1/2, and the
    # unconstrained squares 1 - (3 - 1.5)/2 = 1/4, so it makes an educated guess with estimate 50%.
    observation, _ = grid(EQUALLY_LIKELY)
    board = observation.board
    a, b, c = board.index(0, 0), board.index(1, 0), board.index(2, 0)
    assert exact_clear_probability(observation, b) == pytest.approx(2 / 3)
    assert exact_clear_probability(observation, a) == pytest.approx(1 / 3)
    chosen = set()
    for seed in range(8):
        s = make("cspstrategy", seed=seed)
        move = s.choose(observation)
        assert s.pending_guess.kind == "educated" and s.pending_guess.safety == pytest.approx(0.5)
        chosen.add(move.cell)
    assert chosen <= {a, b, c} and len(chosen) > 1  # a tie, broken at random
    solved = solve_coupled_set([((a, b), 1), ((b, c), 1)])
    assert solved.expected_mines() == 1.5
    assert 1 - (3 - solved.expected_mines()) / 2 == 0.25
    assert solved.expected_mines() != pytest.approx((1 * comb(2, 2) + 2 * comb(2, 1)) / 3)  # the weighted mean 5/3


def test_mine_count_throws_out_solutions_and_settles_the_rest():
    # the same numbers with only one mine left (and the two far squares clear): {a, c} needs too many mines
    observation, _ = grid(EQUALLY_LIKELY.replace("HMHFM\n.F.FM", "HMHFH\n.F.FH"))
    board = observation.board
    s = make("cspstrategy", seed=0)
    first = s.choose(observation)
    moves = [first, *s._queue]
    assert s.pending_guess is None
    assert set(moves) == {
        Move.reveal(board.index(0, 0)),
        Move.reveal(board.index(2, 0)),
        Move.reveal(board.index(4, 0)),
        Move.reveal(board.index(4, 1)),
        Move.flag(board.index(1, 0)),
    }


INTERIOR = """
.F.H.M.F
HMMHMMHF
FHMHHHH.
FMMHHHM.
.HHHHHHF
FHMMMHHF
.M.HF.FF
"""


def test_unconstrained_guess_prefers_the_interior_square_most_coupled_to_the_constraints():
    observation, _ = grid(INTERIOR)
    board, view = observation.board, observation.view
    problem = constraints_from(observation)
    assert not any(board.is_edge(c) for c in problem.unconstrained)  # no corner or edge square is left
    frontier = set(problem.frontier)
    shared = {c: sum(view[n] == COVERED and n in frontier for n in board.neighbours[c]) for c in problem.unconstrained}
    most = {c for c, k in shared.items() if k == max(shared.values())}
    assert most != set(problem.unconstrained)
    for seed in range(6):
        s = make("cspstrategy", seed=seed)
        move = s.choose(observation)
        assert s.pending_guess.kind == "unconstrained" and move.cell in most


def test_unconstrained_guess_takes_a_corner_first():
    # a 1 at (0,0) seen by three squares after a first corner: the other corners are the best unconstrained guesses
    game = Game(Rules(8, 8, 10, "unsafe"), layout=[9, 20, 21, 22, 30, 40, 41, 42, 50, 51])
    s = make("cspstrategy", seed=3)
    game.apply(s.choose(game.observation()))
    observation = game.observation()
    assert observation.view[0] == 1
    move = s.choose(observation)
    assert s.pending_guess.kind == "unconstrained" and observation.board.is_corner(move.cell) and move.cell != 0
    assert s.pending_guess.safety == pytest.approx(1 - (10 - 1) / (64 - 4))


def test_plays_only_certain_moves_between_guesses_and_never_flags_a_safe_square():
    rules = Rules(8, 8, 10, "safe")
    for seed in range(25):
        s = CSPStrategy(seed=seed)
        game = play(s, Game(rules, seed))
        mines = game.mine_cells()
        guessed = {g.move for g in s.guesses}
        for i, move in enumerate(game.history):
            if move.kind == "flag":
                assert move.cell in mines
            elif move.kind == "reveal" and i not in guessed:
                assert move.cell not in mines
        if game.state is GameState.LOST:
            assert s.guesses[-1].outcome is False and s.guesses[-1].cell == game.exploded
        assert s.guesses[0].kind == "first" and s.guesses[0].cell == 0
        assert {g.kind for g in s.guesses} <= {"first", "craps", "educated", "unconstrained"}
        assert s.largest_set is None or s.largest_set.degrees_of_freedom == s.largest_set.variables - s.largest_set.constraints


def test_expert_games_finish_quickly_even_with_a_tiny_node_cap():
    rules = make_rules("expert", "safe")
    start = time.process_time()
    for seed in range(3):
        s = make("cspstrategy", seed=seed, node_cap=50)
        game = play(s, Game(rules, seed))
        assert game.over
    assert time.process_time() - start < 5


def test_rejects_a_bad_node_cap():
    with pytest.raises(ValueError, match="node_cap"):
        make("cspstrategy", seed=0, node_cap=0)


# ----- the paper's alternatives, as options -----
def test_start_centre_opens_the_centre_square():
    s = make("cspstrategy", seed=7, start="centre")
    observation = Game(make_rules("expert", "unsafe"), 1).observation()
    assert s.choose(observation) == Move.reveal(observation.board.index(15, 8))
    with pytest.raises(Exception, match="start must be one of corner, centre"):
        make("cspstrategy", start="middle")


def test_overlap_min_takes_the_least_coupled_interior_square():
    observation, _ = grid(INTERIOR)
    board, view = observation.board, observation.view
    problem = constraints_from(observation)
    frontier = set(problem.frontier)
    shared = {c: sum(view[n] == COVERED and n in frontier for n in board.neighbours[c]) for c in problem.unconstrained}
    coupled = {c: k for c, k in shared.items() if k > 0}
    fewest = {c for c, k in coupled.items() if k == min(coupled.values())}
    assert fewest and max(shared.values()) > min(coupled.values())
    for seed in range(6):
        s = make("cspstrategy", seed=seed, overlap="min")
        move = s.choose(observation)
        assert s.pending_guess.kind == "unconstrained" and move.cell in fewest


def test_prune_upper_keeps_the_solutions_that_leave_too_many_mines():
    def fake(counts):
        return CoupledSet((1, 2, 3, 4), 2, dict(counts), {k: [0, 0, 0, 0] for k in counts}, sum(counts.values()), 1)

    a, b = fake({2: 1, 3: 1, 4: 1}), fake({2: 5, 3: 2, 4: 1})
    # 9 mines left, 1 unconstrained square: only 4 + 4 mines in the sets leave few enough for it (the lower bound)
    assert [sorted(s.counts) for s in prune_by_mine_count([a, b], 9, 1)] == [[4], [4]]
    assert [sorted(s.counts) for s in prune_by_mine_count([a, b], 9, 1, lower=False)] == [[2, 3, 4], [2, 3, 4]]
    # the upper bound (the paper's example) applies either way
    assert [sorted(s.counts) for s in prune_by_mine_count([a, b], 5, 0, lower=False)] == [[2, 3], [2, 3]]


@pytest.mark.parametrize("options", [{"prune": "upper"}, {"prune": "none"}, {"overlap": "min"}, {"start": "centre"}])
def test_every_option_plays_legal_games(options):
    for seed in range(8):
        s = make("cspstrategy", seed=seed, **options)
        game = play(s, Game(Rules(9, 9, 10, "safe"), seed))
        assert game.state in (GameState.WON, GameState.LOST)
