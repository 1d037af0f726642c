"""A few programs of the idiom fuzzer (tests/fuzz_idioms.py; `python -m tests.fuzz_idioms`
runs hundreds): composed idioms, run plain and converted, give the same values."""
from tests.fuzz_idioms import run_one

SEEDS = [1, 3, 4]


def test_composed_idioms_match_python():
    problems = [run_one(seed) for seed in SEEDS]
    assert problems == [None] * len(SEEDS), '\n\n'.join(p[1] for p in problems if p)
