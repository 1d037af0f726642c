"""Python's lookup errors (`o.missing`, `d['absent']`, `xs[9]` of a Python list) met
while a staged branch or loop body is traced: Python raises them only where that path
runs, so the converted program raises them, as run-time checks, only there
(runtime.checks.raises.on_path). They were raised while tracing, whatever path the
program took (found by the fuzzer's created-attributes shape, seed 100508)."""
import jax
import jax.numpy as jnp
import pytest

import autograph


class Slot:
    pass


def attribute_in_branch(x):
    s = Slot()
    if x > 0:
        return s.got
    return x


def key_in_branch(x):
    d = {}
    if x > 0:
        return d['k']
    return x * 2


def index_in_branch(x):
    xs = [1.0]
    if x > 0:
        x = x + xs[3]
    return x


def attribute_in_loop(x, n):
    s = Slot()
    i = 0
    while i < n:
        i += 1
        x = x + s.got
    return x


def outcome(fn, *args):
    try:
        return fn(*args)
    except (AttributeError, KeyError, IndexError) as error:
        return error


def assert_matches(got, expected):
    if isinstance(expected, Exception):
        assert type(got) is type(expected) and str(got) == str(expected), got
    else:
        assert not isinstance(got, Exception), got
        assert float(got) == float(expected)


@pytest.mark.parametrize('fn', [attribute_in_branch, key_in_branch, index_in_branch])
@pytest.mark.parametrize('x', [-1.0, 2.0])
def test_in_a_staged_branch(fn, x):
    expected = outcome(fn, x)
    converted = autograph.convert(fn)
    for _ in range(2):
        assert_matches(outcome(converted, jnp.float32(x)), expected)
    if not isinstance(expected, Exception):
        assert float(jax.jit(converted)(jnp.float32(x))) == float(expected)
        assert float(jax.vmap(converted)(jnp.array([x]))[0]) == float(expected)
    else:
        with pytest.raises(Exception, match=type(expected).__name__):
            jax.block_until_ready(jax.jit(converted)(jnp.float32(x)))


@pytest.mark.parametrize('n', [0, 2])
def test_in_a_staged_loop_body(n):
    expected = outcome(attribute_in_loop, 1.0, n)
    converted = autograph.convert(attribute_in_loop)
    for _ in range(2):
        assert_matches(outcome(converted, jnp.float32(1.0), jnp.int32(n)), expected)


def test_the_users_line_is_named():
    with pytest.raises(KeyError) as info:
        autograph.convert(key_in_branch)(jnp.float32(1.0))
    notes = '\n'.join(getattr(info.value, '__notes__', []))
    assert 'test_lookup_errors_on_paths.py' in notes
