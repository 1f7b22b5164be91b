"""The exact engine against brute force over every layout, golden positions, inconsistency and the budget."""

import time
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from sweeplab.analysis.constraints import constraints_from
from sweeplab.analysis.exact import (
    OVERHEAD_SECONDS,
    Analyzer,
    Budget,
    analyze,
    build_components,
    check_consistency,
    is_consistent,
)
from sweeplab.core.errors import InconsistentPositionError
from sweeplab.core.game import Game, GameState
from sweeplab.core.geometry import Board
from sweeplab.core.observation import COVERED, FLAGGED, Observation
from sweeplab.core.rules import Rules
from sweeplab.formats.position import parse_position
from tests.analysis.brute import brute_force


@st.composite
def played_positions(draw):
    """Positions from real play on random small boards: random reveals of safe cells, some flags on mines."""
    w, h = draw(st.integers(1, 6)), draw(st.integers(1, 5))
    m = draw(st.integers(0, w * h))
    game = Game(Rules(w, h, m, "unsafe"), draw(st.integers(0, 2**32)))
    mines = game.mine_cells()
    for _ in range(draw(st.integers(0, 10))):
        covered = game.observation().covered()
        if game.over or not covered:
            break
        c = draw(st.sampled_from(covered))
        if c in mines:
            if draw(st.booleans()):
                game.flag(c)
        else:
            game.reveal(c)
    assume(not game.over)
    return game.observation()


@st.composite
def arbitrary_positions(draw):
    """Arbitrary views: any mix of numbers, flags and covered cells; consistent or not."""
    w, h = draw(st.integers(1, 5)), draw(st.integers(1, 5))
    view = tuple(
        draw(st.lists(st.sampled_from([COVERED, COVERED, COVERED, FLAGGED, 0, 1, 2, 3]), min_size=w * h, max_size=w * h))
    )
    mines = draw(st.integers(0, w * h))
    return Observation(Board(w, h), mines, view)


def _check_against_brute_force(obs):
    assume(len(obs.covered()) <= 16)
    expected = brute_force(obs)
    if expected is None:
        with pytest.raises(InconsistentPositionError):
            analyze(obs)
        assert not check_consistency(obs).consistent
        return
    layouts, probs = expected
    result = analyze(obs)
    assert result.exact and result.error == 0
    assert result.layouts == layouts
    for cell, p in probs.items():
        assert result.fraction(cell) == p, (cell, result.fraction(cell), p)
        assert result.probability(cell) == pytest.approx(float(p))
    assert set(result.safe) == {c for c, p in probs.items() if p == 0}
    assert set(result.mines) == {c for c, p in probs.items() if p == 1}
    covered = result.covered()
    assert [c for c, _ in covered] == list(obs.covered())
    assert all(p == result.probability(c) for c, p in covered)
    if covered:  # lowest() reads the same floats per super-cell
        best, cells = result.lowest(1e-12)
        assert best == min(p for _, p in covered)
        assert sorted(cells) == [c for c, p in covered if p <= best + 1e-12]
    listed = result.supercells()  # every cell a number touches, once, at the probability probability() gives
    assert result.supercells() is listed
    touched = [c for _, cells in listed for c in cells]
    assert sorted(touched) == sorted(c for c in obs.covered() if c not in result.unconstrained)
    assert all(p == result.probability(c) for p, cells in listed for c in cells)
    consistency = check_consistency(obs)
    assert consistency.consistent
    witness = consistency.witness
    assert len(witness) == obs.mines and set(obs.flagged()) <= witness
    for c, v in enumerate(obs.view):
        if v >= 0:
            assert c not in witness and sum(n in witness for n in obs.board.neighbours[c]) == v


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(played_positions())
def test_exact_equals_brute_force_on_played_positions(obs):
    _check_against_brute_force(obs)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(arbitrary_positions())
def test_exact_equals_brute_force_on_arbitrary_positions(obs):
    _check_against_brute_force(obs)


def test_one_two_one():
    # the classic 1-2-1 along a wall: the cells under the 1s are mines, the one under the 2 is safe
    for text in ("3x2x2\n121\nHHH\n", "3x3x3\n121\nHHH\nHHH\n"):
        obs = parse_position(text)
        r = analyze(obs)
        assert (r.fraction(3), r.fraction(4), r.fraction(5)) == (1, 0, 1)
        assert set(r.safe) >= {4} and set(r.mines) >= {3, 5}
    # with a third row, the one remaining mine is uniform over the three unconstrained cells
    assert r.unconstrained_probability == pytest.approx(1 / 3)


def test_fifty_fifty_is_a_craps_shoot():
    # two covered cells at the right edge sharing one mine, walled in by revealed numbers
    obs = parse_position("3x2x1\n01H\n01H\n")
    r = analyze(obs)
    assert r.fraction(2) == Fraction(1, 2) and r.fraction(5) == Fraction(1, 2)
    assert len(r.craps) == 1 and set(r.craps[0].cells) == {2, 5} and r.craps[0].safety == 0.5


def test_not_a_craps_shoot_when_a_covered_neighbour_is_outside():
    obs = parse_position("4x2x2\n01HH\n01HH\n")
    assert analyze(obs).craps == ()


def test_global_mine_count_decides():
    # seed 001's Figure 5 idea: the 1 holds the only mine, so the count alone makes every other cell safe
    obs = parse_position("3x3x1\n1HH\nHHH\nHHH\n")
    r = analyze(obs)
    frame = {1, 3, 4}
    for c in obs.covered():
        assert r.fraction(c) == (Fraction(1, 3) if c in frame else 0)
    assert set(r.safe) == set(obs.covered()) - frame
    assert r.unconstrained_probability == 0 and r.layouts == 3
    # with two mines the same cells are no longer safe: the count, not the numbers, decided
    r = analyze(parse_position("3x3x2\n1HH\nHHH\nHHH\n"))
    assert r.fraction(2) == Fraction(1, 5) and r.safe == ()


def test_count_weighting_differs_from_equal_solutions():
    # a 1 touching two cells, 3 unconstrained cells, 2 mines: solutions are not equally likely
    obs = parse_position("3x2x2\n1HH\nHHH\n")
    r = analyze(obs)
    assert r.layouts == brute_force(obs)[0]
    assert sum(r.probability(c) for c in obs.covered()) == pytest.approx(2)


def test_inconsistent_positions_name_a_number():
    # the 2 at (0, 0) needs both cells below it; the 1 beside it allows only one of them
    obs = parse_position("4x2x2\n2111\nHHHH\n")
    with pytest.raises(InconsistentPositionError, match=r"the 2 at \(0, 0\) cannot hold together with the numbers"):
        analyze(obs)
    result = check_consistency(obs)
    assert not result.consistent and result.witness is None and "the 2 at (0, 0)" in result.reason
    assert is_consistent(obs) == (False, None)
    # two numbers over the same covered cells that disagree
    obs = parse_position("3x2x2\nH1H\nH3H\n")
    with pytest.raises(InconsistentPositionError, match=r"see the same covered cells but need"):
        analyze(obs)
    # the mine count: one mine is forced, two remain, nowhere else to put the second
    obs = parse_position("2x1x2\n1H\n")
    with pytest.raises(InconsistentPositionError, match="need between 1 and 1 mines in all, but 2 remain"):
        analyze(obs)
    assert not check_consistency(obs).consistent
    assert is_consistent(parse_position("3x1x2\n1HH\n"))[0]


def test_inconsistency_names_its_cells_for_a_board_to_show():
    """``cells`` holds the numbers to blame, the named one first (the web analyser marks it on the board)."""
    symbols = {"H": COVERED, "F": FLAGGED}

    def unchecked(text: str) -> Observation:  # parse_position refuses local contradictions itself
        header, *rows = text.split()
        width, height, mines = (int(v) for v in header.split("x"))
        return Observation(
            Board(width, height), mines, tuple(symbols[ch] if ch in symbols else int(ch) for row in rows for ch in row)
        )

    cases = [
        ("4x2x2 2111 HHHH", (0,)),  # joint: the 2 at (0, 0) first, then the numbers it conflicts with
        ("3x1x1 2HH", (0,)),  # local: more mines than covered neighbours
        ("3x2x2 1F1 FHH", (0,)),  # local: more flags than the number
        ("3x2x2 H1H H3H", (4, 1)),  # two numbers over the same cells
        ("2x1x2 1H", ()),  # the mine count: no single number to blame
    ]
    for text, first in cases:
        with pytest.raises(InconsistentPositionError) as caught:
            analyze(unchecked(text))
        assert caught.value.cells[: len(first)] == first, (text, caught.value.cells)
        if not first:
            assert caught.value.cells == ()


def test_components_and_supercells():
    obs = parse_position("5x3x3\nHHHHH\nH1H1H\nHHHHH\n")
    comps = build_components(constraints_from(obs).constraints)
    assert len(comps) == 1
    assert sorted(len(sc) for sc in comps[0].supercells) == [3, 5, 5]


def _numbers_over(layout, board, revealed):
    view = []
    for c in range(board.cells):
        if c in revealed and c not in layout:
            view.append(sum(n in layout for n in board.neighbours[c]))
        else:
            view.append(COVERED)
    return tuple(view)


def test_budget_on_a_monster_frontier_returns_in_time():
    # every other cell of every other row revealed over a random layout: a 2-D frontier of hundreds of cells
    import random

    board = Board(30, 30)
    rng = random.Random(1)
    layout = set(rng.sample(range(board.cells), 180))
    revealed = {board.index(x, y) for y in range(1, 30, 2) for x in range(1, 30, 2)}
    obs = Observation(board, 180, _numbers_over(layout, board, revealed))
    assert len(constraints_from(obs).frontier) >= 200
    start = time.process_time()  # CPU time: the shared machine may be loaded, which stretches wall time, not work
    r = analyze(obs, Budget(seconds=3.0, max_states=5_000, samples=5_000))
    assert time.process_time() - start < 3.0 + OVERHEAD_SECONDS + 1.0
    assert not r.exact and r.error > 0 and r.safe == () and r.mines == ()
    probs = [p for _, p in r.covered()]
    assert all(0 <= p <= 1 for p in probs)
    assert sum(probs) == pytest.approx(180, rel=1e-6)  # revealed cells hold no mine, so all 180 are covered
    with pytest.raises(ValueError, match="estimated"):
        r.fraction(0)


def test_long_strip_frontier_is_exact_and_fast():
    # a 200-cell strip: numbers on row 0 over a random row 1; far too many solutions to enumerate one by one
    import random

    board = Board(200, 2)
    rng = random.Random(7)
    layout = {board.index(x, 1) for x in range(200) if rng.random() < 0.4}
    obs = Observation(board, len(layout), _numbers_over(layout, board, set(range(200))))
    start = time.process_time()
    r = analyze(obs, Budget(seconds=30))
    assert r.exact and time.process_time() - start < 2.0
    assert sum(r.fraction(c) for c in obs.covered()) == len(layout)
    assert r.layouts >= 1


def test_analyzer_reuses_component_counts():
    analyzer = Analyzer()
    game = Game(Rules(16, 16, 40, "safe"), 3)
    game.reveal(0)
    first = analyzer.analyze(game.observation())
    assert first.exact
    cached = len(analyzer._cache)
    analyzer.analyze(game.observation())
    assert len(analyzer._cache) == cached


def test_consistency_past_the_budget_says_so_instead_of_guessing():
    import random

    from sweeplab.analysis.exact import BudgetExceededError

    board = Board(30, 30)
    layout = set(random.Random(1).sample(range(board.cells), 180))
    revealed = {board.index(x, y) for y in range(1, 30, 2) for x in range(1, 30, 2)}
    obs = Observation(board, 180, _numbers_over(layout, board, revealed))
    with pytest.raises(BudgetExceededError, match="too large to decide within the budget"):
        check_consistency(obs, Budget(seconds=0.5, max_states=2_000))


def test_a_player_gets_a_patient_second_try_when_the_budget_runs_out(monkeypatch):
    """exact and best call analyze_patiently: an undecided position (a huge frontier on a loaded machine) is tried
    once more with PATIENCE times the seconds instead of failing the game; if that fails too the error stands."""
    from sweeplab.analysis.exact import PATIENCE, Budget
    from sweeplab.core.errors import UndecidedError
    from sweeplab.strategies import make, play

    real = Analyzer.analyze
    seconds: list[float] = []

    def hurried(self, observation):
        seconds.append(self.budget.seconds)
        if self.budget.seconds < 1:
            raise UndecidedError("the time budget ran out (test)")
        return real(self, observation)

    monkeypatch.setattr(Analyzer, "analyze", hurried)
    for name in ("exact", "best"):
        seconds.clear()
        game = play(make(name, seed=1, budget=Budget(seconds=0.5)), Game(Rules(9, 9, 10, "safe"), 4))
        assert game.state is not GameState.PLAYING
        # every analysis the player needs gets its second try; best's look-ahead also analyses hypothetical
        # positions (without a second try: it does without them), through analyze when the kernel is not used
        assert seconds[0] == 0.5 and set(seconds) == {0.5, 0.5 * PATIENCE}
        assert all(seconds[i - 1] == 0.5 for i, s in enumerate(seconds) if s == 0.5 * PATIENCE)
        if name == "exact":
            assert seconds[0::2] == [0.5] * (len(seconds) // 2) and set(seconds[1::2]) == {0.5 * PATIENCE}
    with pytest.raises(UndecidedError):
        Analyzer(Budget(seconds=0.01)).analyze_patiently(Observation(Board(3, 3), 1, [COVERED] * 9))


def _same_answers(a, b, obs):
    assert (a.exact, a.safe, a.mines, a.layouts, a.unconstrained) == (b.exact, b.safe, b.mines, b.layouts, b.unconstrained)
    assert a.covered() == b.covered()
    assert all(a.fraction(c) == b.fraction(c) for c in obs.covered())
    assert a.craps == b.craps


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from([(9, 9, 10), (16, 16, 40), (30, 16, 99)]), st.integers(0, 2**32), st.booleans())
def test_one_analyzer_along_a_game_equals_fresh_eager_analyses(size, seed, kernel):
    """One Analyzer kept through a game (its component cache, the lazily weighed results) answers every position
    exactly as a fresh Analyzer that weighs everything at once (LIGHT_MULTI = -1 turns the lazy path off)."""
    import sweeplab.analysis.exact as engine
    from sweeplab.strategies.base import play
    from sweeplab.strategies.exact import ExactStrategy

    kernel = kernel and engine.KERNEL is not None
    positions = []
    play(ExactStrategy(seed), Game(Rules(*size, "safe"), seed), on_move=lambda g, m: positions.append(g.observation()))
    positions = [obs for obs in positions[:-1] if obs.covered()][:: max(len(positions) // 25, 1)]
    reused = Analyzer(use_kernel=kernel)
    lazy = [reused.analyze(obs) for obs in positions]
    light = engine.LIGHT_MULTI
    engine.LIGHT_MULTI = -1
    try:
        eager = [Analyzer(use_kernel=kernel).analyze(obs) for obs in positions]
    finally:
        engine.LIGHT_MULTI = light
    assert any(a._layouts is None for a in lazy)  # the lazy path ran
    for obs, a, b in zip(positions, lazy, eager, strict=True):
        assert b._layouts is not None and b._shares_v is not None  # weighed at once
        _same_answers(a, b, obs)


def test_lazy_weighing_is_computed_once_on_first_use():
    import pickle

    from sweeplab.analysis.exact import _LazyMines

    game = Game(Rules(16, 16, 40, "safe"), 3)
    game.reveal(0)
    result = Analyzer().analyze(game.observation())
    assert result._layouts is None and isinstance(result._mines, _LazyMines)  # the certain safe cells cost no weighing
    fresh = pickle.loads(pickle.dumps(result))  # unweighed, its mine finder still lazy: it can go to another process
    assert isinstance(fresh._mines, _LazyMines) and fresh.mines == result.mines and fresh.layouts == result.layouts
    layouts, mines = result.layouts, result.mines
    assert result._layouts == layouts and result._mines == mines
    assert sum(result.fraction(c) for c in game.observation().covered()) == 40
    assert pickle.loads(pickle.dumps(result)).fraction(5) == result.fraction(5)


def test_positions_with_huge_weights_are_weighed_at_once_within_the_clock():
    """The deferred weighing has no deadline, so a position whose weights C(U, R) are huge (a 256x256 board early on)
    is weighed inside analyze(), under its budget, while an expert position is deferred."""
    from sweeplab.analysis.exact import LIGHT_BITS, _binomial_bits

    game = Game(Rules(256, 256, 12_000, "safe"), 1)
    game.reveal(0)
    obs = game.observation()
    result = Analyzer().analyze(obs)
    assert _binomial_bits(len(result.unconstrained), 12_000) > LIGHT_BITS
    assert result._layouts is not None  # weighed at once
    small = Game(Rules(30, 16, 99, "safe"), 1)
    small.reveal(0)
    assert Analyzer().analyze(small.observation())._layouts is None
