"""Holes noticed at the end of a session (issue 32), each against the same function run
as plain Python: `any`/`all` of a generator whose items have effects, items written into
an object's attribute dict, item writes at Python integers out of range, builtins given
items Python cannot order. (`len` of a dict with keys on some paths only:
tests/test_dict_keys_presence.py.)"""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from tests.helpers import assert_same, line_of

f32 = jnp.float32


class Counter:
    def __init__(self):
        self.n = 0

    def tick(self, v):
        self.n += 1
        return v


# --- any / all of a generator stop at the first item that decides them -----------------

def any_ticks(c, xs):
    return any(c.tick(v) > 2 for v in xs)


def all_ticks(c, xs):
    return all(c.tick(v) < 2 for v in xs)


def any_filtered(c, xs):
    found = any(c.tick(v) > 2 for v in xs if v != 0)
    return found, c.n


def all_in_expression(c, xs, y):
    return y + 1.0 if all(c.tick(v) < 2 for v in xs) else y * 3.0


ITEMS = [[1.0, 3.0, 4.0, 0.0], [0.0, 1.0, 1.5, 1.0], [5.0, 0.0, 0.0, 1.0], []]


@pytest.mark.parametrize('fn', [any_ticks, all_ticks, any_filtered])
@pytest.mark.parametrize('items', ITEMS)
def test_any_all_run_items_only_until_decided(fn, items):
    for kind in ('list', 'array'):
        c = Counter()
        expected = fn(c, list(items) if kind == 'list' else np.asarray(items, np.float32))
        xs = [f32(v) for v in items] if kind == 'list' else jnp.asarray(items, f32)
        if kind == 'array' and not items:
            continue   # (an empty array: no traced items)
        converted = autograph.convert(fn)
        for _ in range(2):   # (the second call reuses the trace)
            got = Counter()
            assert_same(converted(got, xs), expected)
            assert got.n == c.n, (kind, items)


def test_any_all_under_jit_vmap_and_grad():
    c = Counter()
    xs = jnp.asarray([1.0, 3.0, 4.0, 0.0])
    expected = all_in_expression(c, np.asarray(xs), f32(2.0))
    assert_same(jax.jit(autograph.convert(all_in_expression, jit=False),
                        static_argnums=0)(Counter(), xs, f32(2.0)), expected)
    rows = jnp.asarray([[1.0, 0.0], [3.0, 1.0]])
    batched = jax.vmap(lambda r: autograph.convert(any_ticks, jit=False)(Counter(), r))(rows)
    assert batched.tolist() == [any_ticks(Counter(), np.asarray(r)) for r in rows]
    grad = jax.grad(lambda y: autograph.convert(all_in_expression)(Counter(), xs, y))(f32(2.0))
    assert_same(grad, jax.grad(lambda y: all_in_expression(Counter(), xs, y))(f32(2.0)))


def test_any_of_a_generator_without_effects_keeps_its_form():
    def pure(xs):
        return any(v > 2 for v in xs)
    assert 'ag.any(' in autograph.to_code(pure)
    assert 'ag.for_stmt(' in autograph.to_code(any_ticks)


# --- vars(obj)[k] = v and obj.__dict__[k] = v set attributes ---------------------------

class Box:
    pass


def dict_writes(box, x):
    box.__dict__['a'] = x * 2
    vars(box)['b'] = x + 1
    box.__dict__['c'] = x - 1
    if x > 0:
        vars(box)['b'] += 10
        box.__dict__['c'] = x
    n = 0
    while n < 3:
        vars(box)['d'] = x + n
        n += 1
    return x


@pytest.mark.parametrize('x', [1.0, -1.0])
def test_attribute_dict_writes_are_attributes(x):
    expected = Box()
    dict_writes(expected, x)
    box = Box()
    converted = autograph.convert(dict_writes)
    for _ in range(2):
        converted(box, f32(x))
        assert sorted(vars(box)) == sorted(vars(expected))
        for name, value in vars(expected).items():
            assert not isinstance(vars(box)[name], jax.core.Tracer)
            assert_same(vars(box)[name], f32(value))


def test_attribute_dict_delete_and_shadowed_vars():
    def deletes(box, x):
        del vars(box)['a']
        box.b = x
        return x

    def shadowed(box, x, vars=lambda o: {}):   # (not the builtin: an item of its result)
        vars(box)['a'] = x
        return x
    box = Box()
    box.a = 1.0
    autograph.convert(deletes)(box, f32(2.0))
    assert not hasattr(box, 'a') and float(box.b) == 2.0
    assert 'ag.attributes' not in autograph.to_code(shadowed)
    box = Box()
    autograph.convert(shadowed)(box, f32(2.0))
    assert vars(box) == {}


@pytest.mark.parametrize('how', ['setattr', 'vars', 'dict'])
def test_attribute_created_by_name_on_some_paths(how):
    """Created by a name under a traced `if`: afterwards the attribute exists where
    Python's does (`hasattr`, the object after the call, a read: AttributeError)."""
    def created(box, x):
        if x > 0:
            if how == 'setattr':
                setattr(box, 'c', x)
            elif how == 'vars':
                vars(box)['c'] = x
            else:
                box.__dict__['c'] = x
        return hasattr(box, 'c')

    def read(box, x):
        if x > 0:
            if how == 'setattr':
                setattr(box, 'c', x)
            elif how == 'vars':
                vars(box)['c'] = x
            else:
                box.__dict__['c'] = x
        return box.c * 2

    for x in (-1.0, 1.0):
        expected_box, box = Box(), Box()
        expected = created(expected_box, x)
        assert autograph.convert(created)(box, f32(x)) == expected
        assert sorted(vars(box)) == sorted(vars(expected_box))
    with pytest.raises(AttributeError, match="no attribute 'c'"):
        read(Box(), -1.0)
    with pytest.raises(AttributeError, match="no attribute 'c'"):
        autograph.convert(read)(Box(), f32(-1.0))
    assert_same(autograph.convert(read)(Box(), f32(1.5)), read(Box(), f32(1.5)))


# --- item writes at a Python integer out of range: NumPy's IndexError ------------------

def write_past_the_end(a, x):
    a[3] = x
    return a


def add_past_the_end_in_branch(a, x):
    if x > 0:
        a[1, 5] += x
    return a


def test_write_at_a_python_index_out_of_range_is_numpys_error():
    with pytest.raises(IndexError, match='index 3 is out of bounds for axis 0 with size 3'):
        write_past_the_end(np.zeros(3, np.float32), 1.0)
    with pytest.raises(IndexError, match='index 3 is out of bounds') as info:
        autograph.convert(write_past_the_end)(jnp.zeros(3), f32(1.0))
    notes = '\n'.join(getattr(info.value, '__notes__', []))
    assert f'line {line_of(write_past_the_end, "a[3] = x")}' in notes
    with pytest.raises(IndexError, match='index 5 is out of bounds for axis 1 with size 2'):
        autograph.convert(add_past_the_end_in_branch)(jnp.zeros((2, 2)), f32(1.0))
    # the branch Python does not take does not raise
    assert_same(autograph.convert(add_past_the_end_in_branch)(jnp.zeros((2, 2)), f32(-1.0)),
                add_past_the_end_in_branch(np.zeros((2, 2), np.float32), -1.0))


def test_negative_indices_in_range_count_from_the_end():
    def writes(a, i, x):
        a[-1] = x
        a[-3] += x
        a[i] = x * 2
        return a
    for i in (-2, 1, -3):
        expected = writes(np.zeros(3, np.float32), i, 1.5)
        assert_same(autograph.convert(writes)(jnp.zeros(3), jnp.int32(i), f32(1.5)), expected)
        assert_same(jax.jit(autograph.convert(writes))(jnp.zeros(3), jnp.int32(i), f32(1.5)),
                    expected)


# --- builtins given traced items among items Python cannot order -----------------------

def sorted_mixed(x):
    total = 0.0
    for v in sorted(['b', x, 'a']):
        total = total + 1.0
    return total


def max_mixed(x):
    return max([x, 'a'], key=lambda v: v)


def min_none(x):
    return min(x, None)


@pytest.mark.parametrize('fn, text, what', [
    (sorted_mixed, "for v in sorted(['b', x, 'a']):", 'sorted()'),
    (max_mixed, "return max([x, 'a'], key=lambda v: v)", 'max(..., key=)'),
    (min_none, 'return min(x, None)', 'min()')])
def test_unorderable_items_are_a_named_type_error(fn, text, what):
    with pytest.raises(TypeError):
        fn(f32(1.0))
    with pytest.raises(TypeError) as info:
        autograph.convert(fn)(f32(1.0))
    assert isinstance(info.value, autograph.ControlFlowError)
    message = str(info.value)
    assert message.startswith(what) and f':{line_of(fn, text)}' in message
    assert 'str' in message or 'NoneType' in message


# --- `del o.x` on some paths only -------------------------------------------------------

def delete_some_paths(box, x):
    if x > 0:
        del box.c
    return x * 2


def delete_then_read(box, x):
    if x > 0:
        del box.c
    y = x * 2
    return y + box.c


@pytest.mark.parametrize('fn', [delete_some_paths, delete_then_read])
@pytest.mark.parametrize('x', [-1.0, 1.0])
def test_an_attribute_deleted_on_some_paths_exists_where_pythons_does(fn, x):
    def run(call):
        box = Box()
        box.c = f32(3.0)
        try:
            return call(box, f32(x)), hasattr(box, 'c')
        except AttributeError:
            return 'AttributeError', None   # (the object after an error: not compared)
    expected = run(fn)
    converted = autograph.convert(fn)
    for _ in range(2):
        got = run(converted)
        assert got[1] == expected[1]
        if expected[0] == 'AttributeError':
            assert got[0] == 'AttributeError'
        else:
            assert_same(got[0], expected[0])


# --- a Python int beyond JAX's integers as state of a staged statement -----------------

def keeps_a_huge_int(w):
    x = 10**20
    if w < 1.0:
        x = w
    return x


def test_a_python_int_beyond_int32_in_staged_state_is_a_named_error():
    """It was OverflowError from inside the runtime (corpus batch 4: `inf = 10**20`)."""
    assert keeps_a_huge_int(2.0) == 10**20
    with pytest.raises(autograph.ControlFlowError, match='100000000000000000000'):
        autograph.convert(keeps_a_huge_int)(f32(0.5))
