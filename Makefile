# sweeplab: `make demo` runs the main job, `make test` runs the whole test suite.
# Both create a virtual environment in .venv and install sweeplab into it first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: demo test lint clean chromium node screenshots

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev,dask,web,learn]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/sweeplab bench --strategy $(or $(STRATEGY),exact) --board expert --rule safe --games 1000

# The browser tests (tests/web/test_page.py) drive Debian's Chromium: Playwright's own browser download needs a
# network the project cannot count on. Installed here when missing and we are root; otherwise one line says what to do.
chromium:
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing Chromium for the browser tests: apt-get install -y chromium"; \
	    export DEBIAN_FRONTEND=noninteractive; \
	    { apt-get update -qq && apt-get install -y -qq chromium; } >/dev/null || exit 1; \
	  else \
	    echo "the browser tests need Chromium: install Debian's 'chromium' package (sudo apt-get install chromium), then run make test again"; \
	    exit 1; \
	  fi; }

# The arena's JavaScript reference client (tests/strategies/external/test_reference.py) runs under Node: installed
# the same way when missing.
node:
	@command -v node >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing Node for the arena's JavaScript client: apt-get install -y nodejs"; \
	    export DEBIAN_FRONTEND=noninteractive; \
	    { apt-get update -qq && apt-get install -y -qq nodejs; } >/dev/null || exit 1; \
	  else \
	    echo "the arena's tests need Node: install Debian's 'nodejs' package (sudo apt-get install nodejs), then run make test again"; \
	    exit 1; \
	  fi; }

test: $(STAMP) chromium node
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/pytest -n 2; status=$$?; if [ $$status -eq 5 ]; then echo "no tests collected"; exit 0; fi; exit $$status

# Retake the page's screenshots shown in the README (the browser tests, saving into results/web/).
screenshots: $(STAMP) chromium
	SWEEPLAB_SCREENSHOTS=results/web $(BIN)/pytest -q tests/web/test_page*.py

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .hypothesis .mypy_cache .ruff_cache
