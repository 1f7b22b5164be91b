"""Strategy specs, NAME[key=value,...]: parsed, checked against the strategy's own options, and used by the CLI."""

import re

import pytest
from click.testing import CliRunner

from sweeplab.cli import main
from sweeplab.core.errors import UnknownStrategyError
from sweeplab.strategies.registry import StrategySpecError, format_spec, make_spec, options, parse_spec, split_specs


def test_a_spec_round_trips_and_builds_the_strategy_with_its_options():
    name, chosen = parse_spec("gac[subsets=False, pairs=False]")
    assert (name, chosen) == ("gac", {"subsets": False, "pairs": False})
    assert format_spec(name, chosen) == "gac[pairs=False,subsets=False]"
    player = make_spec("gac[pairs=False]", seed=1)
    assert player.pairs is False and player.subsets is True
    assert make_spec("equation[guess=pgms]").guess_rule == "pgms"


def test_an_option_whose_default_is_none_takes_its_annotated_type_or_none():
    assert parse_spec("sa[budget=500]") == ("sa", {"budget": 500})
    assert parse_spec("dss[max_nodes=None,limited=True]") == ("dss", {"max_nodes": None, "limited": True})


def test_options_are_read_from_the_strategy_and_its_parents():
    assert set(options("gac-endgame")) == {"subsets", "pairs"}
    assert set(options("level3")) == {"first"} and options("random") == {}
    assert options("cspstrategy")["node_cap"].default > 0


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("gac[foo=1]", "has no option 'foo'"),
        ("gac[pairs=3]", "should be a bool"),
        ("cspstrategy[node_cap=True]", "should be a int"),
        ("gac[pairs=True", "end with ']'"),
        ("gac[pairs]", "not key=value"),
        ("gac[pairs=True,pairs=False]", "given twice"),
        ("exact[budget=3]", "cannot be set from a spec"),
        ("sa[budget=abc]", "should be a int"),  # a default of None: the type comes from the annotation
        ("dsscsp[max_nodes=1.5]", "should be a int"),
        ("xgboost[scorer=x]", "cannot be set from a spec"),
    ],
)
def test_a_bad_spec_names_the_part_and_the_reason(spec, words):
    with pytest.raises(StrategySpecError, match=words.replace("[", r"\[").replace("]", r"\]")):
        parse_spec(spec)


def test_an_unknown_name_names_the_choices():
    with pytest.raises(UnknownStrategyError, match="choose one of"):
        parse_spec("nope[x=1]")


def test_commas_inside_brackets_do_not_split():
    assert split_specs("exact, gac[pairs=False,subsets=False],x") == ["exact", "gac[pairs=False,subsets=False]", "x"]


def test_bench_and_play_take_specs_and_refuse_bad_ones():
    runner = CliRunner()
    result = runner.invoke(main, ["bench", "-s", "exact,gac[pairs=False]", "-b", "beginner", "-n", "20", "-j", "1"])
    assert result.exit_code == 0, result.output
    assert "gac[pairs=False] on 9x9x10" in result.output
    result = runner.invoke(main, ["play", "-s", "gac[pairs=x]", "-b", "beginner", "--seed", "1"])
    assert result.exit_code == 2 and "should be a bool" in result.output
    result = runner.invoke(main, ["bench", "-s", "exact,best[off_edge=0]", "-b", "beginner", "-n", "20", "-j", "1"])
    assert result.exit_code == 2 and "Invalid value for --strategy" in result.output
    assert "off_edge must be 1 to 10,000, not 0" in result.output and "game" not in result.output
    result = runner.invoke(main, ["strategies", "--options", "gac"])
    assert result.exit_code == 0 and "pairs = True" in result.output and "Python only" not in result.output
    result = runner.invoke(main, ["strategies", "--options", "exact"])
    assert result.exit_code == 0 and "budget = Budget(" in result.output and "(set from Python only" in result.output
    result = runner.invoke(main, ["strategies", "--options", "dss"])
    assert "max_nodes = None\n" in result.output  # an int option whose default is None: in a spec


def _numeric_options() -> list[tuple[str, str, object]]:
    from sweeplab.strategies.registry import names

    found = []
    for name in names():
        for key in options(name):
            if _takes(name, key, 0):
                found.extend((name, key, value) for value in (-1, 0, 10**30))
    return found


def _takes(name: str, key: str, value: object) -> bool:
    """Whether a spec may set ``key`` to a number (its default is one, or its annotation says ``int | None``)."""
    try:
        parse_spec(f"{name}[{key}={value}]")
    except StrategySpecError:
        return False
    return True


@pytest.mark.parametrize(("name", "key", "value"), _numeric_options())
def test_an_out_of_range_option_is_refused_with_the_strategys_error_or_taken(name, key, value):
    """Every numeric option of every strategy, at -1, 0 and 10**30: either the strategy is built, or it refuses with a
    SweeplabError naming the option (the CLI then prints it and exits 2), never another exception (which the CLI
    reports as an internal error)."""
    from sweeplab.core.errors import SweeplabError
    from sweeplab.strategies.registry import make

    try:
        make(name, seed=0, **{key: value})
    except SweeplabError as error:
        if key not in str(error):  # then it is not about the option: the strategy cannot be built here at all
            with pytest.raises(SweeplabError, match=re.escape(str(error))):  # (an optional package missing)
                make(name, seed=0)
