# Two commands on a fresh machine with Python 3.11+ and make: `make run`, `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck unit unit-nojit solver-cache bench deploy-check clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

# The game server on http://127.0.0.1:8765 (WebSocket at /ws), SQLite file in this folder.
run: $(STAMP)
	$(BIN)/tischrunde serve

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP)
	$(BIN)/mypy engine bots server/standings.py server/plain.py server/ratings.py

# One test process per core (pytest-xdist), each test file whole in one of them: the suite
# takes about two thirds of its serial time on two cores. Plain `pytest` runs it in one.
unit: $(STAMP)
	$(BIN)/python -m pytest -n auto --dist loadfile

# The solver's tests once more with the JIT off (docs/conventions.md section 10.6): the kernels
# run as plain Python, where mask code that holds only for int64 gives wrong answers, and a
# line-coverage tool can see their lines. Tests that solve whole deals skip (tests/jit.py).
unit-nojit: $(STAMP)
	NUMBA_DISABLE_JIT=1 $(BIN)/python -m pytest tests/engine/skat/solver

test: lint typecheck unit unit-nojit

# Drop the Skat solver's numba cache if its sources changed (bots/solver_cache.py); the tests,
# `tischrunde` and the bot pool do it themselves, benchmarks run by hand need it after an edit.
solver-cache: $(STAMP)
	$(BIN)/python -m bots.solver_cache

bench: solver-cache
	$(BIN)/python -m bench.iss_replay
	$(BIN)/python -m bench.load --clients 1000

# deploy/ built and run for real: base images from Debian packages, the server image, the
# compose stack in a network namespace of its own, played through nginx (docs/deploy.md).
# Needs root, podman, podman-compose and mmdebstrap; without them it says so and is skipped.
deploy-check: $(STAMP)
	$(BIN)/python -m deploy.check

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache .ruff_cache
