"""Source limits: functions from every kind of source convert to what runs, or fail with a
ConversionError naming the problem and the user's file and line.

Sources: files (indented methods holding unindented multi-line strings, tabs, decorators,
a `def` on one line, `def` inside an `if`, backslash continuations), files edited after
they were imported, notebook cells and `exec`'d strings registered in linecache (defs and
lambdas), and `exec`'d strings that are not.
"""
import importlib
import itertools
import linecache
import os
import sys
import textwrap

import jax
import jax.numpy as jnp
import pytest

import autograph
from autograph.errors import UnsupportedSyntax
from tests.helpers import assert_same, check, staged

_modules = itertools.count()


def load(tmp_path, text):
    """Import `text` (exactly as given: tabs and all) as a new module from a file."""
    name = f'limits_sources_{next(_modules)}'
    path = tmp_path / f'{name}.py'
    path.write_text(text)
    sys.path.insert(0, str(tmp_path))
    try:
        importlib.invalidate_caches()
        return importlib.import_module(name)
    finally:
        sys.path.remove(str(tmp_path))


def exec_cell(text, file):
    """Run `text` as IPython runs a cell: registered in linecache under `file` first."""
    linecache.cache[file] = (len(text), None, text.splitlines(keepends=True), file)
    namespace = {'jnp': jnp}
    exec(compile(text, file, 'exec'), namespace)
    return namespace


def check_all_ways(fn, x):
    """Converted matches plain Python with Python and JAX values, under jit, vmap, grad."""
    check(fn, x)
    check(fn, jnp.float32(x))
    converted = autograph.convert(fn)
    assert_same(jax.vmap(converted)(jnp.array([x, -x], jnp.float32)),
                jnp.stack([fn(jnp.float32(x)), fn(jnp.float32(-x))]))
    assert_same(jax.grad(converted)(jnp.float32(x)), _slope(fn, x))


def _slope(fn, x, h=1e-3):
    """The derivative of a piecewise-smooth `fn` at `x`, from plain Python."""
    return (fn(x + h) - fn(x - h)) / (2 * h)


METHOD_WITH_UNINDENTED_STRING = '''
import jax.numpy as jnp

class Scaler:
    factor = 3.0

    def scale(self, x):
        note = """
not indented
    at all
"""
        if x > 0:
            x = x * self.factor + len(note) * 0.01
        else:
            x = x - len(note) * 0.01
        return x
'''


def test_method_holding_an_unindented_multiline_string(tmp_path):
    module = load(tmp_path, METHOD_WITH_UNINDENTED_STRING)
    scaler = module.Scaler()
    check_all_ways(scaler.scale, 2.0)
    check_all_ways(scaler.scale, -2.0)
    assert repr('\nnot indented\n    at all\n') in autograph.to_code(scaler.scale)
    assert staged(scaler.scale, jnp.float32(1.0)) == {'cond'}


SHAPES = '''
import functools
import jax.numpy as jnp

def twice(fn):
    @functools.wraps(fn)
    def wrapper(x):
        return fn(x) * 2
    return wrapper

def one_line(x): return x * 2 if x > 0 else x - 1

@functools.lru_cache(
    maxsize=None,
)
def cached_factory():
    return 2.0

def inner_of(x):
    if x > 0:
        return x + cached_factory()
    return x

if True:
    def in_if(x):
        if x > 0:
            x = x + \\
                1.5
        return x
else:
    def in_if(x):
        return -x

@twice
@twice
def decorated(x):
    while x < 10:
        x = x * 2 + 1
    return x

def continued(x):
    total = x * 2 + \\
        x * 3 \\
        - 1
    if total > \\
            0:
        return total
    return -total
'''


@pytest.mark.parametrize('name', ['one_line', 'inner_of', 'in_if', 'continued'])
def test_source_shapes(tmp_path, name):
    module = load(tmp_path, SHAPES)
    check_all_ways(getattr(module, name), 2.0)
    check_all_ways(getattr(module, name), -2.0)


def test_stacked_decorators_convert_the_function_they_wrap(tmp_path):
    module = load(tmp_path, SHAPES)
    # The wrappers are user code too: each level is converted, down to `decorated`.
    check(module.decorated, jnp.float32(1.5))
    check(module.decorated, 1.5)
    assert 'while_stmt' in autograph.to_code(module.decorated.__wrapped__.__wrapped__)


TABS = ('import jax.numpy as jnp\n\n'
        'def tabbed(x):\n'
        '\tif x > 0:\n'
        '\t\tx = x * 2\n'
        '\treturn x\n\n'
        'class Tabbed:\n'
        '\tdef method(self, x):\n'
        '\t\ts = """\nflush left\n"""\n'
        '\t\tfor i in range(3):\n'
        '\t\t\tif x > i:\n'
        '\t\t\t\tx = x - len(s) * 0.1\n'
        '\t\treturn x\n')


def test_tab_indentation(tmp_path):
    module = load(tmp_path, TABS)
    check_all_ways(module.tabbed, 2.0)
    check_all_ways(module.Tabbed().method, 2.5)


def test_errors_point_at_the_users_line_and_column_in_an_indented_method(tmp_path):
    module = load(tmp_path, textwrap.dedent('''
        class Model:
            def step(self, x):
                """
        flush-left docstring
                """
                if x > 0:
                    yield x
    '''))
    with pytest.raises(UnsupportedSyntax) as info:
        autograph.to_code(module.Model.step)
    lines = (tmp_path / f'{module.__name__}.py').read_text().splitlines()
    assert lines[info.value.lineno - 1].strip() == 'yield x'
    assert lines[info.value.lineno - 1][info.value.offset - 1:].startswith('yield')
    assert info.value.filename == module.__file__


# --- files edited after import ----------------------------------------------------------

EDITED = '''
import jax.numpy as jnp

def scale(x):
    if x > 0:
        return x * 2.0
    return x

def other(x):
    return x + 1.0
'''


def edit(module, text):
    path = module.__file__
    with open(path, 'w') as file:
        file.write(text)
    os.utime(path, (1, 1))   # a different mtime, whatever the clock's resolution
    linecache.checkcache(path)


@pytest.mark.parametrize('change', [
    ('x * 2.0', 'x * 3.0'),                  # a constant on the same line
    ('x * 2.0', 'x + 2.0'),                  # an operator
    ('\ndef scale', '\n# a new comment\n\ndef scale'),   # the function moved down
    ('def scale(x):\n', 'def scale(x):\n    x = x - 1.0\n'),   # a statement added
])
def test_a_file_edited_after_import_is_reported_not_converted(tmp_path, change):
    module = load(tmp_path, EDITED)
    edit(module, EDITED.replace(*change))
    with pytest.raises(autograph.ConversionError, match='does not match the code that '
                       'runs.*edited after it was imported') as info:
        autograph.convert(module.scale)(jnp.float32(2.0))
    assert f'{module.__file__} (line {module.scale.__code__.co_firstlineno})' in \
        str(info.value)


def test_editing_another_function_of_the_file_does_not_matter(tmp_path):
    module = load(tmp_path, EDITED)
    edit(module, EDITED.replace('x + 1.0', 'x + 100.0\n\n\ndef more():\n    pass'))
    check_all_ways(module.scale, 2.0)


def test_the_source_linecache_held_at_import_still_converts(tmp_path):
    module = load(tmp_path, EDITED)
    linecache.getlines(module.__file__)   # e.g. a traceback printed before the edit
    with open(module.__file__, 'w') as file:
        file.write(EDITED.replace('x * 2.0', 'x * 3.0'))
    check_all_ways(module.scale, 2.0)


# --- notebooks and exec'd strings -------------------------------------------------------

CELL = '''
def step(x):
    for i in range(3):
        if x > i:
            x = x * 0.5
    return x

class Cell:
    def method(self, x):
        text = """
flush left
"""
        return x * len(text) if x > 0 else -x

first, second = (lambda x: x * 2 if x > 0 else x), (lambda x: x + 1 if x > 0 else x)
'''


@pytest.mark.parametrize('file', ['<ipython-input-7-0123456789ab>',
                                  os.path.join('ipykernel_4242', '3210.py'),
                                  '<string registered in linecache>'])
def test_notebook_cells_and_registered_exec_strings(file):
    namespace = exec_cell(CELL, file)
    check_all_ways(namespace['step'], 2.5)
    check_all_ways(namespace['Cell']().method, 2.0)
    check_all_ways(namespace['Cell']().method, -2.0)
    # Two lambdas with the same arguments on one line are told apart by their code.
    for name in ('first', 'second'):
        check_all_ways(namespace[name], 2.0)
        check_all_ways(namespace[name], -2.0)


def test_an_exec_string_not_in_linecache_is_a_clear_error():
    namespace = {}
    exec(compile('def hidden(x):\n    return x\n', '<not registered>', 'exec'), namespace)
    with pytest.raises(autograph.ConversionError, match='source code is not available'):
        autograph.convert(namespace['hidden'])(1.0)
    exec(compile('hidden_lambda = lambda x: x\n', '<not registered>', 'exec'), namespace)
    with pytest.raises(autograph.ConversionError, match='<not registered>'):
        autograph.convert(namespace['hidden_lambda'])(1.0)


def test_a_cell_run_again_after_an_edit_converts_the_new_code():
    file = '<ipython-input-8-feedfeedfeed>'
    old = exec_cell(CELL, file)['step']
    new = exec_cell(CELL.replace('x * 0.5', 'x * 0.25'), file)['step']
    check_all_ways(new, 2.5)
    with pytest.raises(autograph.ConversionError, match='does not match'):
        autograph.to_code(old)   # its source is gone: the cell now holds the new one


def test_an_evald_lambda_without_registered_source_is_a_conversion_error_saying_so():
    square_if_positive = eval('lambda v: v * v if v > 0 else v')
    with pytest.raises(autograph.ConversionError,
                       match=r'lambda at <string>:1: its source code is not available'):
        autograph.convert(square_if_positive)(jnp.float32(2.))
