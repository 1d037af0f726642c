#!/bin/bash
# The checks to run on a machine with a GPU (never in CI): the versions, the vectorised
# loops and cheap branches against hand-written JAX, then the whole suite on 14 workers.
# Run from the repository root; writes its outputs under $OUT (default: device-check/).
# About 7 minutes on one H100 (2026-11-27). Outputs: versions.txt, vectorised.txt,
# cheap.txt, tests.txt; the failures are printed at the end.
OUT=${OUT:-device-check}
mkdir -p "$OUT"
export XLA_PYTHON_CLIENT_PREALLOCATE=false PYTHONPATH=$PWD
[ -e autograph/runtime ] || ln -s ../runtime autograph/runtime   # (no install there)
{ nvidia-smi -L; python3 -c "import sys, jax, numpy; print(sys.version, 'jax', jax.__version__,
'numpy', numpy.__version__, jax.devices())"; } > "$OUT/versions.txt" 2>&1
cat "$OUT/versions.txt"
timeout 170 python3 benchmarks/vectorised_loops.py --quick > "$OUT/vectorised.txt" 2>&1
echo "vectorised loops: rc $?"
timeout 80 python3 benchmarks/cheap_branches.py > "$OUT/cheap.txt" 2>&1
echo "cheap branches: rc $?"
timeout 240 python3 -m pytest -v -n 14 --dist loadfile -p no:cacheprovider --timeout 120 \
    tests > "$OUT/tests.txt" 2>&1
echo "tests: rc $?"
grep -E '^\[gw[0-9]+\] .*(FAILED|ERROR)' "$OUT/tests.txt" | sed 's/.*\(FAILED\|ERROR\) //' | sort -u
tail -1 "$OUT/tests.txt"
