# make run    server on http://127.0.0.1:8000 with the knowledge base loaded (SQLite)
# make test   the gates (make lint; meanwhile the numba caches compiled), then the suite on SQLite,
#             then on PostgreSQL when reachable (required with PG=1 or CI=true)
# make lint   ruff check, ruff format --check and mypy: the code as pyproject.toml says
# make test-fast  the suite less its slow, worker, browser and fuzz tests, on SQLite (minutes)
# make bench  the benchmarks
# make serve  production run: gunicorn on PostgreSQL, DEBUG off, static files by WhiteNoise
# make soak   load on that production run (locust on loopback, bounded in time)

VENV := .venv
PY := $(VENV)/bin/python
# PostgreSQL for `make test`: DATABASE_URL if it points at one, else the local server's db "test".
PG_URL ?= $(if $(filter postgres%,$(DATABASE_URL)),$(DATABASE_URL),postgres://postgres@127.0.0.1:5432/test)
PG_REQUIRED := $(filter 1 true,$(PG) $(CI))

.PHONY: venv run test suites test-fast test-knowledge-base lint bench serve soak system-deps

# Debian packages: WeasyPrint's Pango and HarfBuzz, the fonts the signs are set in,
# poppler-utils (pdftoppm) to look at a printed sign, and chromium for the browser tests
# (Playwright drives /usr/bin/chromium and never downloads a browser of its own).
# apt runs only when one is missing.
SYSTEM_DEPS := libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 fonts-dejavu-core \
	fonts-liberation poppler-utils chromium

system-deps:
	@missing=$$(for p in $(SYSTEM_DEPS); do dpkg-query -W -f='$${Status}' $$p 2>/dev/null \
		| grep -q "ok installed" || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "installing $$missing"; \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq $$missing; \
	fi

venv: system-deps $(VENV)/.installed

$(VENV)/.installed: requirements.txt requirements-dev.txt
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install -q -r requirements-dev.txt
	touch $@

run: venv
	$(PY) manage.py migrate
	$(PY) manage.py load_knowledge_base
	DEBUG=$${DEBUG:-true} $(PY) manage.py runserver 127.0.0.1:8000

lint: venv
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy

# The suite in PYTEST_WORKERS processes (pytest-xdist, a test module to a process); the browser
# tests after the others, in a run of their own (their live server commits what it serves) that
# collects tests/browser alone (collecting the whole suite to deselect it costs 15-20 s of CPU).
# Not beside the others: there, on two cores, a click waiting on an in-process simulation passed
# Playwright's 15 s timeout.
# On PostgreSQL only the tests marked `database` run again: a test that cannot reach the
# database answers the same on both (tests/conftest.py _uses_database), so it runs once.
PYTEST_WORKERS ?= 2
PYTEST := $(PY) -m pytest
# Modules in the order tests/conftest.py gives them, the costliest first (not xdist's own: most
# tests first, which left a module of one 80-second test for last).
PARALLEL := -n $(PYTEST_WORKERS) --dist loadfile --no-loadscope-reorder
BROWSER_TESTS := tests/browser
# The engine's numba functions compile on first use (two minutes of CPU in a fresh clone, cached
# in __pycache__ after): engine.warm compiles them in two processes started with the lint gates,
# which leave a core idle, and going on beside the tests (not a gate: a test process that needs a
# function before it is cached compiles it itself, as it did without them).
# The test databases' knowledge base is loaded once ahead the same way (tests/knowledge_base.py),
# not a gate either: a test process that finds no copy loads it itself.
test: venv
	@$(PY) -m engine.warm standard & standard=$$!; $(PY) -m engine.warm spanish & spanish=$$!; \
	$(MAKE) --no-print-directory test-knowledge-base & kb=$$!; \
	if $(MAKE) --no-print-directory lint; then $(MAKE) --no-print-directory suites; status=$$?; \
	else status=1; kill $$standard $$spanish $$kb 2>/dev/null; fi; \
	wait $$standard $$spanish $$kb; exit $$status

# The knowledge base the test databases are copied from, on SQLite and (when it answers)
# PostgreSQL.
test-knowledge-base: venv
	env -u DATABASE_URL $(PY) -m tests.knowledge_base
	@if $(PY) -c "import psycopg; psycopg.connect('$(PG_URL)', connect_timeout=3).close()" 2>/dev/null; then \
		DATABASE_URL='$(PG_URL)' $(PY) -m tests.knowledge_base; fi

# The suites of `make test`, after its gates.
suites: venv
	@echo "== tests on SQLite =="
	env -u DATABASE_URL $(PYTEST) $(PARALLEL) -m "not browser"
	env -u DATABASE_URL $(PYTEST) -m browser $(BROWSER_TESTS)
	@if [ -n "$(PG_REQUIRED)" ] || $(PY) -c "import psycopg; psycopg.connect('$(PG_URL)', connect_timeout=3).close()" 2>/dev/null; then \
		echo "== tests on PostgreSQL ($(PG_URL)) =="; \
		DATABASE_URL='$(PG_URL)' $(PYTEST) $(PARALLEL) -m "database and not browser" && \
		DATABASE_URL='$(PG_URL)' $(PYTEST) -m browser $(BROWSER_TESTS); \
	else \
		echo "== PostgreSQL not reachable at $(PG_URL): ran SQLite only (PG=1 makes it required) =="; \
	fi

test-fast: venv
	env -u DATABASE_URL $(PYTEST) $(PARALLEL) -m "not slow and not worker and not browser and not fuzz"

bench: venv
	$(PY) -m benchmarks

# Production run on http://127.0.0.1:8000: PostgreSQL (SERVE_DATABASE_URL, created if missing),
# DEBUG off, a secret key kept in .secret_key (unless SECRET_KEY is set), static files collected
# and served by WhiteNoise, gunicorn as pitboss/gunicorn_conf.py says (SERVE_WORKERS processes,
# SERVE_THREADS threads each; two processes per CPU and four threads by default), sharing one
# cache (the write throttle's counts, the read cache) in Redis at SERVE_CACHE_URL when it
# answers, else each its own (CACHE_URL).
SERVE_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/pitboss
SERVE_CACHE_URL ?= redis://127.0.0.1:6379/1
serve: venv
	$(PY) -m pitboss.createdb '$(SERVE_DATABASE_URL)'
	test -s .secret_key || $(PY) -c "import secrets; print(secrets.token_urlsafe(50))" > .secret_key
	export DATABASE_URL='$(SERVE_DATABASE_URL)' DEBUG=false CONN_MAX_AGE=$${CONN_MAX_AGE:-60} \
		SECRET_KEY="$${SECRET_KEY:-$$(cat .secret_key)}" \
		CACHE_URL="$${CACHE_URL-$$($(PY) -c "import redis; redis.Redis.from_url('$(SERVE_CACHE_URL)', \
			socket_connect_timeout=2).ping(); print('$(SERVE_CACHE_URL)')" 2>/dev/null)}"; \
	echo "cache: $${CACHE_URL:-each process its own (Redis not reachable at $(SERVE_CACHE_URL))}"; \
	$(PY) manage.py migrate --no-input && \
	$(PY) manage.py load_knowledge_base && \
	$(PY) manage.py collectstatic --no-input -v0 && \
	exec $(VENV)/bin/gunicorn -c pitboss/gunicorn_conf.py pitboss.wsgi

# Load on the production run (its own database, SOAK_DATABASE_URL): throughput, p50/p99, errors;
# then PostgreSQL (a throwaway cluster) restarted mid-load: 503s, recovery, no half-written runs.
soak: venv
	$(PY) -m benchmarks.soak
