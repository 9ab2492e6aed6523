# The two commands in the README are the contract: `make run` and `make test` work on a fresh
# machine with nothing but Python 3.11 and the package registries.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test check bench lint format install demo

# Debug mode only where asked for: the app's default is production (see tournament/settings.py).
DEV := DJANGO_DEBUG=true
# The port `make run` serves on (`make run PORT=8001`); the demo's printout names the same one.
PORT ?= 8000

install: $(STAMP)

$(PY):
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Spades Director needs Python 3.11 or newer (found " + sys.version.split()[0] + ")")'
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet --disable-pip-version-check -e ".[dev]"
	@touch $(STAMP)

run: install
	$(DEV) $(PY) manage.py migrate --noinput
	$(DEV) $(PY) manage.py demo --port $(PORT)
	@# The print worker beside the web server (prints queue until a worker takes them): Ctrl-C,
	@# or the server stopping for any reason, stops the worker too.
	@$(DEV) sh -c '$(PY) manage.py db_worker --no-reload --no-startup-delay & worker=$$!; \
		trap "kill $$worker 2>/dev/null; wait $$worker" EXIT INT TERM; \
		$(PY) manage.py runserver 127.0.0.1:$(PORT)'

test: install
	$(PY) -m pytest

# The engineers' loop: everything but the browser and the slow tests (fuzzing, PostgreSQL-only,
# several processes), spread over the machine's cores. `make test` and CI run those too.
check: install
	$(PY) -m pytest -m "not browser and not slow" -n auto --dist worksteal

# The scale bench times pages as a director's server serves them: production settings (its own
# defaults), not debug mode, which logs every query and annotates every template node.
# The venue load comes last: it exits 1 when a national evening misses a target (p95, errors).
bench: install
	$(PY) bench/scoring_speed.py
	$(PY) bench/swiss_pairing.py
	$(PY) bench/tournament_scale.py
	$(DEV) $(PY) bench/table_load.py
	$(DEV) $(PY) bench/print_speed.py
	$(DEV) $(PY) bench/print_worker.py
	$(DEV) $(PY) bench/knockout_scale.py
	$(DEV) $(PY) bench/table_taps.py
	$(DEV) $(PY) bench/league.py
	$(DEV) $(PY) bench/swiss_scale.py
	$(DEV) $(PY) bench/import_lock.py
	$(PY) bench/season.py
	$(PY) bench/venue_load.py

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

format: install
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .
