# sweeplab: `make demo` runs the main job, `make test` runs the whole test suite.
# Both create a virtual environment in .venv and install sweeplab into it first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: demo test lint clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev,dask]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/sweeplab bench --strategy $(or $(STRATEGY),exact) --board expert --rule safe --games 1000

test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/pytest -n 2; status=$$?; if [ $$status -eq 5 ]; then echo "no tests collected"; exit 0; fi; exit $$status

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .hypothesis .mypy_cache .ruff_cache
