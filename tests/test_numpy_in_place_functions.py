"""NumPy's functions and methods that write into an array given to them, as statements:
the ufuncs' `at` (`np.add.at(x, idx, v)`), `x.put` / `np.put`, `np.putmask`, `np.place`
and any call with `out=` (`np.exp(x, out=x)`, `x.clip(0, t, out=x)`). With a traced value
they were raw errors from NumPy (TypeError, TracerArrayConversionError); the name is now
rebound to what the call leaves (passes.in_place_calls, runtime.python.in_place), and a
NumPy array given to the Function is written back in place, as Python writes it."""
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from autograph.errors import TracedValueNeeded


def add_at(x, t):
    np.add.at(x, [0, 0, 2], t)     # (an index given twice is added twice)
    return x


def subtract_and_maximum_at(x, t):
    np.subtract.at(x, [1, 1], t)
    np.maximum.at(x, [3], t * 4.0)
    np.multiply.at(x, (np.array([0]),), 2.0)
    return x


def put_method(x, t):
    x.put([0, 2], t)               # (one value for two indices: repeated)
    return x


def put_function(x, t):
    np.put(x, [1, 3], [t, t * 2.0])
    return x


def putmask(x, t):
    np.putmask(x, x > 1, [t, -t])  # (repeated over the flat positions)
    return x


def place(x, t):
    np.place(x, x > 0, [t, t * 2.0])   # (taken in order by the true positions)
    return x


def out_of_ufuncs(x, t):
    np.add(x, t, out=x)
    np.exp(x, out=x)
    return x


def out_of_a_method(x, t):
    x.clip(0.5, t, out=x)
    return x


def out_into_another(x, t):
    y = np.zeros(4)
    np.multiply(x, t, out=y)
    return y + x


def made_then_written(x, t):
    y = np.zeros(4)                # (the function's own array: traced once written)
    np.copyto(y, x * t)
    np.add.at(y, [0, 0], t)
    return y


def in_a_staged_loop(x, t, n):
    for i in range(n):
        np.add.at(x, [i % 4], t)
        if t > 1.0:
            np.multiply(x, 0.5, out=x)
    return x


CASES = [add_at, subtract_and_maximum_at, put_method, put_function, putmask, place,
         out_of_ufuncs, out_of_a_method, out_into_another, made_then_written]


@pytest.mark.parametrize('fn', CASES)
@pytest.mark.parametrize('jit', [True, False])
def test_written_as_python_writes(fn, jit):
    expected, given = np.arange(4.0), np.arange(4.0)
    want = fn(expected, 1.5)
    got = autograph.convert(fn, jit=jit)(given, 1.5)
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-6)
    np.testing.assert_allclose(given, expected, rtol=1e-6)   # (the caller's array)


@pytest.mark.parametrize('t', [0.5, 2.0])
def test_in_a_staged_loop_and_branch(t):
    expected, given = np.arange(4.0), np.arange(4.0)
    want = in_a_staged_loop(expected, t, 6)
    got = autograph.convert(in_a_staged_loop)(given, t, jnp.asarray(6))
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-6)
    np.testing.assert_allclose(given, expected, rtol=1e-6)


def test_an_index_out_of_range_is_pythons_index_error():
    def past_the_end(x, t):
        np.add.at(x, [5], t)
        return x
    with pytest.raises(IndexError):
        past_the_end(np.arange(4.0), 1.5)
    with pytest.raises(IndexError):
        autograph.convert(past_the_end)(np.arange(4.0), 1.5)


def test_an_out_that_cannot_hold_the_result_is_pythons_type_error():
    def into_integers(x, t):
        np.add(x, t, out=x)
        return x
    with pytest.raises(TypeError):
        into_integers(np.arange(4), 1.5)
    with pytest.raises(TypeError):
        autograph.convert(into_integers)(np.arange(4), 1.5)


def test_generated_code_rebinds_the_name():
    code = autograph.to_code(out_of_ufuncs)
    assert 'x = ag.with_out(x, ' in code
    assert "x = ag.in_place(x, 'np.add.at'," in autograph.to_code(add_at)



@pytest.mark.parametrize('fn', CASES)
def test_jax_arrays_as_python_sees_them(fn):
    # (Python: NumPy cannot write into a JAX array, TypeError or AttributeError; the
    # converted code raises that, or the named error of a traced value NumPy needs.
    # Under the caller's vmap or grad, NumPy's functions refuse the tracers in Python
    # too: there is no plain run to compare with)
    try:
        want = fn(jnp.arange(4.0), 1.5)
    except (TypeError, AttributeError) as error:
        with pytest.raises((type(error), TracedValueNeeded)):
            autograph.convert(fn)(jnp.arange(4.0), 1.5)
        return
    got = autograph.convert(fn)(jnp.arange(4.0), 1.5)
    np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-6)
