"""Python lists in the state of staged loops (runtime.state.lists, runtime.items).

A staged loop body is traced once: a list it appends to holds, while tracing, only its
items from before the loop and this iteration's. Appending is collected per iteration;
any other read of such a list must give Python's values (a loop over a Python range, or
over an array's rows of static length, runs as Python) or a named error, never the values
of that one trace.
"""
import re

import jax
import jax.numpy as jnp
import pytest

import autograph
from autograph import ControlFlowError
from autograph.runtime.loops import loop_policy
from tests.helpers import assert_same, check, converted, f32, site, staged


def check_all(fn, x):
    """Converted `fn` equals plain Python on a Python number, a JAX scalar (plain call,
    jit, eager) and under vmap; returns the jaxpr's control-flow primitives."""
    check(fn, float(x))
    check(fn, f32(x))
    xs = jnp.array([x, x + 1.5, -x], dtype=jnp.float32)
    expected = jax.tree_util.tree_map(lambda *v: jnp.stack(v), *[fn(v) for v in xs])
    assert_same(jax.vmap(autograph.convert(fn))(xs), expected)
    return staged(fn, f32(x))


def location(fn, text):
    """A pattern for 'tests/test_list_state.py:N', N the line of `fn` that has `text`."""
    return r'\S*' + re.escape(site(fn, text)) + r'\b'


# --- reading a list the loop appends to: Python's values ------------------------------------

def read_last(x):
    out = [x]
    for i in range(5):
        out.append(out[-1] * 2 + i)
    return jnp.stack(out)


def read_length(x):
    out = []
    for i in range(6):
        out.append(x * len(out))
    return jnp.stack(out)


def fibonacci_list(a):
    seq = [a, a]
    for i in range(2, 10):
        seq.append(seq[i - 1] + seq[i - 2])
    return jnp.stack(seq)


def stack_before_append(x):
    out = [x]
    total = 0.0
    for i in range(5):
        total = total + jnp.sum(jnp.array(out))
        out.append(x * i)
    return total


def sum_and_concatenate(x):
    out = []
    total = 0.0
    for i in range(5):
        out.append(x * i)
        total = total + sum(out) + ([1.0] + out)[-1]
    return total


def membership_and_iteration(x):
    out = [x]
    total = 0.0
    for i in range(4):
        for item in out:
            total = total + item
        out.append(x + i)
    return total


def inner_loop_reads(x):
    out = [x]
    total = 0.0
    for i in range(5):
        out.append(x * i)
        for j in range(4):
            total = total + len(out) * x
    return total


@pytest.mark.parametrize('fn', [read_last, read_length, fibonacci_list, stack_before_append,
                                sum_and_concatenate, membership_and_iteration])
def test_reading_an_appended_list_runs_the_range_loop_as_python(fn):
    assert 'scan' not in check_all(fn, 1.0)


def test_a_read_in_a_nested_staged_loop_counts_for_the_outer_loop():
    # The outer loop runs as Python; the inner one, which only reads, stays staged (a
    # scan with Python's order of the sums; else vectorised, see tests/test_reductions.py).
    jaxpr = jax.make_jaxpr(autograph.convert(inner_loop_reads, jit=False,
                                             sequential_sums=True))(f32(1.0))
    assert [e.primitive.name for e in jaxpr.jaxpr.eqns].count('scan') == 5
    jaxpr = jax.make_jaxpr(autograph.convert(inner_loop_reads, jit=False))(f32(1.0))
    assert [e.primitive.name for e in jaxpr.jaxpr.eqns].count('scan') == 0
    check_all(inner_loop_reads, 1.0)


def test_reading_an_appended_list_differentiates_as_python():
    grad = jax.grad(lambda x: autograph.convert(read_last)(x)[-1])
    assert_same(grad(f32(1.0)), jax.grad(lambda x: read_last(x)[-1])(f32(1.0)))


# --- appending only: still one staged loop ---------------------------------------------------

def nested_append(x):
    out = []
    for i in range(4):
        for j in range(5):
            out.append(x * i + j)
    return jnp.stack(out)


def nested_append_after_items(x):
    out = [x]
    for i in range(4):
        out.append(-x)
        for j in range(5):
            out.append(x * i + j)
    return jnp.stack(out)


def list_in_dict(x):
    d = {'a': [], 'b': x}
    for i in range(5):
        d['a'].append(x * i + d['b'])
    return jnp.stack(d['a'])


def list_in_list(x):
    rows = [[x], []]
    for i in range(5):
        rows[0].append(x * i)
        rows[1].append(x + i)
    return jnp.stack(rows[0]), jnp.stack(rows[1])


def appended_again(x):
    out = []
    for i in range(5):
        out.append(x * i)
    for i in range(4):
        out.append(x + i)
    return jnp.stack(out)


def read_but_not_grown(x):
    out = [x, x]
    for i in range(5):
        out[0] = out[0] + out[1] * i
    return out[0]


@pytest.mark.parametrize('fn', [nested_append, nested_append_after_items, list_in_dict,
                                list_in_list, appended_again, read_but_not_grown])
def test_appending_loops_stay_staged(fn):
    assert 'scan' in check_all(fn, 1.0)


def test_nested_appends_are_two_scans():
    jaxpr = jax.make_jaxpr(autograph.convert(nested_append, jit=False))(f32(1.0))
    (outer,) = [e for e in jaxpr.jaxpr.eqns if e.primitive.name == 'scan']
    inner = [e for e in outer.params['jaxpr'].jaxpr.eqns if e.primitive.name == 'scan']
    assert len(inner) == 1


def extend_and_add(x):
    out = []
    for i in range(5):
        out.extend([x * i, x + i])
        out += [x]
    return jnp.stack(out)


def sliding_window(x):
    out = [x, x]
    for i in range(5):
        out.append(out[-1] + out[-2])
        out.pop(0)
    return jnp.stack(out)


def nested_while_changes_the_list(x):
    out = [x]
    for i in range(5):
        j = 0
        while j < i + x:
            out[0] = out[0] + 1
            j += 1
    return out[0]


@pytest.mark.parametrize('fn', [extend_and_add, sliding_window,
                                nested_while_changes_the_list])
def test_other_list_changes_in_staged_loops(fn):
    # extend/+= only append; a list read but not grown (the window) is carried whole.
    assert 'scan' in check_all(fn, 1.0)


def test_nested_append_in_a_loop_over_an_array():
    def f(xs):
        out = []
        for x in xs:
            for j in range(5):
                out.append(x * j)
        return jnp.stack(out)
    assert 'scan' in staged(f, jnp.arange(3.0))
    check(f, jnp.arange(3.0))


# --- loops that cannot run as Python: named errors ------------------------------------------

TOO_LONG = jnp.arange(loop_policy.LONGEST_ARRAY_UNROLL + 1.0)   # (its loop is not unrolled)


def test_reading_in_a_loop_over_a_long_array_is_a_named_error():
    def f(xs):
        out = [xs[0]]
        for x in xs:
            out.append(out[-1] + x)
        return jnp.stack(out)
    check(f, jnp.arange(3.0))   # (runs as Python, as a range loop would)
    with pytest.raises(ControlFlowError, match=r"'out' is read \(read at "
                       + location(f, 'out[-1] + x')):
        autograph.convert(f)(TOO_LONG)


def test_reading_a_list_in_a_dict_names_its_key():
    def f(xs):
        d = {'a': [xs[0]]}
        for x in xs:
            d['a'].append(x * len(d['a']))
        return jnp.stack(d['a'])
    check(f, jnp.arange(3.0))
    with pytest.raises(ControlFlowError, match=r"'d\['a'\]' is read \(read at "
                       + location(f, 'len(d')):
        autograph.convert(f)(TOO_LONG)


def test_appending_in_a_while_loop_is_a_named_error():
    def f(x, n):
        out = [x]
        i = 0
        while i < n:
            out.append(out[-1] * 2)
            i += 1
        return jnp.stack(out)
    with pytest.raises(ControlFlowError, match=r"'out' .* " + location(f, 'while i < n')):
        autograph.convert(f)(f32(1.0), jnp.int32(3))


def test_list_assigned_at_a_traced_index_gives_pythons_values():
    # (numbers: each item selected between the value and itself, see
    # tests/test_list_traced_index.py)
    def f(n):
        h = [0, 0, 0]
        i = 0
        while i < n:
            h[i % 3] = i
            i += 1
        return h

    def g(n):
        h = [0, 0, 0]
        i = 0
        while i < n:
            h[i % 3] += 1
            i += 1
        return h
    for fn in (f, g):
        assert [int(v) for v in autograph.convert(fn)(jnp.int32(7))] == fn(7)


def test_list_of_unlike_items_assigned_at_a_traced_index_is_a_named_error():
    def f(n):
        h = ['a', 'b', 'c']
        i = 0
        while i < n:
            h[i % 3] = 'x'
            i += 1
        return h
    with pytest.raises(ControlFlowError, match=r"'h': a Python list is assigned at a traced "
                       r"index at " + location(f, "h[i % 3] = 'x'")):
        autograph.convert(f)(jnp.int32(7))


def test_the_suggested_array_gives_pythons_values():
    def f(n):
        h = [0, 0, 0]
        i = 0
        while i < n:
            h[i % 3] += 1
            i += 1
        return h

    def g(n):
        h = jnp.array([0, 0, 0])
        i = 0
        while i < n:
            h[i % 3] += 1
            i += 1
        return h
    for n in (0, 7):
        assert_same(autograph.convert(g)(jnp.int32(n)), jnp.array(f(n)))
        assert_same(autograph.convert(f)(n), f(n))


def test_dict_assigned_at_a_traced_key_is_a_named_error():
    def f(xs):
        d = {}
        for x in xs:
            d[x] = 1
        return d
    with pytest.raises(ControlFlowError, match=r"'d': a Python dict is assigned at a traced "
                       r"key at " + location(f, 'd[x] = 1')):
        autograph.convert(f)(jnp.arange(3))


# --- lists other code holds too: the loop fills the very object --------------------------

def collected_through_an_alias(x):
    out = []
    alias = out
    for i in range(5):
        out.append(x * i)
    return len(alias), jnp.stack(alias)


def grow(items, x):
    for i in range(4):
        items.append(x + i)


def collected_by_a_helper(x):
    mine = [x]
    grow(mine, x * 2)
    return len(mine), jnp.stack(mine)


@pytest.mark.parametrize('fn', [collected_through_an_alias, collected_by_a_helper])
def test_a_list_grown_by_a_staged_loop_is_the_same_object_for_its_other_holders(fn):
    check(fn, jnp.float32(1.5))
    xs = jnp.array([1., -2.])
    assert_same(jax.vmap(autograph.convert(fn))(xs),
                jax.tree_util.tree_map(lambda *v: jnp.stack(v), *[fn(x) for x in xs]))
    total = lambda x: jnp.sum(fn(x)[1])   # noqa: E731
    assert_same(jax.grad(autograph.convert(total))(1.5), jax.grad(total)(1.5))
    assert 'scan' in staged(fn, jnp.float32(1.5))


def test_a_list_only_this_function_holds_stays_one_stacked_array():
    def f(x):
        out = []
        for i in range(100):
            out.append(x * i)
        return jnp.stack(out)
    assert 'aliased=' not in autograph.to_code(f)
    assert "aliased=('out',)" in autograph.to_code(collected_through_an_alias)
    assert "aliased=('items',)" in autograph.to_code(grow)


def collected_then_read_in_staged_statements(y, n):
    items = []
    for v in y:               # staged: one scan, `items` one stacked array
        items.append(v * 2)
    if n > 1:                 # traced: both branches read the items
        total = items[0] + items[-1]
    else:
        total = items[1] * 3
    i = 0
    while i < n:              # traced: the body reads an item too
        total = total + items[i % 1]
        i += 1
    return total, items[1:]


@pytest.mark.parametrize('n', [0, 1, 3])
def test_items_of_a_collected_list_read_in_each_staged_statement(n):
    """Each branch and loop body slices the items it reads in its own trace (a slice kept
    from one trace was a leaked tracer in the next)."""
    y = jnp.array([1.0, 2.0, 3.0])
    check(collected_then_read_in_staged_statements, y, jnp.int32(n))
    total = lambda y: collected_then_read_in_staged_statements(y, n)[0]   # noqa: E731
    assert_same(jax.grad(autograph.convert(total))(y), jax.grad(total)(y))
    ys = jnp.stack([y, y + 1])
    assert_same(jax.vmap(converted(collected_then_read_in_staged_statements),
                         in_axes=(0, None))(ys, jnp.int32(n)),
                jax.tree_util.tree_map(lambda *v: jnp.stack(v), *[
                    collected_then_read_in_staged_statements(row, n) for row in ys]))
