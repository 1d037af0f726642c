"""Memory limits: converting and calling user functions keeps none of them alive.

Each scenario runs in a fresh interpreter (a subprocess with a time limit): it makes many
functions from `exec`'d source registered in linecache (as a notebook does), converts and
calls them in every way the API offers, drops them, and reports which are still alive and
what the converter's own tables and linecache still hold. The same functions run
unconverted give the expected values.
"""
import json
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

SOURCE = '''
import jax
import jax.numpy as jnp

def helper(x):
    if x > {k}:
        return x * 2.0
    return x - 1.0

def step(x, n=3):
    total = x
    for i in range(n):
        total = helper(total)
    while total > 100.0:
        total = total / 2.0
    return total

def fails(x):
    if x > {k}:
        raise ValueError('too big')
    return x

jitted_helper = jax.jit(helper)

def calls_jitted(x):
    if x > 0:
        return jitted_helper(x) + 1.0
    return x

class Model:
    def __init__(self, w):
        self.w = w

    def __call__(self, x):
        if x > self.w:
            return x - self.w
        return x + self.w

    def method(self, x):
        while x < self.w:
            x = x * 2.0 + 1.0
        return x

def make_closure(c):
    def closure(x):
        if x > c:
            return x * c
        return x
    return closure

ternary = lambda x: x * 2.0 if x > {k} else x - 3.0

def apply(fn, x):
    if x > 0:
        return fn(x)
    return x
'''


def run_child(function, *args, timeout=120):
    """Run `function(*args)` of this module in a fresh interpreter; its JSON result."""
    code = (f'import json, tests.test_limits_memory as m; '
            f'print(json.dumps(m.{function}(*{args!r})))')
    result = subprocess.run([sys.executable, '-c', code], cwd=ROOT, capture_output=True,
                            text=True, timeout=timeout)
    assert result.returncode == 0, result.stdout + result.stderr
    return json.loads(result.stdout.splitlines()[-1])


# --- run in the child -------------------------------------------------------------------

def _module(k):
    """A fresh module namespace from SOURCE, registered in linecache like a notebook cell."""
    import linecache
    file = f'<generated {k}>'
    text = SOURCE.format(k=k)
    linecache.cache[file] = (len(text), None, text.splitlines(keepends=True), file)
    namespace = {'__name__': f'generated_{k}'}
    exec(compile(text, file, 'exec'), namespace)
    return namespace


def _use(ns, k, way):
    """Convert and call something of `ns` one way; (converted result, Python result)."""
    import jax
    import jax.numpy as jnp

    import autograph
    x = float(k % 7) + 0.5
    if way == 'jit arrays':
        return autograph.convert(ns['step'])(jnp.float32(x)), ns['step'](jnp.float32(x))
    if way == 'jit python scalars':
        return autograph.convert(ns['step'])(x, n=2), ns['step'](x, n=2)
    if way == 'no jit':
        return autograph.convert(ns['step'], jit=False)(x), ns['step'](x)
    if way == 'concrete function':
        concrete = autograph.convert(ns['step']).get_concrete_function(jnp.float32(x))
        str(concrete)
        return concrete(jnp.float32(x)), ns['step'](jnp.float32(x))
    if way == 'method':
        ns['Model'].method = autograph.convert(ns['Model'].method)
        model = ns['Model'](jnp.float32(k))
        expected = type(model).method.python_function(model, x)
        return model.method(jnp.float32(x)), expected
    if way == 'callable object':
        model = ns['Model'](float(k))
        return autograph.convert(model)(jnp.float32(x)), model(jnp.float32(x))
    if way == 'closure':
        closure = ns['make_closure'](float(k))
        return autograph.convert(closure)(jnp.float32(x)), closure(jnp.float32(x))
    if way == 'lambda':
        return autograph.convert(ns['ternary'])(jnp.float32(x)), ns['ternary'](jnp.float32(x))
    if way == 'prebuilt jit':
        # (jitted_helper cannot run unconverted: helper's `if` on a tracer)
        return autograph.convert(ns['calls_jitted'])(jnp.float32(x)), ns['helper'](x) + 1.0
    if way == 'jax transformations':
        converted = autograph.convert(ns['helper'])
        got = (jax.jit(converted)(x) + jax.grad(converted)(x)
               + jax.vmap(converted)(jnp.full(2, x))[0])
        h = 1e-3   # helper is linear within 0.5 of x
        slope = (ns['helper'](x + h) - ns['helper'](x - h)) / (2 * h)
        return got, ns['helper'](x) * 2 + slope
    if way == 'error':
        try:
            autograph.convert(ns['fails'])(jnp.float32(k + 1))
        except ValueError as error:
            return str(error), 'too big'
        return 'no error', 'too big'
    if way == 'transform':
        return autograph.transform(ns['step'])(x), ns['step'](x)
    if way == 'to_code':
        return 'helper' in autograph.to_code(ns['step'], recursive=True), True
    raise AssertionError(way)


WAYS = ('jit arrays', 'jit python scalars', 'no jit', 'concrete function', 'method',
        'callable object', 'closure', 'lambda', 'prebuilt jit', 'jax transformations',
        'error', 'transform', 'to_code')
CHEAP_WAYS = ('no jit', 'transform', 'to_code')   # no compilation


def _tables():
    """Sizes of what the converter keeps per generated module."""
    import linecache

    from autograph import conversion
    from autograph.runtime import origin
    return {'generated code': len(conversion._generated),
            'line maps': len(origin._maps),
            'linecache': sum(1 for name in linecache.cache if name.startswith('<autograph'))}


def _flush_jax():
    """JAX's shared cache of compiled programs drops the entries of freed jitted functions
    lazily. Until then a compiled program holds the Python callbacks in it (the run-time
    checks of `raise` and `assert` hold the user's code that makes the exception), and
    the code objects (not the functions) of what it traced, whose generated code then
    stays cached too. This makes JAX drop them now."""
    import jax
    jax.clear_caches()


def convert_and_drop(count, expensive_every):
    """Make `count` modules; use each one way (an expensive way every
    `expensive_every`-th); drop them all. What is left alive, and the tables' sizes."""
    import gc
    import linecache
    import weakref

    import numpy as np
    before = _tables()
    alive, wrong, ways = [], [], set()
    for k in range(count):
        ns = _module(k)
        way = (WAYS[(k // expensive_every) % len(WAYS)] if k % expensive_every == 0
               else CHEAP_WAYS[k % len(CHEAP_WAYS)])
        ways.add(way)
        got, expected = _use(ns, k, way)
        if not (got == expected if isinstance(got, (str, bool)) else
                np.allclose(np.asarray(got), np.asarray(expected))):
            wrong.append(f'{way} {k}: {got!r} != {expected!r}')
        model_class = ns['Model']
        alive += [weakref.ref(v) for v in (ns['step'], ns['helper'], ns['make_closure'],
                                           ns['ternary'], model_class, model_class.method,
                                           model_class.__call__)]
        del ns, model_class, got, expected
        linecache.cache.pop(f'<generated {k}>')
    _flush_jax()
    gc.collect()
    return {'alive': sum(1 for ref in alive if ref() is not None), 'checked': len(alive),
            'wrong': wrong, 'ways': sorted(ways), 'before': before, 'after': _tables()}


def closures_of_one_def(count):
    """Convert and call `count` closures of one `def`, dropping each: generations of
    code, and memory held after the first tenth and at the end (tracemalloc)."""
    import gc
    import tracemalloc
    import weakref
    from unittest import mock

    import autograph
    from autograph import conversion
    ns = _module(0)
    generations = []
    generate = conversion._generate

    def counted(fn):   # (a Mock would keep the function alive in its call list)
        generations.append(fn.__qualname__)
        return generate(fn)
    freed = [0]

    def count_freed():
        freed[0] += 1
    tracemalloc.start()
    sizes, wrong = {}, 0
    with mock.patch.object(conversion, '_generate', counted):
        for k in range(count):
            closure = ns['make_closure'](float(k % 5))
            if autograph.convert(closure, jit=False)(3.0) != closure(3.0):
                wrong += 1
            weakref.finalize(closure, count_freed)   # (kept by weakref until it runs)
            del closure
            if k + 1 in (count // 10, count):
                gc.collect()
                sizes[k + 1] = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    return {'generations': len(generations), 'wrong': wrong, 'sizes': sizes,
            'alive': count - freed[0]}


def bound_methods(count):
    """Instances whose converted method was called: are any kept alive?"""
    import gc
    import weakref

    import jax.numpy as jnp
    ns = _module(0)
    import autograph
    ns['Model'].method = autograph.convert(ns['Model'].method)
    alive = []
    for k in range(count):
        model = ns['Model'](jnp.float32(k))
        model.method(jnp.float32(1.0))
        alive.append(weakref.ref(model))
        del model
    gc.collect()
    return sum(1 for ref in alive if ref() is not None)


def arguments_of_a_long_lived_function(count):
    """A converted function kept for the whole run, called with `count` closures (each
    a new call key, called twice), dropped one by one: are they freed with their traces?"""
    import gc
    import weakref

    import jax.numpy as jnp
    import numpy as np

    import autograph
    ns = _module(0)
    apply = autograph.convert(ns['apply'])
    freed, wrong = [0], 0

    def count_freed():
        freed[0] += 1
    for k in range(count):
        closure = ns['make_closure'](float(k % 3))
        for _ in range(2):
            if not np.allclose(apply(closure, jnp.float32(2.0)), ns['apply'](closure, 2.0)):
                wrong += 1
        weakref.finalize(closure, count_freed)
        del closure
    gc.collect()
    return {'wrong': wrong, 'alive': count - freed[0], 'traces': apply.trace_count,
            'kept traces': len(apply._concrete)}


# --- the tests --------------------------------------------------------------------------

def test_a_thousand_converted_functions_are_freed_with_their_tables():
    # 1,000 modules: every way of converting and calling once each (with compilation),
    # the rest converted and called without compiling. 7 objects checked per module.
    result = run_child('convert_and_drop', 1000, 40, timeout=150)
    assert result['ways'] == sorted(WAYS)
    assert result['wrong'] == []
    assert result['checked'] == 7000
    assert result['alive'] == 0
    assert result['after'] == result['before']


def test_ten_thousand_closures_of_one_def_convert_once_in_bounded_memory():
    result = run_child('closures_of_one_def', 10000, timeout=150)
    assert result['wrong'] == 0
    assert result['generations'] == 1
    assert result['alive'] == 0
    sizes = {int(k): v for k, v in result['sizes'].items()}
    # What 9,000 more closures leave behind: nothing per closure (allow 50 bytes each
    # for allocator noise; a kept closure and its converted function take over 1 kB).
    assert sizes[10000] - sizes[1000] < 9000 * 50, sizes


def test_instances_are_not_kept_alive_by_their_converted_methods():
    assert run_child('bound_methods', 50) == 0


def test_functions_passed_to_a_long_lived_function_are_freed_with_their_traces():
    result = run_child('arguments_of_a_long_lived_function', 20)
    # (one trace per closure, and one more: the first call finds the closure's cell `c`
    # as state while tracing -- a helper plain Python made before the call, see
    # autograph.function.state.made_outside -- and traces again with it)
    assert result == {'wrong': 0, 'alive': 0, 'traces': 21, 'kept traces': 0}


def test_a_converted_method_keeps_its_instance_alive_while_it_is_held():
    import gc

    import jax.numpy as jnp

    import autograph
    ns = _module(2)
    plain = ns['Model'].method
    ns['Model'].method = autograph.convert(plain)
    expected = plain(ns['Model'](5.0), 1.0)
    assert ns['Model'](jnp.float32(5.0)).method(jnp.float32(1.0)) == expected
    method = ns['Model'](jnp.float32(5.0)).method   # the instance is held only by this
    gc.collect()
    assert method(jnp.float32(1.0)) == expected
    assert method.__name__ == 'method' and 'Model.method' in repr(method)


@pytest.mark.parametrize('way', WAYS)
def test_each_way_of_calling_matches_python(way):
    # The ways the memory test uses, checked in this process too (a failure names the way).
    import numpy as np
    ns = _module(3)
    got, expected = _use(ns, 3, way)
    if isinstance(got, (str, bool)):
        assert got == expected
    else:
        np.testing.assert_allclose(np.asarray(got), np.asarray(expected), rtol=1e-6)
