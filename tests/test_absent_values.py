"""Values that exist on some paths only (issue 20): variables bound on some paths, read
with Python's result where bound and Python's UnboundLocalError, when the program runs,
where not; None-or-value results. Each case runs plain Python, converted (its own jit),
converted under jax.jit / jax.vmap / jax.grad, on the same inputs."""
import jax
import jax.numpy as jnp
import pytest

import autograph
from tests.helpers import assert_same, site, staged

UNBOUND = "cannot access local variable '{}' where it is not associated with a value"


def same_as_python(fn, *args):
    """Converted `fn` (its own jit, and inside jax.jit) gives Python's value."""
    expected = fn(*args)
    assert_same(autograph.convert(fn)(*args), expected)
    assert_same(jax.jit(autograph.convert(fn, jit=False))(*args), expected)
    return expected


def raises_unbound(fn, name, *args, line=None):
    """Python raises UnboundLocalError for `name`; so does the converted `fn`, when the
    compiled program runs, naming the user's line."""
    message = UNBOUND.format(name)
    with pytest.raises(UnboundLocalError, match=message):
        fn(*args)
    with pytest.raises(UnboundLocalError, match=message) as info:
        autograph.convert(fn)(*args)
    if line is not None:
        notes = '\n'.join(getattr(info.value, '__notes__', []))
        assert site(fn, line) in notes, notes


# --- loop-created variables with a run-time trip count ----------------------------------

def while_creates(n, x):
    i = 0
    while i < n:
        y = x * i
        i = i + 1
    return y


def test_a_while_loop_that_may_run_zero_times():
    for n in (1, 3):
        same_as_python(while_creates, jnp.int32(n), jnp.float32(2.))
    # Was: zeros, silently.
    raises_unbound(while_creates, 'y', jnp.int32(0), jnp.float32(2.), line='return y')
    assert 'while' in staged(while_creates, jnp.int32(3), jnp.float32(2.))


def test_no_error_while_tracing():
    jaxpr = jax.make_jaxpr(autograph.convert(while_creates, jit=False))(
        jnp.int32(0), jnp.float32(2.))
    assert 'while' in str(jaxpr) and 'debug_callback' in str(jaxpr)


def for_range_creates(n, x):
    for i in range(n):
        y = x * i
    return y


def for_array_creates(xs):
    for v in xs:
        last = v * 2
    return last


def test_a_for_loop_that_may_run_zero_times():
    same_as_python(for_range_creates, jnp.int32(3), jnp.float32(2.))
    raises_unbound(for_range_creates, 'y', jnp.int32(0), jnp.float32(2.))
    same_as_python(for_array_creates, jnp.arange(3.))
    raises_unbound(for_array_creates, 'last', jnp.zeros(0))
    assert 'scan' in staged(for_array_creates, jnp.arange(3.))


def test_a_variable_never_read_after_the_statement_is_not_checked():
    def f(n, x):
        i = 0
        while i < n:
            y = x * i
            x = x + y
            i = i + 1
        return x
    assert 'check_defined' not in autograph.to_code(f)
    same_as_python(f, jnp.int32(0), jnp.float32(2.))
    same_as_python(f, jnp.int32(3), jnp.float32(2.))


def test_read_in_a_later_iteration_where_bound():
    def f(n):
        i = 0
        while i < n:
            if i > 0:
                total = total + i      # bound by the iteration before
            total = i
            i += 1
        return total
    for n in (1, 4):
        same_as_python(f, jnp.int32(n))
    raises_unbound(f, 'total', jnp.int32(0))


def brent_like(xs):
    """SciPy's Brent: `rat` is bound in an earlier iteration's branch, and read in a later
    one only on paths where it was bound."""
    total = 0.0
    for i in range(xs.shape[0]):
        if xs[i] > 0:
            rat = xs[i] * 2
        if i > 0:
            if xs[i - 1] > 0:
                total = total + rat
    return total


def test_brent_reads_only_where_bound():
    for xs in ([1., -1., 2., 3.], [-1., -2., -3., -4.], [5., 6., 7., 8.]):
        same_as_python(brent_like, jnp.array(xs))
    assert {'while', 'cond'} & staged(brent_like, jnp.arange(4.))


# --- one-branch assignments ---------------------------------------------------------------

def one_branch(x):
    if x > 0:
        y = x * 2
    return y


def test_one_branch_assignment():
    same_as_python(one_branch, jnp.float32(1.5))
    raises_unbound(one_branch, 'y', jnp.float32(-1.), line='return y')
    assert 'cond' in staged(one_branch, jnp.float32(1.))


def test_one_branch_assignment_with_python_values():
    assert autograph.convert(one_branch, jit=False)(2.) == 4.
    with pytest.raises(UnboundLocalError, match=UNBOUND.format('y')):
        autograph.convert(one_branch, jit=False)(-2.)   # was: returned a marker object


def test_elif_chain_and_match():
    def chain(x):
        if x > 1:
            y = x
        elif x > 0:
            y = 2 * x
        return y

    def matching(k, x):
        match k:
            case 0:
                y = x
            case 1:
                y = -x
        return y
    for x in (2., 0.5):
        same_as_python(chain, jnp.float32(x))
    raises_unbound(chain, 'y', jnp.float32(-1.))
    for k in (0, 1):
        same_as_python(matching, jnp.int32(k), jnp.float32(3.))
    raises_unbound(matching, 'y', jnp.int32(2), jnp.float32(3.))


def test_a_read_guarded_by_the_same_condition_never_raises():
    def f(x):
        if x > 0:
            y = x * 2
        if x > 1:
            x = x + y
        return x
    for x in (-1., 0.5, 2.):
        same_as_python(f, jnp.float32(x))


def test_del_on_a_staged_path():
    def f(x):
        y = x + 1
        if x > 0:
            del y
        return y
    same_as_python(f, jnp.float32(-1.))
    raises_unbound(f, 'y', jnp.float32(1.))


def test_try_and_with_under_staged_code():
    import contextlib

    def f(x):
        if x > 0:
            try:
                y = x * 2
            except ValueError:
                y = 0.0
        return y

    def g(x):
        if x > 0:
            with contextlib.nullcontext():
                y = x * 3
        return y
    same_as_python(f, jnp.float32(1.))
    raises_unbound(f, 'y', jnp.float32(-1.))
    same_as_python(g, jnp.float32(1.))
    raises_unbound(g, 'y', jnp.float32(-1.))


def test_paths_that_give_different_kinds_of_value_stay_a_named_error():
    def f(x):
        if x > 0:
            y = 1.0
        else:
            y = [x, x]
        return y
    with pytest.raises(autograph.ControlFlowError) as info:
        autograph.convert(f)(jnp.float32(1.))
    message = str(info.value)
    assert "'y' is float32[]" in message and 'list of 2' in message
    assert site(f, "if x > 0") in message


def test_a_placeholder_of_a_pytree():
    def f(x):
        if x > 0:
            pair = {'a': x, 'b': (x * 2, 'label')}
        return pair
    out = autograph.convert(f)(jnp.float32(1.))
    assert out['b'][1] == 'label'
    assert_same((out['a'], out['b'][0]), (1., 2.))
    raises_unbound(f, 'pair', jnp.float32(-1.))


# --- jax.vmap and jax.grad ---------------------------------------------------------------

def test_vmap_checks_each_element():
    f = autograph.convert(one_branch, jit=False)
    xs = jnp.array([1., 2.])
    assert_same(jax.vmap(f)(xs), jnp.array([one_branch(x) for x in xs]))
    with pytest.raises(UnboundLocalError, match=UNBOUND.format('y')):
        jax.vmap(f)(jnp.array([1., -2.]))
    loop = autograph.convert(while_creates, jit=False)
    assert_same(jax.vmap(loop)(jnp.array([1, 3]), jnp.array([2., 2.])),
                jnp.array([while_creates(1, 2.), while_creates(3, 2.)]))
    with pytest.raises(UnboundLocalError, match=UNBOUND.format('y')):
        jax.vmap(loop)(jnp.array([0, 3]), jnp.array([2., 2.]))


def test_grad_through_placeholders():
    def f(x):
        if x > 0:
            y = x * x
        return y
    g = autograph.convert(f, jit=False)
    assert_same(jax.grad(g)(3.), jax.grad(f)(3.))
    assert_same(jax.jit(jax.grad(g))(3.), 6.)
    assert_same(jax.vmap(jax.grad(g))(jnp.array([1., 2.])), jnp.array([2., 4.]))
    with pytest.raises(UnboundLocalError, match=UNBOUND.format('y')):
        jax.grad(g)(-3.)
    loop = autograph.convert(for_range_creates, jit=False)
    assert_same(jax.grad(loop, argnums=1)(jnp.int32(3), 2.), 2.)
    assert_same(jax.grad(autograph.convert(brent_like, jit=False))(jnp.array([1., -1., 2., 3.])),
                jax.grad(brent_like)(jnp.array([1., -1., 2., 3.])))


# --- None-or-value results ---------------------------------------------------------------

def find(xs, t):
    for i in range(xs.shape[0]):
        if xs[i] == t:
            return i
    return None


def positive_step(x):
    if x > 0:
        return x * 2
    return None


def test_a_result_that_is_none_on_some_paths():
    xs = jnp.array([1., 2., 3.])
    assert_same(autograph.convert(find)(xs, 2.), find(xs, 2.))
    assert autograph.convert(find)(xs, 5.) is None and find(xs, 5.) is None
    assert_same(autograph.convert(positive_step)(jnp.float32(1.)), 2.)
    assert autograph.convert(positive_step)(jnp.float32(-1.)) is None
    # The same trace gives both: one compiled program, with a presence flag.
    f = autograph.convert(positive_step)
    f(jnp.float32(3.)), f(jnp.float32(-3.))
    assert f.trace_count == 1
    concrete = f.get_concrete_function(jax.ShapeDtypeStruct((), jnp.float32))
    assert concrete(jnp.float32(-3.)) is None and concrete(jnp.float32(3.)) == 6.


def test_is_none_on_an_optional_result_inside_converted_code():
    def user(xs, t):
        r = find(xs, t)
        if r is None:
            return -1
        return r + 1

    def careless(xs, t):
        r = find(xs, t)
        return r + 1
    xs = jnp.array([1., 2., 3.])
    for t in (2., 5.):
        same_as_python(user, xs, t)
    same_as_python(careless, xs, 2.)
    with pytest.raises(TypeError, match="unsupported operand type"):
        careless(xs, 5.)
    with pytest.raises(TypeError, match=r"unsupported operand type\(s\) for \+: 'NoneType'"):
        autograph.convert(careless)(xs, 5.)


def test_an_optional_result_inside_someone_elses_jit_is_a_named_error():
    """The error names the `return` that gives None, at its line."""
    f = autograph.convert(positive_step, jit=False)
    assert f(2.) == 4. and f(-2.) is None          # Python values: plain Python
    line = positive_step.__code__.co_firstlineno + 3
    with pytest.raises(autograph.ControlFlowError, match=(
            rf'positive_step\(\) returns None at .*py:{line} \(`return None`\) on some '
            rf'paths')) as info:
        jax.jit(f)(jnp.float32(1.))
    assert info.value.kind == 'result-leaves-trace'


def none_above_three(x):
    if x > 3.0:
        return None
    return x - 3.0


def refined(x):
    y = none_above_three(x)
    if y is None:                 # the other branch knows `y` is there
        y = 0.5 * x
    return y


def two_optionals(x):
    a, b = none_above_three(x), none_above_three(x + 0.5)
    if a is None or b is None:
        return -1.0
    return b - a


@pytest.mark.parametrize('x', [10.0, 3.5, 1.0])
def test_an_optional_refined_where_it_is_none_is_a_plain_value(x):
    # (carried by a while loop: tests/peers/test_scipy_optimizers_linesearch.py)
    expected = refined(x)
    assert autograph.convert(refined)(jnp.float32(x)) == pytest.approx(expected)
    assert jax.jit(autograph.convert(refined, jit=False))(jnp.float32(x)) == \
        pytest.approx(expected)          # (no optional left for someone else's jit)


def refined_under_or(x, hi):
    y = none_above_three(x)
    if y is None or y > hi:       # false: both are, so `y` is there
        y = hi / 2
    return y


def refined_under_and(x):
    y = none_above_three(x)
    if x < 0 and y is None:       # (never true: x < 0 gives a value)
        y = x
    if y is not None and y < 1:   # true: both are, so `y` is there
        y = y + 1
    else:
        y = -1.0
    return y


@pytest.mark.parametrize('x', [10.0, 3.5, 1.0])
def test_an_optional_refined_under_or_and_is_a_plain_value(x):
    """The false branch of `y is None or ...` and the true branch of `y is not None and
    ...` know that `y` is there, as the branches of a lone `is None` test do."""
    for fn, args in ((refined_under_or, (x, 1.0)), (refined_under_and, (x,))):
        expected = fn(*args)
        values = [jnp.float32(a) for a in args]
        assert autograph.convert(fn)(*values) == pytest.approx(expected)
        assert jax.jit(autograph.convert(fn, jit=False))(*values) == pytest.approx(expected)
    batch = jnp.array([10.0, 3.5, 1.0])
    assert jax.vmap(autograph.convert(refined_under_or, jit=False), in_axes=(0, None))(
        batch, jnp.float32(1.0)).tolist() == pytest.approx(
            [refined_under_or(float(b), 1.0) for b in batch])
    grad = jax.grad(autograph.convert(refined_under_or, jit=False))(jnp.float32(x), 5.0)
    assert grad == pytest.approx(0.0 if x > 3.0 else 1.0)


@pytest.mark.parametrize('x', [10.0, 2.0])
def test_arithmetic_on_two_optional_values(x):
    assert autograph.convert(two_optionals)(jnp.float32(x)) == \
        pytest.approx(two_optionals(x))


def two_maybe_unbound(x, c):
    if c > 0:
        fl = x * 2
        xl = x
    z = [0.0]
    z[0] = (xl * 3 - fl) / (xl + 1)   # Python reads xl first (the value before the target)
    return z[0] + fl


def test_the_error_names_the_first_unbound_variable_python_reads():
    with pytest.raises(UnboundLocalError) as python:
        two_maybe_unbound(1.0, -1.0)
    with pytest.raises(UnboundLocalError) as converted:
        autograph.convert(two_maybe_unbound)(jnp.float32(1.0), jnp.float32(-1.0))
    assert "'xl'" in str(python.value) and str(converted.value) == str(python.value)
