"""A list held by an attribute and appended to in a staged loop (`obj.xs.append(v)`) is
that very list afterwards, holding the new items, as Python's `append` leaves it: a
class's list reached through an instance (`class Acc: vs = []`) is the class's, and
grows across calls; an instance's list that other names hold (`held = a.vs`) shows the
items through them. Before, the loop's items went to a new list set on the instance
(the class's list stayed empty, `held` saw nothing).

Ground truth: the same function run unconverted, from the same starting state."""
import jax.numpy as jnp
import numpy as np

import autograph


class Acc:
    vs = []


class Own:
    def __init__(self):
        self.vs = []


def through_instance(x):
    a = Acc()
    for i in range(5):
        a.vs.append(x + i)
    return jnp.stack(a.vs)


def own_list_held(x, n):
    a = Own()
    held = a.vs
    for i in range(n):
        a.vs.append(x * i)
    return jnp.stack(held), len(a.vs), 'vs' in vars(a)


def _run(fn, *args):
    Acc.vs = []
    out = fn(*args)
    return out, [np.asarray(v) for v in Acc.vs]


def test_class_list_through_an_instance_grows_as_python():
    plain = [_run(through_instance, np.float32(1.0))]
    Acc.vs = []
    plain.append((through_instance(np.float32(2.0)), list(Acc.vs)))
    converted = autograph.convert(through_instance)
    staged = [_run(converted, np.float32(1.0))]
    Acc.vs = []
    staged.append((converted(np.float32(2.0)), list(Acc.vs)))
    first, second = staged
    np.testing.assert_array_equal(np.asarray(first[0]), plain[0][0])
    np.testing.assert_array_equal(np.stack(first[1]), np.stack(plain[0][1]))
    np.testing.assert_array_equal(np.asarray(second[0]), plain[1][0])


def test_class_list_across_two_calls():
    Acc.vs = []
    plain = [through_instance(np.float32(1.0)), through_instance(np.float32(2.0))]
    Acc.vs = []
    converted = autograph.convert(through_instance)
    staged = [converted(np.float32(1.0)), converted(np.float32(2.0))]
    assert len(Acc.vs) == 10
    for got, want in zip(staged, plain):
        np.testing.assert_array_equal(np.asarray(got), want)


def test_own_list_held_by_another_name():
    plain = own_list_held(np.float32(1.5), 6)
    out = autograph.convert(own_list_held)(np.float32(1.5), 6)
    np.testing.assert_array_equal(np.asarray(out[0]), plain[0])
    assert out[1:] == plain[1:]
