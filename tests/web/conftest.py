"""The web tests need the ``web`` extra and httpx (``make test`` installs them); under CI a missing one fails."""

import importlib.util
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.web.servers import start, stop

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


# ----- the browser tests' fixtures: a real `sweeplab serve`, Debian's Chromium under Playwright, a page on it -----
ROOT = Path(__file__).resolve().parents[2]
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def _missing(what: str) -> None:
    message = f"browser tests need {what}"
    if os.environ.get("CI") == "true":
        pytest.fail(f"{message} (under CI they must run: `make test` installs it)")
    pytest.skip(message)


@pytest.fixture(scope="session")
def server() -> Iterator[str]:
    """`sweeplab serve` on a free port, as a user starts it."""
    process, url = start()
    yield url
    output = stop(process)
    assert "Traceback" not in output, output
    assert f"sweeplab serving on {url} (only this machine can connect" in output


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    executable = shutil.which("chromium")
    if executable is None:
        _missing("Chromium: apt-get install -y chromium")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("Playwright for Python: pip install -e '.[dev]'")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, headless=True, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser, server):
    page = browser.new_page(viewport={"width": 1280, "height": 860})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(server)
    page.wait_for_selector("body[data-ready=true]")
    yield page
    page.close()
    assert not errors, f"the page raised JavaScript errors: {errors}"


@pytest.fixture(scope="session")
def shots(tmp_path_factory) -> Path:
    """Where screenshots go: ``$SWEEPLAB_SCREENSHOTS`` (relative to the repository) or a temporary folder."""
    chosen = os.environ.get("SWEEPLAB_SCREENSHOTS")
    folder = ROOT / chosen if chosen else tmp_path_factory.mktemp("screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder
