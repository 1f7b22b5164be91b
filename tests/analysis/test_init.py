"""The engine's public entry (sweeplab.analysis): every name it offers is the defining module's own object, loaded on
first use, and importing a sub-package leaves the engine unloaded."""

import importlib
import subprocess
import sys

import pytest

import sweeplab.analysis as analysis

DEFINED_IN = (
    "sweeplab.analysis.analyzer",
    "sweeplab.analysis.exact.budget",
    "sweeplab.analysis.exact.components",
    "sweeplab.analysis.exact.consistency",
    "sweeplab.analysis.exact.counting",
    "sweeplab.analysis.exact.kernel",
    "sweeplab.analysis.exact.probabilities",
    "sweeplab.analysis.exact.weighting",
    "sweeplab.analysis.estimate.sampling",
    "sweeplab.core.errors",
)


def test_every_public_name_is_the_defining_modules_own():
    modules = [importlib.import_module(name) for name in DEFINED_IN]
    for name in analysis.__all__:
        value = getattr(analysis, name)
        assert any(vars(module).get(name) is value for module in modules), name
        if isinstance(value, type) or callable(value):
            assert value.__module__ != analysis.__name__, name  # defined in a stage, not here
    assert analysis.BudgetExceededError is analysis.UndecidedError  # the former name, kept for callers


def test_the_names_callers_import_are_there():
    from sweeplab.analysis import (  # noqa: F401  (what sweeplab, the tests, the benchmarks and the README use)
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


def test_an_unknown_name_is_an_attribute_error():
    with pytest.raises(AttributeError, match="no attribute 'analyse'"):
        analysis.analyse  # noqa: B018


def test_a_sub_package_loads_without_the_engine():
    code = (
        "import sys\n"
        "import sweeplab.analysis.optimal.gametree\n"
        "assert 'sweeplab.analysis.analyzer' not in sys.modules, 'the engine loaded'\n"
        "from sweeplab.analysis import analyze\n"
        "assert 'sweeplab.analysis.analyzer' in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
