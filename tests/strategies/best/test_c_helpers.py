"""best's helpers in C (strategies/best/_best.c, loaded by sweeplab.strategies.loops) against the analysis they stand for."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sweeplab.analysis import Analyzer
from sweeplab.analysis.exact.kernel import _PACK
from sweeplab.core.game import Game
from sweeplab.core.rules import Rules
from sweeplab.strategies.base import play
from sweeplab.strategies.exact import ExactStrategy
from sweeplab.strategies.loops import LOOPS
from tests.analysis.compiled import needs_loops

pytestmark = needs_loops


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from([(9, 9, 10), (16, 16, 40), (30, 16, 99), (8, 8, 20), (5, 5, 3), (6, 1, 2)]),
    st.integers(0, 2**32),
    st.integers(1, 80),
    st.lists(st.integers(0, 10_000), max_size=5),
)
def test_count_layouts_is_the_analysis_layout_count(size, seed, stop, flag_picks):
    """The C count_layouts (best's influence counts) gives the analysis's exact layout count, 0 where no layout
    fits (flags on safe cells, more flags than mines), on positions of real games with cells flagged at random."""
    from sweeplab.core.observation import COVERED, FLAGGED

    game = Game(Rules(*size, "safe"), seed)
    positions = []
    play(ExactStrategy(seed), game, on_move=lambda g, move: positions.append(g.observation()) if g.moves <= stop else None)
    obs = positions[-1]
    covered = [c for c, v in enumerate(obs.view) if v == COVERED]
    flags = {covered[i % len(covered)] for i in flag_picks} if covered else set()
    position = obs.with_cells(dict.fromkeys(flags, FLAGGED)) if flags else obs
    analyzer = Analyzer()
    budget, board = analyzer.budget, position.board
    raw, _ = _PACK(position.view)
    count = LOOPS.count_layouts(raw, board.width, board.height, position.mines, budget.max_states, budget.max_bytes, 2.0)
    after = analyzer.try_analyze(position)
    assert count == (0 if after is None else after.layouts)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from([(9, 9, 10), (16, 16, 40), (30, 16, 99), (8, 8, 20), (5, 5, 3), (30, 16, 130)]),
    st.integers(0, 2**32),
    st.integers(1, 80),
    st.integers(0, 10_000),
    st.integers(0, 8),
)
def test_brief_is_what_the_look_ahead_reads_of_the_analysis(size, seed, stop, pick, value):
    """The C brief (best's look-ahead) gives the analysis's layout count, certain cells and best two safeties
    (the same floats) of a real game's position with one covered cell shown as a number; 0 layouts where none fits."""
    from sweeplab.core.observation import COVERED
    from sweeplab.strategies.best.lookahead import best_two

    game = Game(Rules(*size, "safe"), seed)
    positions = []
    play(ExactStrategy(seed), game, on_move=lambda g, move: positions.append(g.observation()) if g.moves <= stop else None)
    obs = positions[-1]
    covered = [c for c, v in enumerate(obs.view) if v == COVERED]
    if not covered:
        return
    position = obs.with_cells({covered[pick % len(covered)]: value}, obs.moves + 1)
    analyzer = Analyzer()
    budget, board = analyzer.budget, position.board
    raw, _ = _PACK(position.view)
    brief = LOOPS.brief(raw, board.width, board.height, position.mines, budget.max_states, budget.max_bytes, 2.0)
    after = analyzer.try_analyze(position)
    assert brief is not None
    if after is None or not after.layouts:
        assert brief[0] == 0
    else:
        assert brief == (after.layouts, after.safe, after.mines, *best_two(after))
