"""`autograph-show file.py:function`: converts statically, never runs the file."""
import os
import subprocess
import sys
import textwrap

import pytest

SOURCE = textwrap.dedent('''
    import jax.numpy as jnp
    from helpers_module import helper

    raise SystemExit('the module was executed')


    def f(x):
        if jnp.sum(x) > 0:
            y = helper(x)
        else:
            y = -x
        return y


    class Model:
        def __call__(self, x):
            while x < 10:
                x = x * 2
            return x
''')


def show(*args):
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    return subprocess.run([sys.executable, '-m', 'autograph.cli', *args], cwd=root,
                          capture_output=True, text=True, timeout=120)


@pytest.fixture
def source_file(tmp_path):
    folder = tmp_path / 'a folder with spaces'
    folder.mkdir()
    path = folder / 'model file.py'
    path.write_text(SOURCE)
    return str(path)


def test_prints_converted_function_without_running_the_file(source_file):
    result = show(f'{source_file}:f')
    assert result.returncode == 0, result.stderr
    assert 'def f(x):' in result.stdout
    assert "y = ag.if_stmt(jnp.sum(x) > 0, if_true, if_false, names=('y',))" in result.stdout
    assert 'ag.call(helper, x)' in result.stdout     # a user import: converted when called
    assert 'executed' not in result.stdout + result.stderr
    assert '\x1b[' not in result.stdout               # no colour when not a terminal


def test_methods_and_colour(source_file):
    result = show(f'{source_file}:Model.__call__', '--color=always')
    assert result.returncode == 0, result.stderr
    assert '\x1b[' in result.stdout and 'while_stmt' in result.stdout


@pytest.mark.parametrize('target,message', [
    ('missing.py:f', 'no such file: missing.py'),
    ('{file}:nope', "no function 'nope'"),
    ('{file}:Model', 'is a class'),
    ('{file}', 'expected path/to/file.py:function'),
])
def test_bad_targets_give_one_line(source_file, target, message):
    result = show(target.format(file=source_file))
    assert result.returncode != 0
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and 'Traceback' not in result.stderr


def test_syntax_error_names_the_line(tmp_path):
    path = tmp_path / 'broken.py'
    path.write_text('def f(x):\n    return x +\n')
    result = show(f'{path}:f')
    assert result.returncode != 0
    assert f'{path}:2' in result.stderr and 'Traceback' not in result.stderr
