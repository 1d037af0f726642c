"""A list or dict that a nested staged statement leaves as it came in is the same object
afterwards (runtime.state.mutation: `Mutations._unchanged`), as in Python: the statement
around it sees it unchanged on that path, and merges the in-place change another path
makes. Each function is compared with the same function run as plain Python (Python
values and arrays; converted under jit, eagerly, under a caller's jax.jit and jax.vmap);
a path that truly binds the name to a new object is still the named error."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from tests.helpers import assert_same, converted

f32, i32 = jnp.float32, jnp.int32


def dict_two_levels(x, flag=False):
    d = {'a': x * 0.0}
    if x > 0:
        if x > 1:        # the inner statement carries d (the elif writes it), leaves it
            x = x + 1.0
        elif flag:
            d['b'] = x
    else:
        d['a'] = x
    return x, d


def list_in_loop(x, n, flag=False):
    h = [x * 0.0, x * 0.0]
    if x > 0:
        i = 0
        while i < n:     # a staged loop whose body leaves h as it came in
            i += 1
            if flag:
                h[0] = x
    else:
        h[1] = x
    return h


def three_levels(x, n, flag=False):
    d = {'a': x * 0.0}
    hist = [0.0, 0.0, 0.0]
    for j in range(n):
        if x > j:
            if x > 2 * j:
                if flag:
                    d['a'] = d['a'] + x
                    hist[0] += 1.0
                x = x * 0.5
        else:
            d['a'] = d['a'] + 1.0
            hist[j % 3] += x
    return x, d, hist


def inner_changes(x, flag=False):
    d = {'a': x * 0.0}
    h = [x]
    if x > 0:
        if x > 1:       # on this path the inner statement changes them in place
            d['a'] = x * 2.0
            h[0] = x + 1.0
        elif flag:
            d['a'] = x
    else:
        d['a'] = x - 1.0
        h[0] = x * 3.0
    return d, h


def argument_left_alone(x, d, h, flag=False):
    if x > 0:
        if x > 1:
            x = x + 1.0
        elif flag:
            d['b'] = x
    else:
        d['b'] = x * 2.0
        h[0] = h[0] + 1.0
    return x


def after_the_statement(x, flag=False):
    d = {'a': x * 0.0}
    h = []
    e = d
    if x > 0:
        if x > 1:
            x = x + 1.0
        elif flag:
            d['a'] = x
    else:
        d['a'] = x
    d['c'] = x * 3.0    # seen through `e` too: d is still the object e names
    h.append(x)
    return e, h


def over_rows(v, flag=False):
    d = {'a': 0.0}
    h = [0.0, 0.0]
    for t in v:          # a scan over the rows of an array
        if t > 0:
            if t > 1:
                t = t * 2.0
            elif flag:
                h[0] = t
        else:
            d['a'] = d['a'] + t
            h[1] = h[1] + 1.0
    return d, h


def rebinds(x):
    d = {'a': x * 0.0}
    if x > 0:
        if x > 1:
            d = {'a': x}      # a new object on this path
    else:
        d['a'] = x
    return d


def _python(value):
    return jax.tree_util.tree_map(lambda v: np.asarray(v).item() if np.ndim(v) == 0 else v,
                                  value)


CASES = [
    (dict_two_levels, (2.5,)), (dict_two_levels, (0.5,)), (dict_two_levels, (-1.0,)),
    (list_in_loop, (1.5, 3)), (list_in_loop, (1.5, 0)), (list_in_loop, (-1.0, 2)),
    (three_levels, (3.0, 4)), (three_levels, (-1.0, 3)), (three_levels, (0.7, 5)),
    (inner_changes, (2.0,)), (inner_changes, (0.5,)), (inner_changes, (-2.0,)),
    (after_the_statement, (2.0,)), (after_the_statement, (-2.0,)),
]


def _arrays(args):
    return [i32(a) if type(a) is int else f32(a) for a in args]


@pytest.mark.parametrize('fn,args', CASES)
def test_python_values(fn, args):
    expected = fn(*args)
    assert_same(autograph.convert(fn)(*args), expected)


@pytest.mark.parametrize('fn,args', CASES)
def test_traced_arrays(fn, args):
    arrays = _arrays(args)
    expected = fn(*arrays)
    assert_same(autograph.convert(fn)(*arrays), expected)
    assert_same(jax.jit(converted(fn))(*arrays), expected)


@pytest.mark.parametrize('fn,args', CASES)
def test_flag_true(fn, args):
    """The paths that the Python flag guards are traced too."""
    arrays = _arrays(args)
    assert_same(autograph.convert(fn)(*arrays, flag=True), fn(*arrays, flag=True))


def test_vmap():
    xs = f32([2.5, 0.5, -1.0, 3.0])
    for fn in (dict_two_levels, inner_changes):
        expected = [fn(x) for x in xs]
        got = jax.vmap(converted(fn))(xs)
        for i, e in enumerate(expected):
            assert_same(jax.tree_util.tree_map(lambda v: v[i], got), e)
    ns = i32([3, 0, 2, 1])
    got = jax.vmap(converted(list_in_loop))(xs, ns)
    for i, (x, n) in enumerate(zip(xs, ns)):
        assert_same([v[i] for v in got], list_in_loop(x, n))


@pytest.mark.parametrize('flag', [False, True])
def test_over_rows(flag):
    v = f32([0.5, -1.0, 2.0, -0.25])
    expected = over_rows(v, flag=flag)
    assert_same(autograph.convert(over_rows)(v, flag=flag), expected)
    assert_same(jax.jit(converted(over_rows), static_argnames='flag')(v, flag=flag), expected)
    assert_same(autograph.convert(over_rows)(np.asarray(v), flag=flag), expected)


@pytest.mark.parametrize('x', [2.0, 0.5, -1.0])
def test_the_callers_objects(x):
    """What the call leaves in the caller's dict and list, twice, as Python's."""
    fn = autograph.convert(argument_left_alone)
    expected_d, expected_h, d, h = {'a': 1.0}, [1.0], {'a': 1.0}, [1.0]
    for _ in range(2):
        expected = argument_left_alone(f32(x), expected_d, expected_h)
        assert_same(fn(f32(x), d, h), expected)
        assert_same(_python(d), _python(expected_d))
        assert_same(_python(h), _python(expected_h))


def test_identity_kept():
    """The nested statement gives back the object itself: what the function does to it
    afterwards is seen through every name for it."""
    for x in (2.0, -2.0):
        e, h = autograph.convert(after_the_statement)(f32(x))
        expected_e, expected_h = after_the_statement(f32(x))
        assert set(e) == set(expected_e) == {'a', 'c'} and len(h) == len(expected_h) == 1
        assert_same(e, expected_e)


def test_a_new_object_on_a_path_is_still_the_named_error():
    assert rebinds(2.0) == {'a': 2.0}
    with pytest.raises(autograph.ControlFlowError, match="'d' is changed in place on one path"):
        autograph.convert(rebinds)(f32(2.0))
