"""PaddlePaddle's dynamic-to-static converter tests for containers, restated for JAX
(test/dygraph_to_static/ in the PaddlePaddle repository: test_list.py, test_dict.py,
test_len.py). The programs are written anew in the same shapes: lists appended and popped
in branches and loops whose trip count is an array, dicts changed in loops and branches,
`dict.pop`, `**kwargs`, `len()`.

Ground truth is the function run unconverted on the same inputs.
"""
import jax
import jax.numpy as jnp
import pytest

import autograph
from tests.helpers import assert_same, check, converted, staged


# --- test_list.py --------------------------------------------------------------------

def append_under_python_condition(x):
    a = []
    if 2 > 1:
        a.append(x)
    return a


def append_in_branches(x):
    a = []
    if x[0] > 0:
        a.append(x)
    else:
        a.append(jnp.full_like(x, 9))
    return a[0]


def append_of_unlike_shapes_in_branches(x):
    a = []
    if x[0] > 0:
        a.append(x)
    else:
        a.append(jnp.full([2], 9))
    return a[0]


def append_in_range_loop(x, n):
    a = []
    for i in range(n):
        a.append(x + i)
    return a[0]


def append_then_concat(x):
    a = []
    for i in range(x.shape[0]):
        x = x + 1
        a.append(x)
    out = jnp.concatenate(a)
    return out[0]


def append_in_while_then_stack(x, n):
    a = []
    i = 0
    while i < n:
        a.append(x * i)
        i += 1
    return jnp.stack(a, axis=1)


def slice_of_appended(n):
    a = []
    for i in range(n):
        a.append(jnp.int32(i))
    t = a[1:3]
    return a[2], t


def pop_without_control_flow(x):
    a = []
    if 2 > 1:
        a.append(x)
        a.append(x + 1)
    last = a.pop(1)
    return last, a


def pop_after_branches(x):
    a = []
    b = [x * 2 + (x + 1)]
    if x[0] > 0:
        a.append(x)
        b.append(x + 1)
        a.append(jnp.ones([2], jnp.int32))
    else:
        a.append(x + 1)
        b.append(x - 1)
        a.append(jnp.full([2], 2, jnp.int32))
    item = a.pop(1)
    return item, b[-1]


def pop_after_loop(x, n):
    a = []
    b = [x - 1, x + 1]
    for i in range(n):
        a.append(x + i)
        b.append(x * 2)
    for i in range(1):
        item = a.pop()
    return a[0], item, b[1]


def pop_inside_while(x, n):
    a = []
    b = [x]
    b.append(x)
    b.pop()
    i = 0
    while i < n:
        a.append(x + i)
        b.append(x - i)
        i += 1
        if i % 2 == 1:
            a.pop()
    return a[0], b[2]


def items_of_relu_then_branch(x, index):
    y = jnp.maximum(x, 0)
    a = []
    for v in y:
        a.append(v)
    if index > 0:
        res = a[0] * a[0]
        y = y + 1
    else:
        res = a[-1] * a[-1]
        y = y - 1
    return a[-1] * res * y[0]


X3 = jnp.array([3, 1, 2], jnp.int32)


LOOP_COUNT_LISTS = [append_in_range_loop, append_in_while_then_stack, pop_after_loop,
                    pop_inside_while]


@pytest.mark.parametrize('fn', LOOP_COUNT_LISTS)
@pytest.mark.parametrize('n', [2, 3])
def test_lists_with_python_loop_counts(fn, n):
    check(fn, X3, n)
    check(slice_of_appended, n + 2)


@pytest.mark.parametrize('fn', LOOP_COUNT_LISTS)
@pytest.mark.parametrize('n', [2, 3])
def test_lists_with_traced_loop_counts(fn, n):
    # the list's length would be a run-time value: Python's value when the count is
    # concrete (no jit), the project's named error when it is traced
    assert_same(autograph.convert(fn, jit=False)(X3, jnp.int32(n)), fn(X3, jnp.int32(n)))
    with pytest.raises(autograph.ControlFlowError, match="'a'"):
        autograph.convert(fn)(X3, jnp.int32(n))


def test_pop_of_an_emptied_list_is_python_index_error():
    with pytest.raises(IndexError):
        pop_after_loop(X3, 1)
    with pytest.raises(IndexError):
        autograph.convert(pop_after_loop)(X3, 1)


@pytest.mark.parametrize('x', [X3, -X3])
def test_lists_in_branches(x):
    check(append_under_python_condition, x)
    check(append_in_branches, x)
    check(append_then_concat, jnp.ones((3, 2)) * x[0])
    check(pop_without_control_flow, x)
    check(pop_after_branches, x)
    with pytest.raises(autograph.ControlFlowError, match="'a"):
        autograph.convert(append_of_unlike_shapes_in_branches)(x)


@pytest.mark.parametrize('index', [1, 0])
def test_items_of_an_array_in_a_list(index):
    check(items_of_relu_then_branch, jnp.array([2.0, 3.0, 4.0]), index)
    g = jax.grad(converted(items_of_relu_then_branch))(jnp.array([2.0, -3.0, 4.0]), index)
    assert_same(g, jax.grad(items_of_relu_then_branch)(jnp.array([2.0, -3.0, 4.0]), index))


def read_items_in_both_branches(y, index):
    a = []
    for v in y:
        a.append(v)
    if index > 0:
        res = a[0] + 0
    else:
        res = a[0] * 2
    return res


@pytest.mark.parametrize('fn', [items_of_relu_then_branch, read_items_in_both_branches])
@pytest.mark.parametrize('index', [1, 0])
def test_list_items_in_traced_branches(fn, index):
    check(fn, jnp.array([2.0, 3.0, 4.0]), jnp.int32(index))


# --- test_dict.py / test_len.py ------------------------------------------------------

def cache_updated_in_loop(x, steps=3):
    cache = {'k': jnp.zeros_like(x), 'v': jnp.zeros_like(x)}
    out = x
    for i in range(steps):
        if cache is not None:
            k = 0.1 * cache['k'] + out
            v = 0.2 * cache['v'] + out
            cache['k'], cache['v'] = k, v
        out = jax.nn.softmax(k * v)
        for key, val in cache.items():
            cache[key] = jax.nn.softmax(val)
    return out, cache


def dict_pops(x):
    colours = {'red': x, 'green': x + 1, 'blue': x + 3}
    m = colours.pop('red')
    n = colours.pop('black', 3)
    return x + m + n, colours


def kwargs_pop(x, **kwargs):
    y = kwargs.pop('y', None)
    if y:
        x = x + y
    return x


def dict_changed_under_array_condition(x):
    d = {'a': x, 'b': x * 2}
    if jnp.sum(x) > 0:
        d['a'] = d['a'] + 10
        d['c'] = x - 1
    else:
        d['c'] = x + 1
    return d


def dict_comprehension_in_zip_loop():
    pos = [1, 3]
    neg = [-1, -3]
    acc = {'minus': 0}
    for i, (p, n) in enumerate(zip(pos, neg)):
        val = p - n
        acc.update({k: val + acc[k] + i for k in acc})
    return acc


def lengths(x):
    a = []
    for i in range(3):
        a.append(x)
    n = len(x) + len(a)
    if len(x) > 2:
        n = n * 2
    return n, len(x.shape)


@pytest.mark.parametrize('x', [jnp.arange(4.0), -jnp.arange(4.0)])
def test_dict_programs(x):
    check(cache_updated_in_loop, x)
    check(dict_pops, x)
    check(kwargs_pop, x, y=2.0)
    check(kwargs_pop, x, z=2.0)
    check(dict_changed_under_array_condition, x)
    check(dict_comprehension_in_zip_loop)
    check(lengths, x)
    check(lengths, x[:2])


def test_dict_under_array_condition_is_staged():
    assert 'cond' in staged(dict_changed_under_array_condition, jnp.arange(4.0))
