# Two commands for a newcomer: `make demo` and `make test`. Both set up .venv first.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: install demo test bench fuzz clean

install: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test,cli,bench]'
	touch $(STAMP)

demo: install
	$(PY) examples/demo.py

# The x64 pass reruns the tests marked x64 (every construct) with 64-bit types enabled:
# Python numbers then become weakly typed 64-bit values, which the staging must promote
# as JAX does. x64 is process-wide, hence a second run.
test: install
	$(PY) -m pytest -q
	JAX_ENABLE_X64=1 $(PY) -m pytest -q -m x64

bench: install
	$(PY) benchmarks/loop_scaling.py
	$(PY) benchmarks/run.py
	$(PY) benchmarks/loop_gradients.py
	$(PY) benchmarks/conversion_scaling.py --write
	$(PY) benchmarks/checks.py

# 2,000 random valid programs, half of them using closures and global/nonlocal: every
# mismatch with plain Python is a bug; named errors on valid programs are counted too.
fuzz: install
	$(PY) -m tests.fuzzer --programs 2000

clean:
	rm -rf $(VENV) build *.egg-info
