"""Python constructs around converted control flow keep Python's meaning."""
import jax
import jax.numpy as jnp
import pytest

import autograph
from tests.helpers import check, staged

THRESHOLD = 1.0


def test_signatures_defaults_varargs_and_keywords():
    def f(x, *rest, scale=2.0, **options):
        total = x * scale
        for r in rest:
            if r > 0:
                total = total + r
        if options.get('negate', False):
            total = -total
        return total
    check(f, jnp.float32(1.), jnp.float32(2.), jnp.float32(-3.))
    check(f, jnp.float32(1.), scale=jnp.float32(3.), negate=True)


def test_methods_with_super_and_decorated_methods():
    class Base:
        def value(self, x):
            return x + 1

    class Child(Base):
        @autograph.convert
        def value(self, x):
            y = super().value(x)
            if y > 2:
                y = y * 10
            return y
    child = Child()
    assert float(child.value(jnp.float32(3.))) == 40.
    assert float(child.value(jnp.float32(0.))) == 1.


def test_a_global_changed_between_calls_is_seen():
    """A Python global the function reads is part of the call's key (issue 19): a new
    value retraces, as Python would see it (it was captured by the first trace)."""
    global THRESHOLD

    def f(x):
        if x > THRESHOLD:
            x = x * 2
        return x
    g = autograph.convert(f)
    assert float(g(jnp.float32(1.5))) == 3.
    THRESHOLD = 2.0
    try:
        assert float(g(jnp.float32(1.5))) == 1.5 == f(1.5)
    finally:
        THRESHOLD = 1.0


def test_dicts_lists_and_generators_iterate_in_python():
    def gen(n):
        for i in range(n):
            yield i

    def f(x, table):
        total = x
        for key, value in table.items():
            if value > x:
                total = total + value
        for i in gen(3):
            total = total + i
        for v in [x, x * 2]:
            total = total - v
        return total
    table = {'a': jnp.float32(1.), 'b': jnp.float32(5.)}
    check(f, jnp.float32(2.), table)
    assert staged(f, jnp.float32(2.), table) == {'cond'}


def test_loop_variable_after_python_loop_and_multiple_targets():
    def f(x):
        a = b = x
        for i in range(3):
            a, b = b, a + i
        return a, b, i
    check(f, jnp.float32(1.))


def test_with_and_try_blocks_inside_converted_code():
    def f(x):
        with jax.named_scope('block'):
            if x > 0:
                y = x * 2
            else:
                y = -x
        try:
            z = y + 1
        except ZeroDivisionError:
            z = y
        return z
    check(f, jnp.float32(2.))
    check(f, jnp.float32(-2.))


def test_walrus_in_if_condition():
    def f(x):
        if (y := x * 2) > 1:
            y = y + 1
        return y
    check(f, jnp.float32(1.))
    check(f, jnp.float32(0.))


def test_del_and_reassignment_in_branches():
    def f(x):
        tmp = x + 1
        if x > 0:
            out = tmp * 2
        else:
            out = tmp
        del tmp
        return out
    check(f, jnp.float32(1.))
    check(f, jnp.float32(-1.))


def test_iterators_are_consumed_while_tracing():
    consumed = []

    def numbers():
        for i in range(3):
            consumed.append(i)
            yield i

    def f(x, it):
        for i in it:
            x = x + i
        return x
    g = autograph.convert(f)
    assert float(g(jnp.float32(0.), numbers())) == 3.
    assert consumed == [0, 1, 2]


def test_closure_over_loop_variable_in_nested_function():
    def f(xs):
        total = 0.0
        for x in xs:
            def scaled(k):
                return x * k
            total = total + scaled(2.0)
        return total
    check(f, jnp.arange(4.))


def test_a_walrus_in_a_while_condition_is_pythons():
    def f(n):
        while (n := n - 1) > 0:
            pass
        return n
    assert autograph.convert(f)(3) == f(3) == 0
    assert autograph.convert(f)(jnp.int32(3)) == 0


def test_nested_generator_functions_stay_python():
    def f(x):
        def evens(n):
            for i in range(n):
                if i % 2 == 0:
                    yield i
        total = x
        for i in evens(5):
            total = total + i
        return total
    check(f, jnp.float32(1.))
