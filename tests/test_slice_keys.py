"""Slices in a key beside a traced index (`M[s, 3:]`, `M[1:, s]`): the generated
`slice(...)` keeps every bound (`3:` is `slice(3, None)`; `slice(3)` would be
`slice(None, 3)`, the head of the axis: a silent wrong value before), read and written,
under jit and vmap."""
import itertools
import linecache

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from tests.helpers import assert_same, converted

SLICES = ['3:', '-1:', ':3', '1:4', '::2', '1::2', ':', '2::', '-2:', ':-1', '::-1']


_files = itertools.count()


def _defined(source, name):
    """The function `name` of `source`, whose text the converter reads from linecache."""
    file = f'<slice keys {next(_files)}>'
    linecache.cache[file] = (len(source), None, source.splitlines(True), file)
    namespace = {}
    exec(compile(source, file, 'exec'), namespace)
    return namespace[name]


def _reader(key):
    return _defined(f'def read(M, s):\n    return M[{key}]\n', 'read')


def _writer(key):
    return _defined(f'def write(M, s):\n    M = M * 1.0\n    M[{key}] = -1.0\n    return M\n',
                    'write')


M = np.arange(24, dtype=np.float32).reshape(4, 6)
KEYS = [f's, {part}' for part in SLICES] + [f'{part}, s' for part in SLICES] + [
    '..., s, 3:', 's, None, 3:', '1:, s', 's, 2:5']


@pytest.mark.parametrize('key', KEYS)
def test_slice_beside_a_traced_index_reads_pythons_items(key):
    read = _reader(key)
    for s in (1, -1):
        expected = read(M, s)
        assert_same(autograph.convert(read)(jnp.asarray(M), jnp.int32(s)), expected)


@pytest.mark.parametrize('key', ['s, 3:', '3:, s', 's, ::2', 's, -2:'])
def test_slice_beside_a_traced_index_writes_pythons_items(key):
    write = _writer(key)
    expected = write(M.copy(), 2)
    assert_same(autograph.convert(write)(jnp.asarray(M), jnp.int32(2)), expected)
    assert_same(autograph.convert(write)(M.copy(), jnp.int32(2)), expected)


def test_slice_beside_an_index_under_vmap():
    read = _reader('s, 3:')
    got = jax.vmap(converted(read), in_axes=(None, 0))(jnp.asarray(M), jnp.arange(4))
    assert_same(got, np.stack([M[s, 3:] for s in range(4)]))
    assert 'slice(3, None)' in autograph.to_code(read)
