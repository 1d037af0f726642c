"""A function writing the items of an array parameter, called otherwise than by its name
with positional arguments (a method, `functools.partial`, `*args`, a function taken from
a dict): a traced array's write makes a new array, which no variable of the caller's
gets, so the call is the named error written_argument_lost (the write was lost
silently). As Python (NumPy's arrays, no jit) the write lands in place; a call by name
rebinds the caller's variable (passes.written_arguments). Where the written array comes
back as the result to the caller's variable (`x = f(x)`; not `y = f(x)`, after which
`x` keeps the old array), or the argument was an expression no one holds, nothing is lost; a JAX array's write is Python's TypeError, not checked."""
import functools

import numpy as np
import pytest

import autograph
from tests.helpers import assert_same


def set_first(a, v):
    a[0] = v


class Writer:
    def set_first(self, a, v):
        a[0] = v

    def append_to(self, items, v):
        items.append(v)


def by_name(x):
    set_first(x, 9.0)
    return x


def as_method(x):
    Writer().set_first(x, 9.0)
    return x


def through_partial(x):
    functools.partial(set_first, v=9.0)(x)
    return x


def through_star(x):
    set_first(*(x, 9.0))
    return x


def from_table(x):
    {'f': set_first}['f'](x, 9.0)
    return x


def bound_in_partial(x):
    functools.partial(set_first, x)(9.0)
    return x


def list_by_method(x):
    items = [x[0]]
    Writer().append_to(items, x[1])
    return items[0] + items[1]


def returned_to_another_name(x):
    y = Writer.returning(x, 9.0)   # (`x` would keep the old array: it is read after)
    return y.sum() + x.sum()


def returned_through_an_alias(x):
    write = set_first_returned
    y, n = write(x, 9.0), 2
    return y * n + x


LOST = [as_method, through_partial, through_star, from_table, bound_in_partial,
        returned_to_another_name, returned_through_an_alias]


@pytest.mark.parametrize('fn', LOST, ids=[f.__name__ for f in LOST])
def test_a_lost_write_is_a_named_error(fn):
    with pytest.raises(autograph.ControlFlowError, match="writes the items of its parameter 'a'"):
        autograph.convert(fn)(np.arange(3.0))


def set_first_returned(a, v):
    a[0] = v
    return a


def returned_by_method(x):
    x = Writer.returning(x, 9.0)   # (the written array comes back: `x = f(x)`)
    return x


def returned_in_a_tuple(x):
    x, n = Writer.returning(x, 9.0), 2
    return x * n


def given_an_expression(x):
    Writer().set_first(x + 1.0, 9.0)   # (no one holds `x + 1.0`: lost in Python too)
    return x


Writer.returning = staticmethod(set_first_returned)


@pytest.mark.parametrize('fn', [returned_by_method, returned_in_a_tuple, given_an_expression])
def test_writes_that_come_back_or_that_no_one_sees(fn):
    given = np.arange(3.0)
    assert_same(autograph.convert(fn)(given), fn(np.arange(3.0)))


@pytest.mark.parametrize('fn', LOST + [by_name], ids=[f.__name__ for f in LOST + [by_name]])
def test_numpy_arrays_as_python(fn):
    expected_arg = np.arange(3.0)
    expected = fn(expected_arg)
    given = np.arange(3.0)
    assert_same(autograph.convert(fn, jit=False)(given), expected)
    assert_same(given, expected_arg)


def test_a_call_by_name_rebinds_the_callers_variable():
    given = np.arange(3.0)
    assert_same(autograph.convert(by_name)(given), by_name(np.arange(3.0)))
    assert_same(given, by_name(np.arange(3.0)))


def test_a_list_written_in_place_by_a_method():
    x = np.array([2.0, 3.0])
    assert_same(autograph.convert(list_by_method)(x), list_by_method(x))
