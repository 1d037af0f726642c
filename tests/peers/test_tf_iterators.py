"""TensorFlow AutoGraph's reference tests for datasets, distributed iterators and calls to
NumPy and to the framework's own API, restated for JAX.

Upstream: tensorflow/tensorflow, tensorflow/python/autograph/tests/ — datasets_test.py,
loop_distributed_test.py, call_to_numpy_function_test.py, call_to_tf_api_test.py.
A `tf.data.Dataset` becomes a JAX array iterated by rows (the loop over it is staged) or
a Python iterator over one (`iter(ds)`: its items are read while tracing); `tf.print`
becomes `jax.debug.callback` into a list; a distribution strategy's
`reduce('SUM', x, axis=0)` becomes `jnp.sum(x, axis=0)`. Where TF raises for a valid
Python program (a `return` inside a dataset loop), we test Python's result instead.
"""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from tests.helpers import assert_same

DS = np.arange(7, dtype=np.int32)


def converted_matches(fn, *args):
    """The converted fn on `args` as JAX arrays gives what plain Python gives on them
    as NumPy values."""
    expected = fn(*args)
    assert_same(autograph.convert(fn)(*[jnp.asarray(a) for a in args]), expected)


# --- datasets_test.py ----------------------------------------------------------------------

SEEN = []   # what the loops below print (tf.print upstream), in order


def dataset_no_vars_loop(ds):
    for e in ds:
        jax.debug.callback(lambda v: SEEN.append(int(v)), e)


def iterator_no_vars_loop(ds):
    for e in iter(ds):
        jax.debug.callback(lambda v: SEEN.append(int(v)), e)


@pytest.mark.parametrize('fn', [dataset_no_vars_loop, iterator_no_vars_loop])
def test_loops_without_variables_run_their_effects_in_order(fn):
    SEEN.clear()
    fn(DS)
    expected = list(SEEN)
    SEEN.clear()
    autograph.convert(fn)(jnp.asarray(DS))
    jax.effects_barrier()
    assert SEEN == expected == list(DS)


def dataset_single_var_loop(ds):
    s = 0
    for e in ds:
        s = s * 10 + e
    return s


def iterator_single_var_loop(ds):
    s = 0
    for e in iter(ds):
        s = s * 10 + e
    return s


def dataset_two_vars_loop(ds):
    s, p = 0, 1
    for e in ds:
        s += e
        p *= e
    return s, p


def iterator_two_vars_loop(ds):
    s, p = 0, 1
    for e in iter(ds):
        s += e
        p *= e
    return s, p


def dataset_loop_with_break(ds):
    s = 0
    for e in ds:
        s = s * 10 + e
        if s > 100:
            break
    return s


def iterator_loop_with_break(ds):
    s = 0
    for e in iter(ds):
        s = s + e
        if s > 100:
            break
    return s


def iterator_resuming_loop(ds):
    s = 0
    itr = iter(ds)
    for e in itr:
        s = s * 10 + e
        break
    for e in itr:
        s = s * 10 + e
        break
    for e in itr:
        s = s * 10 + e
    return s


def dataset_loop_with_return(ds):
    y = 0
    for e in ds:
        y = e
        return y
    return y


def iterator_loop_with_return(ds):
    y = 0
    for e in iter(ds):
        y = e
        return y
    return y


def iterator_next(ds):
    itr = iter(ds)
    return next(itr)


def iterator_next_multiple_calls(ds):
    itr = iter(ds)
    return 10 * next(itr) + next(itr)


@pytest.mark.parametrize('fn', [
    dataset_single_var_loop, iterator_single_var_loop, dataset_two_vars_loop,
    iterator_two_vars_loop, dataset_loop_with_break, iterator_loop_with_break,
    iterator_resuming_loop, dataset_loop_with_return, iterator_loop_with_return,
    iterator_next, iterator_next_multiple_calls])
def test_dataset_loops(fn):
    converted_matches(fn, DS)


def iterator_next_in_loop(ds, n):
    itr = iter(ds)
    s = 0
    for _ in range(n):
        s = s * 10 + next(itr)
    return s


def test_iterator_next_in_a_python_range_loop():
    expected = iterator_next_in_loop(DS, 7)
    assert_same(autograph.convert(iterator_next_in_loop)(jnp.asarray(DS), 7), expected)


def iterator_next_stopping(ds, cond):
    itr = iter(ds)
    while cond:
        next(itr)


def iterator_next_with_catching_stop_iteration(ds, cond):
    itr = iter(ds)
    try:
        while cond:
            next(itr)
    except StopIteration:
        pass


@pytest.mark.parametrize('fn', [iterator_next_stopping,
                                iterator_next_with_catching_stop_iteration])
def test_a_loop_whose_condition_nothing_changes_is_an_error_not_a_hang(fn):
    # Python: StopIteration once the items run out (caught in the second function). TF
    # raises OutOfRangeError. The staged loop's condition reads nothing the loop changes,
    # so it could never stop: a named error when it is true, no iteration when false.
    with pytest.raises(StopIteration):
        iterator_next_stopping(DS, True)
    with pytest.raises(autograph.ControlFlowError, match='never ends'):
        autograph.convert(fn)(jnp.asarray(DS), jnp.asarray(True))
    assert autograph.convert(fn)(jnp.asarray(DS), jnp.asarray(False)) is None


# --- loop_distributed_test.py ----------------------------------------------------------------

ROWS = np.arange(12, dtype=np.int32).reshape(3, 4)


def reduce_sum(x):
    return jnp.sum(x, axis=0) if isinstance(x, jax.Array) else np.sum(x, axis=0)


def single_var_loop(rows):
    s = 0
    for pr in rows:
        s = s * 10 + reduce_sum(pr)
    return s


def loop_with_break(rows):
    s = 0
    for pr in rows:
        if reduce_sum(pr) % 5 == 0:
            break
        s = s * 10 + reduce_sum(pr)
    return s


def loop_with_continue(rows):
    s = 0
    for pr in rows:
        if reduce_sum(pr) % 2 == 0:
            continue
        s = s * 10 + reduce_sum(pr)
    return s


def two_vars_loop(rows):
    s, p = 0, 1
    for pr in rows:
        e = reduce_sum(pr)
        s += e
        p *= e
    return s, p


def enumeration(rows):
    s, p = 0, 1
    for i, pr in enumerate(rows):
        e = reduce_sum(pr)
        s = s * 10 + e
        p *= i
    return s, p


def distributed_iterator_next_multiple_calls(rows):
    itr = iter(rows)
    a = reduce_sum(next(itr))
    b = reduce_sum(next(itr))
    return a * 10 + b


@pytest.mark.parametrize('fn', [single_var_loop, loop_with_break, loop_with_continue,
                                two_vars_loop, enumeration,
                                distributed_iterator_next_multiple_calls])
@pytest.mark.parametrize('rows', [ROWS, ROWS[:, ::-1] + 1])
def test_distributed_style_loops(fn, rows):
    converted_matches(fn, rows)


def iterator_next_in_limited_loop(rows, limit):
    itr = iter(rows)
    s = 0
    for _ in limit:
        s = s * 10 + reduce_sum(next(itr))
    return s


@pytest.mark.parametrize('n', [0, 1, 2])
def test_iterator_next_in_limited_loop(n):
    expected = iterator_next_in_limited_loop(ROWS, range(n))
    assert_same(autograph.convert(iterator_next_in_limited_loop)(jnp.asarray(ROWS), range(n)),
                expected)


# --- call_to_numpy_function_test.py and call_to_tf_api_test.py --------------------------------

def numpy_random():
    np.random.seed(1)
    return 2 * np.random.binomial(1, 0.5, size=(10,)) - 1


def test_numpy_calls_run_while_tracing_and_match_python():
    assert_same(autograph.convert(numpy_random)(), numpy_random())


def core_api_call(x):
    return x * jnp.asarray(2)


@pytest.mark.parametrize('x', [1, jnp.asarray(1)])
def test_library_calls_stay_as_written(x):
    assert_same(autograph.convert(core_api_call)(x), core_api_call(x))
    assert 'ag.call' not in autograph.to_code(core_api_call)
