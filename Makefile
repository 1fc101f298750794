# Two commands on a fresh machine with Python 3.11+ and make: `make run`, `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck unit bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

# Until the WebSocket server lands (issue 7), `make run` plays a bots-only Skat deal.
run: $(STAMP)
	@echo "Tischrunde: the game server is not built yet; playing a bots-only Skat deal."
	@echo "More: $(BIN)/tischrunde --help"
	$(BIN)/tischrunde play --game skat

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP)
	$(BIN)/mypy engine bots

unit: $(STAMP)
	$(BIN)/python -m pytest

test: lint typecheck unit

bench: $(STAMP)
	$(BIN)/python -m bench.iss_replay

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache .ruff_cache
