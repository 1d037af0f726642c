"""Methods of a user's class that Python calls implicitly, with traced values.

- A comparison (`p == (1, 2)`, `V(a) < V(b)`, `self < other` in a method) calls the
  class's `__eq__`/`__lt__`/...: it runs converted, so an `and` of traced values in it
  is the converted `and` (before: JAX's TracerBoolConversionError from the unconverted
  method). Python's protocol is kept: NotImplemented tries the other operand's reflected
  method, `!=` without a `__ne__` is `not ==`.
- A dataclass's comparisons, made by dataclasses from a string (no source to convert),
  compare the tuples of the two objects' fields as tuples of traced items are compared.
- A class's `__repr__` is never called to name a function in the runtime's own
  bookkeeping (before: a bound `__init__` called while tracing was named by
  `repr(fn)`, whose `__repr__` read a field `__init__` had not set yet: AttributeError).

Found by the corpus' eighth batch (an LZ77 codeword class, tests/peers). Ground truth:
the same function run as plain Python."""
import dataclasses
import warnings

import jax
import jax.numpy as jnp
import pytest

import autograph
from tests.helpers import assert_same, converted


class Codeword:
    def __init__(self, offset, length):
        self.offset = offset
        self.length = length

    def __repr__(self):
        return f'Codeword({self.offset}, {self.length})'

    def __eq__(self, other):
        return self.offset == other[0] and self.length == other[1]


class Version:
    def __init__(self, v):
        self.v = v

    def __eq__(self, other):
        if not isinstance(other, Version):
            return NotImplemented
        return self.v == other.v

    def __lt__(self, other):
        if not isinstance(other, Version):
            return NotImplemented
        return self.v < other.v and self.v > -100

    def __ge__(self, other):
        return not (self < other)   # (`self < other`: the converted `__lt__` too)


def made_with_a_repr(x):
    return Codeword(x[0], x[1]).length * 2


def compared(x):
    c = Codeword(x[0], x[1])
    return (c == (1, 2), c != (1, 3), (1, 2) == c, Version(x[0]) < Version(x[1]),
            Version(x[1]) >= Version(x[0]), Version(x[0]) == Version(x[0]))


def counted_by_a_comparison(x):
    rises = 0
    for i in range(1, 3):
        if Version(x[i - 1]) < Version(x[i]):   # (a traced test: a staged `if`)
            rises = rises + i
    return rises


XS = [jnp.array([1, 3, 2]), jnp.array([1, 2, 0]), jnp.array([5, 2, 7])]


def test_a_repr_reading_fields_is_not_called_while_tracing():
    for x in XS:
        assert_same(autograph.convert(made_with_a_repr)(x), made_with_a_repr(x))


@pytest.mark.parametrize('x', XS)
def test_comparisons_of_user_objects_run_their_methods_converted(x):
    assert_same(autograph.convert(compared)(x), compared(x))
    assert_same(autograph.convert(counted_by_a_comparison)(x), counted_by_a_comparison(x))


def test_under_vmap():
    xs = jnp.stack(XS)
    got = jax.vmap(converted(compared))(xs)
    for k, x in enumerate(XS):
        assert_same(jax.tree_util.tree_map(lambda leaf: leaf[k], got), compared(x))


def test_python_values_compare_as_python():
    assert compared([1, 2, 0]) == autograph.convert(compared, jit=False)([1, 2, 0])
    with pytest.raises(TypeError):   # (Python's: no ordering of a Version and an int)
        autograph.convert(lambda a: Version(a) < 3, jit=False)(1)


@dataclasses.dataclass
class Made:
    a: int


def compared_dataclasses(x):
    return x * (Made(3) == Made(3))


def test_a_dataclass_eq_made_from_a_string_runs_as_it_is_without_a_warning():
    with warnings.catch_warnings():
        warnings.simplefilter('error')   # (before: "Made.__eq__ is called unconverted")
        assert_same(autograph.convert(compared_dataclasses)(jnp.float32(2.0)), 2.0)


@dataclasses.dataclass(order=True)
class Entry:
    priority: float
    index: int


def ordered_entries(x, y):
    a = Entry(x, 0)
    b = Entry(y, 1)
    return a < b, a == b, a >= b, a != b, Entry(x, 0) == Entry(x, 0)


@pytest.mark.parametrize('x, y', [(1.0, 2.0), (2.0, 2.0), (3.0, 1.0)])
def test_dataclass_comparisons_compare_the_fields(x, y):
    # (before: JAX's TracerBoolConversionError from the tuples' `<` in the made method)
    args = (jnp.float32(x), jnp.float32(y))
    assert_same(autograph.convert(ordered_entries)(*args), ordered_entries(*args))
