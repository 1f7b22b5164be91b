"""Seed 001's CSP: GAC over sum constraints, subset reduction (c2), pair variables (c3), end-game constraint (c4)."""

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sweeplab.core.game import Game, GameState, Move
from sweeplab.core.rules import Rules
from sweeplab.formats.position import parse_position
from sweeplab.strategies import StrategyError, make, play
from sweeplab.strategies.gac import (
    ENDGAME_CELLS,
    SumCSP,
    deduce,
    reduce_subsets,
    supported_values,
    supports_by_tuples,
)

# Paper, Figure 1/2 of "Constraints": c1: v1 + v2 + v3 = 2, c2: v1 + v2 = 1, c3: v2 + v3 = 1.
FIGURE_1 = [((1, 2, 3), 2), ((1, 2), 1), ((2, 3), 1)]
# Paper, second example: c1: v1 + v2 + v3 = 2, c2: v2 + v3 + v4 = 1.
FIGURE_2 = [((1, 2, 3), 2), ((2, 3, 4), 1)]

# Figure 1 on a board: a 1-2-1 over three covered cells (cells 3, 4, 5 are v1, v2, v3).
BOARD_FIGURE_1 = "3x2x2\n121\nHHH\n"
# Figure 2 on a board: the flags at the ends make the 3 say v1+v2+v3 = 2 and the 2 say v2+v3+v4 = 1 (cells 4..7).
BOARD_FIGURE_2 = "4x2x4\nF32F\nHHHH\n"
# Figures 4/5: four frames of two covered cells on the top row each hold one mine (the numbers below see both
# cells of their frame, the flag columns keep frames apart), and a 3x3 covered block on the right touches no
# number. 13 mines, 9 flagged: 4 left, 17 covered cells. Only the mine count shows the block is empty.
BOARD_FIGURE_4 = "15x3x13\nHHFHHFHHFHHFHHH\n13F33F33F34FHHH\n01111111112FHHH\n"
BLOCK = {y * 15 + x for x in (12, 13, 14) for y in range(3)}


def test_figure_1_gac_alone_assigns_nothing_subset_reduction_gives_v3():
    plain = deduce(FIGURE_1, subsets=False, pairs=False)
    assert plain.safe == () and plain.mines == ()  # "Our csp can not assign any values based on c1, c2 and c3"
    reduced = deduce(FIGURE_1, subsets=True, pairs=False)
    assert 3 in reduced.mines  # c1 - c2: v3 = 1
    # and propagation from v3 = 1 finishes the job: v2 = 0 (c3), v1 = 1 (c2)
    assert reduced.mines == (1, 3) and reduced.safe == (2,)


def test_subset_reduction_replaces_the_superset_by_the_difference():
    assert sorted((sorted(c), m) for c, m in reduce_subsets([((1, 2, 3), 2), ((1, 2), 1)])) == [([1, 2], 1), ([3], 1)]
    # duplicates merge, disjoint constraints stay
    assert sorted((sorted(c), m) for c, m in reduce_subsets([((1, 2), 1), ((1, 2), 1), ((5, 6), 2)])) == [
        ([1, 2], 1),
        ([5, 6], 2),
    ]


def test_figure_2_needs_pair_variables():
    without = deduce(FIGURE_2, subsets=True, pairs=False)
    assert without.safe == () and without.mines == ()  # every value finds a supporting tuple
    with_pairs = deduce(FIGURE_2, subsets=True, pairs=True)
    assert with_pairs.mines == (1,) and with_pairs.safe == (4,)  # v1 = 1, v4 = 0
    csp = with_pairs.csp
    assert "V2V3" in csp.names
    assert 2 not in csp.domain_of("V2V3")  # c4: V2V3 + v4 = 1 has no tuple with V2V3 = 2
    assert csp.domain_of("V2V3") == {1}
    assert csp.domain_of("v2") == {0, 1} and csp.domain_of("v3") == {0, 1}  # which of v2, v3 stays open


def test_pair_constraints_are_the_papers_c3_and_c4():
    csp = deduce(FIGURE_2).csp
    pv = csp.names.index("V2V3")
    as_names = {
        (tuple(sorted(csp.names[v] for v in c.scope)), c.total) for c in csp.constraints if pv in c.scope and "link" not in c.name
    }
    assert as_names == {(("V2V3", "v1"), 2), (("V2V3", "v4"), 1)}
    assert csp.domains[pv] <= set(range(3))


def test_board_figure_1_strategy_reveals_then_flags():
    obs = parse_position(BOARD_FIGURE_1)
    s = make("gac", seed=0)
    assert s.choose(obs) == Move.reveal(4)
    assert [s.choose(obs) for _ in range(2)] == [Move.flag(3), Move.flag(5)]
    c1 = make("gac", seed=0, subsets=False, pairs=False)
    move = c1.choose(obs)
    assert move.kind == "reveal" and c1.pending_guess is not None and c1.pending_guess.kind == "random"


def test_board_figure_2_strategy_uses_pair_variables():
    obs = parse_position(BOARD_FIGURE_2)
    s = make("gac", seed=0)
    assert s.choose(obs) == Move.reveal(7)  # v4 safe
    assert s.choose(obs) == Move.flag(4)  # v1 a mine
    no_pairs = make("gac", seed=0, pairs=False)
    no_pairs.choose(obs)
    assert no_pairs.pending_guess is not None and no_pairs.pending_guess.kind == "random"


def test_figure_4_endgame_constraint_clears_the_block():
    obs = parse_position(BOARD_FIGURE_4)
    assert len(obs.covered()) == 17 <= ENDGAME_CELLS and obs.mines_left == 4
    plain = make("gac", seed=0)
    plain.choose(obs)
    assert plain.pending_guess is not None and plain.pending_guess.kind == "random"
    end = make("gac-endgame", seed=0)
    moves = [end.choose(obs) for _ in range(len(BLOCK))]
    assert {m.cell for m in moves} == BLOCK and all(m.kind == "reveal" for m in moves)
    assert end.pending_guess is None


def test_endgame_constraint_waits_for_twenty_cells():
    # the same picture with the block widened to 4 columns x 3 rows + 8 frame cells = 20 covered: still applied;
    # with 5 columns (23 covered) it is not, and the strategy has to guess.
    def board(extra_columns: int) -> str:
        rows = ["HHFHHFHHFHHF", "13F33F33F34F", "01111111112F"]
        width = 12 + extra_columns
        return f"{width}x3x13\n" + "\n".join(r + "H" * extra_columns for r in rows) + "\n"

    obs20 = parse_position(board(4))
    assert len(obs20.covered()) == 20
    s = make("gac-endgame", seed=0)
    assert s.choose(obs20).kind == "reveal" and s.pending_guess is None
    obs23 = parse_position(board(5))
    s = make("gac-endgame", seed=0)
    s.choose(obs23)
    assert s.pending_guess is not None and s.pending_guess.kind == "random"


def test_first_move_is_a_random_cell():
    obs = Game(Rules(9, 9, 10, "zero"), 1).observation()
    moves = set()
    for seed in range(6):
        s = make("gac", seed=seed)
        moves.add(s.choose(obs))
        assert s.pending_guess is not None and s.pending_guess.kind == "first"
    assert len(moves) > 1


@pytest.mark.parametrize("name", ["gac", "gac-endgame"])
def test_loses_only_on_guesses_and_flags_only_mines(name):
    for seed in range(15):
        game = Game(Rules(9, 9, 10, "zero"), seed)
        s = make(name, seed=seed)
        play(s, game)
        flagged = set(game.observation().flagged())
        assert flagged <= set(game.mine_cells())
        if game.state is GameState.LOST:
            assert s.guesses and s.guesses[-1].outcome is False and s.guesses[-1].cell == game.exploded


def test_endgame_solves_more_than_plain_on_the_same_games():
    wins = {}
    for name in ("gac", "gac-endgame"):
        wins[name] = sum(play(make(name, seed=s), Game(Rules(9, 9, 10, "zero"), s)).state is GameState.WON for s in range(60))
    assert wins["gac-endgame"] >= wins["gac"]


domains = st.lists(st.sets(st.integers(0, 3), min_size=1, max_size=4), min_size=1, max_size=5)


@settings(max_examples=150, deadline=None)
@given(domains, st.data())
def test_partial_sum_gac_equals_tuple_gac(doms, data):
    coefficients = data.draw(st.lists(st.sampled_from([1, -1]), min_size=len(doms), max_size=len(doms)))
    total = data.draw(st.integers(-6, 10))
    assert supported_values(doms, coefficients, total) == supports_by_tuples(doms, coefficients, total)


def test_tuple_gac_has_a_domain_size_guard():
    with pytest.raises(ValueError, match="tuple limit"):
        supports_by_tuples([{0, 1}] * 20, [1] * 20, 10, limit=1000)


def _layout_constraints(width, height, mines, revealed):
    cells = width * height
    neighbours = {
        c: [
            (c // width + dy) * width + c % width + dx
            for dy in (-1, 0, 1)
            for dx in (-1, 0, 1)
            if (dx or dy) and 0 <= c % width + dx < width and 0 <= c // width + dy < height
        ]
        for c in range(cells)
    }
    cons = []
    for c in revealed:
        covered = [n for n in neighbours[c] if n not in revealed]
        if covered:
            cons.append((tuple(covered), sum(n in mines for n in covered)))
    return cons


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_deductions_are_sound(data):
    width, height = 4, 3
    cells = list(range(width * height))
    mines = set(data.draw(st.lists(st.sampled_from(cells), unique=True, max_size=5)))
    safe_cells = [c for c in cells if c not in mines]
    revealed = (
        set(data.draw(st.lists(st.sampled_from(safe_cells), unique=True, max_size=len(safe_cells)))) if safe_cells else set()
    )
    cons = _layout_constraints(width, height, mines, revealed)
    found = deduce(cons)
    assert found.consistent
    variables = sorted({c for cs, _ in cons for c in cs})
    solutions = []
    for values in itertools.product((0, 1), repeat=len(variables)):
        assign = dict(zip(variables, values, strict=True))
        if all(sum(assign[c] for c in cs) == m for cs, m in cons):
            solutions.append(assign)
    for c in found.safe:
        assert all(s[c] == 0 for s in solutions)
    for c in found.mines:
        assert all(s[c] == 1 for s in solutions)


def test_sum_csp_detects_a_wipe_out():
    csp = SumCSP()
    a = csp.add_variable("a", (0, 1))
    csp.add_constraint((a,), 2)
    assert csp.propagate() is False


def test_unknown_option_is_refused():
    with pytest.raises(StrategyError, match="takes no option"):
        make("gac-endgame", seed=0, depth=3)
