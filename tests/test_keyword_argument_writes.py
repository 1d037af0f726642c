"""A helper that writes the items of a parameter given by keyword (`scale(x=x, c=2.0)`,
`running(x, out=out)`): the keywords are given by position where they can be, so the
write reaches the caller's variable (and the caller's caller's array) as a positional
argument's does; it was lost silently. Where they cannot move, a named error."""
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from autograph.errors import UnsupportedSyntax
from tests.helpers import assert_same


def scale(x, c):
    x *= c


def fill_running(x, out):
    for i in range(1, x.shape[0]):
        out[i] = x[i - 1] + x[i]


def by_keyword(x):
    scale(x=x, c=2.0)
    return x.sum()


def by_keywords_out_of_order(x):
    scale(c=3.0, x=x)
    return x


def out_keyword(x):
    out = np.zeros_like(x)
    fill_running(x, out=out)
    return out


def out_is_input(x):
    return fill_running(x, out=x)


def reordered_calls(x):
    scale(c=float(len(x)), x=x)   # (moving x first would change what runs first)
    return x


def _given(x):
    return x.copy() if isinstance(x, np.ndarray) else x


@pytest.mark.parametrize('fn', [by_keyword, by_keywords_out_of_order, out_keyword])
@pytest.mark.parametrize('make', [np.asarray, jnp.asarray], ids=['numpy', 'jax'])
def test_keyword_arguments_written_by_a_helper(fn, make):
    x = make(np.arange(5.0, dtype=np.float32))
    python_arg = _given(x)
    expected = fn(python_arg)
    converted_arg = _given(x)
    assert_same(autograph.convert(fn)(converted_arg), expected)
    assert_same(converted_arg, python_arg)   # (the caller's NumPy array written, too)


def test_the_input_given_as_out_is_a_named_error():
    x = np.arange(5.0, dtype=np.float32)
    with pytest.raises(autograph.ControlFlowError, match="as 'x' and 'out'"):
        autograph.convert(out_is_input)(x)


def test_keywords_that_cannot_move_are_a_named_error():
    with pytest.raises(UnsupportedSyntax, match="given by keyword here"):
        autograph.to_code(reordered_calls)
