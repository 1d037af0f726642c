"""One run of the suite shares the programs XLA compiles.

Many tests compile the same program again: a function converted and called plain, under
`jax.jit` and eagerly; the cases of one parametrised test that differ only in their
values; a helper's checks repeated on arrays of one shape. JAX's persistent compilation
cache, pointed at a folder made for this run (shared by pytest-xdist's workers, which
inherit it from the process that starts them) and removed after it, gives every
compilation after the first of a program the executable the first made (about half of
the compilations of a file like tests/peers/test_tf_more.py; a fifth less time for six
of the heaviest files on two workers). The programs are XLA's own either way
(the cache key is the lowered program with the compiler's options and version), so only
the time changes; a run starts with an empty folder, so nothing carries over between
runs. Tests that start Python in a child process do not use it.
"""
import os
import shutil
import tempfile

import jax
import pytest

_FOLDER = 'AUTOGRAPH_TESTS_XLA_CACHE'
_MADE = pytest.StashKey[str]()   # the folder this process made (and removes)


def pytest_configure(config):
    folder = os.environ.get(_FOLDER)
    if folder is None:   # (a plain run, or the process that starts xdist's workers)
        folder = tempfile.mkdtemp(prefix='autograph-tests-xla-')
        os.environ[_FOLDER] = folder
        config.stash[_MADE] = folder
    jax.config.update('jax_compilation_cache_dir', folder)
    jax.config.update('jax_persistent_cache_min_compile_time_secs', 0)
    jax.config.update('jax_persistent_cache_min_entry_size_bytes', -1)


def pytest_unconfigure(config):
    folder = config.stash.get(_MADE, None)
    if folder is not None:
        shutil.rmtree(folder, ignore_errors=True)
        os.environ.pop(_FOLDER, None)

