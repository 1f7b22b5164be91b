"""The web tests need the ``web`` extra and httpx (``make test`` installs them); under CI a missing one fails."""

import importlib.util
import os

import pytest

MISSING = [name for name in ("fastapi", "uvicorn", "httpx2") if importlib.util.find_spec(name) is None]
MESSAGE = f"the web tests need {', '.join(MISSING)}: pip install -e '.[dev,web]' (make test does)"

if MISSING:
    if os.environ.get("CI") == "true":
        raise RuntimeError(MESSAGE)
    collect_ignore_glob = ["test_*.py"]

    def pytest_report_header() -> str:
        return f"web tests not collected: {MESSAGE}"


@pytest.fixture(scope="session")
def solvers():
    """One pool of solver processes for the tests' applications (starting processes for each test would be slow)."""
    from sweeplab.web.solvers import SolverPool

    pool = SolverPool()
    yield pool
    pool.close()
