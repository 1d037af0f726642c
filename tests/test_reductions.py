"""Loops whose iterations are independent but for accumulations (`s += e`, `s *= e`,
`s = max(s, e)`, ...) run vectorised, the accumulators reduced once (analysis.
accumulators, runtime.loops.reductions): the values of the plain Python loop (floats
within rtol 1e-5: the sums add in another order), plain, under jit, vmap and grad; the
type the sequential loop gives; no loop left in the program; `sequential_sums=True`
keeps the sequential loop; and loops that are not such accumulations stay sequential."""
from unittest import mock

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from autograph.runtime.loops import reductions
from benchmarks import kernel_sources as kernels
from tests.helpers import assert_same, converted, primitive_names

rng = np.random.default_rng(0)
X = rng.standard_normal(40).astype(np.float32)
NEAR_ONE = (1 + 0.05 * rng.standard_normal(40)).astype(np.float32)
K = rng.integers(-50, 50, 40).astype(np.int32)


def loops_in(fn, *args):
    """The loop primitives in the jaxpr of `fn` converted (no jit of its own)."""
    fn = fn if isinstance(fn, autograph.Function) else converted(fn)
    return primitive_names(jax.make_jaxpr(fn)(*args)) & {'while', 'scan'}


def sequential(fn):
    """Converted `fn` with no accumulation vectorised: the sequential loop."""
    def run(*args):
        with mock.patch.object(reductions, 'kinds', lambda *_: None):
            return converted(fn)(*args)
    return run


def assert_same_type(a, b):
    ta, tb = jax.typeof(a), jax.typeof(b)
    assert (ta.shape, ta.dtype, ta.weak_type) == (tb.shape, tb.dtype, tb.weak_type), (ta, tb)


# --- the forms, each vs plain Python ----------------------------------------------------

def sum_augmented(x):
    s = 0.0
    for i in range(x.shape[0]):
        s += x[i] * x[i]
    return s


def sum_assigned(x):
    s = 1.5
    for i in range(x.shape[0]):
        s = s + 2 * x[i]
    return s


def sum_swapped(x):
    s = x[0]
    for i in range(x.shape[0]):
        s = x[i] * 3 + s
    return s


def difference(x):
    s = 0.0
    for i in range(x.shape[0]):
        s -= x[i]
        s = s - x[i] + 1
    return s


def product(x):
    p = 1.0
    for i in range(x.shape[0]):
        p *= x[i]
    return p


def product_assigned(x):
    p = 2.0
    for i in range(x.shape[0]):
        p = x[i] * p
    return p


def builtin_max(x):
    m = -100.0
    for i in range(x.shape[0]):
        m = max(m, x[i] * 2)
    return m


def builtin_min(x):
    m = 100.0
    for i in range(x.shape[0]):
        m = min(m, x[i])
    return m


def array_extrema(x):
    hi, lo = x[0], x[0]
    for i in range(x.shape[0]):
        hi = jnp.maximum(hi, jnp.sin(x[i]))
        lo = jnp.minimum(jnp.cos(x[i]), lo)
    return hi, lo


def under_ifs(x):
    pos, neg, top, low = 0.0, 0.0, -10.0, 10.0
    for i in range(x.shape[0]):
        if x[i] > 0:
            pos += x[i]
            top = max(top, x[i])
        else:
            neg -= x[i]
            if x[i] < -0.5:
                low = min(low, x[i])
    return pos, neg, top, low


def with_writes(x):
    out = x * 0
    s, p = 0.0, 1.0
    for i in range(x.shape[0]):
        t = x[i] * 0.5
        out[i] = t + 1
        s += t
        p *= 1 + t * 0.1
    return out, s, p


def vector_sum(x):
    s = jnp.zeros(x.shape[1], x.dtype)
    for i in range(x.shape[0]):
        s += x[i] * x[i]
    return s


def nested_sum(x):
    out = x[:, 0] * 0
    for i in range(x.shape[0]):
        s = 0.0
        for j in range(x.shape[1]):
            if i != j:
                s += x[i, j] * x[j, i]
        out[i] = s
    return out


FLOAT_FORMS = [sum_augmented, sum_assigned, sum_swapped, difference, product_assigned,
               builtin_max, builtin_min, array_extrema, under_ifs, with_writes]


def plain(fn, *arrays):
    """`fn` run as Python on NumPy copies of `arrays`."""
    return fn(*[np.array(a) for a in arrays])


@pytest.mark.parametrize('fn', FLOAT_FORMS + [product], ids=lambda f: f.__name__)
def test_float_forms_as_python_vectorised(fn):
    x = NEAR_ONE if fn is product else X
    expected = plain(fn, x)
    assert_same(autograph.convert(fn)(jnp.asarray(x)), expected, rtol=1e-5)
    assert_same(jax.jit(converted(fn))(jnp.asarray(x)), expected, rtol=1e-5)
    assert loops_in(fn, jnp.asarray(x)) == set()


@pytest.mark.parametrize('fn', FLOAT_FORMS, ids=lambda f: f.__name__)
def test_under_vmap(fn):
    xs = rng.standard_normal((3, 12)).astype(np.float32)
    expected = [plain(fn, row) for row in xs]
    got = jax.vmap(converted(fn))(jnp.asarray(xs))
    for k, want in enumerate(expected):
        assert_same(jax.tree_util.tree_map(lambda v: v[k], got), want, rtol=1e-5)


@pytest.mark.parametrize('fn', FLOAT_FORMS + [product], ids=lambda f: f.__name__)
def test_type_is_the_sequential_loops(fn):
    x = jnp.asarray(NEAR_ONE if fn is product else X)
    fast, slow = converted(fn)(x), sequential(fn)(x)
    assert loops_in(sequential(fn), x) != set()     # (the sequential loop indeed)
    jax.tree_util.tree_map(assert_same_type, fast, slow)


def test_vector_and_nested_accumulators():
    x = rng.standard_normal((9, 9)).astype(np.float32)
    for fn in (vector_sum, nested_sum):
        expected = plain(fn, x)
        assert_same(autograph.convert(fn)(jnp.asarray(x)), expected, rtol=1e-5)
        assert loops_in(fn, jnp.asarray(x)) == set()
        assert_same_type(converted(fn)(jnp.asarray(x)), sequential(fn)(jnp.asarray(x)))


# --- integers: exact, and the sequential loop's type ----------------------------------

def int_sum_of_floats(x):
    s = 0
    for i in range(x.shape[0]):
        s += x[i]
    return s


def int_forms(k):
    s, p, top, low = 0, 1, -1000, 1000
    for i in range(k.shape[0]):
        s += k[i] * k[i]
        if k[i] % 9 == 0:
            p *= k[i]
        top = max(top, k[i])
        low = jnp.minimum(low, k[i])
    return s, p, top, low


def int_index_sum(x):
    s = 0
    for i in range(x.shape[0]):
        if x[i] > 0:
            s += i
    return s


def test_int_accumulator_with_float_items_is_a_float():
    x = jnp.asarray(X)
    assert_same(autograph.convert(int_sum_of_floats)(x), plain(int_sum_of_floats, x))
    fast, slow = converted(int_sum_of_floats)(x), sequential(int_sum_of_floats)(x)
    assert_same_type(fast, slow)
    assert jnp.issubdtype(fast.dtype, jnp.floating)


@pytest.mark.parametrize('fn, data', [(int_forms, K), (int_index_sum, X)],
                         ids=['int_forms', 'int_index_sum'])
def test_integer_reductions_are_exact(fn, data):
    with np.errstate(over='ignore'):     # (the product wraps around, in any order alike)
        expected = plain(fn, data)
    got = autograph.convert(fn)(jnp.asarray(data))
    jax.tree_util.tree_map(lambda a, b: np.testing.assert_array_equal(np.asarray(a), b),
                           got, expected)
    jax.tree_util.tree_map(assert_same_type, converted(fn)(jnp.asarray(data)),
                           sequential(fn)(jnp.asarray(data)))
    assert loops_in(fn, jnp.asarray(data)) == set()


def test_max_skips_a_later_nan_as_python_and_maximum_propagates_it():
    x = X.copy()
    x[7] = np.nan
    for fn in (builtin_max, builtin_min, array_extrema, under_ifs):
        expected = plain(fn, x)
        jax.tree_util.tree_map(
            lambda a, b: np.testing.assert_allclose(np.asarray(a), b, rtol=1e-5),
            autograph.convert(fn)(jnp.asarray(x)), expected)


# --- gradients ---------------------------------------------------------------------------

@pytest.mark.parametrize('fn', [sum_augmented, difference, product, builtin_max,
                                array_extrema, with_writes], ids=lambda f: f.__name__)
def test_gradients_as_the_sequential_loop(fn):
    x = jnp.asarray(NEAR_ONE if fn is product else X)

    def loss(run):
        return lambda x: sum(jnp.sum(v) for v in jax.tree_util.tree_leaves(run(x)))
    assert_same(jax.grad(loss(converted(fn)))(x), jax.grad(loss(sequential(fn)))(x),
                rtol=1e-5)


# --- the kernels: no loop left -----------------------------------------------------------

def nbody_inputs(n=12):
    return (rng.standard_normal((n, 3)).astype(np.float32),
            rng.uniform(0.5, 1.5, n).astype(np.float32), np.zeros((n, 3), np.float32))


def conv_inputs(n=12):
    return (rng.standard_normal((n, n)).astype(np.float32),
            rng.standard_normal((5, 5)).astype(np.float32), np.zeros((n, n), np.float32))


@pytest.mark.parametrize('kernel, inputs', [(kernels.nbody, nbody_inputs),
                                            (kernels.conv2d, conv_inputs)],
                         ids=['nbody', 'conv2d'])
def test_kernels_keep_no_loop(kernel, inputs):
    args = inputs()
    expected = kernel(*[a.copy() for a in args])
    arrays = [jnp.asarray(a) for a in args]
    assert_same(autograph.convert(kernel)(*arrays), expected, rtol=1e-5, atol=1e-5)
    assert loops_in(kernel, *arrays) == set()
    hlo = jax.jit(converted(kernel)).lower(*arrays).compile().as_text()
    assert ' while(' not in hlo


# --- sequential_sums ------------------------------------------------------------------------

def test_sequential_sums_keeps_the_loop():
    x = jnp.asarray(X)
    fn = autograph.convert(sum_augmented, jit=False, sequential_sums=True)
    assert loops_in(fn, x)
    assert_same(fn(x), plain(sum_augmented, x))
    nbody = autograph.convert(kernels.nbody, jit=False, sequential_sums=True)
    assert loops_in(nbody, *[jnp.asarray(a) for a in nbody_inputs()])


def directive_sum(x):
    s = 0.0
    for i in range(x.shape[0]):
        autograph.set_loop_options(sequential_sums=True)
        s += x[i]
    t = 0.0
    for i in range(x.shape[0]):
        t += x[i]
    return s, t


def test_sequential_sums_as_a_loop_option():
    x = jnp.asarray(X)
    jaxpr = jax.make_jaxpr(converted(directive_sum))(x)
    assert len([e for e in jaxpr.eqns if e.primitive.name in ('while', 'scan')]) == 1
    assert_same(autograph.convert(directive_sum)(x), plain(directive_sum, x))


def test_sequential_sums_leaves_exact_reductions_vectorised():
    for fn, x in ((int_forms, K), (builtin_max, X)):
        in_order = autograph.convert(fn, jit=False, sequential_sums=True)
        assert not loops_in(in_order, jnp.asarray(x))


# --- not accumulations: sequential, Python's values ---------------------------------------

def read_elsewhere(x):
    out = x * 0
    s = 0.0
    for i in range(x.shape[0]):
        s += x[i]
        out[i] = s
    return out, s


def read_in_a_test(x):
    s = 0.0
    for i in range(x.shape[0]):
        if s < 3:
            s += x[i]
    return s


def two_operators(x):
    s = 1.0
    for i in range(x.shape[0]):
        s += x[i]
        s *= 0.5
    return s


def reversed_difference(x):
    s = 0.0
    for i in range(x.shape[0]):
        s = x[i] - s
    return s


def with_break(x):
    s = 0.0
    for i in range(x.shape[0]):
        if x[i] > 1.5:
            break
        s += x[i]
    return s


def builtin_max_swapped(x):
    """`max(e, m)` keeps a NaN `e`: which items come after it decides the result."""
    m = -10.0
    for i in range(x.shape[0]):
        m = max(x[i], m)
    return m


def max_of_three(x):
    m = -10.0
    for i in range(x.shape[0]):
        m = max(m, x[i], 0.5)
    return m


@pytest.mark.parametrize('fn', [read_elsewhere, read_in_a_test, two_operators,
                                reversed_difference, with_break, max_of_three,
                                builtin_max_swapped], ids=lambda f: f.__name__)
def test_other_updates_stay_sequential(fn):
    x = jnp.asarray(X)
    assert 'reductions=' not in autograph.to_code(fn)
    assert loops_in(fn, x) != set()
    assert_same(autograph.convert(fn)(x), plain(fn, x), rtol=1e-5)
    with_nan = X.copy()
    with_nan[7] = np.nan
    assert_same(autograph.convert(fn)(jnp.asarray(with_nan)), plain(fn, with_nan), rtol=1e-5)
