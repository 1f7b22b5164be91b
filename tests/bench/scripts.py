"""The scripts in ``benchmarks/`` as modules for their tests (nothing imports them by name: they are run as files)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def path(name: str) -> Path:
    """``benchmarks/GROUP/NAME.py``: a script found by its name, whichever part's folder holds it."""
    (found,) = BENCHMARKS.glob(f"*/{name}.py")
    return found


def load(name: str) -> ModuleType:
    """``benchmarks/GROUP/NAME.py`` loaded as the module ``NAME``."""
    spec = importlib.util.spec_from_file_location(name, path(name))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run(name: str, *args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """``python benchmarks/GROUP/NAME.py ARGS...``, its output captured."""
    return subprocess.run([sys.executable, str(path(name)), *args], capture_output=True, text=True, timeout=timeout)
