"""The look-ahead's figures against brute force over every layout."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sweeplab.analysis import Analyzer
from sweeplab.core.game import Game
from sweeplab.core.observation import COVERED, Observation
from sweeplab.core.rules import Rules
from sweeplab.formats.position import parse_position
from sweeplab.strategies.best.lookahead import (
    BLEND,
    PROGRESS_MODES,
    Candidate,
    evaluate,
    living_safe,
    next_safety,
    possible_values,
)
from tests.analysis.compiled import needs_kernel
from tests.strategies.best.brute import consistent_layouts

#: exact opens (3, 5), 69.6% safe, after which nothing is certain; best opens (0, 4), 67.0% safe, which always leaves
#: a certainly safe cell.
POSITION = "7x7x9\n1100000\nH100000\n1111100\n112H211\nHH3H3HH\nHHHHHHH\nHHHHHHH\n"

#: Living: "any" scores (0, 0) highest, "living" (2, 0): after (0, 0) the safe cells it leaves are dead (their numbers
#: are already known), while (2, 0) leaves living ones.
LIVING = "6x4x6\nH2HH10\nHH3210\nHHH100\nHHH100\n"


def brute_score(observation: Observation, cell: int, mode: str) -> tuple[float, dict[int, float]]:
    """The look-ahead score from the layouts themselves: for each number the cell shows, the layouts where it does,
    and in them each other covered cell's share of mines; under ``living`` a safe cell counts when the number it
    shows differs between those layouts."""
    layouts = consistent_layouts(observation)
    board = observation.board
    covered = [c for c, v in enumerate(observation.view) if v == COVERED and c != cell]
    groups: dict[int, list[frozenset[int]]] = {}
    for mines in layouts:
        if cell not in mines:
            groups.setdefault(sum(n in mines for n in board.neighbours[cell]), []).append(mines)
    score = 0.0
    probabilities = {}
    w1, w2 = BLEND
    for value, group in groups.items():
        p = len(group) / len(layouts)
        probabilities[value] = p
        safety = {c: 1 - sum(c in m for m in group) / len(group) for c in covered}
        safe = [c for c in covered if safety[c] == 1.0]
        if mode == "living":
            safe = [c for c in safe if len({sum(n in m for n in board.neighbours[c]) for m in group}) > 1]
        rest = [*sorted((s for c, s in safety.items() if s < 1.0), reverse=True), 0.0, 0.0]
        if len(safe) >= (2 if mode == "living" else 1) or rest[0] == 0.0:  # enough progress, or all decided
            nxt = 1.0
        elif safe:
            nxt = (w1 + w2 * rest[0]) / (w1 + w2)
        else:
            nxt = (w1 * rest[0] + w2 * rest[1]) / (w1 + w2)
        score += p * nxt
    return score, probabilities


@pytest.mark.parametrize("mode", PROGRESS_MODES)
@pytest.mark.parametrize(
    ("text", "xy"),
    [(POSITION, xy) for xy in [(0, 4), (3, 5), (6, 4), (2, 6), (0, 1)]]
    + [(LIVING, xy) for xy in [(0, 0), (2, 0), (3, 0), (0, 1), (1, 1), (0, 2), (2, 2), (0, 3), (2, 3)]],
)
def test_score_and_outcomes_equal_brute_force(text, xy, mode):
    observation = parse_position(text)
    analyzer = Analyzer()
    result = analyzer.analyze(observation)
    cell = observation.board.index(*xy)
    candidate = evaluate(analyzer, observation, result, Candidate(cell, 1 - result.probability(cell)), mode=mode)
    score, probabilities = brute_score(observation, cell, mode)
    assert candidate.score == pytest.approx(score, abs=1e-12)
    assert {o.value: o.probability for o in candidate.outcomes} == pytest.approx(probabilities, abs=1e-12)
    assert sum(o.probability for o in candidate.outcomes) == pytest.approx(candidate.safety, abs=1e-12)


def test_the_riskier_cell_scores_higher():
    observation = parse_position(POSITION)
    analyzer = Analyzer()
    result = analyzer.analyze(observation)
    safest, opener = (observation.board.index(*xy) for xy in ((3, 5), (0, 4)))
    a = evaluate(analyzer, observation, result, Candidate(safest, 1 - result.probability(safest)))
    b = evaluate(analyzer, observation, result, Candidate(opener, 1 - result.probability(opener)))
    assert a.safety > b.safety
    assert b.score is not None and a.score is not None and b.score > a.score
    assert b.progress == pytest.approx(b.safety) and a.progress < 0.05


def test_pruning_stops_a_cell_that_cannot_win():
    observation = parse_position(POSITION)
    analyzer = Analyzer()
    result = analyzer.analyze(observation)
    cell = observation.board.index(3, 5)
    full = evaluate(analyzer, observation, result, Candidate(cell, 1 - result.probability(cell)))
    cut = evaluate(analyzer, observation, result, Candidate(cell, 1 - result.probability(cell)), bar=0.66)
    assert not full.pruned and cut.pruned
    assert cut.score is not None and full.score is not None and cut.score <= full.score


def test_possible_values_count_certain_mines_and_put_the_likeliest_first():
    observation = parse_position("3x3x2\n1H1\nHHH\nHHH\n")
    result = Analyzer().analyze(observation)
    centre = observation.board.index(1, 1)
    values = possible_values(observation, result, centre, frozenset())
    assert sorted(values) == list(range(0, 7))  # six covered neighbours, none certain
    expected = sum(result.probability(n) for n in observation.board.neighbours[centre] if observation.view[n] == COVERED)
    assert abs(values[0] - expected) <= 0.5
    flagged = parse_position("3x3x2\n1H1\nFHH\nHHH\n")
    values = possible_values(flagged, Analyzer().analyze(flagged), centre, frozenset())
    assert sorted(values) == list(range(1, 7))  # the flag counts


@pytest.mark.parametrize("mode", PROGRESS_MODES)
def test_next_safety_is_one_when_everything_is_decided(mode):
    observation = parse_position("3x1x1\n1HH\n")  # (1, 0) is the mine, (2, 0) safe: nothing is left to guess
    progress, value = next_safety(Analyzer().analyze(observation), mode)
    assert progress and value == 1.0


def _random_positions(count: int):
    """Positions of a few moves' play on small boards (the lowest-probability cell each move), with at most 400
    layouts, for comparisons with brute force."""
    analyzer = Analyzer()
    for seed in range(count):
        rng = random.Random(seed)
        width, height, mines = rng.choice([(5, 4, 5), (6, 4, 6), (5, 5, 6), (6, 5, 7), (4, 4, 4)])
        game = Game(Rules(width, height, mines, "safe"), seed)
        game.reveal(rng.randrange(width * height))
        for _ in range(rng.randrange(3)):
            if game.over:
                break
            _, cells = analyzer.analyze(game.observation()).lowest(1e-12)
            game.reveal(rng.choice(cells))
        if game.over:
            continue
        observation = game.observation()
        result = analyzer.analyze(observation)
        if result.layouts <= 400:
            yield observation, result


def test_living_safe_never_calls_a_living_cell_dead():
    """Against the layouts themselves (a safe cell is living when its number differs between them): the count is never
    below the truth, and equal to it in nearly every position after a reveal."""
    analyzer = Analyzer()
    checked = over = 0
    for observation, result in _random_positions(400):
        board = observation.board
        for cell in [c for c, v in enumerate(observation.view) if v == COVERED and c not in result.mines][:3]:
            for value in range(1, 9):  # a shown 0 would open its neighbours in play
                after = observation.with_cells({cell: value})
                outcome = analyzer.try_analyze(after)
                if outcome is None or not outcome.layouts or not outcome.safe:
                    continue
                layouts = consistent_layouts(after)
                truth = sum(len({sum(n in m for n in board.neighbours[s]) for m in layouts}) > 1 for s in outcome.safe)
                counted = living_safe(after, outcome, enough=len(outcome.safe))
                assert counted >= truth
                checked += 1
                over += counted > truth
    assert checked > 300
    assert over <= checked // 50


def test_living_mode_equals_brute_force_in_nearly_every_position():
    analyzer = Analyzer()
    checked = differ = 0
    for observation, result in _random_positions(700):
        for cell in [c for c, v in enumerate(observation.view) if v == COVERED and c not in result.mines][:4]:
            candidate = evaluate(analyzer, observation, result, Candidate(cell, 1 - result.probability(cell)))
            checked += 1
            differ += abs(candidate.score - brute_score(observation, cell, "living")[0]) > 1e-9
    assert checked > 500
    assert differ <= checked // 50


def test_living_mode_prefers_the_cell_that_leaves_living_safe_cells():
    observation = parse_position(LIVING)
    analyzer = Analyzer()
    result = analyzer.analyze(observation)
    scores = {}
    for mode in PROGRESS_MODES:
        scores[mode] = {
            observation.board.xy(c): evaluate(
                analyzer, observation, result, Candidate(c, 1 - result.probability(c)), mode=mode
            ).score
            for c, v in enumerate(observation.view)
            if v == COVERED and c not in result.mines
        }
    assert max(scores["any"], key=scores["any"].get) == (0, 0)
    assert max(scores["living"], key=scores["living"].get) == (2, 0)


@needs_kernel
@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.frozensets(st.integers(0, 40), min_size=1, max_size=8), min_size=0, max_size=14),
    st.frozensets(st.integers(0, 40), min_size=1, max_size=8),
    st.integers(0, 3),
)
def test_the_kernels_span_test_agrees_with_numpys_ranks(groups, target, combine):
    """The exact span test in C gives numpy's answer on the small 0/1 families the look-ahead builds, including targets
    that are sums and differences of groups (in the span by construction) and the whole uncertain set."""
    from sweeplab.strategies.best.lookahead import _in_span_numpy
    from sweeplab.strategies.loops import LOOPS

    if combine and len(groups) >= 2:  # a target inside the span: a union of disjoint groups, or a difference
        a, b = groups[0], groups[1]
        target = (a | b) if not a & b else (a - b if b <= a else a)
    if combine == 3:
        groups = [*groups, frozenset().union(target, *groups)]
    assert LOOPS.in_span(target, groups) == _in_span_numpy(target, groups)


@needs_kernel
@settings(max_examples=80, deadline=None)
@given(st.sampled_from([(9, 9, 10), (16, 16, 40), (30, 16, 99), (8, 8, 20)]), st.integers(0, 2**32), st.integers(1, 90))
def test_the_kernels_living_count_is_the_python_one(size, seed, stop):
    """The kernel's ``living`` counts the living safe cells as the Python test does, on positions of real games."""
    from sweeplab.analysis.exact.kernel import _PACK
    from sweeplab.core.rules import Rules
    from sweeplab.strategies.base import play
    from sweeplab.strategies.best.lookahead import _living_python
    from sweeplab.strategies.exact import ExactStrategy
    from sweeplab.strategies.loops import LOOPS

    positions = []
    game = Game(Rules(*size, "safe"), seed)
    play(ExactStrategy(seed), game, on_move=lambda g, move: positions.append(g.observation()) if g.moves <= stop else None)
    observation = positions[-1]
    result = Analyzer().analyze(observation)
    raw, _ = _PACK(observation.view)
    for enough in (1, 2, len(result.safe) + 1):
        assert LOOPS.living(raw, size[0], size[1], result.safe, result.mines, enough) == _living_python(
            observation, result.safe, result.mines, enough
        )
