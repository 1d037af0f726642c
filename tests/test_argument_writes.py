"""What a converted Function does to the lists, dicts and NumPy arrays it is given is the
caller's to see, as in Python: `xs.append(v)`, `names.sort()`, `d.pop(k)` and NumPy's
`a[i] = v` change the caller's object, after a compiled call as after a plain one, on
every call (a cached call too). Each compared with the same function run as plain Python
on copies of the same inputs. A JAX array cannot change: converted code rebinds it (SPEC:
`x[i] = v` means `x = x.at[i].set(v)`), so the caller's JAX array stays as it was."""
import copy

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from tests.helpers import assert_same, check, primitives


def sort_and_log(names, log, d, x):
    names.sort()
    log.append(len(names))
    first = d.pop('first')
    d['count'] = d.get('count', 0) + 1
    return x + first


def negate_positives(a, n):
    for i in range(n):
        if a[i] > 0:
            a[i] = -a[i]
    return n


def fill(a, v):
    a[:2] = v
    a[-1] += v
    return a * 2


def through_helper(a, x):
    def put(b, i):
        b[i] = x
        if x > 0:
            return 1
        return 2
    first = put(a, 0)
    second = put(a, 2)
    return first + second


class Buffer:
    def store(self, a, v):
        a[1:] = v
        return v


def same_effects(fn, make_args, calls=2, **options):
    """Each of `calls` calls of the converted `fn` returns what Python's returns and
    leaves its arguments as Python's leaves them."""
    converted = autograph.convert(fn, **options)
    for _ in range(calls):
        expected_args, args = make_args(), make_args()
        expected = fn(*expected_args)
        assert_same(converted(*args), expected)
        for got, want in zip(args, expected_args):
            if isinstance(want, np.ndarray):
                np.testing.assert_allclose(got, want, rtol=1e-6)
            elif isinstance(want, list) and any(isinstance(w, np.ndarray) for w in want):
                assert_same(got, want)
            else:
                assert got == want


@pytest.mark.parametrize('jit', [True, False])
def test_python_lists_and_dicts_given_are_changed_in_place(jit):
    same_effects(sort_and_log, lambda: (['b', 'c', 'a'], [0], {'first': 2.0}, 1.0),
                 calls=3, jit=jit)


@pytest.mark.parametrize('jit', [True, False])
@pytest.mark.parametrize('n', [3, jnp.array(2)], ids=['python n', 'traced n'])
def test_numpy_items_written_in_a_loop_reach_the_caller(jit, n):
    same_effects(negate_positives, lambda: (np.array([1.0, -2.0, 3.0]), n), jit=jit)


@pytest.mark.parametrize('dtype', [np.float32, np.int32, np.float64])
def test_numpy_slice_writes_keep_the_arrays_dtype(dtype):
    same_effects(fill, lambda: (np.arange(4).astype(dtype), 7))


def test_writes_by_a_helper_and_by_a_method_reach_the_caller():
    same_effects(through_helper, lambda: (np.zeros(3), 2.5))
    same_effects(Buffer().store, lambda: (np.zeros(3, np.int32), 4))


def test_a_jax_array_given_stays_as_it_was():
    a = jnp.array([1.0, -2.0, 3.0])
    assert autograph.convert(negate_positives)(a, 3) == 3
    np.testing.assert_array_equal(a, [1.0, -2.0, 3.0])


def test_a_read_only_numpy_array_written_raises_as_numpy_does():
    a = np.zeros(3)
    a.flags.writeable = False
    with pytest.raises(ValueError, match='read-only'):
        through_helper(a, 1.0)   # (NumPy's own error)
    with pytest.raises(ValueError, match='read-only'):
        autograph.convert(through_helper)(a, 1.0)


def test_under_a_callers_jit_and_vmap_the_values_are_pythons():
    a = np.array([1.0, -2.0, 3.0])
    expected = copy.deepcopy(a)
    negate_positives(expected, 3)

    def caller(a):
        negate_positives(a, 3)
        return a
    assert_same(jax.jit(autograph.convert(caller))(a), expected)
    batch = np.stack([a, -a])
    assert_same(jax.vmap(autograph.convert(caller))(batch),
                np.stack([expected, -np.abs(a)]))


# --- a parameter written, then rebound: the caller's array keeps the writes before ------

def write_then_rebind(a, v):
    a[:2] = v
    a = a * 2
    a[0] = -1.0    # (the new array: not the caller's)
    return a


def view_written_then_rebound(a):
    v = a[0]
    v[:] = 1
    v = v * 2
    return v


def rebinding_helper(b):
    b[0] = 7.0
    b = b * 2
    return b


def calls_rebinding_helper(a):
    r = rebinding_helper(a)
    return r + a


def sums_after_writing(b):
    b[0] = 1.0
    return b.sum()


def rebinds_to_the_result(x):
    x = sums_after_writing(x)
    return x


def sum_and_count(b):
    b[0] = 7.0
    return b.sum(), 3


def rebinds_to_part_of_the_result(x):
    x, k = sum_and_count(x)
    return x * k


def doubles_after_writing(b):
    b[0] = 7.0
    return b * 2


def gives_a_copy_to_a_helper(a):
    a[1] = 1.0
    a = a * 3
    a = doubles_after_writing(a)   # (writes the copy, not the caller's array)
    return a


def rebinds_to_an_expression_of_the_helpers_result(a):
    a = sums_after_writing(a) + a   # (the write comes before the rebinding)
    return a


def write_then_loop(a, n):
    a[1] += 5.0
    a = a * 1.0
    for _ in range(n):
        a = a + 1.0
    return a


@pytest.mark.parametrize('fn,make', [
    (write_then_rebind, lambda: (np.arange(4.0), 9.0)),
    (view_written_then_rebound, lambda: (np.arange(6.0).reshape(2, 3),)),
    (calls_rebinding_helper, lambda: (np.arange(4.0),)),
    (rebinds_to_the_result, lambda: (np.arange(4.0),)),
    (rebinds_to_part_of_the_result, lambda: (np.arange(4.0),)),
    (gives_a_copy_to_a_helper, lambda: (np.arange(4.0),)),
    (rebinds_to_an_expression_of_the_helpers_result, lambda: (np.arange(4.0),)),
    (write_then_loop, lambda: (np.arange(3.0), 4)),
    (write_then_loop, lambda: (np.arange(3.0), jnp.array(4))),
], ids=['own', 'view', 'helper', 'same-name', 'tuple-target', 'copy-to-helper',
        'hoisted-call', 'loop', 'traced-loop'])
@pytest.mark.parametrize('jit', [True, False])
def test_writes_before_a_rebinding_reach_the_caller(fn, make, jit):
    same_effects(fn, make, calls=2, jit=jit)
    expected = fn(*make())   # (under the caller's jax.jit, the result only)
    assert_same(jax.jit(autograph.convert(fn))(*make()), expected)


def rebound_on_some_paths(a, c):
    if c > 0:
        a = a * 2
    a[0] = -1.0
    return a


def rebound_in_a_loop(a, n):
    for i in range(n):
        a[i] = 0.0
        a = a * 2
    return a


def returned_on_some_paths(a, c):
    a[0] = -1.0
    if c > 0:
        a = a * 2
    return a


@pytest.mark.parametrize('fn,n', [(rebound_on_some_paths, 0), (rebound_in_a_loop, 2),
                                  (returned_on_some_paths, 0)])
def test_a_parameter_the_callers_on_some_paths_only(fn, n):
    same_effects(fn, lambda: (np.arange(1.0, 4.0), n), calls=1)


def view_of_a_parameter_rebound_on_some_paths(a, c):
    if c > 0:
        a = a * 2
    v = a[1:]
    v[0] = -5.0
    return a


def view_of_a_parameter_rebound_on_some_paths_jax(a, c):
    """Its meaning on JAX arrays: `a[1:]` is a copy, `v[0] = -5.0` writes the copy
    (`v = v.at[0].set(-5.0)`; plain Python refuses it on a JAX array)."""
    return jnp.where(c > 0, a * 2, a)


def rebinds_through_a_helper_in_a_loop(a, n):
    for _ in range(n):
        a = rebinding_helper(a)   # (writes the caller's array in the first iteration)
    return a


def rebinds_through_a_helper_on_some_paths(a, c):
    if c > 0:
        a = a * 2
    a = doubles_after_writing(a)
    return a


def calls_a_helper_rebinding_on_some_paths(a, c):
    r = rebound_on_some_paths(a, c)
    return r + a


def gives_a_view_to_a_helper_rebinding_on_some_paths(a, c):
    r = returned_on_some_paths(a[1:], c)
    return r + a[:2]


def calls_a_helper_rebinding_in_a_loop(a, n):
    r = rebound_in_a_loop(a, n)
    return r - a


def rebound_on_some_paths_twice(a, c, d):
    a[2] = 5.0
    if c > 0:
        a = a + 1.0
    a[1] += 3.0
    if d > 0:
        a = a * 3.0
    a[0] = -1.0
    return a


ON_SOME_PATHS = [rebound_on_some_paths, returned_on_some_paths,
                 view_of_a_parameter_rebound_on_some_paths,
                 rebinds_through_a_helper_on_some_paths,
                 calls_a_helper_rebinding_on_some_paths,
                 gives_a_view_to_a_helper_rebinding_on_some_paths]
IN_LOOPS = [rebound_in_a_loop, rebinds_through_a_helper_in_a_loop,
            calls_a_helper_rebinding_in_a_loop]


@pytest.mark.parametrize('fn,c', [(fn, c) for fn in ON_SOME_PATHS for c in (
    2.0, -2.0, jnp.array(2.0), jnp.array(-2.0))] + [(fn, n) for fn in IN_LOOPS for n in (
        0, 1, 3, jnp.array(0), jnp.array(3))])
@pytest.mark.parametrize('jit', [True, False])
def test_a_parameter_the_callers_on_some_paths_reports_the_callers_array(fn, c, jit):
    """Rebound under a Python or a traced `if`, in a Python or a staged loop, by the
    function or by a helper it calls: the caller's NumPy array after the call (and the
    result) are Python's, on two calls; under the caller's jax.jit, the result (the
    arguments are JAX arrays there, whose `a[1:]` is a copy: as given a JAX array)."""
    same_effects(fn, lambda: (np.arange(1.0, 4.0), c), calls=2, jit=jit)
    expected = (view_of_a_parameter_rebound_on_some_paths_jax(jnp.arange(1.0, 4.0), c)
                if fn is view_of_a_parameter_rebound_on_some_paths else
                fn(np.arange(1.0, 4.0), c))
    assert_same(jax.jit(autograph.convert(fn))(np.arange(1.0, 4.0), c), expected)


@pytest.mark.parametrize('c,d', [(1, -1), (-1, 1), (jnp.array(1), jnp.array(-1)),
                                 (jnp.array(-1), jnp.array(-1)), (jnp.array(1), 1)])
def test_a_parameter_rebound_on_some_paths_twice(c, d):
    same_effects(rebound_on_some_paths_twice, lambda: (np.arange(1.0, 4.0), c, d))


def test_the_flag_is_in_the_code_only_where_a_parameter_is_the_callers_on_some_paths():
    """A flag where the caller's array is known only at run time; none elsewhere, and
    with a Python condition the compiled program selects nothing."""
    assert 'a_is_arg' in autograph.to_code(rebound_on_some_paths)
    for fn in (fill, write_then_rebind, negate_positives, write_then_loop):
        assert '_is_arg' not in autograph.to_code(fn)
    assert 'select_n' not in primitives(rebound_on_some_paths, np.arange(3.0), 1)
    assert 'select_n' in primitives(rebound_on_some_paths, np.arange(3.0), jnp.array(1))


def dict_rebound_on_some_paths(d, c):
    if c > 0:
        d = {'x': d['x'], 'y': 0.0}
    d['y'] = 5.0
    return d['x']


def test_a_dict_rebound_on_some_paths_takes_the_keys_it_has():
    """A traced choice between two dicts of one structure: each value selected; of two
    structures (a key added on one path), the named error where it is reported."""
    for c in (1, -1, jnp.array(1), jnp.array(-1)):
        same_effects(dict_rebound_on_some_paths, lambda: ({'x': 1.0, 'y': 2.0}, c))
    with pytest.raises(autograph.ControlFlowError, match='rebound on some paths'):
        autograph.convert(dict_rebound_on_some_paths)({'x': 1.0}, jnp.array(1))


@pytest.mark.parametrize('n', [0, 2])
def test_a_parameter_the_callers_on_some_paths_only_keeps_the_values(n):
    """A JAX array given: the result is Python's (no caller's array to write)."""
    for fn in (rebound_on_some_paths, rebound_in_a_loop, returned_on_some_paths):
        assert_same(autograph.convert(fn)(jnp.arange(1.0, 4.0), n),
                    fn(np.arange(1.0, 4.0), n))


def shrink(a, tol):
    for i in range(a.shape[0] * 4):
        k = jnp.argmax(jnp.abs(a))
        if jnp.abs(a[k]) < tol:
            return i                 # a value when a traced test says so ...
        a[k] = a[k] * 0.25
    # ... None when the loop runs out (issue 28: jacobi's rotations)


def shrink_in_a_helper(a, tol):
    steps = shrink(a, tol)
    return steps, a * 1.0


@pytest.mark.parametrize('fn', [shrink, shrink_in_a_helper])
@pytest.mark.parametrize('tol', [0.5, 1e-9], ids=['value', 'None'])
def test_an_optional_result_of_a_function_that_writes_its_parameter(fn, tol):
    same_effects(fn, lambda: (np.array([3.0, -1.0, 2.0], np.float32), tol))


def write_first(a):
    a[0] = 5.0
    return a[1]


def returns_a_writing_call(a):
    if a[0] > 0:
        return write_first(a)
    return a[2]


@pytest.mark.parametrize('first', [1.0, -1.0])
def test_a_writing_call_returned_under_a_traced_if(first):
    """`if c: return h(a)` stays an `if` (not `return h(a) if c else ...`): the
    helper's write reaches the caller's array (corpus batch 6's quickselect)."""
    a = np.array([first, 2.0, 3.0], np.float32)
    plain, given = a.copy(), a.copy()
    want = returns_a_writing_call(plain)
    assert float(autograph.convert(returns_a_writing_call)(given)) == want
    np.testing.assert_array_equal(given, plain)
    got = jax.jit(autograph.convert(returns_a_writing_call))(jnp.asarray(a))
    assert float(got) == (2.0 if first > 0 else 3.0)


def smooth_into(x, out):
    out[1] = x[0] + x[1]
    out[2] = x[1] + x[2]      # (x[1] is out[1] where x is out: NumPy reads the new value)
    return out


def smooth_in_place(x):
    return smooth_into(x, x)


def add_row_into(M, r, i):
    M[i] += 2.0 * r
    M[i + 1] += r            # (r is M[i] where it is given as M[i]: NumPy reads the new row)


def add_first_row(M):
    add_row_into(M, M[0], 0)
    return M


def add_given_row(M, r):
    add_row_into(M, r, 0)
    return M


def smooth_shifted(x):
    return smooth_into(x[:3], x[1:])     # (overlapping slices of one array)


def smooth_split(x):
    return smooth_into(x[:3], x[3:])     # (slices that share no item: as in Python)


def test_overlapping_slices_of_one_array_given_to_a_writing_helper():
    x = np.arange(6.0)
    with pytest.raises(autograph.ControlFlowError, match=r"as 'x\[:3\]' and 'x\[1:\]'"):
        autograph.convert(smooth_shifted)(x.copy())
    split = x.copy()
    assert_same(autograph.convert(smooth_split)(split), smooth_split(x.copy()))
    want = x.copy()
    smooth_split(want)
    assert_same(split, want)


def test_an_array_and_a_view_of_it_given_to_a_writing_helper():
    """`add_row_into(M, M[0], 0)`: the helper's writes to `M` are seen through the view
    `M[0]` in NumPy; the converted code read the row from before (a silent wrong value).
    A JAX array, and a row that is not a view of `M`, run."""
    M = np.arange(9.0).reshape(3, 3)
    with pytest.raises(autograph.ControlFlowError,
                       match=r"add_row_into\(\) is given one NumPy array as 'M' and 'M\[0\]'"):
        autograph.convert(add_first_row)(M.copy())
    assert "ag.check_apart(M, add_row_into, 0, 'M', 'M[0]', items=1)" in \
        autograph.to_code(add_first_row)
    assert_same(autograph.convert(add_given_row)(M.copy(), M[0].copy()),
                add_given_row(M.copy(), M[0].copy()))
    expected = add_given_row(M.copy(), M[0].copy())   # (JAX's `M[0]` is a copy)
    assert_same(autograph.convert(add_first_row)(jnp.asarray(M)), expected)


def clip_first(arr, limit):
    if arr[0] > limit:
        arr[0] = limit
        return True
    arr[1] = arr[1] * 0.5
    return False


def clipped_by_first(w):
    w = w * 1.0
    clipped = clip_first(w, w[0])   # (a vector's `w[0]` is a number: nothing shared)
    return w, clipped


@pytest.mark.parametrize('first', [3.0, 0.5])
def test_an_item_of_a_vector_given_with_it_is_a_number(first):
    """`clip_first(w, w[0])` of a vector: `w[0]` is a copy, so the helper's writes are
    not seen through it, and the check of a view (which `M[0]` of a matrix is) stays
    quiet: the program runs as Python's (it was the named error)."""
    w = np.array([first, 2.0, 1.0])
    check(clipped_by_first, w)


def add_twice(x, y):
    x += 2.0 * y          # (reads all of `y` before it writes: no write seen through it)


def added_to_itself(x):
    add_twice(x, x)
    return x


def added_to_a_shifted_part(x):
    add_twice(x[1:3], x[:2])
    return x


def test_a_helper_that_changes_a_parameter_only_by_plus_equals_runs():
    for fn in (added_to_itself, added_to_a_shifted_part):
        x = np.arange(4.0)
        want = fn(x.copy())
        got = x.copy()
        assert_same(autograph.convert(fn)(got), want)
        assert_same(got, want)
    x = np.arange(4.0)
    both = x.copy()
    autograph.convert(add_twice)(both, both)
    assert_same(both, 3.0 * x)


def test_one_numpy_array_given_as_two_arguments_one_written_is_a_named_error():
    """`smooth_into(x, x)`: NumPy's writes through `out` are seen through `x`; the
    converted code gave the values from before the writes (a silent wrong value)."""
    x = np.array([1.0, 2.0, 4.0, 8.0])
    with pytest.raises(autograph.ControlFlowError, match=r"smooth_into\(\) is given one "
                       r"NumPy array as 'x' and 'out'"):
        autograph.convert(smooth_in_place)(x.copy())
    before = x.copy()
    with pytest.raises(autograph.ControlFlowError, match="one NumPy array as 'out' and 'x'"):
        autograph.convert(smooth_into)(x, x)
    np.testing.assert_array_equal(x, before)   # (nothing written back)
    apart = np.zeros(8)   # (two halves of one buffer, sharing no memory: as in Python)
    want = smooth_into(np.array([1.0, 2.0, 4.0, 8.0]), np.zeros(4))
    apart[:4] = [1.0, 2.0, 4.0, 8.0]
    assert_same(autograph.convert(smooth_into)(apart[:4], apart[4:]), want)
    assert_same(apart[4:], want)
    assert_same(autograph.convert(smooth_in_place)(jnp.asarray(x)),   # (JAX: no aliasing)
                smooth_into(x, x.copy()))


def written_at(parent, x):
    parent[x] = 7
    return parent[x] + 1


def test_a_numpy_array_written_at_an_index_a_callers_vmap_traces_is_a_named_error():
    """`jax.vmap(f, in_axes=(None, 0))` gives `f` the caller's NumPy array as it is, and
    a traced index: Python's NumPy raises on the traced index, and the converted call's
    new items are traced, which NumPy cannot hold (a raw TracerArrayConversionError
    from the write-back before)."""
    parent = np.array([1, 2, 2, 0])
    with pytest.raises(jax.errors.TracerArrayConversionError):
        jax.vmap(written_at, in_axes=(None, 0))(parent, jnp.arange(3))
    with pytest.raises(autograph.ControlFlowError,
                       match="'argument 0': a NumPy array is written with a traced value"):
        jax.vmap(autograph.convert(written_at), in_axes=(None, 0))(parent, jnp.arange(3))
    np.testing.assert_array_equal(parent, [1, 2, 2, 0])
