"""PSEQ's rule: its S, E and Q figures against brute force over every layout, its tie order, its choices."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sweeplab.analysis import Analyzer
from sweeplab.core.game import Game
from sweeplab.core.observation import COVERED, Observation
from sweeplab.core.rules import Rules
from sweeplab.formats.position import parse_position
from sweeplab.strategies.base import play
from sweeplab.strategies.pseq import NOISE, Outcomes, PseqStrategy, largest_of, rule
from sweeplab.strategies.registry import make_spec
from tests.analysis.compiled import needs_loops
from tests.strategies.best.brute import consistent_layouts

#: From best's look-ahead tests: several frontier kinds, cells no number touches, and a 9-mine global count.
POSITION = "7x7x9\n1100000\nH100000\n1111100\n112H211\nHH3H3HH\nHHHHHHH\nHHHHHHH\n"
LIVING = "6x4x6\nH2HH10\nHH3210\nHHH100\nHHH100\n"


def brute_figures(observation: Observation, cell: int) -> tuple[float, float, float]:
    """S, E and Q from the layouts themselves: per number the cell shows, the layouts where it is safe and shows it,
    and the other covered cells that are a mine in none of them."""
    layouts = consistent_layouts(observation)
    board = observation.board
    covered = [c for c, v in enumerate(observation.view) if v == COVERED and c != cell]
    groups: dict[int, list[frozenset[int]]] = {}
    for mines in layouts:
        if cell not in mines:
            groups.setdefault(sum(n in mines for n in board.neighbours[cell]), []).append(mines)
    s = e = 0.0
    safe_layouts = sum(len(g) for g in groups.values())
    q = 0.0
    for group in groups.values():
        p = len(group) / len(layouts)
        proved = sum(1 for c in covered if not any(c in m for m in group))
        s += p if proved else 0.0
        e += p * proved
        q -= len(group) / safe_layouts * math.log2(len(group) / safe_layouts)
    return s, e, q


def check_figures(observation: Observation, use_kernel: bool | None = None) -> None:
    strategy = PseqStrategy(0)
    if use_kernel is False:
        strategy.analyzer = Analyzer(use_kernel=False)
    result = strategy.analyzer.analyze(observation)
    cells = [c for c, p in result.covered() if p < 1.0]
    figures = Outcomes(strategy, observation, result).figures(cells)
    for cell in cells:
        assert figures[cell] == pytest.approx(brute_figures(observation, cell), abs=1e-9), observation.board.name(cell)


@pytest.mark.parametrize("text", [POSITION, LIVING])
@pytest.mark.parametrize("use_kernel", [None, False], ids=["kernel", "python"])
def test_figures_equal_brute_force(text, use_kernel):
    check_figures(parse_position(text), use_kernel)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), moves=st.integers(1, 6))
def test_figures_equal_brute_force_on_played_positions(seed, moves):
    """Positions of real 5x5 games with 6 mines, a few moves in (each cell's kind shares one computation: a kind
    that mixed two cells with different figures would fail here)."""
    game = Game(Rules(5, 5, 6, "safe"), seed)
    player = make_spec("exact", seed=seed)
    while not game.over and game.moves < moves:
        game.apply(player.choose(game.observation()))
    if not game.over:
        check_figures(game.observation())


@needs_loops
@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10**6), board=st.sampled_from([(9, 9, 10), (16, 16, 40), (30, 16, 99)]), moves=st.integers(1, 12))
def test_c_figures_equal_the_python_ones(seed, board, moves):
    """_figures.c (layouts in long double, kinds in C) gives every tied cell's figures as the Python path does
    (exact integers) on positions of real games, cells no number touches included."""
    game = Game(Rules(*board, "safe"), seed)
    player = make_spec("exact", seed=seed)
    while not game.over and game.moves < moves:
        game.apply(player.choose(game.observation()))
    if game.over:
        return
    observation = game.observation()
    strategy = PseqStrategy(0)
    result = strategy.analyzer.analyze(observation)
    cells = [c for c, p in result.covered() if p < 1.0]
    in_c = Outcomes(strategy, observation, result)._in_c(cells)
    assert in_c is not None
    with pytest.MonkeyPatch.context() as m:
        m.setattr(rule, "_FIGURES", None)
        in_python = Outcomes(strategy, observation, result).figures(cells)
    for cell in cells:
        assert in_c[cell] == pytest.approx(in_python[cell], rel=1e-12, abs=1e-12), observation.board.name(cell)


def test_largest_keeps_near_ties_in_pseq_s_visiting_order():
    values = {1: 1.0, 2: 1.0 + 1e-10, 3: 0.5, 4: 1.0 - 1e-10}
    assert largest_of([1, 2, 3, 4], [values[c] for c in (1, 2, 3, 4)]) == [2, 4]  # a strictly larger value starts the list again
    assert largest_of([2, 1, 3, 4], [values[c] for c in (2, 1, 3, 4)]) == [2, 1, 4]  # after it, values within 1e-8 join
    assert largest_of([3], [values[3]]) == [3]


def test_largest_of_lets_rounding_noise_tie_and_keeps_the_fast_path_exact():
    cells = [1, 2, 3, 4]
    noisy = [0.5, 0.5 * (1 + 3e-16), 0.5 * (1 + 1e-16), 0.5 * (1 + 6e-16)]  # one figure, summed four ways
    assert largest_of(cells, noisy) == [4]  # strictly larger, last bit by last bit
    assert largest_of(cells, noisy, NOISE) == cells
    assert largest_of(cells, [0.5, 0.5 * (1 + 1e-9), 0.4, 0.5], NOISE) == [2, 4]  # above the noise: starts again
    assert largest_of(cells, [0.2, 0.7, 0.1, 0.7]) == [2, 4]  # the fast path: exact ties


def test_the_guess_is_the_lowest_probability_then_s():
    """On POSITION the lowest mine probability is shared; PSEQ's S decides among those cells."""
    observation = parse_position(POSITION)
    strategy = PseqStrategy(0)
    result = strategy.analyzer.analyze(observation)
    move = strategy.pick_guess(observation, result)
    low = min(p for _, p in result.covered())
    tied = [c for c, p in result.covered() if p <= low * (1 + 1e-8)]
    assert move.cell in tied
    best_s = max(brute_figures(observation, c)[0] for c in tied)
    assert brute_figures(observation, move.cell)[0] == pytest.approx(best_s)
    assert strategy.pending_guess is not None and strategy.pending_guess.explanation is not None


def test_games_are_deterministic_and_open_the_corner():
    rules = Rules(9, 9, 10, "safe")
    records = []
    for _ in range(2):
        game = Game(rules, 4)
        player = make_spec("pseq", seed=11)
        play(player, game)
        records.append((game.state, game.moves, [g.cell for g in player.guesses]))
        assert player.guesses[0].cell == 0 and player.guesses[0].kind == "first"
    assert records[0] == records[1]


def test_candidates_are_the_cells_the_guess_is_drawn_from():
    """``candidates`` is what pick_guess draws from: every seed's guess lies in it, the counts after each criterion
    narrow down from the cells of lowest probability, and the set left is the cells of highest S among those."""
    observation = parse_position(POSITION)
    strategy = PseqStrategy(0)
    result = strategy.analyzer.analyze(observation)
    chosen, tied = strategy.candidates(observation, result)
    low = min(p for _, p in result.covered())
    assert tied[0] == sum(1 for _, p in result.covered() if p <= low * (1 + 1e-8))
    assert tied == sorted(tied, reverse=True) and tied[-1] == len(chosen)
    best_s = max(brute_figures(observation, c)[0] for c, p in result.covered() if p <= low * (1 + 1e-8))
    assert all(brute_figures(observation, c)[0] == pytest.approx(best_s) for c in chosen)
    for seed in range(8):
        player = PseqStrategy(seed)
        assert player.pick_guess(observation, player.analyzer.analyze(observation)).cell in chosen


@needs_loops
@pytest.mark.parametrize(("board", "games"), [((9, 9, 10), 40), ((16, 16, 40), 25), ((30, 16, 99), 15)])
def test_the_c_game_loop_guesses_as_pick_guess_does(board, games):
    """The C game loop's own pseq guesses (pseq_choose in _figures.c, ties drawn from the strategy's generator) make
    every game move for move as pick_guess makes it (the loop turned off by a choose on the instance), with the same
    guess records, and the loop's guesses are explained as pick_guess explains them."""
    rules = Rules(*board, "safe")
    drawn = 0
    for seed in range(games):
        runs = []
        for in_loop in (True, False):
            player = make_spec("pseq", seed=seed)
            if not in_loop:
                player.choose = player.choose  # an instance attribute: play() leaves the loop off
            game = play(player, Game(rules, seed))
            runs.append((game.state, game.history, [(g.cell, g.kind, g.safety, g.outcome, g.move) for g in player.guesses]))
            if in_loop:
                loop_player = player
            else:
                python_player = player
        assert runs[0] == runs[1], f"seed {seed}"
        for made, picked in zip(loop_player.guesses, python_player.guesses, strict=True):
            assert made.explanation is not None and picked.explanation is not None
            assert made.explanation.to_dict() == picked.explanation.to_dict()
            drawn += bool(picked.explanation.figures.get("random"))
    assert drawn  # some guess was a draw among tied cells, so the generators were read alike


@needs_loops
def test_a_tie_on_figures_of_zero_is_not_pruned_by_their_rounding():
    """Expert game 6,204 of root seed 0: at move 40 two cells tie on P with S, E and Q all 0 (a draw); the figures'
    rounding once made the loop's pruning (a kind that cannot reach the best S) leave the second one out, and the
    loop guessed without drawing. The loop and pick_guess must play it alike."""
    from sweeplab.bench.runner import game_seeds

    game_seed, player_seed = game_seeds(0, 6204)
    runs = []
    for in_loop in (True, False):
        player = make_spec("pseq", seed=player_seed)
        if not in_loop:
            player.choose = player.choose
        game = play(player, Game(Rules(30, 16, 99, "safe"), game_seed))
        runs.append((game.state, game.history, [(g.cell, g.safety, g.move) for g in player.guesses]))
    assert runs[0] == runs[1]
