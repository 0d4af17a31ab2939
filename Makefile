# The two commands a fresh machine needs: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
RUN_STAMP := $(VENV)/.installed-server

.PHONY: run test lint typecheck pytest browser services bench clean

# The virtual environment is rebuilt whenever pyproject.toml changes.
$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,server,postgres,redis,bench]'
	touch $(STAMP)

# Only what playing needs; the tests' stamp above installs it too.
$(RUN_STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[server]'
	touch $(RUN_STAMP)

# The game at http://127.0.0.1:8000 with its SQLite file in ./data.
run: $(RUN_STAMP)
	$(BIN)/hearts serve --host 127.0.0.1 --port 8000 --data-dir data

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks

typecheck: $(STAMP)
	$(BIN)/mypy

# Debian's Chromium for the browser tests (installed with apt-get when missing, as root), and
# axe-core from the npm registry (pinned, tests/browser/axe) for the accessibility tests.
browser:
	sh scripts/ensure-chromium.sh
	sh scripts/ensure-axe.sh

# Debian's PostgreSQL server and Redis for tests/scale (installed with apt-get when missing, as
# root). The tests start their own throwaway instances on loopback ports and stop them afterwards.
services:
	sh scripts/ensure-services.sh

# HEARTS_REQUIRE_BROWSER=1 / HEARTS_REQUIRE_SERVICES=1: a missing Chromium, PostgreSQL or Redis
# fails the tests that need it instead of skipping them.
pytest: $(STAMP) browser services
	HEARTS_REQUIRE_BROWSER=1 HEARTS_REQUIRE_SERVICES=1 $(BIN)/python -m pytest -q

test: lint typecheck pytest

bench: $(STAMP)
	$(BIN)/hearts bench
	$(BIN)/python -m pip install --quiet -e '.[bench]' && $(BIN)/python benchmarks/bench_vs_openspiel.py || \
		echo "open-spiel could not be installed; only our own figure was measured"

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache .hypothesis
