"""PaddlePaddle's dynamic-to-static converter tests for iteration, restated for JAX
(test/dygraph_to_static/test_for_enumerate.py in the PaddlePaddle repository). The
programs are written anew in the same shapes: `for` over lists, arrays and slices,
`enumerate` (with a start, break, continue), `zip`, tuple targets, a range whose bound is
an item of an array, a list read back while a loop fills it.

Ground truth is the function run unconverted on the same inputs.
"""
import jax
import jax.numpy as jnp
import pytest

import autograph
from autograph.runtime.loops import loop_policy
from tests.helpers import assert_same, check, converted, line_of, staged


# --- test_for_enumerate.py -----------------------------------------------------------

def sum_over_items(xs):
    z = jnp.zeros([1], jnp.int32)
    for x in xs:
        z = z + x
    return z


def sum_with_index(xs):
    z = jnp.zeros([1], jnp.int32)
    for i, x in enumerate(xs):
        z = z + x + i
    return z


def enumerate_from_one(xs):
    y = jnp.zeros([1], jnp.int32)
    z = jnp.zeros([1], jnp.int32)
    for i, x in enumerate(xs, 1):
        y = y + i
        z = z + x
    return y, z


def enumerate_with_break(xs):
    y = jnp.zeros([1], jnp.int32)
    z = jnp.zeros([1], jnp.int32)
    for i, x in enumerate(xs):
        y = y + i
        z = z + x
        if i > 2:
            break
    return y, z


def enumerate_from_one_with_continue(xs):
    y = jnp.zeros([1], jnp.int32)
    z = jnp.zeros([1], jnp.int32)
    for i, x in enumerate(xs, 1):
        y = y + i
        if i > 2:
            continue
        z = z + x
    return y, z


def break_on_item_value(xs):
    z = jnp.zeros([1], jnp.int32)
    for i, x in enumerate(xs):
        z = z + x
        if x > 2:
            break
    return z


def range_of_first_item(xs):
    z = jnp.zeros([1], jnp.int32)
    for i in range(xs[0]):
        z = z + i
        if i > 2:
            break
    return z


def sum_over_slice(xs):
    z = jnp.zeros([1], jnp.int32)
    for x in xs[1:]:
        z = z + x
    return z


def nested_range_of_item(xs):
    total = jnp.zeros([1], jnp.int32)
    for i, num in enumerate(xs):
        for _ in range(num):
            total = total + num
    return total


def rows_unpacked(m):
    a_total = jnp.zeros([])
    b_total = jnp.zeros([])
    c_total = jnp.zeros([])
    for a, b, c in m:
        a_total += a
        b_total += b
        c_total += c
    return a_total, b_total, c_total


def enumerate_pairs_as_tuples(x):
    items = [x, x * 2, x * 3]
    total = jnp.zeros_like(x)
    for t in enumerate(items):
        total += t[1] * t[0]
    return total


def enumerate_with_nested_unpacking(x):
    rows = [x, x + 1, x + 2]
    first = jnp.zeros([])
    last = jnp.zeros([])
    for i, (a, b, c) in enumerate(rows):
        first += a * i
        last += c
    return first, last


def zip_two(xs, ys):
    total = 0
    for i, j in zip(xs, ys):
        total = total + i * j
    return total


def constant_list_and_tuple():
    z = jnp.zeros([1], jnp.int32)
    for x in [1, 2, 3]:
        z = z + x
    for x in (4, 5):
        z = z * x
    return z


def window_of_previous_items(xs):
    feats = {'key': []}
    for i, v in enumerate(xs):
        if i > 1:
            second_last = feats['key'][-2]
        feats['key'].append(v)
    return second_last


INTS = [1, 2, 3, 4, 5]
ITERATION_CASES = [sum_over_items, sum_with_index, enumerate_from_one, enumerate_with_break,
                   enumerate_from_one_with_continue, break_on_item_value, sum_over_slice,
                   nested_range_of_item]


@pytest.mark.parametrize('fn', ITERATION_CASES)
@pytest.mark.parametrize('xs', [INTS, [3, 0, 2]])
def test_iteration_over_lists_and_arrays(fn, xs):
    check(fn, xs)
    check(fn, jnp.array(xs))


@pytest.mark.parametrize('xs', [INTS, [3, 0, 2]])
def test_list_read_back_while_it_grows(xs):
    check(window_of_previous_items, xs)
    assert_same(autograph.convert(window_of_previous_items, jit=False)(jnp.array(xs)),
                window_of_previous_items(jnp.array(xs)))


def test_list_read_back_while_it_grows_over_a_traced_array():
    # Staged as one loop, the body would hold only this iteration's items: the loop over
    # the array's rows runs as Python instead (as a loop over a range does). Over more rows
    # than loop_policy unrolls, the read of an earlier item is the loop's named error.
    check(window_of_previous_items, jnp.array(INTS))
    read, loop = (line_of(window_of_previous_items, text)
                  for text in ("feats['key'][-2]", 'for i, v'))
    with pytest.raises(autograph.ControlFlowError,
                       match=rf"'feats\['key'\]' is read \(read at \S+iteration.py:{read}\) in "
                             rf"the body of the staged loop at \S+iteration.py:{loop} that "
                             r"appends to it"):
        autograph.convert(window_of_previous_items)(
            jnp.arange(loop_policy.LONGEST_ARRAY_UNROLL + 1))


@pytest.mark.parametrize('xs', [INTS, [0, 1], [7, 1]])
def test_range_of_an_item(xs):
    check(range_of_first_item, jnp.array(xs))


def test_iteration_over_an_array_is_staged():
    assert staged(sum_with_index, jnp.array(INTS)) & {'scan', 'while'}
    assert staged(enumerate_with_break, jnp.array(INTS)) & {'scan', 'while'}


def test_tuple_targets_and_zip():
    check(rows_unpacked, jnp.arange(9.0).reshape(3, 3))
    check(enumerate_pairs_as_tuples, jnp.arange(3.0))
    check(enumerate_with_nested_unpacking, jnp.arange(3.0))
    check(zip_two, [1, 2, 3], [4, 5])
    check(zip_two, jnp.arange(3), jnp.arange(3) + 4)
    check(constant_list_and_tuple)


def test_iteration_under_grad_and_vmap():
    m = jnp.arange(9.0).reshape(3, 3)
    assert_same(jax.grad(lambda v: sum(converted(rows_unpacked)(v)))(m),
                jax.grad(lambda v: sum(rows_unpacked(v)))(m))
    xs = jnp.array([[1, 2, 3, 4], [5, 0, 1, 0], [3, 3, 3, 3]])
    assert_same(jax.vmap(converted(enumerate_with_break))(xs),
                jax.tree.map(lambda *r: jnp.stack(r),
                             *[enumerate_with_break(x) for x in xs]))
