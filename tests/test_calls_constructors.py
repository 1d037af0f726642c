"""A user class called from converted code (`f = Filter(b, a)`) makes its instance as
Python's `type.__call__` does, and its `__init__` runs converted like any user method:
item writes into attributes, branches and loops on arrays work there too (and in the
methods it calls, and in a base class's `__init__` reached by `super()`). Library classes,
metaclasses with a `__call__` of their own and generated `__init__`s (dataclasses) are
called as they are. Converted vs plain Python, where the plain run holds NumPy arrays
(`zeros` below gives NumPy's writable arrays there)."""
import dataclasses
import warnings

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from autograph import conversion
from tests.helpers import assert_same, converted, staged

f32 = jnp.float32
zeros = jnp.zeros   # NumPy's in the plain runs (see `plain`)


def plain(fn, *args, monkeypatch):
    """`fn(*args)` as plain Python: `zeros` gives writable NumPy float32 arrays."""
    monkeypatch.setitem(globals(), 'zeros', lambda n: np.zeros(n, np.float32))
    try:
        return fn(*[np.array(a) if isinstance(a, jax.Array) else a for a in args])
    finally:
        monkeypatch.undo()


class Window:
    """An `__init__` that writes a slice and items of a fresh buffer, branches on an array
    value and loops while an array condition holds."""

    def __init__(self, taps, gain):
        self.buf = zeros(5)
        self.buf[5 - taps.shape[0]:] = taps
        for i in range(1, 5):
            self.buf[i] += self.buf[i - 1]
        if gain > 0:
            self.scale = gain
        else:
            self.scale = -0.5 * gain
        self.halvings = 0
        while self.buf.sum() * self.scale > 4.0:
            self.buf[:] = self.buf / 2
            self.halvings += 1

    def total(self):
        return self.buf.sum() * self.scale + self.halvings


class Resettable:
    """An `__init__` that calls a method writing items of an attribute."""

    def __init__(self, n, first):
        self.state = zeros(n)
        self.reset(first)

    def reset(self, first):
        self.state[0] = first
        if first < 0:
            self.state[1:] = -first


class Base:
    def __init__(self, x):
        self.w = zeros(3)
        self.w[1] = x


class Derived(Base):
    def __init__(self, x, y):
        super().__init__(x)
        if y > x:
            self.w[2] = y


def make_window(taps, gain):
    w = Window(taps, gain)
    return w.buf, w.total()


def windows_in_a_loop(rows, gains):
    acc = 0.0
    for row, gain in zip(rows, gains):
        acc += Window(row, gain).total()
    return acc


def resettable(n_first):
    r = Resettable(4, n_first)
    return r.state


def derived(x, y):
    return Derived(x, y).w


TAPS = jnp.array([0.5, 1.5, 2.0])


@pytest.mark.parametrize('gain', [1.5, -3.0, 0.1])
def test_init_writes_items_branches_and_loops(gain, monkeypatch):
    fn = autograph.convert(make_window)
    for taps in (TAPS, TAPS[::-1] * 2):
        expected = plain(make_window, taps, np.float32(gain), monkeypatch=monkeypatch)
        assert_same(fn(taps, f32(gain)), expected)
    expected = plain(make_window, TAPS, np.float32(gain), monkeypatch=monkeypatch)
    assert_same(autograph.convert(make_window, jit=False)(TAPS, f32(gain)), expected)


def test_objects_made_in_a_staged_loop(monkeypatch):
    rows = jnp.stack([TAPS, TAPS * 3, -TAPS, TAPS + 1])
    gains = jnp.array([1.5, -3.0, 0.1, 2.0])
    expected = plain(windows_in_a_loop, rows, gains, monkeypatch=monkeypatch)
    assert 'scan' in staged(windows_in_a_loop, rows, gains)
    assert_same(autograph.convert(windows_in_a_loop)(rows, gains), expected)


def test_under_jit_and_vmap(monkeypatch):
    gains = jnp.array([1.5, -3.0, 0.1, 2.0])
    got = jax.jit(jax.vmap(converted(make_window), in_axes=(None, 0)))(TAPS, gains)
    for b, gain in enumerate(gains):
        expected = plain(make_window, TAPS, np.float32(gain), monkeypatch=monkeypatch)
        assert_same(jax.tree_util.tree_map(lambda x: x[b], got), expected)


@pytest.mark.parametrize('first', [2.0, -1.5])
def test_init_calls_a_method_that_writes_items(first, monkeypatch):
    expected = plain(resettable, np.float32(first), monkeypatch=monkeypatch)
    assert_same(autograph.convert(resettable)(f32(first)), expected)
    got = jax.jit(jax.vmap(converted(resettable)))(jnp.array([2.0, -1.5]))
    assert_same(got[1 if first < 0 else 0], expected)


@pytest.mark.parametrize('y', [5.0, -5.0])
def test_super_init_is_converted_too(y, monkeypatch):
    expected = plain(derived, np.float32(1.0), np.float32(y), monkeypatch=monkeypatch)
    assert_same(autograph.convert(derived)(f32(1.0), f32(y)), expected)


class Acc:
    def __init__(self, x):
        self.x = x

    def bump(self, y):
        self.total = self.x + y   # a new attribute, on an object the loop body made
        return self.total


class Bare:
    def bump(self, y):
        self.total = y * 2
        return self.total


class Into:
    """Made in the loop body, it writes an attribute of an object from before the loop."""

    def __init__(self, target):
        self.target = target

    def add(self, v):
        if v > 1.0:
            self.target.x = self.target.x + v


def made_in_the_body(xs):
    acc = 0.0
    outer = Acc(0.0)
    for i in range(xs.shape[0]):
        a = Acc(xs[i])
        acc += a.bump(1.0) + Bare().bump(xs[i])
        Into(outer).add(xs[i])
    return acc, outer.x


def made_in_the_body_bumped_under_a_staged_if(xs):
    acc = 0.0
    for i in range(xs.shape[0]):
        a = Acc(xs[i])
        a.total = 0.0
        if xs[i] > 1:
            a.bump(1.0)
        acc += a.total
    return acc


def test_objects_the_loop_body_makes_are_not_its_state():
    fn = made_in_the_body_bumped_under_a_staged_if
    xs = jnp.array([0.5, 2.0, 3.0, -1.0])
    assert_same(autograph.convert(fn)(xs), fn(xs))

    xs = jnp.array([0.5, 2.0, 3.0, -1.0])
    assert staged(made_in_the_body, xs) & {'while', 'scan'}
    assert_same(autograph.convert(made_in_the_body)(xs), made_in_the_body(xs))
    assert_same(jax.jit(jax.vmap(converted(made_in_the_body)))(jnp.stack([xs, xs * 2]))[1],
                jnp.array([made_in_the_body(xs)[1], made_in_the_body(xs * 2)[1]]))


# --- what is called as it is ----------------------------------------------------------

@dataclasses.dataclass
class Point:
    x: jax.Array
    y: jax.Array


class Meta(type):
    def __call__(cls, *args):
        instance = super().__call__(*args)
        instance.made_by_meta = True
        return instance


class WithMeta(metaclass=Meta):
    def __init__(self, x):
        self.x = x * 2


class Singleton:
    """`__new__` gives an object of another class: its `__init__` is not run."""

    def __new__(cls, x):
        return ('not a Singleton', x)

    def __init__(self, x):
        raise AssertionError('not run')


class ReturnsValue:
    def __init__(self, x):
        return x


def test_library_and_generated_inits_are_not_converted():
    assert not conversion.converts_init(jax.ShapeDtypeStruct)
    assert not conversion.converts_init(np.random.Generator)
    assert not conversion.converts_init(Point)   # a dataclass: no source for `__init__`
    assert not conversion.converts_init(WithMeta)
    assert conversion.converts_init(Window) and conversion.converts_init(Derived)

    def use(x):
        p = Point(x, x + 1)
        m = WithMeta(x)
        s = jax.ShapeDtypeStruct((2,), jnp.float32)
        return p.x + p.y + m.x, m.made_by_meta, s.shape

    with warnings.catch_warnings():
        warnings.simplefilter('error')
        assert_same(autograph.convert(use)(f32(2.0))[0], use(f32(2.0))[0])
        assert autograph.convert(use)(f32(2.0))[1:] == (True, (2,))


def test_new_giving_another_object_and_init_returning_a_value():
    def other(x):
        return Singleton(x)[1] + 1

    assert_same(autograph.convert(other)(f32(2.0)), other(f32(2.0)))

    def bad(x):
        return ReturnsValue(x)

    with pytest.raises(TypeError, match="__init__\\(\\) should return None, not 'int'"):
        autograph.convert(bad, jit=False)(3)
    with pytest.raises(TypeError, match="__init__\\(\\) should return None, not 'int'"):
        bad(3)
