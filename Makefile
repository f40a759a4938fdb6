# Set-up is part of every target: the virtualenv is created and the pinned dependencies
# installed whenever a lock file is newer than its last install. Serving needs only the
# runtime lock; tests and the other development targets install the development lock. The
# tools that compile the rules core have a virtualenv of their own (.venv-build, below).
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   := .venv
BIN    := $(VENV)/bin
RUNTIME := $(VENV)/.installed-runtime
STAMP  := $(VENV)/.installed-dev
PORT   ?= 8000
export PORT
# make run listens on this machine only (HOST=0.0.0.0 make run to serve the network); the image
# listens on every interface of its container (gunicorn.conf.py's default).
HOST   ?= 127.0.0.1

# A recipe that fails leaves no target behind (the compiled core's stamp above all).
.DELETE_ON_ERROR:

.PHONY: run test lint typecheck spec kit unit pure image-tests compile image browser fuzz load bench lock clean peer-engine

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)

# The project itself goes in editable, without dependencies (the locks pin them all), for
# its command: tarot-rules.
INSTALL_PROJECT = $(BIN)/python -m pip install --quiet --disable-pip-version-check --no-deps -e .

# service/__init__.py holds the version, which the install writes into the package's metadata.
$(RUNTIME): requirements/runtime.lock pyproject.toml service/__init__.py | $(VENV)/bin/python
	@echo "installing the pinned runtime (requirements/runtime.lock) and the project into $(VENV)"
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements/runtime.lock
	$(INSTALL_PROJECT)
	touch $@

$(STAMP): requirements/dev.lock pyproject.toml service/__init__.py | $(VENV)/bin/python
	@echo "installing the development lock (requirements/dev.lock) and the project into $(VENV)"
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements/dev.lock
	$(INSTALL_PROJECT)
	touch $@

# The message catalogs (service/texts/locales): the install compiles them (setup.py); a .po
# edited since is compiled again here. Listed after a venv stamp, which installs Babel.
CATALOGS := $(patsubst %.po,%.mo,$(wildcard service/texts/locales/*/LC_MESSAGES/*.po))
%.mo: %.po
	$(BIN)/pybabel --quiet compile -i $< -o $@ -l $(word 4,$(subst /, ,$<))

test: lint typecheck browser unit pure image-tests

# The rules core compiled with mypyc, in place (an optional speed-up of the same sources, used
# only while they are unchanged: service/rules/__init__.py), with the build tools of
# requirements/build.lock. They go into a virtualenv of their own, from the same Python, as the
# image's build stage has them: the environment that serves (.venv) holds only what serves,
# and the compiled modules need nothing of the build tools to run. Where it cannot be built
# (no C compiler, no Python headers) the service runs the pure core and this says so; with
# REQUIRE_COMPILED=1 (CI) that is an error. make run serves the compiled core; make test runs
# the suite on it and the rule tests again on the pure one. Each step says what it does first:
# the compilation takes about a minute, and is silent meanwhile.
BUILD_VENV := .venv-build
BUILD_TOOLS := $(BUILD_VENV)/.installed
$(BUILD_TOOLS): requirements/build.lock
	@echo "installing the build tools of the rules core (requirements/build.lock) into $(BUILD_VENV)"
	test -x $(BUILD_VENV)/bin/python || $(PYTHON) -m venv $(BUILD_VENV)
	$(BUILD_VENV)/bin/python -m pip install --quiet --disable-pip-version-check -r requirements/build.lock
	touch $@

RULES_SOURCES := $(filter-out service/rules/__init__.py,$(wildcard service/rules/*.py))
COMPILED_STAMP := service/rules/compiled.txt
CAN_COMPILE = command -v "$${CC:-cc}" >/dev/null 2>&1 \
	&& $(BUILD_VENV)/bin/python -c 'import os, sys, sysconfig; sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")))'
$(COMPILED_STAMP): $(RULES_SOURCES) setup.py | $(BUILD_TOOLS)
	@# A module removed from the core leaves its old build behind, which imports the new one
	@# half-way: every build starts from none.
	@rm -f service/rules/*.so
	@if ! $(CAN_COMPILE); then \
		echo "no C compiler or no Python headers here: the rules core runs as pure Python"; \
		test "$(REQUIRE_COMPILED)" != 1; \
	elif echo "compiling the rules core with mypyc: about a minute the first time, silent meanwhile (again only when service/rules changes)" \
		&& TAROT_RULES_COMPILE=1 $(BUILD_VENV)/bin/python setup.py --quiet build_ext --inplace >$(BUILD_VENV)/compile.log 2>&1; then \
		echo "the rules core is compiled (mypyc)"; \
	else \
		tail -n 20 $(BUILD_VENV)/compile.log; rm -f service/rules/*.so $(COMPILED_STAMP); \
		echo "the rules core could not be compiled (above; all of it in $(BUILD_VENV)/compile.log): it runs as pure Python"; \
		test "$(REQUIRE_COMPILED)" != 1; \
	fi

compile: $(COMPILED_STAMP)

# Serves the compiled rules core where a C compiler is found, as the image does; gunicorn's
# start-up log names the core it serves.
run: $(RUNTIME) $(CATALOGS) $(COMPILED_STAMP)
	HOST=$(HOST) $(BIN)/gunicorn -c gunicorn.conf.py service.wsgi:app


# The service's image, tarot-rules:VERSION, on the Docker engine that answers (one of our own,
# started where none does: scripts/image says how to reach it and stop it), from the official
# Python base or, where no registry can be reached, a local Debian one.
image:
	scripts/image build

# The /docs test drives Debian's Chromium, the TypeScript client test runs on Debian's
# Node.js and the score sheet's CSV is opened in Debian's LibreOffice Calc (headless, without
# its recommended packages); docs/ci.md's check without the command runs on Debian's curl and
# jq. Each is installed where this user may, and the tests say how to get them (and are
# skipped) where they cannot be; REQUIRE_SPREADSHEET=1 (CI) makes a missing LibreOffice a failure.
browser:
	-@scripts/ensure-packages chromium
	-@scripts/ensure-packages node:nodejs npm
	-@scripts/ensure-packages --no-recommends soffice:libreoffice-calc-nogui
	-@scripts/ensure-packages curl jq
	-@scripts/ensure-packages h2load:nghttp2-client nginx:nginx-light

lint: $(STAMP)
	$(BIN)/ruff check setup.py gunicorn.conf.py service tests load bench conformance
	$(BIN)/ruff format --check setup.py gunicorn.conf.py service tests load bench conformance

typecheck: $(STAMP)
	$(BIN)/mypy

# magmacrunch-tarot, a published engine the conformance kit runs side by side with the service
# (tests/test_conformance_matrix.py), in a virtualenv of its own: nothing of it enters .venv. Its
# install needs the package registry; where pip cannot reach it, its log says why and the
# side-by-side test fails, quoting it (it is never skipped).
MAGMACRUNCH_VENV := .venv-magmacrunch
$(MAGMACRUNCH_VENV)/.installed: requirements/magmacrunch.txt
	@echo "installing magmacrunch-tarot (requirements/magmacrunch.txt) into $(MAGMACRUNCH_VENV), for the conformance kit's side-by-side test"
	test -x $(MAGMACRUNCH_VENV)/bin/python || $(PYTHON) -m venv $(MAGMACRUNCH_VENV)
	$(MAGMACRUNCH_VENV)/bin/python -m pip install --quiet --disable-pip-version-check --no-deps \
		-r requirements/magmacrunch.txt >$(MAGMACRUNCH_VENV)/install.log 2>&1 \
		|| { cat $(MAGMACRUNCH_VENV)/install.log; exit 1; }
	touch $@

# The published engine's virtualenv alone, for a side-by-side run of one's own
# (conformance/README.md): make peer-engine.
peer-engine: $(MAGMACRUNCH_VENV)/.installed

unit: $(STAMP) $(CATALOGS) $(COMPILED_STAMP)
	-@$(MAKE) --no-print-directory $(MAGMACRUNCH_VENV)/.installed
	$(BIN)/pytest -n 2 -m "not image"

# The image's tests (tests/test_image*.py: the image built, run as the Deployment runs it,
# several instances behind nginx), after the others and one at a time: containers running
# beside the suite would slow its timing-sensitive serving tests. They need a Docker engine
# (scripts/image starts one where root may); without one they are skipped, saying why, unless
# REQUIRE_IMAGE=1 (CI), which makes that a failure.
image-tests: $(STAMP) $(CATALOGS)
	$(BIN)/pytest -m image $(wildcard tests/test_image*.py)

# The rule tests and properties on the pure-Python core (the same when nothing is compiled).
pure: $(STAMP) $(CATALOGS)
	TAROT_RULES_PURE=1 $(BIN)/pytest -n 2 tests/test_rules_*.py tests/test_properties_*.py

# Contract fuzzing of a real gunicorn on 127.0.0.1: schemathesis CLI, 1000 examples per
# operation (FUZZ_EXAMPLES=n to change), JUnit report in reports/fuzz/.
FUZZ_EXAMPLES ?= 1000
fuzz: $(STAMP) $(CATALOGS)
	VENV_BIN=$(BIN) scripts/fuzz $(FUZZ_EXAMPLES)

# Load and fault runs with wrk (installed from Debian where this user may) against gunicorn
# on 127.0.0.1; LOAD_SECONDS per run. Table on stdout, figures in reports/load/.
LOAD_SECONDS ?= 10
load: $(STAMP) $(CATALOGS)
	scripts/ensure-packages wrk
	$(BIN)/python load/run.py --seconds $(LOAD_SECONDS)

# Benchmarks in an environment of their own (.venv-bench: the runtime dependencies and the
# peer engine): the rules core against the peer, a tournament's seating by player count
# (quality and CPU per request, 16 to 120 players), HTTP against a bare-Flask baseline, the
# service's worker beside gunicorn's stock gevent worker (under 3 min), then batches (HTTP
# batch against one deal per request, the command line, memory), a spike before and after
# admission control (bench/overload.py, the last release's worker built beside this one), and
# the HTTP batch figures against the image.
BENCH_VENV := .venv-bench
$(BENCH_VENV)/.installed: requirements/runtime.lock requirements/bench.txt
	test -x $(BENCH_VENV)/bin/python || $(PYTHON) -m venv $(BENCH_VENV)
	$(BENCH_VENV)/bin/python -m pip install --quiet --disable-pip-version-check -r requirements/runtime.lock
	$(BENCH_VENV)/bin/python -m pip install --quiet --disable-pip-version-check --no-deps -r requirements/bench.txt
	touch $@

bench: $(BENCH_VENV)/.installed $(RUNTIME) $(CATALOGS) $(COMPILED_STAMP)
	scripts/ensure-packages wrk h2load:nghttp2-client
	$(BENCH_VENV)/bin/python bench/core.py --json reports/bench/core.json
	$(BENCH_VENV)/bin/python bench/seating.py --json reports/bench/seating.json
	$(BENCH_VENV)/bin/python bench/duplicate.py --json reports/bench/duplicate.json
	$(BENCH_VENV)/bin/python bench/endtoend.py --json reports/bench/http.json
	$(BENCH_VENV)/bin/python bench/serving.py --json reports/bench/serving.json
	$(BENCH_VENV)/bin/python bench/batch.py --json reports/bench/batch.json
	@# A spike, before and after admission control (h2load, about 5 min).
	$(BENCH_VENV)/bin/python bench/overload.py --json reports/bench/overload.json
	@# The batch figures again against the image, as it ships, where a Docker engine can be had.
	@if tag=$$(scripts/image build); then \
		$(BENCH_VENV)/bin/python bench/batch.py --http-only --image "$$tag" --json reports/bench/batch-image.json; \
	else echo "no Docker engine here: the image is not measured"; fi

# Regenerate openapi.yaml from the schemas, with the answers to its request examples (a test
# fails while either differs).
spec: $(STAMP) $(CATALOGS)
	$(BIN)/python -m service.spec --answers --record > openapi.yaml.new || { rm -f openapi.yaml.new; exit 1; }
	mv openapi.yaml.new openapi.yaml

# Rewrite the conformance kit's case files (conformance/v1/cases) with its generator
# (conformance/generator); a test fails while they differ from what it writes.
kit: $(STAMP) $(CATALOGS)
	$(BIN)/python -m conformance.generator

# Re-pin the dependencies (needs the package registry): the runtime from pyproject.toml, the
# build tools from requirements/build.in, and the development set with the build tools' pins.
PIP_COMPILE = $(BIN)/pip-compile --quiet --strip-extras --no-emit-index-url --no-emit-find-links \
	--unsafe-package pip --unsafe-package distribute
lock: $(STAMP)
	$(PIP_COMPILE) -o requirements/runtime.lock pyproject.toml
	$(PIP_COMPILE) -o requirements/build.lock requirements/build.in
	$(PIP_COMPILE) --extra dev -c requirements/build.lock -o requirements/dev.lock pyproject.toml requirements/build.in

clean:
	rm -rf $(VENV) $(BUILD_VENV) $(BENCH_VENV) $(MAGMACRUNCH_VENV) reports build $(COMPILED_STAMP) service/rules/*.so
