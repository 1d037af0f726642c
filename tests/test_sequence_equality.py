"""`==` and `!=` of lists and tuples that hold traced values (`state == START` with
`state = [i, j]`): Python compares them item by item, and with traced items the result is
a traced bool, the `and` of the items' (lists of different lengths, or a list and a
tuple, are unequal whatever the items). Converted vs plain Python, under jit and vmap."""
import re

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from tests.helpers import assert_same, converted

i32 = jnp.int32
START = [3, 0]
GOAL = (3, 11)


def global_list(i, j):
    state = [i, j]
    reward = 0
    if state == START:
        reward = 10
    if state != START:
        reward -= 1
    return reward


def displays(i, j):
    hits = 0
    if [i, j] == [3, j]:
        hits += 1
    if (i, j) != (0, 0):
        hits += 10
    if [i, j] == (i, j):      # a list never equals a tuple
        hits += 100
    if [i, j] == [i, j, 0]:   # nor a list of another length
        hits += 1000
    return hits


def tuple_global_in_a_loop(moves):
    pos = (0, 0)
    steps = 0
    for m in moves:
        if pos != GOAL:
            pos = (pos[0] + m, pos[1] + 2 * m)
            steps += 1
    return pos, steps, pos == GOAL


def nested_and_in(i, j):
    path = [[i, j], [j, i]]
    found = [3, 0] in path
    same = path == [[3, 0], [0, 3]]
    return jnp.where(found, 1, 0) + jnp.where(same, 10, 0)


def chained(i, j):
    a = [i, j]
    return jnp.where(a == START == [3, 0], 1, 0)


def local_tuple(i, j):
    here = (i, j)
    return jnp.where(here == GOAL, 1, 2)


@pytest.mark.parametrize('fn', [global_list, displays, nested_and_in, chained, local_tuple])
@pytest.mark.parametrize('i, j', [(3, 0), (3, 11), (0, 3), (0, 0)])
def test_against_python(fn, i, j):
    expected = fn(i32(i), i32(j))
    assert_same(autograph.convert(fn)(i32(i), i32(j)), expected)


@pytest.mark.parametrize('fn', [global_list, displays, nested_and_in])
def test_under_vmap(fn):
    i, j = jnp.array([3, 3, 0, 0], i32), jnp.array([0, 11, 3, 0], i32)
    got = jax.jit(jax.vmap(converted(fn)))(i, j)
    assert_same(got, jnp.stack([jnp.asarray(fn(a, b)) for a, b in zip(i, j)]))


def test_a_tuple_state_in_a_staged_loop():
    for moves in (jnp.array([1, 1, 1, 0, 2], i32), jnp.array([3, 2, 1, 1, 1], i32)):
        assert_same(autograph.convert(tuple_global_in_a_loop)(moves),
                    tuple_global_in_a_loop(moves))


def test_python_values_keep_python_results():
    def f(a, b):
        return a == b, a != b
    for a, b in [([1, 2], [1, 2]), ([1, 2], (1, 2)), ((1,), (1, 2)), ([], [])]:
        assert autograph.convert(f)(a, b) == f(a, b)


def test_items_that_are_arrays_are_a_named_error():
    def f(x):
        pair = [x, x]
        return pair == [x + 1, x]

    with pytest.raises(autograph.ControlFlowError, match='`==` of two sequences'):
        autograph.convert(f)(jnp.zeros(3))


def test_the_rewrite_reads_like_the_source():
    code = autograph.to_code(global_list)
    assert 'ag.eq(state, START)' in code and 'ag.ne(state, START)' in code
    code = autograph.to_code(displays)
    assert 'ag.eq([i, j], [3, j])' in code


def same_cell(pos, goal):
    if pos == goal:                  # (two parameters: either may be a tuple)
        return 1.0
    return 0.0


class Grid:
    def __init__(self, pos, goal, walls):
        self.pos, self.goal, self.walls = pos, goal, walls

    def reward(self):
        if self.pos != self.goal and self.pos in self.walls:
            return -1.0
        return 1.0 if self.pos == self.goal else 0.0


@pytest.mark.parametrize('r', [2, 3])
def test_tuples_of_traced_items_given_or_held_compare_item_by_item(r):
    """(a TracedValueNeeded before: `==` of two parameters stayed Python's, and `in` of a
    tuple of traced items called Python's `in`, a raw TracerBoolConversionError)"""
    assert autograph.convert(same_cell)((jnp.int32(r), 3), (3, 3)) == \
        same_cell((r, 3), (3, 3))
    walls = [(1, 1), (2, 3)]
    plain = Grid((r, 3), (3, 3), walls).reward()
    assert autograph.convert(Grid((jnp.int32(r), 3), (3, 3), walls).reward)() == plain


# --- ordering: `<`, `<=`, `>`, `>=` ------------------------------------------------------

def least_with_index(d):
    best = (100.0, -1)
    for j in range(4):
        if (d[j], j) < best:      # (ties: the smaller index, as Python orders them)
            best = (d[j], j)
    return best


def orderings(i, j):
    a = (i, j)
    return [a < (3, 0), a <= (3, 0), a > (3, 0), a >= (3, 0),
            a < (i, j, 0), (i,) > a, a >= a]


@pytest.mark.parametrize('d', [[3.0, 1.0, 2.0, 1.0], [0.5, 0.5, 0.5, 0.5],
                               [9.0, 8.0, 7.0, 6.0]])
def test_tuples_of_traced_items_order_as_python(d):
    """(a TracedValueNeeded before: Python's tuple `<` needs the items' truth values)"""
    expected = least_with_index(d)
    got = autograph.convert(least_with_index)(jnp.asarray(d))
    assert_same(got, expected)
    assert_same(jax.jit(converted(least_with_index))(jnp.asarray(d)), expected)


@pytest.mark.parametrize('i, j', [(3, 0), (3, 11), (2, 5), (4, -1)])
def test_each_ordering_operator(i, j):
    expected = orderings(i, j)
    assert_same(autograph.convert(orderings)(i32(i), i32(j)), expected)
    got = jax.vmap(converted(orderings))(jnp.array([i, 0], i32), jnp.array([j, 0], i32))
    assert_same([g[0] for g in got], expected)


def test_orderings_of_python_values_stay_python():
    def f(a, b):
        return a < b, a >= b
    for a, b in [((1, 2), (1, 3)), ([2], [1, 5]), ((1,), (1, 0))]:
        assert autograph.convert(f)(a, b) == f(a, b)
    assert 'ag.lt((d[j], j), best)' in autograph.to_code(least_with_index).replace(
        'ag.getitem(d, j)', 'd[j]')


def tagged_before(d, e):
    return (d, 'tag') < (e, 3)


@pytest.mark.parametrize('d, e', [(1.0, 2.0), (3.0, 2.0), (2.0, 2.0)])
def test_a_pair_python_never_reaches_is_not_compared(d, e):
    """`(d, 'tag') < (e, 3)`: Python compares 'tag' with 3 (a TypeError) only where d ==
    e; the converted code raised that TypeError while tracing, whatever d and e."""
    try:
        expected = tagged_before(d, e)
    except TypeError as error:
        with pytest.raises(TypeError, match=re.escape(str(error))):
            autograph.convert(tagged_before)(jnp.float32(d), jnp.float32(e))
        return
    assert_same(autograph.convert(tagged_before)(jnp.float32(d), jnp.float32(e)), expected)
    batch = jax.vmap(converted(tagged_before))(jnp.float32([d, 0.0]), jnp.float32([e, 1.0]))
    assert_same(batch, jnp.array([expected, True]))


# --- `.index` of traced items or values ----------------------------------------------------

def best_action(V):
    qs = []
    for a in range(4):           # (a staged loop: `qs` is collected, then stacked)
        qs.append(V[a] * 2.0)
    return qs.index(max(qs)), np.argmax(qs), np.mean(qs)


def position_of(x, v):
    items = (x[0], 1.0, x[1], x[2])
    return items.index(v), [x[0], x[1], x[0]].index(x[0], 1)


@pytest.mark.parametrize('V', [[1.0, 3.0, 2.0, 0.5], [4.0, 4.0, 1.0, 0.0]])
def test_index_and_numpy_reductions_of_a_collected_list(V):
    """(raw TracerBoolConversionError / TracerArrayConversionError before)"""
    expected = best_action(np.array(V, np.float32))
    assert_same(autograph.convert(best_action)(jnp.asarray(V)), expected)


@pytest.mark.parametrize('v', [1.0, 5.0])
def test_index_finds_the_first_equal_item(v):
    x = jnp.asarray([2.0, 5.0, 5.0])
    expected = position_of(np.asarray(x), v)
    assert_same(autograph.convert(position_of)(x, jnp.float32(v)), expected)


def test_index_of_an_absent_value_is_pythons_value_error():
    def f(x):
        return [x[0], x[1]].index(7.0)
    with pytest.raises(ValueError, match='is not in list'):
        f(np.zeros(2))
    with pytest.raises(ValueError, match='is not in list'):
        autograph.convert(f)(jnp.zeros(2))


def test_in_of_a_deque_of_tuples_with_traced_items():
    from collections import deque

    def hits(x):
        body = deque([(0, 0), (0, 1)])
        return (x[0], x[1]) in body, (x[1], x[0]) in body
    for x in ([0, 1], [1, 0]):
        assert [bool(v) for v in autograph.convert(hits)(jnp.asarray(x, i32))] == \
            list(hits(np.asarray(x, np.int32)))
