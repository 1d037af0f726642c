"""Views and whole aliases of an attribute's array (`row = self.w[0]`, `w = self.w`)
that the function changes in place through the name, or whose items it writes: NumPy's
view writes through to the attribute's array, which the converted code does not follow
(it follows views of variables). Where the attribute holds a NumPy array this is a
ControlFlowError naming the line (before, the converted code changed a copy: the
attribute stayed as it was, silently). A JAX array's view is a copy, as plain JAX
gives it; numbers and lists are not views.

Ground truth: the same function run unconverted; for JAX arrays, a hand-written twin
with JAX's meaning of an item write (`w = w.at[1].add(x)`)."""
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from autograph import ControlFlowError


class Holder:
    def __init__(self, w, items=None, count=0):
        self.w, self.items, self.count = w, items, count


def row_view_changed(m, x):
    row = m.w[1]
    row += x
    return m.w.sum()


def alias_item_written(m, x):
    w = m.w
    w[1] += x
    return m.w.sum()


def alias_viewed_and_changed(m, x):
    w = m.w
    row = w[1]
    row *= x
    return m.w.sum()


def view_then_attribute_written(m, x):
    row = m.w[0]
    m.w[0, 0] = x
    return row[0]


def numbers_and_lists(m, x):
    c = m.count
    c += 1
    items = m.items
    items[0] = x
    return c


CASES = [row_view_changed, alias_item_written, alias_viewed_and_changed,
         view_then_attribute_written]


@pytest.mark.parametrize('fn', CASES)
def test_numpy_attribute_named(fn):
    m = Holder(np.ones((3, 3), np.float32))
    fn(Holder(np.ones((3, 3), np.float32)), 2.0)   # (valid Python)
    with pytest.raises(ControlFlowError, match="view of an attribute's NumPy array"):
        autograph.convert(fn)(m, np.float32(2.0))
    np.testing.assert_array_equal(m.w, np.ones((3, 3)))


def test_jax_attribute_is_a_copy():
    m = Holder(jnp.ones((3, 3)))
    assert float(autograph.convert(row_view_changed)(m, 2.0)) == 9.0   # (row a copy)
    m = Holder(jnp.ones((3, 3)))
    assert float(autograph.convert(alias_item_written)(m, 2.0)) == 9.0   # (w rebound)
    np.testing.assert_array_equal(np.asarray(m.w), np.ones((3, 3)))


def test_numbers_and_lists_as_python():
    m, n = Holder(None, [0.0, 1.0], 4), Holder(None, [0.0, 1.0], 4)
    assert numbers_and_lists(m, 5.0) == autograph.convert(numbers_and_lists)(n, 5.0)
    assert m.items == n.items and n.count == 4
