"""Item writes of a traced array whose kind the converted code does not know (`w = v *
1.0` of a NumPy argument: a NumPy array in Python, a traced array here, not noted as
standing for one) where Python's meaning needs NumPy's: written through a list, dict or
attribute that also holds it (`d = {'w': w}; d['w'][i] = e` changes `w` in Python), or
at a traced index out of range (NumPy's IndexError). Both were silent (the write
reached only the holder's copy; JAX dropped the write); now the holder's write is the
named `numpy_held_write` error and the write out of range an IndexError. Arrays a
JAX function made (`jnp.zeros`) keep JAX's meaning, as do calls given JAX arrays."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from tests.helpers import assert_same


class Box:
    pass


def through_a_dict(v, x, n):
    w = v * 1.0
    a = 0.0
    for i in range(n):
        d = {'w': w}
        d['w'][1] = x * i
        a = a + w[1] * 0.1
    return a, w


def through_a_list(v, x, n):
    w = v * 1.0
    a = 0.0
    for i in range(n):
        held = [w, a]
        held[0][1] = x * i
        a = a + w[1] * 0.1
    return a, w


def through_an_attribute(v, x, n):
    w = v * 1.0
    box = Box()
    box.arr = w
    for i in range(n):
        box.arr[1] = x * i
    return w


HOLDERS = [through_a_dict, through_a_list, through_an_attribute]


@pytest.mark.parametrize('fn', HOLDERS)
@pytest.mark.parametrize('x, n', [(2.0, 3), (jnp.float32(2.0), 3), (2.0, jnp.int32(3))],
                         ids=['python', 'traced value', 'traced bound'])
def test_a_held_array_written_through_its_holder_is_a_named_error(fn, x, n):
    with pytest.raises(autograph.ControlFlowError, match='also holds is changed in place'):
        autograph.convert(fn)(np.arange(3.0), x, n)


def jax_array_through_a_dict(v, x, n):
    w = jnp.zeros(3) + v
    for i in range(n):
        d = {'w': w}
        d['w'] = d['w'].at[1].set(x * i)
    return d['w']


def test_jax_arrays_keep_their_meaning():
    """Given JAX arrays, the same programs are the JAX programs they read as."""
    expected = through_a_dict(np.arange(3.0), 2.0, 3)
    got = autograph.convert(through_a_dict)(jnp.arange(3.0), 2.0, 3)
    assert_same(got[0], jnp.float32(0.3))   # (`w` a JAX array: its items never change)
    assert not np.allclose(got[0], expected[0])
    args = (np.arange(3.0), jnp.float32(2.0), 3)
    assert_same(autograph.convert(jax_array_through_a_dict)(*args),
                jax_array_through_a_dict(*args))


def write_at(v, x, n):
    w = v * 1.0
    if x > 0:
        w[n] = x
    return w


@pytest.mark.parametrize('n', [3, -4])
@pytest.mark.parametrize('traced', [False, True])
def test_a_write_out_of_range_at_a_traced_index_is_an_index_error(n, traced):
    with pytest.raises(IndexError):
        write_at(np.arange(3.0), 1.0, n)
    x = jnp.float32(1.0) if traced else 1.0
    with pytest.raises(IndexError, match='out of bounds'):
        autograph.convert(write_at)(np.arange(3.0), x, jnp.int32(n))


@pytest.mark.parametrize('n', [0, 2, -1])
def test_a_write_in_range_at_a_traced_index(n):
    expected = write_at(np.arange(3.0), 1.0, n)
    assert_same(autograph.convert(write_at)(np.arange(3.0), 1.0, jnp.int32(n)), expected)
    run = jax.jit(autograph.convert(write_at))
    assert_same(run(jnp.arange(3.0), 1.0, jnp.int32(n)), expected)


def bump_first(arr):
    arr[0] = arr[0] + 1.0
    return arr[0]


def held_then_given_to_a_writing_helper(v):
    w = v * 1.0
    hist = [w]
    y = bump_first(w)
    return y, hist[0]


def held_then_written_by_a_helper_statement(v):
    w = v * 1.0
    d = {'w': w}
    bump_first(w)
    return d['w']


@pytest.mark.parametrize('fn', [held_then_given_to_a_writing_helper,
                                held_then_written_by_a_helper_statement])
def test_a_held_array_a_helper_writes_is_a_named_error(fn):
    """A helper writing items of `w` (of unknown kind) that a list or dict also holds:
    Python's holder sees the write; the converted one would keep the old items. The named
    error (silent before); `y = helper(w)` also crashed the converter (an AttributeError
    in passes.written_arguments: idiom fuzzer seed 98005 with --known)."""
    v = np.arange(3.0, dtype=np.float32)
    assert 'ag.check_held(w, item=True)' in autograph.to_code(fn)
    with pytest.raises(autograph.ControlFlowError, match='also holds is changed in place'):
        autograph.convert(fn)(v)
