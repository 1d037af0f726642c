"""Golden `to_code` snapshots of examples/: generated code changes only on purpose.

Regenerate after an intended change with `UPDATE_GOLDEN=1 make test`, then read the diff.
"""
import ast
import inspect
import os

import pytest

import autograph
from examples import seeds

GOLDEN = os.path.join(os.path.dirname(__file__), 'golden')
FUNCTIONS = [f for _, f in inspect.getmembers(seeds, inspect.isfunction)
             if f.__module__ == seeds.__name__]


@pytest.mark.parametrize('fn', FUNCTIONS, ids=[f.__name__ for f in FUNCTIONS])
def test_to_code_snapshot(fn):
    code = autograph.to_code(fn)
    path = os.path.join(GOLDEN, f'{fn.__name__}.txt')
    if os.environ.get('UPDATE_GOLDEN') or not os.path.exists(path):
        with open(path, 'w') as f:
            f.write(code)
    with open(path) as f:
        assert code == f.read(), f'generated code of {fn.__name__} changed; see {path}'


@pytest.mark.parametrize('fn', FUNCTIONS, ids=[f.__name__ for f in FUNCTIONS])
def test_generated_code_round_trips_and_stays_short(fn):
    code = autograph.to_code(fn)
    reparsed = ast.unparse(ast.parse(code))
    assert [line for line in reparsed.splitlines() if line.strip()] == code.splitlines()
    original = len(inspect.getsource(fn).strip().splitlines())
    assert len(code.splitlines()) <= 2.5 * original + 4
    assert 'ag.ld(' not in code and 'try:' not in code


def test_snapshot_files_all_belong_to_an_example():
    names = {f'{f.__name__}.txt' for f in FUNCTIONS}
    assert set(os.listdir(GOLDEN)) <= names
