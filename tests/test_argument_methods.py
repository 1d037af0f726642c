"""Methods of objects the function is given, named like an array's, a list's, a dict's or
a logger's (`draws.take(k)`, `agent.update(x)`, `buf.append(v)`, `queue.pop()`,
`obj.info(x)`): the converter cannot tell a user object's from a library one's, so the
call is converted when it is the user's (its Python `if` on traced values staged, the
attributes it assigns carried through staged statements), and a real list's or array's is
called as it is. Each compared with the same function run as plain Python. (Array
computations, `x.sum()`, `x.reshape(...)`, stay plain calls on any object but `self`:
see passes.calls._ARRAY_COMPUTATIONS.)"""
import ast
import textwrap

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from autograph.analysis.activity import scope_of
from autograph.analysis.receivers import Receivers
from autograph.passes.base import walk_scope
from autograph.passes.calls import _CONTAINER_METHODS
from autograph.passes.static_resolver import StaticResolver
from tests.helpers import assert_same, converted


class Tally:
    """A user class whose methods are named like library ones; each assigns `self.count`
    under a Python `if` on its argument (a traced value in converted code)."""

    def __init__(self):
        self.count = 0.0

    def tick(self, x=1.0):
        if x > 0:
            self.count = self.count + x
        else:
            self.count = self.count - 1.0
        return self.count * 2.0

    take = update = copy = append = pop = info = warning = choice = item = tick

    def step(self, x):
        """`self.info(x)`: a method named like a logging level, on `self`."""
        if x > 0.5:
            self.info(x)
        return self.count


# --- one caller per name: under a staged `if`, in a staged `for` and `while` -----------

def if_take(c, x):
    if x > -1.5:
        y = c.take(x)
    else:
        y = -x
    return y + c.count


def if_update(c, x):
    if x > -1.5:
        y = c.update(x)
    else:
        y = -x
    return y + c.count


def if_copy(c, x):
    y = 0.0
    if x > -1.5:
        y = c.copy()
    return y + c.count


def if_append(c, x):
    if x > -1.5:
        c.append(x)
    return c.count


def if_pop(c, x):
    y = x
    if x > -1.5:
        y = c.pop(x)
    return y + c.count


def if_info(c, x):
    if x > -1.5:
        c.info(x)
    return c.count


def if_warning(c, x):
    if x > -1.5:
        c.warning(x * 2.0)
    return c.count


def if_item(c, x):
    y = 0.0
    if x > -1.5:
        y = c.item()
    return y + c.count


def if_choice(c, x):
    if x > -1.5:
        c.choice(x)
    return c.count


def for_take(c, n):
    total = 0.0
    for i in range(n):
        total = total + c.take(i - 1.0)
    return total + c.count


def for_update(c, n):
    for i in range(n):
        c.update(i - 1.0)
    return c.count


def for_append(c, n):
    for i in range(n):
        c.append(1.0 - i)
    return c.count


def for_pop(c, n):
    total = 0.0
    for i in range(n):
        total = total + c.pop(i * 0.5 - 0.5)
    return total + c.count


def for_info(c, n):
    for i in range(n):
        c.info(i - 0.5)
    return c.count


def while_copy(c, n):
    i = 0
    while i < n:
        c.copy()
        i += 1
    return c.count


def while_update(c, n):
    i = 0
    while i < n:
        c.update(i - 1.0)
        i += 1
    return c.count


def while_warning(c, n):
    i = 0
    while i < n:
        c.warning(1.0 - i)
        i += 1
    return c.count


def elif_pop(c, x):
    """Python calls `c.pop()` only when `x <= 0` (see analysis.effects)."""
    if x > 0:
        y = 1.0
    elif c.pop() > 1.5:
        y = 2.0
    else:
        y = 3.0
    return y + c.count


IFS = [if_take, if_update, if_copy, if_append, if_pop, if_info, if_warning, if_item,
       if_choice, elif_pop]
LOOPS = [for_take, for_update, for_append, for_pop, for_info, while_copy, while_update,
         while_warning]


def _state(fn, c, arg):
    return fn(c, arg), c.count


@pytest.mark.parametrize('fn', IFS, ids=[f.__name__ for f in IFS])
@pytest.mark.parametrize('x', [2.0, -0.5, -3.0])
def test_under_a_staged_if(fn, x):
    expected = _state(fn, Tally(), x)
    assert_same(_state(autograph.convert(fn), Tally(), jnp.float32(x)), expected)
    assert_same(_state(converted(fn), Tally(), x), expected)
    assert_same(jax.jit(lambda x: converted(fn)(Tally(), x))(x), expected[0])


@pytest.mark.parametrize('fn', LOOPS, ids=[f.__name__ for f in LOOPS])
@pytest.mark.parametrize('n', [0, 3])
def test_in_a_staged_loop(fn, n):
    expected = _state(fn, Tally(), n)
    assert_same(_state(autograph.convert(fn), Tally(), jnp.int32(n)), expected)
    assert_same(jax.jit(lambda n: converted(fn)(Tally(), n))(n), expected[0])


@pytest.mark.parametrize('fn', IFS, ids=[f.__name__ for f in IFS])
def test_under_vmap(fn):
    xs = np.array([2.0, -0.5, -3.0, 0.25], np.float32)
    expected = np.array([fn(Tally(), float(x)) for x in xs], np.float32)
    assert_same(jax.vmap(lambda x: converted(fn)(Tally(), x))(jnp.asarray(xs)), expected)


@pytest.mark.parametrize('fn', [for_update, while_warning], ids=['for', 'while'])
def test_loop_under_vmap(fn):
    ns = [0, 1, 3]
    expected = np.array([fn(Tally(), n) for n in ns], np.float32)
    assert_same(jax.vmap(lambda n: converted(fn)(Tally(), n))(jnp.array(ns)), expected)


def test_a_method_named_like_a_logging_level_on_self():
    for x in (0.25, 0.75):
        c = Tally()
        expected = (c.step(x), c.count)
        c = Tally()
        assert_same((autograph.convert(c.step)(jnp.float32(x)), c.count), expected)


def test_two_calls_see_the_first_calls_state():
    c, d = Tally(), Tally()
    f = autograph.convert(if_update)
    expected = [if_update(c, 2.0), if_update(c, -0.5)]
    assert_same([f(d, jnp.float32(2.0)), f(d, jnp.float32(-0.5))], expected)
    assert_same(d.count, c.count)


def test_generated_code_routes_the_unknown_receivers_method_only():
    code = autograph.to_code(if_take)
    assert 'ag.call(c.take, x)' in code
    code = autograph.to_code(library_methods)
    assert 'ys.sum()' in code and 'seen.append(' in code   # made in the function
    assert 'ag.call(xs.take' in code                      # a parameter: unknown


def test_which_local_variables_surely_hold_library_values():
    source = textwrap.dedent('''
        def f(p):
            a = jnp.zeros(3)
            b = a * 2 + 1
            c = p
            d = c.sum()
            e = []
            e = e + [1]
            g = a.sum()
            k = e.pop()
            r = np.random.choice(e)
            for i in range(3):
                b = b + 1.0
            return a
        ''')
    module = ast.parse('import jax.numpy as jnp\nimport numpy as np\n' + source)
    function = module.body[-1]
    found = Receivers(function, walk_scope(function), StaticResolver(module),
                      scope_of(function).locals, _CONTAINER_METHODS)
    assert sorted(found.known) == ['a', 'b', 'e', 'g']


# --- real lists, arrays and dicts given as arguments behave as before -------------------

def library_methods(xs, out, d, idx):
    ys = jnp.zeros(3) + 1.0
    seen = []
    for x in xs:
        out.append(x * 2.0)
        seen.append(x)
        d.update({'last': x})
    total = ys.sum() + xs.sum() + xs.copy().max() + xs.take(idx).sum()
    return total, len(out), out.copy(), len(seen), d.get('last')


def test_lists_arrays_and_dicts_given_as_arguments():
    xs = np.array([1.0, -2.0, 3.0], np.float32)
    out, d = [0.5], {'first': 1.0}
    expected = library_methods(xs, out, d, np.array([0, 2]))
    for xs_ in (xs, jnp.asarray(xs)):
        out2, d2 = [0.5], {'first': 1.0}
        assert_same(autograph.convert(library_methods)(xs_, out2, d2, jnp.array([0, 2])),
                    expected)
        assert_same((out2, d2), (out, d))


def test_a_numpy_array_and_a_dict_keep_pythons_methods():
    def f(a, d, names, k):
        b = a.copy()
        names.sort()
        names.reverse()
        keys = list(d.keys())
        d.setdefault('c', 3.0)
        return b.take(k), d.get('z', -1.0), len(keys), names.index('x'), d.pop('a')
    a = np.array([3.0, 1.0, 2.0])
    d, names = {'a': 1.0, 'b': 2.0}, ['y', 'x', 'z']
    expected = f(a, d, names, 1)
    d2, names2 = {'a': 1.0, 'b': 2.0}, ['y', 'x', 'z']
    assert_same(autograph.convert(f)(a, d2, names2, 1), expected)
    assert (d2, names2) == (d, names)
    d2, names2 = {'a': 1.0, 'b': 2.0}, ['y', 'x', 'z']
    assert_same(autograph.convert(f, jit=False)(a, d2, names2, 1), expected)
    assert (d2, names2) == (d, names)


def test_array_methods_through_call_add_nothing_to_the_program():
    def routed(x, k):
        return x.take(k).sum() + x.copy().max()

    x, k = jnp.arange(5.0), jnp.array([1, 3])
    assert 'ag.call(x.take, k)' in autograph.to_code(routed)
    assert_same(autograph.convert(routed)(x, k), routed(np.arange(5.0), np.array([1, 3])))
    assert str(jax.make_jaxpr(converted(routed))(x, k)) == str(jax.make_jaxpr(routed)(x, k))
