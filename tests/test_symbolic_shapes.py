"""Converted functions exported with symbolic dimensions (`jax.export.symbolic_shape`).

A loop over a symbolic length cannot be unrolled: a `range` over a symbolic dimension is
staged with a symbolic bound, a loop over an array whose leading axis is symbolic is a
`lax.scan`, as the same program written with `lax.scan` by hand. Each function here is
exported once with symbolic batch (`b`) and sequence (`t`) dimensions, serialized and
deserialized, then called on two concrete sizes and compared with plain Python.
"""
import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax import export, lax

import autograph
from tests.helpers import assert_same

D = 3


def rnn(xs, w):                   # xs: (t, b, d): the sequence axis first
    h = jnp.zeros(xs.shape[1:])
    for t in range(xs.shape[0]):
        h = jnp.tanh(xs[t] + h @ w)
    return h


def rnn_batch_first(xs, w):       # xs: (b, t, d): the loop reads xs[:, t]
    h = jnp.zeros((xs.shape[0], xs.shape[2]))
    for t in range(xs.shape[1]):
        h = jnp.tanh(xs[:, t] + h @ w)
    return h


def over_items(xs, w):            # for x in xs: a scan over the symbolic leading axis
    total = jnp.zeros(xs.shape[1:])
    for x in xs:
        total = total + jnp.sin(x @ w)
    return total


def with_enumerate(xs, w):
    total = jnp.zeros(xs.shape[1:])
    for i, x in enumerate(xs):
        total = total + x * i
    return total @ w


def counted(xs, w):               # the range's index only: nothing to slice
    h = jnp.ones(xs.shape[1:])
    for _ in range(xs.shape[0]):
        h = h * 0.5 + 1.0
    return h @ w


def strided(xs, w):               # range(1, t, 2): a symbolic length (t - 1 + 1) // 2
    h = jnp.zeros(xs.shape[1:])
    for t in range(1, xs.shape[0], 2):
        h = h + xs[t] * t
    return h @ w


def backwards(xs, w):            # reversed(range(t)): range(t - 1, -1, -1), one scan
    h = jnp.zeros(xs.shape[1:])
    for t in reversed(range(xs.shape[0])):
        h = jnp.tanh(xs[t] + h @ w)
    return h


def with_if(xs, w):
    total = jnp.zeros(xs.shape[1:])
    for x in xs:
        if jnp.sum(x) > 0:
            total = total + x
        else:
            total = total - 0.5 * x
    return total @ w


def range_with_if(xs, w):         # a staged `if` reading xs[i] in a range over `t`
    h = jnp.zeros(xs.shape[1:])
    for i in range(xs.shape[0]):
        if jnp.sum(xs[i]) > 0:
            h = h + xs[i] * i
        else:
            h = h - 0.5 * xs[i]
    return h @ w


def range_if_on_bound(xs, w):     # a test comparing the index with the symbolic bound
    h = jnp.zeros(xs.shape[1:])
    for i in range(xs.shape[0]):
        if i < xs.shape[0] - 2:
            h = jnp.tanh(h @ w + xs[i])
        elif jnp.mean(xs[i]) > 0:
            h = h + xs[i]
    return h


def if_on_mean(xs, w):            # jnp.mean divides by the symbolic size
    if jnp.mean(xs) > 0:
        return jnp.sum(xs, axis=0) @ w
    return jnp.sum(xs * xs, axis=0)


def with_break(xs, w):            # a break: a while loop up to the symbolic bound
    h = jnp.zeros(xs.shape[1:])
    for t in range(xs.shape[0]):
        if jnp.sum(h) > 2.0:
            break
        h = h + jnp.abs(xs[t])
    return h @ w


def nested(xs, w):                # a loop over items inside a loop over the sequence
    h = jnp.zeros(xs.shape[2:])
    for t in range(xs.shape[0]):
        for row in xs[t]:
            h = jnp.tanh(h + row @ w)
    return h


def collected(xs, w):             # a list grown by the loop: one stacked array
    states = []
    h = jnp.zeros(xs.shape[1:])
    for x in xs:
        h = jnp.tanh(x + h @ w)
        states.append(h)
    return jnp.stack(states)


SEQUENCE_FIRST = export.symbolic_shape(f't, b, {D}')
BATCH_FIRST = export.symbolic_shape(f'b, t, {D}')
CASES = [(fn, SEQUENCE_FIRST) for fn in (
    rnn, over_items, with_enumerate, counted, strided, backwards, with_if, range_with_if,
    range_if_on_bound, if_on_mean, with_break, nested, collected)] + [(rnn_batch_first, BATCH_FIRST)]


def inputs(shape, seed):
    rng = np.random.default_rng(seed)
    xs = np.asarray(rng.normal(size=shape), np.float32)
    w = np.asarray(rng.normal(size=(D, D)) * 0.4, np.float32)
    return xs, w


def round_trip(fn, shape):
    """`fn` converted, exported with the symbolic `shape`, serialized and read back."""
    exported = export.export(jax.jit(autograph.convert(fn)))(
        jax.ShapeDtypeStruct(shape, jnp.float32), jax.ShapeDtypeStruct((D, D), jnp.float32))
    return export.deserialize(exported.serialize())


@pytest.mark.parametrize('fn, shape', CASES, ids=[fn.__name__ for fn, _ in CASES])
def test_export_round_trip_matches_python(fn, shape):
    restored = round_trip(fn, shape)
    assert str(restored.in_avals[0].shape) == str(shape)   # still symbolic after it
    for t, b, seed in [(5, 2, 0), (9, 4, 1)]:
        concrete = (t, b, D) if shape is SEQUENCE_FIRST else (b, t, D)
        xs, w = inputs(concrete, seed)
        assert_same(restored.call(xs, w), fn(xs, w))


def test_symbolic_range_is_one_scan():
    """The range over `t` stages as one scan whose xs[t] reads are its slices, as the
    hand-written `lax.scan` does; both export."""
    def by_hand(xs, w):
        def step(h, x):
            return jnp.tanh(x + h @ w), None
        return lax.scan(step, jnp.zeros(xs.shape[1:]), xs)[0]

    args = (jax.ShapeDtypeStruct(SEQUENCE_FIRST, jnp.float32),
            jax.ShapeDtypeStruct((D, D), jnp.float32))
    for fn in (autograph.convert(rnn, jit=False), by_hand):
        jaxpr = jax.make_jaxpr(fn)(*args)
        assert [e.primitive.name for e in jaxpr.eqns].count('scan') == 1
        scan = next(e for e in jaxpr.eqns if e.primitive.name == 'scan')
        assert 'dynamic_slice' not in {e.primitive.name for e in scan.params['jaxpr'].eqns}
    xs, w = inputs((6, 2, D), 2)
    assert_same(round_trip(rnn, SEQUENCE_FIRST).call(xs, w), by_hand(xs, w))


def test_symbolic_range_outside_a_loop_is_a_named_error():
    """Such a range has no length while tracing: iterating it in Python is an error that
    says so (as for a range with a traced bound)."""
    def listed(xs):
        return jnp.asarray(list(range(xs.shape[0])))

    with pytest.raises(autograph.ControlFlowError, match='cannot be iterated in Python'):
        export.export(jax.jit(autograph.convert(listed)))(
            jax.ShapeDtypeStruct(export.symbolic_shape('t'), jnp.float32))


def test_a_symbolic_range_that_may_be_empty():
    """range(1, t, 2) may have no items (t = 1): a while loop up to the symbolic bound
    (JAX cannot lower a scan over a symbolic axis that may be empty)."""
    restored = round_trip(strided, SEQUENCE_FIRST)
    for t in (1, 2, 3):
        xs, w = inputs((t, 2, D), t)
        assert_same(restored.call(xs, w), strided(xs, w))


def test_a_symbolic_array_read_from_a_closure():
    """A converted function whose arguments have no symbolic dimension, reading an array
    that has one from its closure: its staged tests still export."""
    def outer(xs, w):
        @autograph.convert(jit=False)
        def step(i):                   # (i: a Python int; the mean divides by `b`)
            if jnp.mean(xs[i]) > 0:
                return jnp.sum(xs[i] @ w)
            return -1.0
        return sum(step(i) for i in range(3))

    exported = export.export(jax.jit(outer))(
        jax.ShapeDtypeStruct(SEQUENCE_FIRST, jnp.float32),
        jax.ShapeDtypeStruct((D, D), jnp.float32))
    restored = export.deserialize(exported.serialize())
    for t, b, seed in [(4, 2, 3), (7, 3, 4)]:
        xs, w = inputs((t, b, D), seed)
        assert_same(restored.call(xs, w), outer(xs, w))
