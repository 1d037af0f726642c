"""TensorFlow AutoGraph's converter and operator tests, restated for JAX.

Upstream: tensorflow/tensorflow, tensorflow/python/autograph/converters/ (control_flow_test.py,
break_statements_test.py, continue_statements_test.py, return_statements_test.py,
call_trees_test.py, loop_integration_test.py) and operators/py_builtins_test.py. Upstream
runs one converter on a function and compares with hand-computed results, passing
`tf.constant` inputs; here the whole conversion runs and the reference is the function run
as plain Python: with Python values, and with JAX arrays (traced by `jit`). Each group
names its upstream file and test. `ops.name_scope('')` becomes `contextlib.nullcontext()`.
Cases upstream only states for TensorFlow types (SparseTensor, TensorArray, datasets) are
left out.
"""
import contextlib

import jax
import jax.numpy as jnp
import pytest

import autograph
from tests.helpers import assert_same, check, staged

i32 = jnp.int32
f32 = jnp.float32


def python(value):
    return value


def array(value):
    return jnp.asarray(value)


KINDS = [python, array]


# --- converters/control_flow_test.py: NestedControlFlowTest, WhileStatementTest -------------

def nested_while_with_inner_local(n):
    i = 0
    j = 0
    s = 0
    while i < n:
        while j < i:
            j += 3
        u = i + j       # 'u' is not defined within the inner loop
        s += u
        i += 1
        j = 0
    return s, i, j, n


class HasX:
    def __init__(self, x):
        self.x = x


class HasY:
    def __init__(self, y):
        self.y = y


def nested_composite_state(n):
    tc = HasX(HasY({'z': HasX(n)}))
    if n > 0:
        while n > 0:
            if n < 2:
                tc.x.y['z'].x += 1
            n -= 1
    return n, tc.x.y['z'].x


def while_basic(n):
    i = 0
    s = 0
    while i < n:
        s += i
        i += 1
    return s, i, n


def while_single_output(n):
    while n > 0:
        n -= 1
    return n


class Three:
    def __init__(self):
        self.x = jnp.asarray(3)


def while_attribute_state(n):
    tc = Three()
    while n > 0:
        tc.x += 1
        n -= 1
    return n, tc.x


def while_subscript_state(n):
    d = {'a': n}
    k = 'a'
    while n > 0:
        d[k] += 1
        n -= 1
    return d[k], n


def while_literal_subscript_state(n):
    d = {'a': n}
    while n > 0:
        d['a'] += 1
        n -= 1
    return d['a'], n


class Empty:
    pass


def attribute_initialized_in_loop(n, x):
    tc = Empty()
    while n < 5:
        if n == 0:
            tc.subattr = x
        else:
            tc.subattr = tc.subattr + 1
        n += 1
    return tc.subattr


def subscript_initialized_in_loop(n, x):
    d = {}
    k = 'subkey'
    while n < 5:
        if n == 0:
            d[k] = x
        else:
            d[k] = d[k] + 1
        n += 1
    return d


def subscript_aliased_to_local(n, x):
    d = {}
    while n < 5:
        k = 'subkey'
        d[k] = x + 1
        n += 1
    return d


def local_composite_subscript(n):
    while n > 0:
        d = {'x': n}
        k = 'x'
        d[k] = d[k]
        n -= 1
    return n


def local_composite_literal_subscript(n):
    while n > 0:
        d = {'x': n}
        d['x'] = d['x']
        n -= 1
    return n


def dispatches_by_condition(n, s):
    while n > 0:
        n -= 1
        s += n
    return s


@pytest.mark.parametrize('kind', KINDS)
@pytest.mark.parametrize('n', [0, 1, 5])
@pytest.mark.parametrize('fn', [nested_while_with_inner_local, nested_composite_state,
                                while_basic, while_single_output, while_attribute_state,
                                while_subscript_state, while_literal_subscript_state,
                                local_composite_subscript, local_composite_literal_subscript])
def test_while_statements(fn, n, kind):
    # upstream: NestedControlFlowTest.test_basic, test_composite_state_complex;
    # WhileStatementTest.test_basic, test_single_output, test_composite_state_attr,
    # test_composite_state_slice, test_composite_state_literal_slice,
    # test_local_composite_slice, test_local_composite_literal_slice
    check(fn, kind(n))


@pytest.mark.parametrize('fn', [attribute_initialized_in_loop, subscript_initialized_in_loop,
                                subscript_aliased_to_local])
def test_state_initialized_in_a_python_loop(fn):
    # upstream: WhileStatementTest.test_composite_state_attr_initialized_in_loop,
    # test_composite_state_slice_initialized_in_loop, test_composite_state_slice_aliased_to_local
    # (a Python loop counter: the loop runs as Python, the value may be traced)
    check(fn, 0, 10)
    check(fn, 0, i32(10))


def test_subscript_aliased_to_local_in_a_staged_loop():
    # upstream: test_composite_state_slice_aliased_to_local, with a traced loop condition
    check(subscript_aliased_to_local, i32(0), i32(10))


class Incompatible:
    """Works in arithmetic with Python numbers, but is no JAX type."""

    def __init__(self, val):
        self.val = val

    def __add__(self, other):
        return Incompatible(self.val + other)


def test_dispatch_follows_the_condition_only():
    # upstream: WhileStatementTest.test_dispatches_by_cond_only
    check(dispatches_by_condition, i32(5), 0)
    assert autograph.convert(dispatches_by_condition, jit=False)(5, Incompatible(0)).val == 10
    with pytest.raises(autograph.ControlFlowError, match="'s'"):
        autograph.convert(dispatches_by_condition)(i32(5), Incompatible(0))


# --- converters/control_flow_test.py: IfStatementTest ---------------------------------------

def if_basic(n):
    a = 0
    b = 0
    if n > 0:
        a = -n
    else:
        b = 2 * n
    return a, b


class AB:
    def __init__(self, a, b):
        self.a = a
        self.b = b


def if_attribute_outputs(n, obj):
    obj.a = 0
    obj.b = 0
    if n > 0:
        obj.a = -n
    else:
        obj.b = 2 * n
    return obj


def if_single_output(n):
    if n > 0:
        n = -n
    return n


def if_unbalanced(n):
    if n > 0:
        n = 3
    return n


def if_local_var(n):
    if n > 0:
        b = 4
        n = b + 1
    return n


def if_no_outputs(n):
    if n > 0:
        b = 4  # noqa: F841 - unused, as upstream
    return n


def if_created_outputs(i):
    if i == 0:
        result = i - 1
    else:
        result = i + 1
    return result


def if_output_defined_in_prior_except(i):
    try:
        raise ValueError()
    except ValueError:
        x = 1
    if i == 0:
        x = i - 1
    return x


def if_nonlocal_in_inner_function(i):
    def inner_fn():
        nonlocal n
        if i == 0:
            n = i - 1

    n = 3
    inner_fn()
    return n


@pytest.mark.parametrize('kind', KINDS)
@pytest.mark.parametrize('n', [-1, 0, 2])
@pytest.mark.parametrize('fn', [if_basic, if_single_output, if_unbalanced, if_local_var,
                                if_no_outputs, if_created_outputs,
                                if_output_defined_in_prior_except,
                                if_nonlocal_in_inner_function])
def test_if_statements(fn, n, kind):
    # upstream: IfStatementTest.test_basic, test_single_output, test_unbalanced,
    # test_local_var, test_local_remains_local, test_no_outputs, test_created_outputs,
    # test_output_defined_in_prior_except, test_unaffected_nonlocal
    check(fn, kind(n))


@pytest.mark.parametrize('kind', KINDS)
@pytest.mark.parametrize('n', [-1, 1])
def test_if_with_attribute_outputs(n, kind):
    # upstream: IfStatementTest.test_complex_outputs. The object is returned, as upstream;
    # `jit` cannot return an object that is no pytree, so the traced case runs inside an
    # outer jit that returns its attributes.
    expected = if_attribute_outputs(kind(n), AB(0, 0))
    obj = autograph.convert(if_attribute_outputs, jit=False)(kind(n), AB(0, 0))
    assert_same((obj.a, obj.b), (expected.a, expected.b))

    def attributes(m):
        obj = autograph.convert(if_attribute_outputs, jit=False)(m, AB(0, 0))
        return obj.a, obj.b
    assert_same(jax.jit(attributes)(kind(n)), (expected.a, expected.b))


def if_unbalanced_raising(n):
    if n > 0:
        n = n + 1
        raise ValueError()
    return n


def test_if_unbalanced_raising():
    # upstream: IfStatementTest.test_unbalanced_raising
    check(if_unbalanced_raising, -3)
    with pytest.raises(ValueError):
        autograph.convert(if_unbalanced_raising)(1)


for_test_global_local = None
for_unaffected_global = None


def if_global_local(n):
    if n > 0:
        global for_test_global_local
        if for_test_global_local is None:
            for_test_global_local = 1
        else:
            for_test_global_local += 1
        n += for_test_global_local
    return n


def if_unaffected_global(i):
    global for_unaffected_global
    if i == 0:
        for_unaffected_global = i - 1
    return for_unaffected_global


def test_if_writes_globals():
    # upstream: IfStatementTest.test_global_local, test_unaffected_global
    global for_test_global_local, for_unaffected_global
    for_test_global_local = None
    assert autograph.convert(if_global_local, jit=False)(1) == 2
    assert for_test_global_local == 1
    for_unaffected_global = 3
    assert autograph.convert(if_unaffected_global, jit=False)(1) == 3
    assert autograph.convert(if_unaffected_global, jit=False)(0) == -1
    assert for_unaffected_global == -1


class Foo:
    def __init__(self):
        self.b = 2
        self.c = 3


def unbalanced_composites(x, condition):
    z = 5
    if condition:
        x.b = 7
        x.c = 11
        z = 13
    return x.b, x.c, z


def unbalanced_composite(x, condition):
    z = 5
    if condition:
        x.b = 7
        z = 13
    return x.b, z


@pytest.mark.parametrize('kind', KINDS)
@pytest.mark.parametrize('condition', [True, False])
@pytest.mark.parametrize('fn', [unbalanced_composites, unbalanced_composite])
def test_if_unbalanced_composites(fn, condition, kind):
    # upstream: IfStatementTest.test_unbalanced_multiple_composites, test_unbalanced_composite
    expected = fn(Foo(), kind(condition))
    for jit in (True, False):
        assert_same(autograph.convert(fn, jit=jit)(Foo(), kind(condition)), expected)


def created_loop_local_outputs(n, x):
    for i in n:
        if i == 0:
            result = i - 1
        else:
            result = i + 1
        if result > 0:
            x += 1
    return x


def created_loop_variable(n, x):
    for i in n:
        if i == 0:
            result = i - 1
        if i > 0:       # the result of an earlier iteration
            if result < 0:
                x += 1
    return x


def test_if_outputs_created_in_loops():
    # upstream: IfStatementTest.test_created_loop_local_outputs, test_created_loop_variable
    check(created_loop_local_outputs, range(5), 10)
    check(created_loop_local_outputs, jnp.arange(5), i32(10))
    check(created_loop_variable, range(5), 10)
    check(created_loop_variable, range(5), i32(10))


# --- converters/control_flow_test.py: ForStatementTest, AdvancedControlFlowTest -------------

def for_two_sums(items):
    s1 = 0
    s2 = 0
    for e in items:
        s1 += e
        s2 += e * e
    return s1, s2


def for_single_output(items):
    s = 0
    for e in items:
        s += e
    return s


@pytest.mark.parametrize('items', [[1, 3], [], [2, -1, 4, 7, 0]])
@pytest.mark.parametrize('fn', [for_two_sums, for_single_output])
def test_for_statements(fn, items):
    # upstream: ForStatementTest.test_basic, test_single_output (the empty vector included)
    check(fn, items)
    check(fn, jnp.asarray(items, i32))


eval_count = [0]


def count_evals(x):
    eval_count[0] += 1
    return x


def iterated_expression(n):
    s = 0
    for e in count_evals(range(n)):
        s += e
    return s


@pytest.mark.parametrize('kind', KINDS)
def test_for_iterated_expression_evaluated_once(kind):
    # upstream: ForStatementTest.test_iterated_expression
    eval_count[0] = 0
    assert_same(autograph.convert(iterated_expression, jit=False)(kind(5)), 10)
    assert eval_count[0] == 1


def attribute_initialized_in_for(n, x):
    tc = Empty()
    for i in n:
        if i == 0:
            tc.x = x
        else:
            tc.x = tc.x + i
    return tc.x


def enumerate_unpacking(x_list):
    z = jnp.asarray(0)
    for i, x in enumerate(x_list):
        z = z + x + i
    return z


def comprehension_in_body(items, n):
    s = jnp.asarray(list(range(n)))
    for _ in items:
        s += jnp.asarray([a for a in range(n)])
    return s


def test_for_statement_details():
    # upstream: ForStatementTest.test_composite_state_initialized_in_loop (Python range),
    # test_tuple_unpacking, test_with_comprehension_in_body
    check(attribute_initialized_in_for, range(5), 10)
    check(enumerate_unpacking, [3, 3])
    check(enumerate_unpacking, jnp.array([3, 3]))
    check(comprehension_in_body, jnp.array([1, 2, 3]), 5)


def while_with_else(x):
    while x > 2:
        x /= 2
    else:
        x += 1
    return x


def while_with_else_and_break(cond1):
    x = 8
    while x > 2:
        x /= 2
        if cond1:
            break
    else:
        x += 1
    return x


def for_with_else(items):
    res = 0
    for x in items:
        res += x
    else:
        res += 1
    return res


def for_with_else_and_break(flag):
    items = [1, 2, 3]
    res = 0
    for x in items:
        res += x
        if flag:
            break
    else:
        res += 1
    return res


@pytest.mark.parametrize('kind', KINDS)
def test_loops_with_else(kind):
    # upstream: AdvancedControlFlowTest.test_while_with_else, test_while_with_else_and_break,
    # test_for_with_else, test_for_with_else_and_break; loop_integration_test.py (the same)
    for x in (4, 2, 4.0, 100):
        check(while_with_else, kind(x))
    for flag in (True, False):
        check(while_with_else_and_break, kind(flag))
        check(for_with_else_and_break, kind(flag))
    check(for_with_else, [])
    check(for_with_else, [1, 2])
    check(for_with_else, jnp.array([1, 2]))


# --- converters/break_statements_test.py ----------------------------------------------------

def break_in_while(x):
    v = []
    while x > 0:
        x -= 1
        if x % 2 == 0:
            break
        v.append(x)
    return v


def break_in_for(a):
    v = []
    for x in a:
        x -= 1
        if x % 2 == 0:
            break
        v.append(x)
    return v


def break_nested(x):
    v = []
    u = []
    w = []
    while x > 0:
        x -= 1
        if x % 2 == 0:
            if x % 3 != 0:
                u.append(x)
            else:
                w.append(x)
                break
        v.append(x)
    return v, u, w


def break_nested_loops(x):
    v = []
    u = []
    while x > 0:
        x -= 1
        y = x
        while y > 0:
            y -= 1
            if y % 2 == 0:
                break
            u.append(y)
        if x == 0:
            break
        v.append(x)
    return v, u




def correlated_breaks(cond1):
    lst = []
    while True:
        if cond1:
            lst.append(1)
        else:
            break
        if lst[-1] > 0:     # lst always has an element here
            break
    return lst


@pytest.mark.parametrize('fn, args', [
    (break_in_while, [0, 1, 4, 7]), (break_in_for, [[5, 4], [], [2, 8, 6]]),
    (break_nested, [0, 3, 11]), (break_nested_loops, [0, 2, 3, 5]),
    (correlated_breaks, [True, False])])
def test_break_statements_with_python_values(fn, args):
    # upstream: BreakCanonicalizationTest.test_while_loop, test_for_loop, test_nested,
    # test_nested_loops, test_multiple_correlated_breaks_with_side_effects
    for arg in args:
        check(fn, arg)


def break_in_while_counting(x):
    count = 0
    total = 0
    while x > 0:
        x -= 1
        if x % 2 == 0:
            break
        count += 1
        total += x
    return count, total, x


def break_nested_loops_counting(x):
    outer = 0
    inner = 0
    while x > 0:
        x -= 1
        y = x
        while y > 0:
            y -= 1
            if y % 2 == 0:
                break
            inner += y
        if x == 0:
            break
        outer += x
    return outer, inner




@pytest.mark.parametrize('x', [0, 1, 2, 3, 4, 5, 11])
@pytest.mark.parametrize('fn', [break_in_while_counting, break_nested_loops_counting])
def test_break_statements_with_arrays(fn, x):
    # upstream: the same tests, with counters for the lists (a staged loop cannot grow a
    # list by a traced number of items)
    check(fn, x)
    check(fn, i32(x))


# --- converters/continue_statements_test.py -------------------------------------------------

def continue_basic(x):
    v = []
    while x > 0:
        x -= 1
        if x % 2 == 0:
            continue
        v.append(x)
    return v


def continue_multiple(x):
    v = []
    while x > 0:
        x -= 1
        if x > 1:
            continue
        if x > 2:
            continue
        v.append(x)
    return v


def continue_in_except(a):
    v = []
    for x in a:
        x -= 1
        if x > 100:
            continue
        try:
            raise ValueError('intentional')
        except ValueError:
            continue
        v.append(x)  # noqa: unreachable, as upstream
    return v


def continue_in_for(a):
    v = []
    for x in a:
        x -= 1
        if x % 2 == 0:
            continue
        v.append(x)
    return v


def continue_in_with(x):
    v = []
    while x > 0:
        x -= 1
        with contextlib.nullcontext():
            if x % 2 == 0:
                continue
            v.append(x)
        v.append(x)
        with contextlib.nullcontext():
            with contextlib.nullcontext():
                v.append(x)
        v.append(x)
    return v


def continue_nested(x):
    v = []
    u = []
    w = []
    while x > 0:
        x -= 1
        if x % 2 == 0:
            if x % 3 != 0:
                u.append(x)
            else:
                w.append(x)
                continue
        v.append(x)
    return v, u, w


def continue_guarded_side_effects(x):
    def track(y, z):
        y.append(z)
        return z

    u = []
    v = []
    while x > 0:
        x -= 1
        if track(u, x) > 1:
            continue
        if track(u, x) > 2:
            continue
        v.append(x)
    return u, v


@pytest.mark.parametrize('fn, args', [
    (continue_basic, [0, 1, 3, 4]), (continue_multiple, [0, 1, 3, 4]),
    (continue_in_except, [[], [1], [2], [1, 2, 3]]), (continue_in_for, [[], [1], [2], [1, 2, 3]]),
    (continue_in_with, [0, 1, 3, 4]), (continue_nested, [0, 1, 3, 4]),
    (continue_guarded_side_effects, [2, 3])])
def test_continue_statements_with_python_values(fn, args):
    # upstream: ContinueCanonicalizationTest.test_basic, test_multiple_continues,
    # test_multiple_continues_in_nested_scope, test_for_loop, test_nested_with,
    # test_nested_multiple_withs*, test_nested, test_multiple_guarded_continues_with_side_effects
    for arg in args:
        check(fn, arg)


def continue_counting(x):
    odd = 0
    total = 0
    while x > 0:
        x -= 1
        with contextlib.nullcontext():
            if x % 2 == 0:
                continue
            odd += 1
        if x > 4:
            continue
        total += x
    return odd, total


def continue_in_for_counting(a):
    total = 0
    for x in a:
        x -= 1
        if x % 2 == 0:
            continue
        total = total * 10 + x
    return total


def test_continue_statements_with_arrays():
    # upstream: the same tests, with counters for the lists
    for x in (0, 1, 3, 4, 9):
        check(continue_counting, i32(x))
    for a in ([1], [2], [1, 2, 3, 4, 6, 8]):
        check(continue_in_for_counting, jnp.array(a))


# --- converters/return_statements_test.py ---------------------------------------------------

def ret_conditional(x):
    if x > 0:
        return x
    else:
        return x * x


def ret_missing_else_then_default(x):
    if x > 0:
        return x
    return x * x


def ret_else_only_then_default(x):
    if x < 0:
        x *= x
    else:
        return x
    return x


def ret_nested(x):
    if x > 0:
        if x < 5:
            return x
        else:
            return x * x
    else:
        return x * x * x


def ret_in_context_manager(x):
    with contextlib.nullcontext():
        return x * x


def ret_context_manager_in_conditional(x):
    if x > 0:
        with contextlib.nullcontext():
            return x * x
    else:
        return x


def ret_conditional_in_context_manager(x):
    with contextlib.nullcontext():
        if x > 0:
            return x * x
        else:
            return x


def ret_nested_function(x):
    def inner_fn(y):
        if y > 0:
            return y * y
        else:
            return y
    return inner_fn(x)


def ret_in_while(n):
    i = 0
    s = 0
    while i < n:
        i += 1
        s += i
        if s > 4:
            return s
    return -1


def ret_in_for(n):
    for _ in range(n):
        return 1
    return 0


def ret_superfluous():
    retval = 1
    return retval
    retval = 2  # noqa: unreachable, as upstream
    return retval


@pytest.mark.parametrize('kind', KINDS)
@pytest.mark.parametrize('x', [-2, 2, 5])
@pytest.mark.parametrize('fn', [ret_conditional, ret_missing_else_then_default,
                                ret_else_only_then_default, ret_nested, ret_in_context_manager,
                                ret_context_manager_in_conditional,
                                ret_conditional_in_context_manager, ret_nested_function,
                                ret_in_while, ret_in_for])
def test_return_statements(fn, x, kind):
    # upstream: SingleReturnTest.test_straightline, test_conditional,
    # test_conditional_missing_else_then_default, test_conditional_else_only_then_default,
    # test_conditional_nested, test_context_manager, test_context_manager_in_conditional,
    # test_conditional_in_context_manager, test_nested_function, test_while_loop,
    # test_for_loop (with a default return: a traced loop needs a value on every path)
    check(fn, kind(x))


def ret_missing_else(x):
    if x > 0:
        return x


def ret_null(n):
    if n > 4:
        return
    return


def ret_nested_function_in_control_flow(x):
    if x:
        def inner_fn(y):
            return y
        inner_fn(x)


def ret_for_without_default(n):
    for _ in range(n):
        return 1


def ret_in_with_in_while(x):
    v = []
    while x > 0:
        x -= 1
        with contextlib.nullcontext():
            if x % 2 == 0:
                return v
        with contextlib.nullcontext():
            v.append(x)
        v.append(x)
    return v


def ret_in_except(a):
    v = []
    for x in a:
        x -= 1
        if x > 100:
            return v
        try:
            raise ValueError('intentional')
        except ValueError:
            return v
        v.append(x)  # noqa: unreachable, as upstream
    return v


@pytest.mark.parametrize('fn, args', [
    (ret_missing_else, [-2, 2]), (ret_null, [4, 5]), (ret_superfluous, [None]),
    (ret_nested_function_in_control_flow, [-2, 0, 2]), (ret_for_without_default, [0, 2]),
    (ret_in_with_in_while, [0, 1, 3, 4]), (ret_in_except, [[], [1], [2], [1, 2, 3]])])
def test_return_statements_with_python_values(fn, args):
    # upstream: SingleReturnTest.test_conditional_missing_else, test_null_return,
    # test_superfluous_returns, test_nested_function_in_control_flow, test_for_loop,
    # test_nested_multiple_withs, test_multiple_returns_in_nested_scope (None on some path:
    # Python values only)
    for arg in args:
        check(fn, *([] if arg is None else [arg]))


def test_return_of_none_on_a_traced_path_gives_none():
    # upstream: test_conditional_missing_else with a tensor (TF: error on the None branch);
    # here the compiled program returns a presence flag, and the call gives None.
    assert autograph.convert(ret_missing_else)(f32(2.)) == 2.
    assert autograph.convert(ret_missing_else)(f32(-2.)) is None


# --- converters/call_trees_test.py ------------------------------------------------------------

def callee(a, b=2, *rest, c=3, **kw):
    if a > 0:
        r = a * b + c
    else:
        r = a - b - c
    for v in rest:
        r = r + v
    for k in kw:
        r = r + kw[k]
    return r


def call_with_starargs_and_kwargs(a):
    args = [a, 5, 6]
    kwargs = {'c': a, 'd': 1}
    return callee(*args, **kwargs)


def call_with_kwarg(a):
    return callee(a, c=a + 1)


def call_with_call_in_argument(a):
    return callee(callee(a) + 7) + 3


def call_with_starargs_only():
    args = [1, 2, 3]
    return callee(*args) + 11


def call_forwarding(a, *args, **kwargs):
    return callee(a, *args, **kwargs) + 5


class Stepper:
    def __init__(self, k):
        self.k = k

    def step(self, x):
        if x > 0:
            return x * self.k
        return x - self.k

    def run(self, x):
        for _ in range(3):
            x = self.step(x)
        return x


def call_methods(x):
    return Stepper(2.0).run(x)


@pytest.mark.parametrize('kind', KINDS)
@pytest.mark.parametrize('a', [-10, -1, 1, 3])
@pytest.mark.parametrize('fn', [call_with_starargs_and_kwargs, call_with_kwarg,
                                call_with_call_in_argument, call_methods])
def test_call_trees(fn, a, kind):
    # upstream: CallTreesTest.test_function_with_kwargs_starargs, test_function_with_kwarg,
    # test_function_with_call_in_argument, test_function_with_expression_in_argument,
    # test_class_method, test_object_method (user functions with control flow are converted)
    check(fn, kind(a))


def test_call_trees_star_forms():
    # upstream: test_function_with_kwargs_starargs_only, test_function_with_kwargs_keywords
    check(call_with_starargs_only)
    for kind in KINDS:
        check(call_forwarding, kind(1), kind(2), kind(4), d=kind(3))
        check(call_forwarding, kind(-1), c=kind(7))


def test_methods_called_from_a_converted_method():
    # upstream: CallTreesTest.test_object_method (converting a bound method)
    stepper = Stepper(3.0)
    for x in (-1.0, 2.0, f32(-1.0), f32(2.0)):
        assert_same(autograph.convert(stepper.run)(x), stepper.run(x))
    assert 'cond' in staged(Stepper(3.0).run, f32(1.0))


# --- operators/py_builtins_test.py ----------------------------------------------------------

def builtin_abs(x):
    return abs(x)


def builtin_float(x):
    return float(x)


def builtin_int(x):
    return int(x)


def builtin_len(x):
    return len(x)


def builtin_max(x):
    return max(x)


def builtin_min(x):
    return min(x)


def builtin_max_of_three(a, b, c):
    return max(a, b, c), min(a, b, c)


def builtin_range_sum(n):
    s = 0
    for i in range(n):
        s = s * 2 + i
    return s


def builtin_range_start_stop_step(a, b, c):
    s = 0
    for i in range(a, b, c):
        s = s * 3 + i
    return s


def builtin_enumerate(xs, start):
    s = 0
    for i, x in enumerate(xs, start):
        s += i * x
    return s


def builtin_zip(xs, ys):
    s = 0
    for a, b in zip(xs, ys):
        s = s * 10 + a - b
    return s


def increment(x):
    return x + 1


def builtin_map(xs, ys):
    return list(map(increment, xs)), list(map(lambda a, b: a + b, xs, ys))


@pytest.mark.parametrize('kind', KINDS)
@pytest.mark.parametrize('fn, args', [
    (builtin_abs, [-1]), (builtin_float, [10]),
    (builtin_float, [-2.5]), (builtin_int, [10.0]), (builtin_int, [-2.7]),
    (builtin_len, [[[1], [2], [3]]]), (builtin_max, [[1, 3, 2]]), (builtin_min, [[3, 1, 2]]),
    (builtin_max_of_three, [6, 4, 8]), (builtin_range_sum, [3]), (builtin_range_sum, [-3]),
    (builtin_range_start_stop_step, [1, 3, 1]), (builtin_range_start_stop_step, [2, 0, -1]),
    (builtin_range_start_stop_step, [5, 2, 1]), (builtin_range_start_stop_step, [9, -4, -3]),
    (builtin_enumerate, [[3, 2, 1], 5]), (builtin_enumerate, [[-8], -3]),
    (builtin_zip, [[3, 2, 1], [1, 2, 3]])])
def test_py_builtins(fn, args, kind):
    # upstream: PyBuiltinsTest.test_abs, test_float, test_int, test_len, test_max,
    # test_max_tensor, test_min, test_min_tensor, test_range, test_range_tensor,
    # test_range_tensor_empty_range, test_enumerate, test_zip
    check(fn, *[kind(a) for a in args])


def test_py_builtins_zip_of_unequal_lengths_and_map():
    # upstream: PyBuiltinsTest.test_abs (of a vector), test_zip (unequal lengths), test_map
    check(builtin_abs, jnp.array([-1, 2, -3]))
    check(builtin_zip, [4, 5, 6], [-1, -2])
    check(builtin_zip, jnp.array([4, 5, 6]), jnp.array([-1, -2]))
    check(builtin_map, [4, 5, 6], [-1, -2, -3])


def test_py_builtins_named_errors():
    # upstream: test_len_scalar, test_max_tensor / test_min_tensor (ValueError on rank > 1
    # or non-scalar arguments); JAX and Python raise their own errors for these
    with pytest.raises(TypeError):
        autograph.convert(builtin_len)(f32(1.))
    with pytest.raises((TypeError, ValueError, autograph.ControlFlowError)):
        autograph.convert(builtin_int)(jnp.array([1., 2.]))


# --- converters/conditional_expressions_test.py, logical_expressions_test.py ----------------

def ifexp_basic(x):
    return 1 if x else 0


def ifexp_nested_orelse(x):
    y = x * x if x > 0 else x if x else 1
    return y


def logical_equals(a, b):
    return a == b


def logical_bool_ops(a, b, c):
    return (a or b) and (a or b or c) and not c


def logical_comparison_chain(a, b, c, d):
    return a < b == c > d


def logical_in(a, b):
    return a in b


@pytest.mark.parametrize('kind', KINDS)
def test_conditional_and_logical_expressions(kind):
    # upstream: ConditionalExpressionsTest.test_basic, test_nested_orelse;
    # LogicalExpressionTest.test_equals, test_bool_ops, test_comparison (only the first
    # operand an array, as upstream, and all of them), test_default_ops
    for x in (-2, 0, 3):
        check(ifexp_basic, kind(x))
        check(ifexp_nested_orelse, kind(x))
    check(logical_equals, kind(1), 1)
    check(logical_equals, kind(1), 2)
    for c in (False, True):
        check(logical_bool_ops, kind(True), False, c)
        check(logical_bool_ops, kind(False), kind(False), kind(c))
    for d in (1, 3):
        check(logical_comparison_chain, kind(1), 2, 2, d)
        check(logical_comparison_chain, kind(1), kind(2), kind(2), kind(d))
    check(logical_in, 'a', ('a',))
    check(logical_in, kind(2), (1, 2))


# --- converters/list_comprehensions_test.py -------------------------------------------------

def comprehension_basic(items):
    return [e * e for e in items]


def comprehension_generators(items):
    return [e * e for sublist in items for e in sublist]


def comprehension_cond(items):
    return [e * e for e in items if e > 1]


def test_list_comprehensions():
    # upstream: ListCompTest.test_basic, test_multiple_generators, test_cond (Python
    # values; over an array, the items of its first axis)
    for items in ([], [1, 2, 3]):
        check(comprehension_basic, items)
        check(comprehension_cond, items)
    check(comprehension_generators, [])
    check(comprehension_generators, [[1], [2], [3]])
    check(comprehension_basic, jnp.array([1, 2, 3]))
    check(comprehension_generators, jnp.array([[1, 2], [3, 4]]))


# --- converters/variables_test.py -------------------------------------------------------------

def del_then_read(x):
    del x
    return x   # noqa: F821 - deleted on purpose, as upstream


def del_item(items):
    del items[0]
    return items


def del_slice(items):
    del items[0:2]
    return items


def del_attribute(obj):
    del obj.a
    return obj


def del_mixed_used_after(a, b, c):
    del a, b, c[0]
    a = 1
    return a, b, c   # noqa: F821 - b deleted on purpose, as upstream


def del_mixed_unused_after(a, b, c):
    del a, b, c[0]
    a = 1
    b = 2
    return c


class HasAB:
    def __init__(self):
        self.a = 1
        self.b = 2


def test_del_statements():
    # upstream: VariablesTest.test_del, test_del_getitem_ignored_basic_slice,
    # test_del_getitem_ignored_range_slice, test_del_getattr_ignored,
    # test_del_item_multiple_mixed_used_after, test_del_item_multiple_mixed_unused_after
    for fn, args in ((del_then_read, (1,)), (del_mixed_used_after, (1, 2, [1, 2]))):
        with pytest.raises(NameError):     # UnboundLocalError is a NameError
            autograph.convert(fn, jit=False)(*args)
    for fn, args in ((del_item, ()), (del_slice, ()), (del_mixed_unused_after, (1, 2))):
        expected = fn(*args, [1, 2])        # a fresh list each time: the function mutates it
        for jit in (True, False):
            assert_same(autograph.convert(fn, jit=jit)(*args, [1, 2]), expected)
    obj = autograph.convert(del_attribute, jit=False)(HasAB())
    assert not hasattr(obj, 'a') and obj.b == 2
