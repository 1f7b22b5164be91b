"""The studies' tests share the bench tests' fixtures (the test strategies are registered there)."""

from tests.bench.conftest import test_strategies

__all__ = ["test_strategies"]
