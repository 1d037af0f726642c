# Two commands for a newcomer: `make demo` and `make test`. Both set up .venv first.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

# The oldest supported JAX, with PennyLane, in a second environment made once and kept
# (remade when requirements-jax07.txt or pyproject.toml change).
VENV07 := .venv-jax07
PY07 := $(VENV07)/bin/python
STAMP07 := $(VENV07)/.installed
# The staging, state, calling and embedding tests that run on it too (about 2 minutes,
# beside the main pass; the whole suite, which passes there as well, runs on the newest
# JAX; the converter's own tests, scopes and Python semantics, do not depend on JAX's version).
TESTS07 := tests/test_pennylane.py tests/test_conditionals.py tests/test_loops.py \
	tests/test_state.py tests/test_function.py tests/test_embedding.py \
	tests/test_frameworks.py tests/test_range_staging.py \
	tests/test_symbolic_shapes.py tests/test_golden.py \
	tests/test_calls.py 'tests/test_calls_more.py::test_convert_a_prebuilt_transform[pmap]' \
	tests/test_shard_map.py tests/test_sharded_programs.py tests/test_distributed.py

.PHONY: install install-jax07 demo test test-newest bench fuzz clean

install: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test,cli,bench]'
	touch $(STAMP)

$(STAMP07): pyproject.toml requirements-jax07.txt
	$(PYTHON) -m venv $(VENV07)
	$(PY07) -m pip install --quiet --upgrade pip
	$(PY07) -m pip install --quiet -r requirements-jax07.txt -e '.[test]'
	touch $(STAMP07)

install-jax07: $(STAMP07)

demo: install
	$(PY) examples/demo.py

# The x64 pass reruns the tests marked x64 (every construct) with 64-bit types enabled:
# Python numbers then become weakly typed 64-bit values, which the staging must promote
# as JAX does. x64 is process-wide, hence a second run.
#
# The main and x64 passes run on two workers (pytest-xdist; CI has two cores), each test
# file on one worker (--dist loadfile: a module's fixture that starts an 8-device child
# process runs once, not once per worker). The JAX 0.7.1 pass runs beside them (its
# output is shown after them); `make test` fails if any of the three fails.
#
# XLA compiles the tests' thousands of small programs with LLVM's optimisations off
# (about 15% less time; HLO passes, which the tests that read compiled HLO check, still
# run). Tests that start JAX in a child process with flags of their own keep theirs.
# Within a run, tests share the programs XLA compiles (tests/conftest.py: JAX's
# persistent compilation cache in a folder made for the run and removed after it).
test: export XLA_FLAGS ?= --xla_backend_optimization_level=0
test: install $(STAMP07)
	@echo "XLA_FLAGS=$$XLA_FLAGS"
	@$(PY07) -m pytest -q -p no:cacheprovider $(TESTS07) > $(VENV07)/test.log 2>&1 & \
	old=$$!; \
	echo "$(PY) -m pytest -q -n 2 --dist loadfile --durations=15"; $(PY) -m pytest -q -n 2 --dist loadfile --durations=15; \
	main=$$?; \
	echo "JAX_ENABLE_X64=1 $(PY) -m pytest -q -n 2 --dist loadfile -m x64"; \
	JAX_ENABLE_X64=1 $(PY) -m pytest -q -n 2 --dist loadfile -m x64; x64=$$?; \
	wait $$old; jax07=$$?; \
	echo "$(PY07) -m pytest -q $(TESTS07)"; cat $(VENV07)/test.log; \
	test $$main = 0 -a $$x64 = 0 -a $$jax07 = 0

# The whole suite on a newer Python (not in `make test`: CI has one Python). Python 3.12
# and 3.13 change what the converter reads (range iterators, the bytecode it compares with
# the source, the limit on recursion through C) and install a newer JAX (0.11 and 0.12 in
# November 2026). `make test-newest PYTHON_NEWEST=python3.13` (about 20 minutes).
PYTHON_NEWEST ?= python3.13
VENV_NEWEST := .venv-newest

test-newest:
	test -x $(VENV_NEWEST)/bin/python || $(PYTHON_NEWEST) -m venv $(VENV_NEWEST)
	$(VENV_NEWEST)/bin/python -m pip install --quiet -e '.[test,cli]'
	XLA_FLAGS=--xla_backend_optimization_level=0 \
	$(VENV_NEWEST)/bin/python -m pytest -q -n 2 --dist loadfile -p no:cacheprovider

# Numba, for the kernels benchmark, lives in a side environment of its own.
BENCH_VENV := .venv-bench
BENCH_STAMP := $(BENCH_VENV)/.installed

$(BENCH_STAMP): pyproject.toml requirements-bench.txt
	$(PYTHON) -m venv $(BENCH_VENV)
	$(BENCH_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(BENCH_VENV)/bin/python -m pip install --quiet -r requirements-bench.txt -e '.[bench]'
	touch $(BENCH_STAMP)

bench: install $(BENCH_STAMP)
	$(PY) benchmarks/conversion_time.py
	$(BENCH_VENV)/bin/python benchmarks/kernels.py --write
	$(BENCH_VENV)/bin/python benchmarks/vectorised_loops.py --write
	$(PY) benchmarks/loop_scaling.py
	$(PY) benchmarks/run.py
	$(PY) benchmarks/hlo_table.py
	$(PY) benchmarks/cheap_branches.py
	$(PY) benchmarks/loop_gradients.py
	$(PY) benchmarks/conversion_scaling.py --write
	$(PY) benchmarks/checks.py
	$(PY) benchmarks/logging_calls.py
	$(PY) benchmarks/call_overhead.py

# 2,000 random valid programs, half of them using closures and global/nonlocal: every
# mismatch with plain Python is a bug; named errors on valid programs are counted too.
fuzz: install
	$(PY) -m tests.fuzzer --programs 2000

clean:
	rm -rf $(VENV) $(VENV07) $(BENCH_VENV) $(VENV_NEWEST) build *.egg-info
