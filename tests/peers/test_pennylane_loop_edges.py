"""PennyLane's AutoGraph tests on loops it rejects, loops written with the library's own
loop functions, and the loop shapes of its loop-hint tests, restated for plain JAX.

Upstream: PennyLaneAI/pennylane, tests/capture/autograph/test_autograph_for_loop.py at
commit 4ac3a0fc72c26333c91f8f4c58f2dcd9e9a9a27c (classes TestErrors and
TestPennyLaneForLoops) and tests/capture/autograph/test_autograph_pragmas.py at commit
3f5f5747aa0fca02b1dc243d47bcc14fd7e4b1a4 (class TestQphintIntegration: the loops that
carry a `# qphint:` comment; the hints themselves are PennyLane's and have no
counterpart, so only what the loops compute is checked, with the comments in place).
PennyLane's `for_loop` / `cond` decorators are `jax.lax.fori_loop` / `jax.lax.cond`
written by the user. Each case is compared with the same function run as plain Python.
"""
import jax
import jax.numpy as jnp
import pytest

import autograph
from tests.helpers import assert_same, site, staged


# --- TestErrors: what PennyLane rejects -------------------------------------------------------

@pytest.mark.parametrize('n', [0, 2, 3])
def test_range_indexing_a_python_list_of_numbers(n):
    # upstream: TestErrors.test_for_in_static_range_indexing_numeric_list (a warning
    # there) and test_for_in_dynamic_range_indexing_numeric_list (an error there)
    def static(state):
        params = [0.0, 1 / 4 * jnp.pi, 2 / 4 * jnp.pi]
        for i in range(3):
            state = jnp.cos(params[i]) * state + i
        return state

    def dynamic(n):
        params = [0.0, 1 / 4 * jnp.pi, 2 / 4 * jnp.pi]
        state = 1.0
        for i in range(n):
            state = jnp.cos(params[i]) * state + i
        return state
    assert_same(autograph.convert(static)(jnp.float32(0.5)), static(jnp.float32(0.5)))
    assert_same(autograph.convert(dynamic)(jnp.int32(n)), jnp.float32(dynamic(n)))


def test_traced_range_indexing_a_list_of_strings_is_a_named_error():
    # upstream: TestErrors.test_for_in_dynamic_range_indexing_object_list (never
    # possible: a str cannot be picked by an index known only when the program runs)
    def f(n):
        params = ['0', '1', '2']
        state = 1.0
        for i in range(n):
            state = state * jnp.cos(int(params[i]) * jnp.pi)
        return state
    assert autograph.convert(f)(2) == f(2)
    with pytest.raises(autograph.ControlFlowError, match="'params'") as info:
        autograph.convert(f)(jnp.int32(2))
    assert site(f, 'state = state * jnp.cos') in str(info.value)


def test_variable_never_bound_before_its_read():
    # upstream: TestErrors.test_uninitialized_variables, f1 ("'acc' is potentially
    # uninitialized"): Python's UnboundLocalError at the first iteration
    def f1(xs):
        for x in xs:
            acc = acc + x  # noqa: F821
        return acc
    with pytest.raises(UnboundLocalError, match="'acc'"):
        f1([0, 4, 5])
    with pytest.raises(UnboundLocalError, match="'acc'"):
        autograph.convert(f1)([0, 4, 5])
    with pytest.raises(UnboundLocalError, match="'acc'"):
        autograph.convert(f1)(jnp.array([0, 4, 5]))


@pytest.mark.parametrize('xs', [[0, 4, 5], []])
def test_loop_and_body_variables_read_after_the_loop(xs):
    # upstream: TestErrors.test_uninitialized_variables, f2 and f3 (rejected there):
    # Python reads the last item and the body's temporary after a loop that ran, and
    # raises UnboundLocalError after one that did not
    def f2(xs):
        acc = 0
        for x in xs:
            acc = acc + x
        return x

    def f3(xs):
        acc = 0
        for x in xs:
            c = 2
            acc = acc + c * x
        return c
    for f in (f2, f3):
        for arg in (xs, jnp.array(xs, jnp.int32)):
            if xs:
                assert autograph.convert(f)(arg) == f(xs)
            else:
                with pytest.raises(UnboundLocalError):
                    f(xs)
                with pytest.raises(UnboundLocalError):
                    autograph.convert(f)(arg)


@pytest.mark.parametrize('init', ['', 0.0, None])
def test_loop_variable_bound_to_another_type_before(init):
    # upstream: TestErrors.test_init_with_invalid_jax_type ('' before the loop) and
    # test_init_with_mismatched_type (0.0 before a loop over ints): the loop gives 'x'
    # its last item, of the items' type, as Python does
    def f(acc):
        x = init
        for x in [0, 4, 5]:
            acc = acc + x
        return x, acc
    assert autograph.convert(f)(jnp.int32(1)) == f(1)
    result = autograph.convert(f)(jnp.int32(1))[0]
    assert type(result) is int


def test_loop_variable_float_before_a_traced_int_array():
    # the same over a traced array: 'x' ends as the last item, with the items' dtype
    def f(xs):
        x = 0.0
        acc = 0
        for x in xs:
            acc = acc + x
        return x, acc
    xs = jnp.array([0, 4, 5])
    assert_same(autograph.convert(f)(xs), f(xs))
    assert autograph.convert(f)(xs)[0].dtype == xs.dtype


# --- TestPennyLaneForLoops: the library's own loops ---------------------------------------------

def test_users_fori_loop():
    # upstream: TestPennyLaneForLoops.test_no_python_loops
    def f():
        def body(i, acc):
            return acc + i
        return jax.lax.fori_loop(0, 3, body, 0)
    assert autograph.convert(f)() == f() == 3


def test_function_that_is_a_fori_loop_over_a_closure():
    # upstream: TestPennyLaneForLoops.test_for_loop (x and n from the enclosing scope)
    x, n = 5, 6

    def loop(agg):
        return jax.lax.fori_loop(0, n, lambda _, agg: agg + x, agg)
    assert autograph.convert(loop)(jnp.int32(0)) == loop(0) == 30
    assert staged(loop, jnp.int32(0)) & {'while', 'scan'}


@pytest.mark.parametrize('x', [2, 3])
def test_python_branch_and_loop_around_and_inside_library_loops(x):
    # upstream: TestPennyLaneForLoops.test_cond_if_for_loop_for (a Python `if` on the
    # argument around the library's fori_loop, whose body holds a Python `for` over a
    # range with the library's cond inside): 18 for x < 3, else 0
    def f(x):
        acc = 0
        if x < 3:
            def loop(_, acc):
                for i in range(5):
                    acc += jax.lax.cond(i % 2 == 0, lambda: i, lambda: 0)
                return acc
            acc = jax.lax.fori_loop(0, 3, loop, acc)
        return acc
    assert autograph.convert(f)(jnp.int32(x)) == f(x)
    assert autograph.convert(f)(x) == f(x)


# --- the loops of TestQphintIntegration -------------------------------------------------------

@pytest.mark.parametrize('n', [0, 3])
def test_range_loop_with_a_trailing_comment(n):
    # upstream: TestQphintIntegration.test_for_loop / test_loop_without_a_pragma
    def f(n):
        x = 0
        for i in range(n):  # qphint: num-iters=10
            x = x + i
        return x
    assert autograph.convert(f)(jnp.int32(n)) == f(n)


@pytest.mark.parametrize('n', [0, 2, 5])
def test_while_loops_with_a_leading_comment(n):
    # upstream: TestQphintIntegration.test_while_loop / test_while_loop_with_a_break
    def plain(n):
        i = 0
        # qphint: num-iters=7
        while i < n:
            i = i + 1
        return i

    def with_break(n):
        i = 0
        # qphint: num-iters=10
        while i < n:
            i = i + 1
            if i > 2:
                break
        return i
    for f in (plain, with_break):
        assert autograph.convert(f)(jnp.int32(n)) == f(n)


def test_two_loops_one_after_the_other():
    # upstream: TestQphintIntegration.test_only_the_annotated_loop_is_hinted
    def f(n):
        x = 0
        for i in range(n):  # qphint: num-iters=10
            x = x + i
        for j in range(n):
            x = x + j
        return x
    assert autograph.convert(f)(jnp.int32(4)) == f(4)


def test_loops_over_an_array_and_its_enumeration():
    # upstream: TestQphintIntegration.test_loop_over_an_array / _an_enumeration
    def over(array):
        x = 0
        for value in array:  # qphint: num-iters=10
            x = x + value
        return x

    def enumerated(array):
        x = 0
        for i, value in enumerate(array):  # qphint: num-iters=10
            x = x + i * value
        return x
    array = jnp.array([1, 2, 3])
    for f in (over, enumerated):
        assert autograph.convert(f)(array) == f(array)


@pytest.mark.parametrize('n', [0, 1, 3])
def test_nested_loops_and_a_loop_in_a_nested_function(n):
    # upstream: TestQphintIntegration.test_nested_loops / test_nested_function
    def nested(n):
        x = 0
        for i in range(n):  # qphint: num-iters=10
            for j in range(n):  # qphint: num-iters=5
                x = x + i * j
        return x

    def outer(n):
        def inner(m):
            x = 0
            for i in range(m):  # qphint: num-iters=12
                x = x + i
            return x
        return inner(n)
    for f in (nested, outer):
        assert autograph.convert(f)(jnp.int32(n)) == f(n)


def test_comment_on_a_branch_changes_nothing():
    # upstream: TestQphintOnIfStatements.test_conversion_is_unaffected
    def f(x):
        y = 0
        if x > 5:  # qphint: a=1
            y = 1
        else:  # qphint: a=2
            y = 2
        return y
    for x in (8, 2):
        assert autograph.convert(f)(jnp.int32(x)) == f(x)
