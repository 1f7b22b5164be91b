import pytest

from sweeplab.strategies import registry

TEST_STRATEGIES = {
    "test-coin": "tests.bench.strategies_for_tests:CoinStrategy",
    "test-overconfident": "tests.bench.strategies_for_tests:OverconfidentStrategy",
    "test-slow": "tests.bench.strategies_for_tests:SlowStrategy",
    "test-crash": "tests.bench.strategies_for_tests:CrashStrategy",
}


@pytest.fixture
def test_strategies(monkeypatch: pytest.MonkeyPatch) -> None:
    """Register the bench tests' strategies for one test (in this process only: use jobs=1)."""
    for name, target in TEST_STRATEGIES.items():
        monkeypatch.setitem(registry._BUILTIN, name, target)
