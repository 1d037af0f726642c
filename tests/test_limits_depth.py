"""Depth, length and size limits: functions as deeply nested, as long and as large as
CPython itself compiles convert and compute what Python computes, in time linear in
their size (see benchmarks/conversion_scaling.py), never a RecursionError or an
IndentationError from inside the converter.

The sources are generated, written to a file and imported (the converter reads source
files); the largest cases run in a subprocess with a time limit.
"""
import importlib.util
import json
import os
import subprocess
import sys

import jax
from unittest import mock
import jax.numpy as jnp
import pytest

import autograph
from autograph.runtime.staging import cheap

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NESTED_IFS = 98       # CPython 3.11 compiles `if`s nested this deep in a function, not 99
LONG_ELIF = 2900      # near the longest elif chain CPython 3.11 compiles (about 2,990)


def nested_ifs(depth):
    lines = ['def f(x):']
    lines += ['    ' * (d + 1) + f'if x > {d}:' for d in range(depth)]
    return lines + ['    ' * (depth + 1) + 'x = x + 1', '    return x']


def elif_chain(length):
    lines = ['def f(x):', '    if x == 0:', '        y = 0']
    for d in range(1, length):
        lines += [f'    elif x == {d}:', f'        y = {d * 10}']
    return lines + ['    else:', '        y = -1', '    return y']


def elif_returns(length):
    """An elif chain whose every branch returns (the passes for returns and unreachable
    code walk it too)."""
    lines = ['def f(x):', '    if x == 0:', '        return 0']
    for d in range(1, length):
        lines += [f'    elif x == {d}:', f'        return {d * 10}']
    return lines + ['    return -1']


def ternary_chain(length):
    expression = ' '.join(f'{d * 10} if x == {d} else' for d in range(length)) + ' -1'
    return ['def f(x):', f'    return {expression}']


def flat_ifs(count):
    lines = ['def f(x):', '    y = 0']
    for d in range(count):
        lines += [f'    if x > {d}:', f'        y = y + {d}']
    return lines + ['    return y']


def load(lines, directory, name):
    path = os.path.join(directory, f'{name}.py')
    with open(path, 'w') as file:
        file.write('\n'.join(lines) + '\n')
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.f


def staged_equations(fn, x):
    """How many equations the converted fn's jaxpr has at its top level, and whether it
    has a conditional anywhere."""
    jaxpr = jax.make_jaxpr(autograph.convert(fn, jit=False))(x)
    return len(jaxpr.jaxpr.eqns), 'cond[' in str(jaxpr) or 'select_n' in str(jaxpr)


def test_ifs_nested_as_deep_as_cpython_compiles(tmp_path):
    f = load(nested_ifs(NESTED_IFS), tmp_path, 'nested')
    for x in (0, 50, NESTED_IFS + 5):
        assert int(autograph.convert(f)(jnp.int32(x))) == f(x)
        assert autograph.convert(f)(x) == f(x)


def test_a_method_nested_to_the_limit_inside_its_class(tmp_path):
    lines = ['class Model:', '    def f(self, x):']
    lines += ['    ' * (d + 2) + f'if x > {d}:' for d in range(NESTED_IFS - 1)]
    lines += ['    ' * (NESTED_IFS + 1) + 'x = x + 1', '        return x', '',
              'def f(x):', '    return Model().f(x)']
    f = load(lines, tmp_path, 'method_nested')
    assert int(autograph.convert(f)(jnp.int32(40))) == f(40)


@pytest.mark.parametrize('make, length', [(elif_chain, 300), (ternary_chain, 200)])
def test_long_chains_on_a_traced_value_are_one_selection(tmp_path, make, length):
    f = load(make(length), tmp_path, f'{make.__name__}_{length}')
    for x in (0, 7, length - 1, length + 3):
        assert int(autograph.convert(f)(jnp.int32(x))) == f(x)
    equations, selects = staged_equations(f, jnp.int32(3))
    assert selects
    # One comparison per test and one selection per branch, not nested conditionals.
    assert equations <= 2 * length + 5


def test_an_if_chain_with_computations_is_one_switch(tmp_path):
    lines = ['def f(x):', '    if x < 1:', '        y = x * 2.0']
    lines += [f'    elif x < {d}:\n        y = jnp.sin(x) + {d}' for d in range(2, 40)]
    lines += ['    else:', '        y = -x', '    return y']
    f = load(['import jax.numpy as jnp'] + lines, tmp_path, 'switch_chain')
    for x in (0.5, 7.5, 100.):
        assert float(autograph.convert(f)(jnp.float32(x))) == pytest.approx(float(f(x)))
    with mock.patch.object(cheap, 'selectable', lambda *_: False):   # (else one select)
        jaxpr = str(jax.make_jaxpr(autograph.convert(f, jit=False))(jnp.float32(1.)))
    assert jaxpr.count('cond[') == 1 and 'branches=(' in jaxpr


def run_heavy():
    """The largest cases, in a fresh interpreter: results and conversion times."""
    import tempfile
    import time
    directory = tempfile.mkdtemp()
    found = {}
    # Python values: the converted code runs as Python (staging these chains is tested at
    # 300 and 200 above; XLA alone takes about a minute to compile 2,900 branches).
    f = load(elif_chain(LONG_ELIF), directory, 'long_elif')
    start = time.perf_counter()
    found['long elif'] = [autograph.convert(f)(x) == f(x) for x in (0, 1234, LONG_ELIF + 1)]
    found['long elif seconds'] = time.perf_counter() - start
    f = load(elif_returns(LONG_ELIF), directory, 'long_elif_returns')
    found['long elif returns'] = [autograph.convert(f)(x) == f(x) for x in (7, LONG_ELIF + 1)]
    f = load(ternary_chain(LONG_ELIF), directory, 'long_ternary')
    found['long ternary'] = [autograph.convert(f)(x) == f(x) for x in (5, LONG_ELIF - 1)]
    found['staged'] = 'if_chain' in autograph.to_code(f) or 'if_exp_chain' in autograph.to_code(f)
    f = load(flat_ifs(10_000), directory, 'flat_ifs')
    start = time.perf_counter()
    autograph.to_code(f)
    found['10,000 ifs seconds'] = time.perf_counter() - start
    found['10,000 ifs'] = autograph.convert(f)(4) == f(4)
    return found


def test_the_longest_chains_and_ten_thousand_ifs_convert():
    code = 'import json, tests.test_limits_depth as t; print(json.dumps(t.run_heavy()))'
    result = subprocess.run([sys.executable, '-c', code], cwd=ROOT, capture_output=True,
                            text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    found = json.loads(result.stdout.splitlines()[-1])
    assert found['long elif'] == [True] * 3 and found['long elif returns'] == [True] * 2
    assert found['long ternary'] == [True] * 2 and found['staged']
    assert found['10,000 ifs'] is True


def test_loops_nested_to_cpythons_limit_of_nested_blocks_convert(tmp_path):
    # CPython compiles at most 20 statically nested blocks (loops, try, with); the user's
    # function has 19 loops, which the converted code turns into nested functions.
    lines = ['def f(x):']
    for d in range(19):
        lines.append('    ' * (d + 1) + f'for i{d} in range(1):')
    lines += ['    ' * 20 + 'x = x + 1', '    return x']
    f = load(lines, tmp_path, 'nested_loops')
    assert int(autograph.convert(f)(jnp.int32(1))) == f(1)
    assert autograph.convert(f)(1) == f(1)
