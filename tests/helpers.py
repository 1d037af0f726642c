"""Shared checks: converted code against the same Python run unconverted."""
import copy
import inspect
import os
import re
from unittest import mock

import jax
import jax.numpy as jnp
import numpy as np

import autograph
from benchmarks.hlo import in_loops
from autograph.runtime.staging import cheap


def assert_same(actual, expected, rtol=1e-5, atol=1e-6):
    """Pytrees of numbers/arrays equal leaf by leaf (same structure, same shapes, close
    values: a scalar does not pass for a vector of its value; equal strings). A caller that
    loosens the tolerances says why."""
    a_leaves, a_tree = jax.tree_util.tree_flatten(actual)
    e_leaves, e_tree = jax.tree_util.tree_flatten(expected)
    assert a_tree == e_tree, f'structure {a_tree} != {e_tree}'
    for a, e in zip(a_leaves, e_leaves):
        if isinstance(a, str) or isinstance(e, str):   # (text: equal as Python's)
            assert a == e, f'{a!r} != {e!r}'
            continue
        a, e = np.asarray(a), np.asarray(e)
        assert a.shape == e.shape, f'shape {a.shape} != {e.shape}'
        np.testing.assert_allclose(a, e, rtol=rtol, atol=atol)


def agree_with_numpy(fn, *args):
    """`fn` converted (twice) and plain Python, each on fresh copies of `args`: the same
    results, and the same arrays left in the caller's NumPy arguments."""
    plain_args = copy.deepcopy(args)
    expected = fn(*plain_args)
    converted = autograph.convert(fn)
    for _ in range(2):
        given = copy.deepcopy(args)
        assert_same(converted(*given), expected)
        for mine, theirs in zip(given, plain_args):
            if isinstance(theirs, np.ndarray):
                np.testing.assert_allclose(mine, theirs, rtol=1e-6)


def check(fn, *args, **kwargs):
    """Run `fn` plain, converted under jit (traced args) and converted eagerly; compare."""
    expected = fn(*args, **kwargs)
    assert_same(autograph.convert(fn)(*args, **kwargs), expected)
    assert_same(autograph.convert(fn, jit=False)(*args, **kwargs), expected)
    return expected


def check_ints(fn, *args):
    """`check` of `fn` on Python ints and again on int32 JAX scalars."""
    check(fn, *args)
    check(fn, *[jnp.int32(a) for a in args])


def counting(func):
    """`func` wrapped to count its calls in a one-item list, and that list (as SciPy's
    optimizers count them: `ncalls, f = _wrap_scalar_function(func, args)`)."""
    calls = [0]

    def counted(x):
        calls[0] += 1
        return func(x)
    return calls, counted


def converted(fn):
    """The converted `fn` without its own jit, to run under jax.jit/vmap/grad."""
    return autograph.convert(fn, jit=False)


def line_of(fn, text):
    """The line number in its file of the first line of `fn` containing `text`."""
    lines, start = inspect.getsourcelines(fn)
    for offset, line in enumerate(lines):
        if text in line:
            return start + offset
    raise AssertionError(text)


def site(fn, text):
    """'file.py:line' of the first line of `fn` containing `text`, as error messages and
    warnings name a user's line (the file's base name: messages shorten the path)."""
    return f'{os.path.basename(inspect.getsourcefile(fn))}:{line_of(fn, text)}'


def primitives(fn, *args, cheap_selects=False):
    """Names of all primitives in the jaxpr of the converted `fn`, nested ones included.
    Array arguments are traced; Python values stay static. Each staged branch is a
    `cond` unless `cheap_selects`: the cost rule that makes cheap branches selects
    (runtime.staging.cheap) is off, so that tests can tell a staged branch."""
    if not cheap_selects:
        with mock.patch.object(cheap, 'selectable', lambda *_: False):
            return primitives(fn, *args, cheap_selects=True)
    converted = autograph.convert(fn, jit=False)
    is_array = [isinstance(a, (jax.Array, np.ndarray)) for a in args]

    def with_static(*arrays):
        it = iter(arrays)
        return converted(*[next(it) if array else a for a, array in zip(args, is_array)])
    jaxpr = jax.make_jaxpr(with_static)(*[a for a, array in zip(args, is_array) if array])
    return primitive_names(jaxpr)


def primitive_names(closed):
    """Names of all primitives in a ClosedJaxpr, nested ones included."""
    return {eqn.primitive.name for eqn in equations(closed.jaxpr)}


def equations(jaxpr):
    """Every equation of `jaxpr`, those of the jaxprs its equations hold included."""
    for eqn in jaxpr.eqns:
        yield eqn
        for sub in _subjaxprs(eqn):
            yield from equations(sub)


def _subjaxprs(eqn):
    for value in eqn.params.values():
        for item in value if isinstance(value, (tuple, list)) else [value]:
            if hasattr(item, 'jaxpr') and hasattr(item, 'consts'):
                yield item.jaxpr
            elif hasattr(item, 'eqns'):
                yield item


def loop_copies(fn, *args):
    """The `copy` instructions of the compiled converted `fn` (under jax.jit, `args`
    traced) that copy an array some while loop carries, inside a loop's body or what it
    calls (conditional branches, nested loops, fusions). XLA copies a carried array
    there when a write cannot be in place (a read of the old value not ordered before
    the write): O(size) per iteration. Fails when nothing compiled to a while loop."""
    hlo = jax.jit(converted(fn)).lower(*args).compile().as_text()
    carried = set()
    for shapes in re.findall(r'= \((.*)\) while\(', hlo):
        carried.update(re.findall(r'\b\w+\[\d[\d,]*\]', shapes))
    assert carried, 'no while loop carrying an array was compiled'
    copy = re.compile(r'= (\w+\[[\d,]*\])(?:\{[\d,]*\})? copy\(')
    return [line.strip() for text in _in_loops(hlo) for line in text.splitlines()
            if (m := copy.search(line)) and m.group(1) in carried]


def loop_conditionals(fn, *args):
    """The `conditional` instructions of the compiled converted `fn` (under jax.jit,
    `args` traced) inside a while loop's body or condition, or what they call: each is
    a branch the device decides on every iteration."""
    hlo = jax.jit(converted(fn)).lower(*args).compile().as_text()
    return [line.strip() for text in _in_loops(hlo) for line in text.splitlines()
            if ' conditional(' in line]


def _in_loops(hlo):
    """The texts of the computations of compiled `hlo` that while loops run (bodies,
    conditions, and what they call: conditional branches, nested loops, fusions)."""
    assert re.search(r'(?:body|condition)=', hlo), 'no while loop was compiled'
    return in_loops(hlo)


def staged(fn, *args):
    """The control-flow primitives in the converted `fn`'s jaxpr, each staged branch a
    `cond` (see `primitives`; tests/test_cheap_branches.py checks the selects)."""
    return primitives(fn, *args) & {'cond', 'while', 'scan'}


i32 = jnp.int32
f32 = jnp.float32
