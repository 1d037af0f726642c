"""The wheel and the sdist build, and the wheel works in a clean virtual environment.

The build runs without isolation (offline: it uses this environment's setuptools) on a
copy of the project. The fresh venv (without pip of its own: ensurepip alone takes
~20 s) gets the wheel from this environment's pip, with no index and no dependencies; jax and numpy come from this environment's site-packages through a path
file, which adds their folder without running its own path files (so this checkout's
editable install stays invisible). Everything runs in subprocesses with time limits.
"""
import os
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import textwrap
import venv
import zipfile

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLE = textwrap.dedent('''
    import jax.numpy as jnp

    def halve_until_small(x):
        while jnp.max(x) > 1:
            x = x / 2
        return x
''')


def run(*args, cwd, timeout=60):
    """`args` run in `cwd`, without the caller's PYTHONPATH (a checkout on it would be
    imported instead of the wheel)."""
    env = {k: v for k, v in os.environ.items() if k != 'PYTHONPATH'}
    result = subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=timeout,
                            env=env)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


@pytest.fixture(scope='module')
def dist(tmp_path_factory):
    source = tmp_path_factory.mktemp('source')
    shutil.copytree(ROOT, source, dirs_exist_ok=True, ignore=shutil.ignore_patterns(
        '.venv', '.git', '__pycache__', '*.egg-info', 'build', 'dist', '.pytest_cache'))
    out = tmp_path_factory.mktemp('dist')
    run(sys.executable, '-m', 'build', '--no-isolation', '--outdir', str(out), '.',
        cwd=source)
    wheel, = out.glob('*.whl')
    sdist, = out.glob('*.tar.gz')
    return wheel, sdist


def test_wheel_holds_the_packages_and_metadata(dist):
    wheel, _ = dist
    names = zipfile.ZipFile(wheel).namelist()
    assert 'autograph/runtime/operators/loops.py' in names and 'autograph/__main__.py' in names
    assert not any(n.startswith('runtime/') for n in names)
    metadata = zipfile.ZipFile(wheel).read(
        next(n for n in names if n.endswith('METADATA'))).decode()
    for field in ('License-Expression: MIT', 'Requires-Python: >=3.10',
                  'Requires-Dist: jax>=0.7.1', 'Requires-Dist: jaxlib!=0.9.1,!=0.9.2',
                  'Classifier: Programming Language :: Python'):
        assert field in metadata
    assert any(n.endswith('licenses/LICENSE') for n in names)


def test_sdist_carries_what_the_tests_need(dist):
    _, sdist = dist
    names = {n.split('/', 1)[1] for n in tarfile.open(sdist).getnames() if '/' in n}
    for needed in ('LICENSE', 'runtime/backends/framework.py', 'tests/helpers.py', 'Makefile',
                   'requirements-jax07.txt', 'examples/pennylane_capture.py',
                   'examples/tinygraph.py', 'docs/guide.md'):
        assert needed in names


def test_wheel_installs_and_runs_in_a_clean_venv(dist, tmp_path):
    wheel, _ = dist
    env_dir = tmp_path / 'venv'
    venv.create(env_dir, with_pip=False)
    python = env_dir / 'bin' / 'python'
    run(sys.executable, '-m', 'pip', '--python', str(python), 'install', '--no-index',
        '--no-deps', '--quiet', str(wheel), cwd=tmp_path)
    site = run(str(python), '-c', 'import sysconfig; print(sysconfig.get_path("purelib"))',
               cwd=tmp_path).strip()
    with open(os.path.join(site, 'dependencies.pth'), 'w') as f:
        f.write(sysconfig.get_path('purelib') + '\n')
    (tmp_path / 'example.py').write_text(EXAMPLE)

    script = textwrap.dedent('''
        import importlib.util, jax.numpy as jnp, autograph
        import example
        assert autograph.__file__.startswith(%r), autograph.__file__
        assert importlib.util.find_spec('runtime') is None
        f = autograph.convert(example.halve_until_small)
        print(float(f(jnp.array([3.0, 8.0])).max()))
    ''' % site)
    assert run(str(python), '-c', script, cwd=tmp_path).strip() == '1.0'
    shown = run(str(env_dir / 'bin' / 'autograph-show'), 'example.py:halve_until_small',
                cwd=tmp_path)
    assert 'ag.while_stmt(' in shown
    assert run(str(python), '-m', 'autograph', 'example.py:halve_until_small',
               cwd=tmp_path) == shown
