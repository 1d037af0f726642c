"""A list comprehension or generator expression with a traced `if`, reduced at once by
`min`, `max`, `sum`, `len`, `any` or `all` (or a generator expression given to `next`):
Python's value, computed with a mask over the
items (runtime/python/selections.py). Ground truth: the same function run as plain
Python on NumPy values. Any other use of such a comprehension stays the named error."""
import re

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from tests.helpers import assert_same


def total_positive(x):
    return sum(v for v in x if v > 0)


def counted(x):
    return len([p for p in x if p > 0.5]), sum(1 for v in x if v < 0)


def first_best_index(x):   # Dijkstra's choice of the next vertex
    best = min([x[v] for v in range(x.shape[0]) if x[v] > 0])
    return min([v for v in range(x.shape[0]) if x[v] > 0 and x[v] == best])


def largest_where(x):
    mask = x != 1.0
    return max(x[i] for i in range(x.shape[0]) if mask[i])


def some_and_every(x):
    return (any(v > 2 for v in x if v < 0), all(v > -1 for v in x if v < 0),
            any(x[i] for i in range(4) if x[i] > 2), all(v for v in x if v != 0.5))


def with_defaults_and_key(x):
    return (min((v for v in x if v > 2.5), default=-1.0),
            max([v for v in x if v < 0], default=7.0),
            max([i for i in range(4) if x[i] > 0], key=lambda i: -x[i], default=-1))


def several_ifs_and_loops(x):
    return (sum(v for v in x if v > -1 if v < 2),
            sum((a * b for a in x if a > 0 for b in x if b < a), 10.0),
            len([(i, j) for i in range(4) if x[i] > 0 for j in range(i) if x[j] < x[i]]))


def python_and_traced_tests(x):   # some items kept by a Python test, some by a traced one
    return (min([x[v] for v in range(4) if v == 2 or x[v] > 0]),
            max([x[v] for v in range(4) if v == 3 or x[v] < 0]),
            sum(x[v] for v in range(4) if v == 1 or x[v] > 0))


def first_kept(x):   # a search: the first index past a threshold, the first negative item
    return (next((i for i in range(4) if x[i] > 1.5), -1),
            next((v for v in x if v < 0), 0.0),
            next((v * 2 for v in x if v != 0.5 if v > -3), x[0]))


CASES = [[1., -2., 3., 0.5], [-1., -2., -3., -0.5], [2., 2., 0.5, 2.], [0., 0., 0., 0.],
         [3., 1., 1., 5.], [0.5, 0.5, -4., 0.5], [1., 1., 1., 1.]]
TOTALS = [total_positive, counted, some_and_every, with_defaults_and_key,
          several_ifs_and_loops, first_kept]
EXTREMA = [first_best_index, largest_where, python_and_traced_tests]


def _python(fn, case):
    """The plain-Python value, or the ValueError Python raises."""
    try:
        return fn(np.asarray(case, np.float32))
    except ValueError as error:
        return error


@pytest.mark.parametrize('fn', TOTALS + EXTREMA)
def test_converted_and_jitted_give_pythons_value(fn):
    converted = autograph.convert(fn)
    jitted = jax.jit(autograph.convert(fn, jit=False))
    for case in CASES:
        expected, x = _python(fn, case), jnp.asarray(case, jnp.float32)
        if isinstance(expected, ValueError):
            with pytest.raises(ValueError, match=re.escape(str(expected))):
                converted(x)
            continue
        assert_same(converted(x), expected)
        assert_same(jitted(x), expected)


@pytest.mark.parametrize('fn', TOTALS + EXTREMA)
def test_under_vmap(fn):
    cases = [c for c in CASES if not isinstance(_python(fn, c), ValueError)]
    expected = [fn(np.asarray(c, np.float32)) for c in cases]
    batched = jax.vmap(autograph.convert(fn))(jnp.asarray(cases, jnp.float32))
    assert_same(batched, jax.tree_util.tree_map(lambda *xs: np.stack(xs), *expected))


def test_python_ints_from_a_range_stay_ints_and_ties_take_the_first():
    index = autograph.convert(first_best_index)(jnp.asarray([2., 1., 1., 1.]))
    assert index == 1 and index.dtype == jnp.int32
    keyed = autograph.convert(with_defaults_and_key)(jnp.asarray([2., 1., 1., 5.]))[2]
    assert keyed == 1 and keyed.dtype == jnp.int32   # key ties: the first, as Python's max


def test_empty_min_is_pythons_value_error_when_the_program_runs():
    with pytest.raises(ValueError, match=r'min\(\) arg is an empty sequence|iterable argument'):
        autograph.convert(first_best_index)(-jnp.ones(4))


def test_next_without_a_default_raises_stop_iteration_when_the_program_runs():
    def f(x):
        return next(v for v in x if v > 2)
    assert_same(autograph.convert(f)(jnp.asarray([1., 3., 4.])), 3.)
    with pytest.raises(StopIteration):
        f(np.asarray([1., 2.]))
    with pytest.raises(StopIteration):
        autograph.convert(f)(jnp.asarray([1., 2.]))


def test_a_default_of_none_gives_an_optional_value():
    def f(x):
        return (next((i for i in range(3) if x[i] > 2), None),
                min((v for v in x if v > 2), default=None))
    converted = autograph.convert(f)
    for case in ([1., 3., 4.], [1., 2., 0.]):
        assert_same(converted(jnp.asarray(case)), f(np.asarray(case, np.float32)))


def test_gradient_flows_to_the_kept_items_only():
    def f(x):
        return sum(v * v for v in x if v > 0)
    x = jnp.asarray([1., -2., 3., 0.5])
    assert_same(jax.grad(autograph.convert(f))(x), np.where(np.asarray(x) > 0, 2 * x, 0.))


def test_python_tests_keep_pythons_meaning_and_laziness():
    calls = []

    def seen(v):
        calls.append(v)
        return v

    def f(x):
        return (sum(1 / v for v in [0, 1, 2, 0, 4] if v) * x,        # 1/0 never computed
                any(seen(v) > 1 for v in [0, 1, 2, 3] if v),          # stops at 2
                min([v for v in [3, 1, 2] if v > 1]),
                next(v * x for v in [0, 1, 2] if v))                 # the first: 1
    expected = f(2.)
    assert calls == [1, 2]
    calls.clear()
    assert_same(autograph.convert(f, jit=False)(2.), expected)
    assert calls == [1, 2]


def test_generated_code_masks_only_reduced_comprehensions():
    code = autograph.to_code(first_best_index)
    assert 'ag.min(ag.selection([(v, kept' in code and 'in ag.keep(' in code
    code = autograph.to_code(indexed)
    assert 'ag.comprehension_test(' in code and 'ag.keep(' not in code


def indexed(x):
    kept = [v for v in x if v > 0]
    return kept[0]


def assigned_then_reduced(x):
    kept = [v for v in x if v > 0]
    return min(kept)


def set_reduced(x):
    return sum({v for v in x if v > 0})


def first_with_an_effect(x):   # (Python stops testing at the first kept item)
    seen = []
    return next((v for v in x if seen.append(v) is None and v > 0), 0.0)


@pytest.mark.parametrize('fn', [indexed, assigned_then_reduced, set_reduced,
                                first_with_an_effect])
def test_other_uses_are_the_named_error(fn):
    with pytest.raises(autograph.ControlFlowError, match='`if` of a comprehension'):
        autograph.convert(fn)(jnp.asarray([1., -2., 3.]))


def test_a_count_used_as_a_shape_is_the_named_error():
    def f(x):
        return jnp.zeros(len([v for v in x if v > 0]))
    assert f(np.asarray([1., -2., 3.])).shape == (2,)
    with pytest.raises(autograph.ControlFlowError, match='as a shape'):
        autograph.convert(f)(jnp.asarray([1., -2., 3.]))


@pytest.mark.parametrize('make', [np.zeros, np.ones, np.empty])
def test_a_traced_length_given_to_numpy_s_array_makers_is_the_named_error(make):
    # (a raw TypeError from the twin before: "expected a sequence of integers or a single
    # integer, got 'JitTracer(int32[])'")
    def f(x, n):
        return make(n + 1) * 0 + x
    with pytest.raises(autograph.errors.TracedValueNeeded, match=r'`return make\(n \+ 1\)'):
        autograph.convert(f)(jnp.float32(1.0), jnp.int32(3))
