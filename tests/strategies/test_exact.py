"""The exact strategy's shortcuts change no move: the single-point pass (exact.Proved, in both strategies that use it)
changes only the order of the certain reveals, and the C game loop and the opening guess make the moves and guess
records that choose and the analysis make."""

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import sweeplab.strategies.exact as exact
from sweeplab.analysis import Analyzer
from sweeplab.bench.runner import game_seeds
from sweeplab.core.game import Game
from sweeplab.core.rules import Rules, make_rules
from sweeplab.formats.position import parse_position
from sweeplab.strategies.base import play
from sweeplab.strategies.best.strategy import BestStrategy
from tests.analysis.compiled import needs_kernel


@pytest.mark.parametrize(
    "cls,preset,rule,games",
    [
        (exact.ExactStrategy, "expert", "safe", 40),
        (exact.ExactStrategy, "intermediate", "zero", 40),
        (BestStrategy, "expert", "safe", 12),
    ],
)
def test_the_pass_leaves_every_guess_and_outcome_as_it_was(monkeypatch, cls, preset, rule, games):
    rules = make_rules(preset, rule)
    analyses = [0]
    real_analysis = Analyzer.analyze_patiently

    def counting(self, observation):
        analyses[0] += 1
        return real_analysis(self, observation)

    monkeypatch.setattr(Analyzer, "analyze_patiently", counting)
    runs, counts = {}, {}
    for with_pass in (False, True):
        monkeypatch.setattr(cls, "single_point", with_pass)
        analyses[0] = 0
        seen = []
        for i in range(games):
            game_seed, strategy_seed = game_seeds(3, i)
            player = cls(strategy_seed)
            game = play(player, Game(rules, game_seed))
            seen.append((game.state, [(g.cell, g.kind, g.safety, g.outcome) for g in player.guesses]))
        runs[with_pass], counts[with_pass] = seen, analyses[0]
    assert runs[True] == runs[False]
    assert sum(len(guesses) for _, guesses in runs[True]) > games
    assert counts[True] < 0.7 * counts[False]  # and it saves analyses: more than half of them on expert


def test_proved_keeps_the_mines_of_exact_analyses():
    obs = parse_position("3x2x2\n121\nHHH\n")  # the 1-2-1: no number decides alone; together, mines under the 1s
    proved = exact.Proved()
    assert proved.freed(obs) == ()
    result = Analyzer().analyze(obs)
    assert result.exact and result.mines == (3, 5) and result.safe == (4,)
    proved.learn(result)
    assert list(proved.mines) == [0, 0, 0, 1, 0, 1]
    assert proved.freed(obs) == (4,)  # now each 1 has its mine
    estimate = Analyzer().analyze(obs)
    estimate.exact = False
    fresh = exact.Proved()
    fresh.learn(estimate)  # an estimate proves nothing
    assert fresh.freed(obs) == () and not any(fresh.mines)
    fresh.learn(result)  # learning first sizes the record too
    assert list(fresh.mines) == [0, 0, 0, 1, 0, 1]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(4, 14),
    st.integers(4, 10),
    st.floats(0.05, 0.35),
    st.sampled_from(["unsafe", "safe", "zero", "xp"]),
    st.integers(0, 2**32),
    st.sampled_from([exact.ExactStrategy, BestStrategy]),
)
def test_the_pass_changes_no_guess_on_any_board(width, height, density, rule, seed, cls):
    mines = max(1, min(int(width * height * density), width * height - 9))
    rules = Rules(width, height, mines, rule)
    seen = {}
    try:
        for with_pass in (False, True):
            cls.single_point = with_pass
            player = cls(seed)
            game = play(player, Game(rules, seed))
            seen[with_pass] = (game.state, [(g.cell, g.kind, g.safety, g.outcome) for g in player.guesses])
    finally:
        cls.single_point = True
    assert seen[True] == seen[False]


def test_a_guess_is_explained_by_its_safety_the_tie_break_and_the_runner_up():
    observation = parse_position("3x3x2\n1HH\nHHH\nHHH\n")  # the five cells off the 1 are each a mine with p = 1/5
    move = exact.ExactStrategy(seed=0).choose(observation)
    result = Analyzer().analyze_patiently(observation)
    explanation = exact.explain_guess(observation, result, move.cell)
    figures = explanation.figures
    assert observation.board.xy(move.cell) == (2, 0) == figures["cell"]
    assert figures["safety"] == pytest.approx(0.8) and figures["tied"] == 5
    assert figures["tie_break"] == "a corner with 3 covered neighbours, as are others: the lowest cell index"
    assert figures["runner_up"] == {"cell": (0, 2), "safety": pytest.approx(0.8)}
    assert explanation.text.startswith("the safest covered cell: (2, 0), 80.00% safe (as are 4 others; tie-break: a corner")


def test_a_unique_safest_cell_names_the_next_safest_as_runner_up():
    observation = parse_position("6x4x6\n001HHH\n222HHH\nHH22HH\nHHHHHH\n")  # from a real game (seed 1 of 6x4x6)
    move = exact.ExactStrategy(seed=0).choose(observation)
    explanation = exact.explain_guess(observation, Analyzer().analyze_patiently(observation), move.cell)
    assert explanation.text == "the safest covered cell: (1, 3), 96.43% safe; runner-up (2, 3), 78.57% safe"
    assert explanation.figures["tied"] == 1 and explanation.figures["tie_break"] == "none needed: no other cell is as safe"


def _record(player, game):
    """What a game and its player's guesses leave: every move, the end, each guess as the bench sees it."""
    guesses = [(g.cell, g.kind, repr(g.safety), g.outcome, g.move, g.protected) for g in player.guesses]
    proved = frozenset(cell for cell, mine in enumerate(player.proved.mines) if mine)  # sized or not yet: the same
    return game.state, tuple(game.history), guesses, proved


def _both_ways(rules, seed, monkeypatch=None):
    """One game played by play() (the C game loop makes exact's moves) and move by move (a callback turns it off)."""
    fast = exact.ExactStrategy(seed)
    fast_game = play(fast, Game(rules, seed))
    slow = exact.ExactStrategy(seed)
    slow_game = play(slow, Game(rules, seed), on_move=lambda game, move: None)
    return (fast, fast_game), (slow, slow_game)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(1, 30),
    st.integers(1, 16),
    st.floats(0.02, 0.45),
    st.sampled_from(["unsafe", "safe", "zero", "xp", "hint"]),
    st.integers(0, 2**32),
)
def test_the_c_game_loop_makes_the_moves_and_guesses_choose_makes(width, height, density, rule, seed):
    cells = width * height
    if cells < 2 or (rule == "zero" and cells < 10):
        return
    mines = max(1, min(int(cells * density), cells - (9 if rule == "zero" else 1)))
    rules = Rules(width, height, mines, rule)
    (fast, fast_game), (slow, slow_game) = _both_ways(rules, seed)
    assert _record(fast, fast_game) == _record(slow, slow_game)


@needs_kernel
def test_the_c_game_loop_plays_most_of_a_game_and_hands_back_what_it_cannot_count(monkeypatch):
    import sweeplab.strategies.base as base

    calls = []
    real = base._loop

    def counting(strategy, game, *args):
        before = game.moves
        real(strategy, game, *args)
        calls.append((game.moves - before, game.over))

    monkeypatch.setattr(base, "_loop", counting)
    for preset, games in (("expert", 30), ("50x50x550", 10)):  # the second has components past 128-bit counts
        rules = make_rules(preset, "safe")
        calls.clear()
        total = 0
        for i in range(games):
            game_seed, _ = game_seeds(0, i)
            (fast, fast_game), (slow, slow_game) = _both_ways(rules, game_seed)
            assert _record(fast, fast_game) == _record(slow, slow_game)
            total += fast_game.moves
        assert sum(moves for moves, _ in calls) > 0.9 * total  # the loop made nine moves in ten at least
        if preset != "expert":
            assert len(calls) > games  # it stopped where Python had to count, and went on after Python's move


@pytest.mark.parametrize("preset,rule", [("expert", "safe"), ("beginner", "hint")])
def test_a_guess_of_the_c_game_loop_is_explained_as_choose_explains_it(preset, rule):
    """Explained from the position replayed to the guess: a hinted game's hint is opened again, as it was dealt."""
    rules = make_rules(preset, rule)
    for i in range(40):
        game_seed, _ = game_seeds(7, i)
        (fast, _), (slow, _) = _both_ways(rules, game_seed)
        made = [g for g in fast.guesses if not g.protected and g.kind != "first"]
        if len(made) >= 2:
            break
    assert len(made) >= 2
    expected = [g for g in slow.guesses if not g.protected and g.kind != "first"]
    assert [g.explanation.text for g in made] == [g.explanation.text for g in expected]
    assert made[0].explanation.figures == expected[0].explanation.figures


@needs_kernel
def test_only_the_exact_strategy_itself_hands_its_moves_to_the_c_game_loop():
    from sweeplab.strategies.oh import OHStrategy

    assert exact.ExactStrategy(0).ahead(81) is not None
    assert OHStrategy(0).ahead(81) is None  # a subclass decides otherwise
    player = exact.ExactStrategy(0)
    player.single_point = False
    assert player.ahead(81) is None


@pytest.mark.parametrize("spec", ["beginner", "intermediate", "expert", "1x2x1", "1x7x3", "6x1x2", "13x11x37", "2x2x3"])
def test_the_opening_guess_is_the_analysis_guess(spec):
    """On an untouched board the first guess skips the analysis: the same cell, kind, safety and explanation."""
    observation = Game(make_rules(spec, "unsafe"), 1).observation()
    quick, analysed = exact.ExactStrategy(0), exact.ExactStrategy(0)
    move = quick.choose(observation)
    assert move == analysed.pick_guess(observation, analysed.analyzer.analyze_patiently(observation))
    a, b = quick.pending_guess, analysed.pending_guess
    assert (a.cell, a.kind, repr(a.safety), a.move) == (b.cell, b.kind, repr(b.safety), b.move)
    assert a.explanation.text == b.explanation.text
    flagged = parse_position("2x2x1\nFH\nHH\n")  # a flag: not an untouched board, so the analysis decides
    assert exact.ExactStrategy(0)._opening(flagged) is None


def test_the_c_game_loop_breaks_ties_with_the_same_tolerance():
    """_exact_play.c's PLAY_TIE is exact.TIE: a change to one must be made to the other."""
    source = (Path(exact.__file__).parent / "_exact_play.c").read_text()
    assert exact.TIE == 1e-12 and "#define PLAY_TIE 1e-12" in source


@needs_kernel
def test_the_c_game_loop_reveals_a_first_cell_and_refuses_what_it_cannot_play():
    from sweeplab.strategies.loops import LOOPS

    game = Game(Rules(3, 2, 1, "unsafe"), layout=[5])  # 0 1 1 / 0 1 *
    mine, number, view = game.raw()
    proved = bytearray(6)
    over, cells, guesses, opened = LOOPS.play_exact(mine, number, view, proved, 3, 2, 1, 0, 100, 10**6, 10**8, 5.0, 0)
    assert over and cells == [0, 2] and opened == 5  # 0 floods 0 1 3 4; then 2 or 5, a fifty-fifty: 2, the lower
    assert guesses == [(False, 2, 0.5, 1)] and view == [0, 1, 1, 0, 1, -1] and not any(proved)

    def refused(*args):
        with pytest.raises((ValueError, TypeError)) as caught:
            LOOPS.play_exact(*args)
        return str(caught.value)

    fresh = [-1] * 6
    assert "first cell must be covered" in refused(mine, number, [0, *fresh[1:]], bytearray(6), 3, 2, 1, 0, 9, 10, 10**6, 1.0, 0)
    assert "flags" in refused(mine, number, [-2, *fresh[1:]], bytearray(6), 3, 2, 1, 0, 9, 10, 10**6, 1.0, 1)
    assert "one value per cell" in refused(mine[:5], number, fresh, bytearray(6), 3, 2, 1, 0, 9, 10, 10**6, 1.0)
    assert "number of cell 1 is 9" in refused(mine, (0, 9, 1, 0, 1, 0), fresh, bytearray(6), 3, 2, 1, 0, 9, 10, 10**6, 1.0)
    assert "sizes disagree" in refused(mine, number, fresh, bytearray(5), 3, 2, 1, 0, 9, 10, 10**6, 1.0)


def test_a_deadline_stops_the_game_at_a_move_with_the_moves_so_far():
    """play's deadline (the thread's CPU clock) leaves the game unfinished, its moves the start of the unlimited
    game's: the C game loop checks it after each reveal, the move-by-move path before each move."""
    import time

    rules = make_rules("256x256x10000", "safe")
    play(exact.ExactStrategy(1), Game(rules, 1))  # the board's tables built, so that the timing is the game's
    start = time.thread_time()
    full = play(exact.ExactStrategy(1), Game(rules, 1))
    took = time.thread_time() - start
    assert full.over and full.moves > 10_000
    stopped = play(exact.ExactStrategy(1), Game(rules, 1), deadline=time.thread_time() + took / 4)
    assert not stopped.over and stopped.moves < full.moves
    assert stopped.history == full.history[: stopped.moves]
    past = play(exact.ExactStrategy(1), Game(rules, 1), deadline=time.thread_time() - 1)
    assert past.moves == 0 and not past.over
