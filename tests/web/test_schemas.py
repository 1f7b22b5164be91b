"""Request schemas: the page's size limits, strategy specs, and messages that name the field."""

import pytest
from pydantic import ValidationError

from sweeplab.core.errors import BoardSpecError
from sweeplab.web.schemas import BenchRequest, NewGame, Position, check_page_size, strategy_spec


def test_page_size_limit_names_the_limit_and_the_way_round_it():
    check_page_size(100, 100)
    with pytest.raises(BoardSpecError, match=r"too large for the page: it draws at most 10000 cells.*sweeplab analyze"):
        check_page_size(101, 100)
    with pytest.raises(BoardSpecError, match="at most 10000 cells and 200 a side"):
        check_page_size(201, 1)


def test_strategy_specs_are_canonical_and_checked():
    assert strategy_spec(" gac[subsets=False, pairs=False] ") == "gac[pairs=False,subsets=False]"
    with pytest.raises(ValueError, match="unknown strategy"):
        strategy_spec("nobody")


def test_new_game_checks_the_rule_against_the_board():
    assert NewGame(board="expert", rule="zero").rules().mines == 99
    with pytest.raises(ValidationError, match="the 'zero' rule keeps the first click"):
        NewGame(board="3x3x6", rule="zero")
    assert NewGame(board="3x3x9", rule="unsafe").rules().mines == 9


def test_position_shape():
    assert Position(width=2, height=1, mines=1, view=[1, -1]).observation().view == (1, -1)
    with pytest.raises(ValidationError, match="view has 1 cells"):
        Position(width=2, height=1, mines=1, view=[1])


def test_bench_request_splits_and_limits_specs():
    request = BenchRequest(strategies=["exact,single-point", "gac[pairs=False]"])
    assert request.strategies == ["exact", "single-point", "gac[pairs=False]"]
    with pytest.raises(ValidationError, match="at most 6 strategies"):
        BenchRequest(strategies=["exact,single-point,random,gac,dss,level2,level3"])


@pytest.mark.parametrize(
    ("model", "body"),
    [
        (NewGame, {"seed": True}),
        (NewGame, {"seed": False}),
        (Position, {"width": True, "height": 1, "mines": 0, "view": [0]}),
        (Position, {"width": 2, "height": 1, "mines": 1, "view": [True, -1]}),
        (BenchRequest, {"strategies": ["exact"], "games": True}),
    ],
)
def test_true_and_false_are_not_numbers(model, body):
    with pytest.raises(ValidationError, match="a number is expected, not true or false"):
        model(**body)
    assert NewGame(seed="18446744073709551615").seed == 2**64 - 1  # seeds past 2**53 come as strings from the page


def test_a_benchmark_past_the_pages_bound_of_work_is_refused_with_its_estimate():
    with pytest.raises(
        ValidationError,
        match=r"this run is estimated at .* h \(2000 games x 6 strategies on 100x100; "
        r"oh\[sims=100000\] about .* a game\), past the page's bound of 120 s",
    ):
        BenchRequest(strategies=["oh", "best", "oh[sims=100000]", "ga", "sa", "dsscsp"], board="100x100x2000", games=2000)
    with pytest.raises(ValidationError, match=r"at most \d+ games fit"):
        BenchRequest(strategies=["oh"], board="expert", games=100)
    assert BenchRequest(strategies=["exact", "single-point"], board="expert", games=500).games == 500
