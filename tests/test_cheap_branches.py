"""Cheap staged branches are selects, not conditionals (runtime/staging/cheap.py).

The statements after a `break` run under `if not did_break:` (autograph/passes/
loop_exits.py); staged as a conditional, that is a branch decided on every iteration of
the compiled loop (on a GPU a round trip to the host). Branches of a few element-wise
operations are computed side by side and selected instead; a loop, a matmul, a callback,
a large array operation, a check, or a derivative that may be infinite on the side Python
does not take keeps the conditional. Values and gradients are plain Python's."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from autograph.runtime.staging import cheap
from tests.helpers import assert_same, converted, loop_conditionals, primitives


def shrink(x, n):
    i = 0
    while i < n:
        x = x * 0.9
        if x < 0.1:
            break
        x = x + 0.01
        i += 1
    return x


def escape_count(c):
    """Mandelbrot's escape count with the test after the step."""
    z = c * 0
    count = 0
    for _ in range(50):
        z = z * z + c
        if jnp.abs(z) > 2:
            break
        count += 1
    return count


def tolerance_bisection(c):
    lo, hi = 0.0 * c, 10.0 + 0.0 * c
    for _ in range(100):
        if hi - lo < 1e-5:
            break
        mid = (lo + hi) / 2
        if mid ** 3 - mid - c > 0:
            hi = mid
        else:
            lo = mid
    return (lo + hi) / 2


def fizz_counts(n):
    """Several branches (an elif chain), integer outputs of `%`."""
    a = b = c = 0
    for i in range(1, n + 1):
        if i % 15 == 0:
            c += 1
        elif i % 3 == 0:
            a += 1
        elif i % 5 == 0:
            b += 1
    return a, b, c


CHEAP = {
    'while-break': (shrink, [(np.float32(5.0), 100), (np.float32(0.05), 10),
                             (np.float32(50.0), 3)]),
    'for-break': (escape_count, [(np.complex64(0.3 + 0.2j),), (np.complex64(1 + 1j),)]),
    'nested-if-after-break': (tolerance_bisection, [(np.float32(5.0),),
                                                   (np.float32(0.5),)]),
    'elif-integers': (fizz_counts, [(100,), (7,)]),
}


@pytest.mark.parametrize('name', CHEAP)
def test_a_cheap_branch_in_a_loop_compiles_to_no_conditional(name):
    fn, cases = CHEAP[name]
    args = tuple(map(jnp.asarray, cases[0]))
    assert loop_conditionals(fn, *args) == []
    assert 'cond' not in _in_while_bodies(jax.make_jaxpr(converted(fn))(*args).jaxpr)


@pytest.mark.parametrize('name', CHEAP)
def test_values_equal_plain_python(name):
    fn, cases = CHEAP[name]
    for args in cases:
        assert_same(autograph.convert(fn)(*map(jnp.asarray, args)), fn(*args))


def test_under_vmap():
    grid = np.array([0.3 + 0.2j, 1 + 1j, -0.75 + 0.1j, -2 + 0j], np.complex64)
    counts = jax.vmap(autograph.convert(escape_count))(jnp.asarray(grid))
    assert counts.tolist() == [escape_count(c) for c in grid]


def matmul_after_break(x, w):
    for _ in range(10):
        if jnp.sum(x) > 100:
            break
        x = x @ w
    return x


def loop_after_break(x, n):
    for _ in range(10):
        if x > 100:
            break
        k = 0
        while k < n:
            x = x + 1.0
            k += 1
    return x


def print_after_break(x):
    for _ in range(10):
        if x > 100:
            break
        jax.debug.print('x = {}', x)
        x = x * 2
    return x


def large_after_break(x):
    for _ in range(10):
        if x[0] > 100:
            break
        x = x * 2
    return x


EXPENSIVE = {
    'matmul': (matmul_after_break, (jnp.ones((4, 4)), jnp.eye(4) * 1.5)),
    'inner loop': (loop_after_break, (jnp.float32(1.0), jnp.int32(7))),
    'callback': (print_after_break, (jnp.float32(3.0),)),
    'large array': (large_after_break, (jnp.ones(cheap.SELECT_ITEMS + 1),)),
}


@pytest.mark.parametrize('name', EXPENSIVE)
def test_an_expensive_branch_keeps_its_conditional(name, capsys):
    fn, args = EXPENSIVE[name]
    assert 'cond' in _in_while_bodies(jax.make_jaxpr(converted(fn))(*args).jaxpr)
    plain = fn(*[np.asarray(a) for a in args])
    assert_same(autograph.convert(fn)(*args), plain)


def test_a_check_keeps_its_conditional():
    def checked(x):
        for _ in range(10):
            if x > 100:
                break
            if x < 0:
                raise ValueError('negative')
            x = x * 2
        return x
    assert 'cond' in primitives(checked, jnp.float32(3.0), cheap_selects=True)
    assert_same(autograph.convert(checked)(jnp.float32(3.0)), checked(3.0))


# --- gradients: the side Python does not take gives no nan -----------------------------

def root_or_zero(x):
    if x > 0:
        y = jnp.sqrt(x)
    else:
        y = 0.0
    return y


def inverse_or_zero(x):
    if x != 0:
        y = 1.0 / x
    else:
        y = 0.0 * x
    return y


def polynomial(x):
    if x > 0:
        y = x * x + x / 2
    else:
        y = 3 * x - jnp.sin(x)
    return y


def shrink_to(x):
    for _ in range(20):
        x = x * 0.8
        if x < 0.5:
            break
        x = x + jnp.tanh(x) * 0.1
    return x


@pytest.mark.parametrize('fn, points, selected', [
    (root_or_zero, [-1.0, 0.0, 4.0], False),
    (inverse_or_zero, [0.0, 2.0, -0.5], False),
    (polynomial, [-1.0, 0.0, 2.0], True),
    (shrink_to, [0.3, 3.0, 40.0], True),
])
def test_gradients_equal_plain_python(fn, points, selected):
    """jax.grad of the converted function is jax.grad of the Python function (its `if`s
    decided on concrete values), no nan where the untaken side's derivative would be
    infinite: `sqrt` and a division by a value keep their conditional."""
    grad = jax.grad(autograph.convert(fn))
    for x in points:
        expected = jax.grad(fn)(jnp.float32(x))
        actual = grad(jnp.float32(x))
        assert not np.isnan(actual), (fn.__name__, x)
        assert_same(actual, expected)
    assert ('cond' not in primitives(fn, jnp.float32(1.0), cheap_selects=True)) == selected


def test_a_risky_primitive_with_integer_outputs_is_selected():
    """Integer and boolean outputs take no derivative: `%` and `//` are selected."""
    def steps(n):
        count = 0
        while n > 1:
            if n % 2 == 0:
                n = n // 2
            else:
                n = 3 * n + 1
            count += 1
        return count
    assert loop_conditionals(steps, jnp.int32(27)) == []
    assert int(autograph.convert(steps)(jnp.int32(27))) == steps(27)


def _in_while_bodies(jaxpr, inside=False):
    """The primitive names inside the bodies of the while loops of `jaxpr` (and of the
    jaxprs its equations call)."""
    names = set()
    for eqn in jaxpr.eqns:
        if inside:
            names.add(eqn.primitive.name)
        for key, value in eqn.params.items():
            for item in value if isinstance(value, (tuple, list)) else [value]:
                inner = getattr(item, 'jaxpr', item)
                if hasattr(inner, 'eqns'):
                    names |= _in_while_bodies(inner, inside or (
                        eqn.primitive.name == 'while' and key == 'body_jaxpr'))
    return names
