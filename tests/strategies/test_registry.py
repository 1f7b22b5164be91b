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
