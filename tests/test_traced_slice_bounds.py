"""A slice with a traced bound: read whole and reduced (`v[i:].sum()`) it works (masked);
taken as a view that is written (`seg = w[i:]; seg[0] = ...`, its size known only when
the program runs) it is the named TracedValueNeeded error at the user's line, not JAX's
raw IndexError ("Slice entries must be static integers") deferred as if Python raised
it there."""
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from autograph.errors import TracedValueNeeded
from tests.helpers import assert_same


def written_view(v, n):
    w = v * 1.0
    for i in range(n):
        seg = w[i % 2 * 2:]
        seg[0] = seg[0] * 0.5
    return w


def reduced_read(v, n):
    a = 0.0
    for i in range(n):
        a = a + v[i:].sum()
    return a


def test_a_written_view_with_a_traced_start_is_named():
    with pytest.raises(TracedValueNeeded, match=r'`seg = w\[i % 2 \* 2:\]`.*as a shape'):
        autograph.convert(written_view)(np.arange(4.0), jnp.int32(3))


def test_with_a_python_start_it_is_numpys_view():
    assert_same(autograph.convert(written_view)(np.arange(4.0), 3),
                written_view(np.arange(4.0), 3))


@pytest.mark.parametrize('n', [0, 3])
def test_a_reduced_read_with_a_traced_start(n):
    assert_same(autograph.convert(reduced_read)(jnp.arange(4.0), jnp.int32(n)),
                reduced_read(np.arange(4.0), n))
