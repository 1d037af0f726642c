"""TensorFlow AutoGraph's reference tests for conditionals, nesting, composite names and
loop-created variables, restated for JAX.

Upstream: tensorflow/tensorflow, tensorflow/python/autograph/tests/ — cond_basic_test.py,
nested_control_flow_test.py, composite_names_in_control_flow_test.py,
loop_created_variables_test.py. TF's `assertFunctionMatchesEager` becomes `matches`: the
converted function (traced arguments where the upstream test uses `tf.constant`) gives
what plain Python gives. `tf.Variable` state becomes a returned value; `tf.name_scope`
becomes `jax.named_scope`. Where TF raises for a valid Python program, we say so and
test the Python result instead.
"""
import contextlib
import itertools

import jax
import jax.numpy as jnp
import pytest

import autograph
from tests.helpers import assert_same

PYTHON, TRACED = 'python', 'traced'


def matches(fn, *args, kinds=None):
    """The converted `fn` gives plain Python's result; `kinds[i] == TRACED` passes
    argument i as a JAX array (so control flow on it is staged)."""
    kinds = kinds or [PYTHON] * len(args)
    expected = fn(*args)
    actual_args = [jnp.asarray(a) if k == TRACED else a for a, k in zip(args, kinds)]
    assert_same(autograph.convert(fn)(*actual_args), expected)


# --- cond_basic_test.py -------------------------------------------------------------------

def if_one_var(n):
    i = 0
    if i < n:
        i += 1
    return i


def if_else_one_var(n):
    i = 0
    if i < n:
        i += 1
    else:
        i += 2
    return i


def if_two_vars(n):
    i = 0
    j = 1
    if i < n:
        i += 1
        j *= 10
    return i, j


def if_else_two_vars(n):
    i = 0
    j = 1
    if i < n:
        i += 1
        j *= 10
    else:
        i += 2
        j *= 20
    return i, j


@pytest.mark.parametrize('target,n,kind', list(itertools.product(
    (if_one_var, if_else_one_var, if_two_vars, if_else_two_vars), (0, 1), (PYTHON, TRACED))))
def test_several_vars(target, n, kind):
    matches(target, n, kinds=[kind])


def if_creates_var(c):
    if c:
        i = 1
    return i


def if_else_creates_var(c):
    if c:
        i = 1
    else:
        i = 2
    return i


def else_creates_var(c):
    if c:
        pass
    else:
        i = 2
    return i


def test_var_lifetime_imbalanced_legal():
    matches(if_creates_var, True)
    matches(else_creates_var, False)


@pytest.mark.parametrize('c,kind', list(itertools.product((True, False), (PYTHON, TRACED))))
def test_if_else_creates_var(c, kind):
    matches(if_else_creates_var, c, kinds=[kind])


@pytest.mark.parametrize('target,c', [(if_creates_var, False), (else_creates_var, True)])
def test_creates_var_imbalanced_python_is_unbound(target, c):
    with pytest.raises(UnboundLocalError, match="'i'"):
        autograph.convert(target)(c)


@pytest.mark.parametrize('target,c', [(if_creates_var, True), (else_creates_var, False)])
def test_creates_var_imbalanced_traced_on_the_binding_path_is_python_s_value(target, c):
    """TF calls a one-branch assignment under a traced condition an error; Python gives
    the value on the path that binds it (issue 20), and so does the converted code."""
    assert int(autograph.convert(target)(jnp.asarray(c))) == target(c)


@pytest.mark.parametrize('target,c', [(if_creates_var, False), (else_creates_var, True)])
def test_creates_var_imbalanced_traced_unbound_path_raises_at_run_time(target, c):
    with pytest.raises(UnboundLocalError, match="'i'"):
        autograph.convert(target)(jnp.asarray(c))


def if_returns_none(c):
    i = 0
    j = 1
    if c:
        i = None
        j = 2
    return i, j


def if_else_returns_none(c):
    if c:
        i = None
        j = 1
    else:
        i = None
        j = 2
    return i, j


def else_returns_none(c):
    i = 1
    j = 1
    if c:
        pass
    else:
        i = None
        j = 2
    return i, j


def test_returns_none_legal():
    matches(if_returns_none, True)
    matches(if_else_returns_none, False)
    matches(else_returns_none, False)


@pytest.mark.parametrize('c', (True, False))
def test_none_in_both_branches_traced(c):
    # TF rejects this ("'i' is None"); None in both branches is the same static value,
    # so we keep Python's result.
    expected = if_else_returns_none(c)
    i, j = autograph.convert(if_else_returns_none)(jnp.bool_(c))
    assert i is None and int(j) == expected[1]


@pytest.mark.parametrize('target,c', list(itertools.product(
    (if_returns_none, else_returns_none), (True, False))))
def test_none_in_one_branch_traced_is_pythons_value(target, c):
    # TF rejects this ("'i' is None"); here 'i' is an optional value in the compiled
    # program, given back as None or the number at the Function's boundary.
    expected = target(c)
    i, j = autograph.convert(target)(jnp.bool_(c))
    assert (i is None) == (expected[0] is None)
    assert (i is None or int(i) == expected[0]) and int(j) == expected[1]


def if_local_var(c):
    i = 0
    if c:
        j = 1
        i = j + 1
    return i


def if_else_local_var(c):
    i = 0
    if c:
        j = 1  # noqa: F841
    else:
        j = 2
        i = j + 1
    return i


def if_locally_modified_var(c):
    i = 0
    j = 2
    if c:
        j = j + 1
        i = j + 1
    return i


@pytest.mark.parametrize('target,c,kind', list(itertools.product(
    (if_local_var, if_else_local_var, if_locally_modified_var), (True, False),
    (PYTHON, TRACED))))
def test_local_vars(target, c, kind):
    matches(target, c, kinds=[kind])


def nested_if_temporarily_undefined_return(c1, c2):
    if c1:
        if c2:
            return 1
    return 2


@pytest.mark.parametrize('c1,c2,kind', list(itertools.product(
    (True, False), (True, False), (PYTHON, TRACED))))
def test_nested_if_temporarily_undefined_return(c1, c2, kind):
    # TF rejects the traced case ("must also have a return"); every path returns, so we
    # convert it.
    matches(nested_if_temporarily_undefined_return, c1, c2, kinds=[kind, kind])


def successive_ifs(n1, n2):
    s = 0
    i = 0
    if i < n1:
        s = s * 10 + i
        i += 1
    i = 0
    if i < n2:
        s = s * 10 + i
        i += 1
    return s


def successive_if_elses(n1, n2):
    s = 0
    i = 0
    if i < n1:
        s = s * 10 + i
        i += 1
    else:
        s = s * 11 + i
        i += 2
    i = 0
    if i < n2:
        s = s * 10 + i
        i += 1
    else:
        s = s * 11 + i
        i += 2
    return s


def nested_ifs(n1, n2):
    i = 0
    l = 0  # noqa: E741
    if i < n1:
        j = 0
        s = 0
        if j < n2:
            s = s * 10 + i * j
            j += 1
        l = l * 1000 + s  # noqa: E741
        i += 1
    return l


def nested_if_elses(n1, n2):
    i = 0
    l = 0  # noqa: E741
    if i < n1:
        j = 0
        s = 0
        if j < n2:
            s = s * 10 + i * j
            j += 1
        else:
            s = s * 11 + i * j
            j += 2
        l = l * 1000 + s  # noqa: E741
        i += 1
    else:
        j = 0
        s = 0
        if j < n2:
            s = s * 12 + i * j
            j += 3
        else:
            s = s * 13 + i * j
            j += 4
        l = l * 2000 + s  # noqa: E741
        i += 1
    return l


@pytest.mark.parametrize('target,n1,k1,n2,k2', list(itertools.product(
    (successive_ifs, successive_if_elses, nested_ifs, nested_if_elses),
    (0, 1), (PYTHON, TRACED), (0, 1), (PYTHON, TRACED))))
def test_composition(target, n1, k1, n2, k2):
    matches(target, n1, n2, kinds=[k1, k2])


# --- nested_control_flow_test.py ----------------------------------------------------------

def independent_ifs(x, y):
    z = 0
    if x > 0:
        if y > 0:
            z = x + y
    return z


def dependent_inner_if(x):
    y = 0
    if x > 0:
        y = -2 * x
        if y > 0:
            x = -3 * x
    else:
        y = 4 * x
    return x, y


def dependent_imbalanced_inner_if(x):
    y = 0
    if x > 0:
        if x < 3:
            y = -2 * x
            x = -3 * x
    return x, y


@pytest.mark.parametrize('x,y,kx,ky', list(itertools.product((-1, 1), (-1, 1), (PYTHON, TRACED),
                                                        (PYTHON, TRACED))))
def test_independent_ifs(x, y, kx, ky):
    matches(independent_ifs, x, y, kinds=[kx, ky])


@pytest.mark.parametrize('target,x,kind', list(itertools.product(
    (dependent_inner_if, dependent_imbalanced_inner_if), (-1, 1), (PYTHON, TRACED))))
def test_dependent_inner_ifs(target, x, kind):
    matches(target, x, kinds=[kind])


def _hidden_raise():
    raise ValueError('exception used for control flow')


def if_with_local_modification_masked_by_exception(x):
    y = 0
    if x > 0:
        try:
            if x > 1:
                _hidden_raise()
            y = 1
        except ValueError:
            pass
        if y == 0:
            y = 2
    return y


@pytest.mark.parametrize('x', (-1, 0, 1, 2))
def test_if_with_local_modification_masked_by_exception(x):
    # Python values only, as upstream (with a traced x the raise happens while tracing).
    matches(if_with_local_modification_masked_by_exception, x)


def independent_inner_for(a, b):
    p = 0
    for _ in a:
        tmp = b
        for j in tmp:
            p += j
    return p


def dependent_inner_for(a, b):
    r = 1
    s = 0
    for _ in a:
        r += s
        tmp = b
        for j in tmp:
            s += j
    return r


def ranges(a, b, ka, kb):
    """Upstream passes `range(n)` or `tf.range(n)`; ours: a range or a JAX array."""
    return (range(a) if ka == PYTHON else jnp.arange(a),
            range(b) if kb == PYTHON else jnp.arange(b))


@pytest.mark.parametrize('target,a,b,ka,kb', list(itertools.product(
    (independent_inner_for, dependent_inner_for), (0, 1, 2), (0, 1, 2), (PYTHON, TRACED),
    (PYTHON, TRACED))))
def test_inner_for(target, a, b, ka, kb):
    ra, rb = ranges(a, b, ka, kb)
    expected = target(range(a), range(b))
    assert_same(autograph.convert(target)(ra, rb), expected)


def independent_inner_while(a, b):
    p = 0
    while a > 0:
        tmp = b
        while tmp > 0:
            p += 1
            tmp -= 1
        a -= 1
    return p


def dependent_inner_while(a, b):
    r = 1
    while a > 0:
        r += 1
        tmp = b
        while tmp > 0:
            a -= 1
            tmp -= 1
        a -= 1
    return r


@pytest.mark.parametrize('a,b,ka,kb', list(itertools.product(
    (0, 1, 2), (0, 1, 2), (PYTHON, TRACED), (PYTHON, TRACED))))
def test_independent_inner_while(a, b, ka, kb):
    matches(independent_inner_while, a, b, kinds=[ka, kb])


@pytest.mark.parametrize('a,b,ka,kb', list(itertools.product(
    (0, 1, 3, 4), (0, 2, 4), (PYTHON, TRACED), (PYTHON, TRACED))))
def test_dependent_inner_while(a, b, ka, kb):
    # Upstream skips Python a with traced b (b/124378596); we run it.
    matches(dependent_inner_while, a, b, kinds=[ka, kb])


def if_in_for(a):
    k = 0
    for i in a:
        if i % 2 > 0:
            j = i // 2
            k += j
    return k


@pytest.mark.parametrize('a,kind', list(itertools.product((0, 1, 2, 5), (PYTHON, TRACED))))
def test_if_in_for(a, kind):
    ra, _ = ranges(a, 0, kind, PYTHON)
    assert_same(autograph.convert(if_in_for)(ra), if_in_for(range(a)))


def while_with_continue_in_context_manager(x):
    z = 0
    while x > 0:
        with jax.named_scope('body'):
            x = x - 1
            if x < 5:
                continue
            z = z + 1
    return z


def while_continue_in_try(x):
    z = 0
    while x > 0:
        x = x - 1
        try:
            if x < 5:
                continue
            z = z + 1
        finally:
            z = z + 10
    return z


def while_break_in_context_manager(x):
    z = 0
    while x > 0:
        with contextlib.nullcontext():
            x = x - 1
            if x < 5:
                break
            z = z + 1
    return z


def while_break_in_try(x):
    z = 0
    while x > 0:
        x = x - 1
        try:
            if x < 5:
                break
            z = z + 1
        finally:
            z = z + 10
    return z


@pytest.mark.parametrize('target,x,kind', list(itertools.product(
    (while_with_continue_in_context_manager, while_continue_in_try,
     while_break_in_context_manager, while_break_in_try), (0, 4, 10), (PYTHON, TRACED))))
def test_loop_exits_in_with_and_try(target, x, kind):
    matches(target, x, kinds=[kind])


def loop_initializing_invariant_variable(n):
    for i in range(n):
        if i == 0:
            a = 1
        else:
            a = 2
    return a


def loop_initializing_variant_variable(n):
    for i in range(n):
        if i == 0:
            a = 1
        else:
            a = a + 1
    return a


@pytest.mark.parametrize('n,kind', list(itertools.product((1, 2), (PYTHON, TRACED))))
def test_loop_initializing_invariant_variable_legal(n, kind):
    matches(loop_initializing_invariant_variable, n, kinds=[kind])


def test_loop_initializing_invariant_variable_illegal():
    with pytest.raises(UnboundLocalError):
        autograph.convert(loop_initializing_invariant_variable)(0)


@pytest.mark.parametrize('n', (1, 2, 3))
def test_loop_initializing_variant_variable_python(n):
    matches(loop_initializing_variant_variable, n)


@pytest.mark.parametrize('n', (1, 2, 3))
def test_loop_initializing_variant_variable_traced(n):
    """TF calls it an error; Python binds `a` in the first iteration's branch and reads
    it in the later ones' (issue 20): the converted code gives Python's values."""
    assert int(autograph.convert(loop_initializing_variant_variable)(jnp.int32(n))) == \
        loop_initializing_variant_variable(n)


def test_loop_initializing_variant_variable_traced_zero_trips_is_unbound():
    with pytest.raises(UnboundLocalError, match="'a'"):
        autograph.convert(loop_initializing_variant_variable)(jnp.int32(0))


# --- composite_names_in_control_flow_test.py ----------------------------------------------

def if_basic_dict(a):
    x = {'a': a}
    if x['a'] > 0:
        x['b'] = 1
    else:
        x['b'] = -1
    return x


def if_basic_list(a):
    x = [a, 0]
    if x[0] > 0:
        x[1] = 1
    else:
        x[1] = -1
    return x


@pytest.mark.parametrize('target,a,kind', list(itertools.product(
    (if_basic_dict, if_basic_list), (0, 1), (PYTHON, TRACED))))
def test_composite_if_basic(target, a, kind):
    matches(target, a, kinds=[kind])


def if_imbalanced(a):
    x = {'a': a}
    if x['a'] > 0:
        x['b'] = 1
    return x


def if_imbalanced_nested(a):
    x = {'a': {'a': a}}
    if x['a']['a'] > 0:
        x['a']['b'] = 1
    return x


@pytest.mark.parametrize('target,a', list(itertools.product(
    (if_imbalanced, if_imbalanced_nested), (0, 1))))
def test_composite_if_imbalanced_python(target, a):
    matches(target, a)


@pytest.mark.parametrize('target,a', list(itertools.product(
    (if_imbalanced, if_imbalanced_nested), (0, 1))))
def test_composite_if_imbalanced_traced_has_pythons_keys(target, a):
    # (a key set under a traced condition exists afterwards where Python's does)
    got, expected = autograph.convert(target)(jnp.int32(a)), target(a)
    assert jax.tree_util.tree_structure(got) == jax.tree_util.tree_structure(expected)
    assert jax.tree_util.tree_leaves(got) == jax.tree_util.tree_leaves(expected)


def while_basic_dict(x, a, b):
    y = {'a': a, 'b': b}
    while x > 0:
        x -= 1
        y['a'] += 1
    return y


def while_state_only_list(a, b):
    y = [a, b]
    while y[1] <= 10:
        y[0] += 1
        y[1] *= 2
    return y


def for_basic_list(n, x, a, b):
    y = [a, b]
    for i in range(n):
        x -= 1
        y[0] += i
    return y


@pytest.mark.parametrize('x,kind', list(itertools.product((0, 1, 2), (PYTHON, TRACED))))
def test_composite_while_basic(x, kind):
    matches(while_basic_dict, x, 3, 0, kinds=[kind, PYTHON, PYTHON])


@pytest.mark.parametrize('b,kind', list(itertools.product((3, 6), (PYTHON, TRACED))))
def test_composite_while_state_only(b, kind):
    matches(while_state_only_list, 0, b, kinds=[PYTHON, kind])


@pytest.mark.parametrize('n,kind', list(itertools.product((0, 1, 2), (PYTHON, TRACED))))
def test_composite_for_basic(n, kind):
    matches(for_basic_list, n, 1, 1, 1, kinds=[kind, PYTHON, PYTHON, PYTHON])


# --- loop_created_variables_test.py -------------------------------------------------------

def while_creates_var_static_shape(n):
    i = 0
    while i < n:
        v = jnp.zeros([1, 2, 3])
        i += 1
    return v


def while_creates_nested_var_static_shape(n):
    i = 0
    while i < n:
        v = {'a': jnp.zeros([1, 2, 3]), 'b': jnp.ones([1, 2, 3])}
        i += 1
    return v['a'], v['b']


@pytest.mark.parametrize('target,n,kind', list(itertools.product(
    (while_creates_var_static_shape, while_creates_nested_var_static_shape), (1, 2),
    (PYTHON, TRACED))))
def test_while_creates_var(target, n, kind):
    matches(target, n, kinds=[kind])


@pytest.mark.parametrize('target', (while_creates_var_static_shape,
                                    while_creates_nested_var_static_shape))
def test_while_creates_var_python_zero_iterations(target):
    with pytest.raises(UnboundLocalError):
        autograph.convert(target)(0)
