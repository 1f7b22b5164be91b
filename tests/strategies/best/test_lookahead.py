"""The look-ahead's figures against brute force over every layout."""

from __future__ import annotations

import pytest

from sweeplab.analysis.exact import Analyzer
from sweeplab.core.observation import COVERED, Observation
from sweeplab.formats.position import parse_position
from sweeplab.strategies.best.lookahead import BLEND, Candidate, evaluate, next_safety, possible_values
from tests.strategies.best.brute import consistent_layouts

#: exact opens (3, 5), 69.6% safe, after which nothing is certain; best opens (0, 4), 67.0% safe, which always leaves
#: a certainly safe cell.
POSITION = "7x7x9\n1100000\nH100000\n1111100\n112H211\nHH3H3HH\nHHHHHHH\nHHHHHHH\n"


def brute_score(observation: Observation, cell: int) -> tuple[float, dict[int, float]]:
    """The look-ahead score from the layouts themselves: for each number the cell shows, the layouts where it does,
    and in them each other covered cell's share of mines."""
    layouts = consistent_layouts(observation)
    board = observation.board
    covered = [c for c, v in enumerate(observation.view) if v == COVERED and c != cell]
    groups: dict[int, list[frozenset[int]]] = {}
    for mines in layouts:
        if cell not in mines:
            groups.setdefault(sum(n in mines for n in board.neighbours[cell]), []).append(mines)
    score = 0.0
    probabilities = {}
    for value, group in groups.items():
        p = len(group) / len(layouts)
        probabilities[value] = p
        safeties = sorted((1 - sum(c in m for m in group) / len(group) for c in covered), reverse=True)
        nxt = 1.0 if safeties[0] == 1.0 else (BLEND[0] * safeties[0] + BLEND[1] * safeties[1]) / sum(BLEND)
        score += p * nxt
    return score, probabilities


@pytest.mark.parametrize("xy", [(0, 4), (3, 5), (6, 4), (2, 6), (0, 1)])
def test_score_and_outcomes_equal_brute_force(xy):
    observation = parse_position(POSITION)
    analyzer = Analyzer()
    result = analyzer.analyze(observation)
    cell = observation.board.index(*xy)
    candidate = evaluate(analyzer, observation, result, Candidate(cell, 1 - result.probability(cell)))
    score, probabilities = brute_score(observation, cell)
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


def test_next_safety_is_one_with_a_certain_cell():
    observation = parse_position("3x1x1\n1HH\n")
    progress, value = next_safety(Analyzer().analyze(observation))
    assert progress and value == 1.0
