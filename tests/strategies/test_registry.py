import pytest

from sweeplab.core.errors import UnknownStrategyError
from sweeplab.strategies import get, names, register
from sweeplab.strategies.base import Strategy


def test_names_and_metadata():
    assert {"random", "single-point"} <= set(names())
    for name in names():
        cls = get(name)
        assert issubclass(cls, Strategy)
        assert cls.name == name and cls.source and cls.summary


def test_unknown_name_lists_choices():
    with pytest.raises(UnknownStrategyError, match="unknown strategy 'nope': choose one of random"):
        get("nope")


def test_register_refuses_duplicates():
    with pytest.raises(ValueError, match="already registered"):
        register("random", "x:y")


def test_an_option_that_looks_like_a_broken_number_is_a_string_without_a_warning():
    """``/tmp/0in`` makes Python's compiler warn ("invalid decimal literal") before it refuses the text: the option
    is still the string, and the user sees no SyntaxWarning."""
    import warnings

    from sweeplab.strategies.registry import parse_spec

    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")  # ("error" would not do: the compiler turns the warning into its SyntaxError)
        assert parse_spec("nn[model=/tmp/0in]") == ("nn", {"model": "/tmp/0in"})
    assert [str(w.message) for w in seen] == []
