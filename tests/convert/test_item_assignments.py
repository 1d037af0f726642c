"""passes.item_assignments: `x[i] = v` on a local becomes `x = ag.setitem(x, i, v)`;
on Python lists, dicts and NumPy arrays it still changes the value in place."""
import ast

import numpy as np
import pytest

from autograph.passes import item_assignments
from tests.convert.harness import check, up_to


def set_and_augment(xs, i):
    xs = list(xs)
    xs[i] = 10
    xs[-1] += 5
    return xs


def swap(xs, i, j):
    xs = list(xs)
    xs[i], xs[j] = xs[j], xs[i]
    return xs


def nested_keys(d):
    d = {k: dict(v) for k, v in d.items()}
    d['a']['b'] = 1
    d['a']['c'] = d['a'].get('c', 0) + 2
    return d


def slices(n):
    xs = list(range(n))
    xs[1:3] = [0, 0]
    xs[::2] = [9] * len(xs[::2])
    return xs


def aliased(xs):
    ys = xs
    ys[0] = 'changed'
    return xs


def in_loop(n):
    counts = [0] * 3
    for i in range(n):
        counts[i % 3] += i
    return counts


def numpy_rows(n):
    a = np.zeros((n, 2))
    for i in range(n):
        a[i, 1] = i
    return a.tolist()


CASES = [
    (set_and_augment, ([1, 2, 3], 0)), (set_and_augment, ([1], -1)),
    (set_and_augment, ([], 0)),
    (swap, ([1, 2, 3], 0, 2)), (swap, ([1, 2], 1, 1)),
    (nested_keys, ({'a': {}},)), (nested_keys, ({'a': {'c': 4}, 'z': {}},)),
    (slices, (6,)), (slices, (3,)),
    (aliased, (['x', 'y'],)),
    (in_loop, (7,)),
    (numpy_rows, (3,)),
]


@pytest.mark.parametrize('fn,args', CASES, ids=lambda v: getattr(v, '__name__', None))
def test_same_results_as_python(fn, args):
    check(item_assignments, fn, *args)


def test_a_list_argument_is_still_changed_in_place():
    def fill(xs):
        xs[0] = 7
    converted = up_to(item_assignments, fill)
    xs = [0, 1]
    converted(xs)
    assert xs == [7, 1]


@pytest.mark.parametrize('fn', [set_and_augment, swap, nested_keys, slices, in_loop,
                                numpy_rows], ids=lambda f: f.__name__)
def test_no_item_of_a_local_is_assigned_in_place(fn):
    tree = up_to(item_assignments, fn).tree
    stores = [n for n in ast.walk(tree)
              if isinstance(n, ast.Subscript) and isinstance(n.ctx, ast.Store)]
    assert not stores, [ast.unparse(n) for n in stores]


def test_items_of_attributes_set_the_attribute():
    """`box.items[1] = 5` sets the attribute to the written container: a list (or NumPy
    array) is the same object again, changed in place as Python changes it."""
    class Box:
        def __init__(self):
            self.items = [0, 0]

    def f(box):
        box.items[1] = 5
        return box.items
    box = Box()
    items = box.items
    assert up_to(item_assignments, f)(box) == [0, 5] and box.items is items
    assert 'box.items = ag.setitem(box.items, 1, 5)' in up_to(item_assignments, f).code
