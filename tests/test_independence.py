"""analysis.independence: which `for` loops run independent iterations, as one-line dumps
per loop; and passes.loops, which marks only those that carry exactly the arrays they
write (temporaries private to an iteration, the loop variable not read after)."""
import ast
import textwrap

import pytest

import autograph
from autograph.analysis.independence import dump
from autograph.passes.static_resolver import StaticResolver

IMPORTS = 'import jax.numpy as jnp\nimport numpy as np\nimport math\n'


def verdicts(code):
    module = ast.parse(IMPORTS + textwrap.dedent(code))
    function = next(n for n in module.body if isinstance(n, ast.FunctionDef))
    lines = dump(function, StaticResolver(module))
    return [line.split(': ', 1)[1] for line in lines]


INDEPENDENT = [
    ("""
     def f(x, out):
         for i in range(x.shape[0]):
             out[i] = jnp.sin(x[i]) * 2
     """, ["axis 0 writes ['out'] reads ['x']"]),
    ("""
     def f(x, out):
         n, m = x.shape
         for i in range(n):
             for j in range(m):
                 t = x[i, j]
                 out[i, j] = t * t + abs(t)
     """, ["axis 0 writes ['out'] reads ['x']", "axis 1 writes ['out'] reads ['x']"]),
    ("""
     def julia(zr, zi, c, out):
         for i in range(zr.shape[0]):
             for j in range(zr.shape[1]):
                 x, y, k = zr[i, j], zi[i, j], 0
                 while k < 100 and x * x + y * y < 4.0:
                     x, y = x * x - y * y + c, 2.0 * x * y
                     k += 1
                 out[i, j] = k
     """, ["axis 0 writes ['out'] reads ['zi', 'zr']",
           "axis 1 writes ['out'] reads ['zi', 'zr']"]),
    ("""
     def conv(image, filt, result):
         for i in range(2, 10):
             for j in range(2, 10):
                 num = 0.0
                 for ii in range(5):
                     for jj in range(5):
                         num += filt[ii, jj] * image[i - 2 + ii, j - 2 + jj]
                 result[i, j] = num
     """, ["axis 0 writes ['result']", "axis 1 writes ['result']",
           "axis 2 writes [] reduces 'num' (sum) reads ['filt']",
           "axis 3 writes [] reduces 'num' (sum) reads ['filt']"]),
    ("""
     def f(x, a, b):
         for i in range(3, 9, 2):
             a[i, 0] = x[i]
             a[i, 1] = a[i, 0] * 2
             b[i] += a[i, 1] if x[i] > 0 else math.sqrt(2.0)
     """, ["axis 0 writes ['a', 'b'] reads ['x']"]),
    ("""
     def nbody_like(pos, mass, out, k):
         for i in range(pos.shape[0]):
             s = 0.0
             for j in range(pos.shape[0]):
                 s += (pos[j, 0] - pos[i, 0]) * mass[j] + pos[i + 1, 1] + k[0, j]
             out[i] = s
     """, ["axis 0 writes ['out'] reads ['pos']",
           "axis 1 writes [] reduces 's' (sum) reads ['mass', 'pos']"]),
    ("""
     def f(x, y, out):
         for i in range(x.shape[0]):
             y = x * 2
             out[i] = y[i] + x[i - 1] + x[i + 1]
     """, ["axis 0 writes ['out']"]),
]


@pytest.mark.parametrize('code, expected', INDEPENDENT)
def test_independent_loops(code, expected):
    assert verdicts(code) == expected


DEPENDENT = [
    ('out[i + 1] = out[i]', 'accesses `out[i + 1]`'),
    ('out[i] = out[i - 1]', 'accesses `out[i - 1]`'),
    ('j = idx[i]\n    out[j] = x[i]', 'accesses `out[j]`'),
    ('out[i] = x[i]\n    total = out', "uses 'out' whole"),
    ('out[i] = jnp.sum(out)', "uses 'out' whole"),
    ('out[i] = x[i] + out.shape[0]', "uses 'out' whole"),
    ('out[i] = helper(x[i])', 'calls `helper`'),
    ('out[i] = np.random.rand()', 'calls `np.random.rand`'),
    ('print(i)\n    out[i] = x[i]', 'a call as a statement'),
    ('out[i] = x[i]\n    if x[i] > 0:\n        break', '`break`'),
    ('out[i] = x[i]\n    assert x[i] > 0', '`assert`'),
    ('out[i] = x[i]\n    i = 0', "assigns its loop variable 'i'"),
    ('out = jnp.zeros(3)\n    out[i] = x[i]', "rebinds 'out'"),
    ('out[i][0] = x[i]', 'assigns `out[i][0]`'),
    ('out[i, 1:] = x[i]', 'slices `out[i, 1:]`'),
    ('out[i] = [x[i]][0]', 'a List node'),
    ('out[i] = max(v for v in x)', 'a GeneratorExp node'),
    ('out[i] = sum(x)', 'calls sum()'),
    ('out[i] = x[i]\n    return out', '`return`'),
    ('out[i] = jnp.where(x[i] > 0, x[i], (lambda v: v)(0))', 'calls `lambda v: v`'),
    ('out[i] = jnp.sum(x, key=lambda v: v)', 'a lambda'),
    ('out[i] = len(x)\n    del x', '`del`'),
]


@pytest.mark.parametrize('body, reason', DEPENDENT)
def test_dependent_loops(body, reason):
    code = f'def f(x, out, idx):\n  for i in range(5):\n    {body}\n'
    (verdict,) = verdicts(code)
    assert verdict.startswith('sequential: ') and reason in verdict, verdict


def test_other_loops_are_sequential():
    assert verdicts("""
        def f(x, out, n):
            for v in x:
                out[0] = v
            for i in range(n):
                out[i] = x[i]
            else:
                pass
            for i, v in enumerate(x):
                out[i] = v
            for i in range(n):
                s = x[i]
        """) == ['sequential: it does not iterate over `range(...)`',
                 'sequential: it has an `else`',
                 'sequential: its target is not a name',
                 'sequential: it writes no array items']


def test_an_inner_loop_of_a_dependent_loop_is_not_vectorised_along_axis_1():
    """Row i reads row i - 1: the rows are sequential; the inner loop writes out[i, j],
    which is not `out[j]`, so it is not independent on its own either."""
    assert verdicts("""
        def f(out):
            for i in range(1, 5):
                for j in range(4):
                    out[i, j] = out[i - 1, j] + 1
        """) == ['sequential: it accesses `out[i - 1, j]` (line 8), not at `out[i, ...]`',
                 'sequential: it accesses `out[i, j]` (line 8), not at `out[j, ...]`']


def test_shadowed_library_names_are_not_pure():
    assert verdicts("""
        def f(x, out, jnp):
            for i in range(5):
                out[i] = jnp.sin(x[i])
        """) == ['sequential: it calls `jnp.sin` (line 7), which may not be pure']


# --- passes.loops: the temporaries and the loop variable -----------------------------

def marked(fn):
    return 'independent_axis' in autograph.to_code(fn)


def test_marked_loop():
    def f(x):
        out = x * 0
        for i in range(x.shape[0]):
            t = x[i] * 2
            out[i] = t + 1
        return out
    assert 'independent_axis=0' in autograph.to_code(f)


def test_temporary_read_before_it_is_assigned_is_not_marked():
    def f(x):
        out, t = x * 0, x[0]
        for i in range(x.shape[0]):
            out[i] = t       # the previous iteration's t
            t = x[i]
        return out
    assert not marked(f)


def test_temporary_read_after_the_loop_is_not_marked():
    def f(x):
        out = x * 0
        for i in range(x.shape[0]):
            t = x[i]
            out[i] = t
        return out, t
    assert not marked(f)


def test_loop_variable_read_after_the_loop_is_not_marked():
    def f(x):
        out = x * 0
        for i in range(x.shape[0]):
            out[i] = x[i]
        return out, i
    assert not marked(f)


def test_accumulation_read_elsewhere_is_not_marked():
    def f(x):
        out, s = x * 0, 0.0
        for i in range(x.shape[0]):
            s += x[i]
            out[i] = s
        return out
    assert not marked(f)


def test_temporary_assigned_on_one_path_only_is_not_marked():
    def f(x):
        out, t = x * 0, 0.0
        for i in range(x.shape[0]):
            if x[i] > 0:
                t = x[i]
            out[i] = t
        return out
    assert not marked(f)


def test_written_global_is_not_marked():
    def f(x):
        global GLOBAL_OUT
        for i in range(x.shape[0]):
            GLOBAL_OUT[i] = x[i]
        return GLOBAL_OUT
    assert not marked(f)
