"""Thread limits: many threads converting and calling functions at once get the right
results, and each function is converted exactly once; the garbage collector, which
conversions pause, is as it was once they end.

Runs in a fresh interpreter (a subprocess with a time limit), so that nothing is
converted or traced before the threads start. Sixteen threads wait at a barrier, then
each converts and calls functions that only it uses, functions that every thread
converts for itself, and one `autograph.Function` that all of them call for the first
time together (twice: two call keys, two traces). Conversions are counted at the code
generator.
"""
import json
import os
import subprocess
import sys
import threading

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
THREADS = 16

SOURCE = '''
import jax.numpy as jnp

def own_{k}(x):
    total = x
    for i in range(3):
        if total > {k}:
            total = total - {k} * 0.5
        else:
            total = total * 2.0 + 1.0
    return total

def shared(x, n=4):
    while n > 0:
        if x > 1.0:
            x = x * 0.5
        n = n - 1
    return x

def helper(x):
    return x * 3.0 if x > 0 else -x

def calls_helper(x):
    y = helper(x)
    if y > 2.0:
        y = helper(y - 2.0)
    return y
'''


def run_threads():
    """The threads' findings: wrong results, conversions per function, traces."""
    import collections
    import linecache
    import threading
    from unittest import mock

    import jax.numpy as jnp
    import numpy as np

    import autograph
    from autograph import conversion

    namespaces = []
    for k in range(THREADS):
        text = SOURCE.format(k=k)
        file = f'<threads {k}>'
        linecache.cache[file] = (len(text), None, text.splitlines(keepends=True), file)
        namespace = {}
        exec(compile(text, file, 'exec'), namespace)
        namespaces.append(namespace)
    common = namespaces[0]   # every thread converts these same functions
    together = autograph.convert(common['shared'])   # ... and calls this one Function

    generations = collections.Counter()
    lock = threading.Lock()
    generate = conversion._generate

    def counted(fn):
        with lock:
            generations[f'{fn.__code__.co_filename}:{fn.__qualname__}'] += 1
        return generate(fn)

    barrier = threading.Barrier(THREADS)
    wrong, errors = [], []

    def compare(what, got, expected):
        if not np.allclose(np.asarray(got), np.asarray(expected)):
            with lock:
                wrong.append(f'{what}: {got} != {expected}')

    def work(k):
        try:
            ns = namespaces[k]
            x = jnp.float32(k % 5 + 0.5)
            barrier.wait()
            compare('Function shared by all', together(x), common['shared'](x))
            barrier.wait()
            compare('Function shared by all, a Python argument', together(x, n=2),
                    common['shared'](x, n=2))
            compare('own function', autograph.convert(ns['own_' + str(k)])(x),
                    ns['own_' + str(k)](x))
            compare('common function', autograph.convert(common['calls_helper'])(x),
                    common['calls_helper'](x))
            compare('common function, not jitted',
                    autograph.convert(common['shared'], jit=False)(float(x), n=k % 3),
                    common['shared'](float(x), n=k % 3))
            compare('own copy of a common def', autograph.convert(ns['calls_helper'])(x),
                    ns['calls_helper'](x))
        except Exception as error:   # reported to the test, which fails on it
            with lock:
                errors.append(f'{type(error).__name__}: {error}')

    with mock.patch.object(conversion, '_generate', counted):
        threads = [threading.Thread(target=work, args=(k,)) for k in range(THREADS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    import gc
    return {'wrong': wrong, 'errors': errors, 'generations': dict(generations),
            'collector enabled': gc.isenabled(),
            'concrete functions': len(together._concrete), 'traces': together.trace_count}


def test_sixteen_threads_convert_each_function_once_and_agree_with_python():
    code = ('import json, tests.test_limits_threads as t; '
            'print(json.dumps(t.run_threads()))')
    result = subprocess.run([sys.executable, '-c', code], cwd=ROOT, capture_output=True,
                            text=True, timeout=180)
    assert result.returncode == 0, result.stdout + result.stderr
    found = json.loads(result.stdout.splitlines()[-1])
    assert found['errors'] == []
    assert found['wrong'] == []
    expected = {f'<threads {k}>:own_{k}': 1 for k in range(THREADS)}
    # (calls_helper and helper in each thread's module; shared of module 0 only)
    expected.update({f'<threads {k}>:{name}': 1 for k in range(THREADS)
                     for name in ('calls_helper', 'helper')})
    expected['<threads 0>:shared'] = 1
    assert found['generations'] == expected
    assert found['collector enabled']   # (paused by each conversion, resumed by the last)
    # Two call keys (arrays only; with n=2): one trace each, however many threads call.
    assert found['concrete functions'] == 2
    assert found['traces'] == 2


def test_threads_parsing_and_compiling_trees_at_once_do_not_trip_cpython():
    """CPython 3.11 keeps the counter of its tree conversion per interpreter: two threads
    parsing or compiling `ast` trees at once fail with 'AST constructor recursion depth
    mismatch' (gh-106905). Every tree conversion of ours goes through one lock."""
    from autograph.syntax_trees import compile_tree, parse
    source = 'def f(x):\n' + ''.join(f'    if x > {i}:\n        x = (x + {i}) * (x - 1)\n'
                                     for i in range(200))
    errors = []

    def work():
        for _ in range(20):
            try:
                compile_tree(parse(source), '<threads>', 'exec')
            except SystemError as error:
                errors.append(str(error))

    threads = [threading.Thread(target=work) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []


def test_the_collector_is_paused_while_converting_and_as_it_was_after(tmp_path):
    import gc
    from unittest import mock

    import autograph
    from autograph import passes
    (tmp_path / 'collected.py').write_text(
        'def f(x):\n    return x + 1\n\ndef g(x):\n    return x * 2\n')
    sys.path.insert(0, str(tmp_path))
    try:
        import collected
    finally:
        sys.path.remove(str(tmp_path))
    seen, run = [], passes.run

    def recorded(*args, **kwargs):
        seen.append(gc.isenabled())
        return run(*args, **kwargs)

    with mock.patch.object(passes, 'run', recorded):
        assert autograph.convert(collected.f, jit=False)(1.0) == 2.0
        assert gc.isenabled()
        gc.disable()
        try:
            assert autograph.convert(collected.g, jit=False)(1.0) == 2.0
            assert not gc.isenabled()
        finally:
            gc.enable()
        with pytest.raises(autograph.ConversionError):
            autograph.convert(eval('lambda x: x'))(1.0)   # (no source: fails mid-way)
        assert gc.isenabled()
    assert seen == [False, False]
