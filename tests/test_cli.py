"""`autograph-show file.py:function`: converts statically, never runs the file."""
import os
import subprocess
import sys
import textwrap

import pytest

from autograph import cli

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

        class Inner:
            def steps(self):
                yield 1
''')


def show(*args):
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    return subprocess.run([sys.executable, '-m', 'autograph.cli', *args], cwd=root,
                          capture_output=True, text=True, timeout=120)


def show_here(capsys, *args):
    """`autograph-show` in this process (faster than a subprocess that imports jax)."""
    code = cli.main(list(args))
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


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
    assert "y = ag.if_stmt(lambda: jnp.sum(x) > 0, if_true, if_false, names=('y',))" in result.stdout
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
    ('', 'expected path/to/file.py or path/to/file.py:function'),
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


def test_a_file_alone_lists_what_can_be_shown(source_file):
    result = show(source_file)   # a subprocess: the module must not run
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == 'f  line 8' and lines[1] == 'Model.__call__  line 17'
    assert lines[2].startswith('Model.Inner.steps  line 23  (cannot convert: generators')
    assert len(lines) == 3 and 'executed' not in result.stdout + result.stderr


def test_all_shows_every_function(source_file, capsys):
    shown = show_here(capsys, source_file, '--all')
    for name in ('f', 'Model.__call__', 'Model.Inner.steps'):
        assert f'# {source_file}:{name}\n' in shown
    assert show_here(capsys, f'{source_file}:f') in shown
    assert 'while_stmt' in shown and '# cannot convert: generators' in shown


def test_diff_goes_from_the_original_to_the_converted_code(source_file, capsys):
    shown = show_here(capsys, f'{source_file}:f', '--diff')
    lines = shown.splitlines()
    assert lines[0] == f'--- {source_file}:f' and lines[1] == f'+++ {source_file}:f (converted)'
    assert '-    if jnp.sum(x) > 0:' in lines and '-    else:' in lines
    assert "+    y = ag.if_stmt(lambda: jnp.sum(x) > 0, if_true, if_false, names=('y',))" in lines
    assert ' def f(x):' in lines   # unchanged lines are context
    every = show_here(capsys, source_file, '--all', '--diff')
    assert shown in every and f'+++ {source_file}:Model.__call__' in every
