"""The engine's public entry (sweeplab.analysis.exact): every name it offers is the stage module's own object."""

import importlib

import sweeplab.analysis.exact as exact

STAGES = ("analyzer", "budget", "components", "consistency", "counting", "kernel", "probabilities", "sampling", "weighting")


def test_every_public_name_is_the_stage_modules_own():
    stages = [importlib.import_module(f"sweeplab.analysis.{stage}") for stage in STAGES]
    for name in exact.__all__:
        value = getattr(exact, name)
        assert any(vars(stage).get(name) is value for stage in stages), name
        if isinstance(value, type) or callable(value):
            assert value.__module__ != exact.__name__, name  # defined in a stage, not here
    assert exact.BudgetExceededError is exact.UndecidedError  # the former name, kept for callers


def test_the_names_callers_import_are_there():
    from sweeplab.analysis.exact import (  # noqa: F401  (what sweeplab, the tests, the benchmarks and the README use)
        DEFAULT_BUDGET,
        KERNEL,
        OVERHEAD_SECONDS,
        PATIENCE,
        Analyzer,
        Budget,
        BudgetExceededError,
        Component,
        CrapsShoot,
        Probabilities,
        analyze,
        check_consistency,
        is_consistent,
    )
