"""What CPython's scope tests pin down about names in a function body -- closures,
nonlocal, global, class scopes -- restated as functions run plain and converted
(python/cpython Lib/test/test_scope.py, commit 8c7e01b77ed18e6a31cf480f24f81b88a4d6e73c).

Each case runs on Python values and, where it computes on numbers, on JAX scalars (traced
under jit), against the same function run as plain Python; state that outlives a call is
checked over two calls.
"""
import jax.numpy as jnp
import pytest

import autograph
from tests.helpers import assert_same, check, check_ints


# --- closures ---------------------------------------------------------------------------

def simple_nesting(x):
    def adder(y):
        return x + y
    return adder(1)


def two_levels(x):
    def middle(y):
        def inner(z):
            return x + y + z
        return inner(2)
    return middle(x * 3)


def free_variable_rebound_after_definition(x):
    def get():
        return v
    v = x
    if x > 2:
        v = x * 10
    return get()


def closure_sees_loop_rebinding(n):
    total = 0
    acc = 0

    def read():
        return acc
    for i in range(n):
        acc = acc + i
        total = total + read()
    return total


def recursion_through_closure(n):
    def fact(k):
        if k <= 1:
            return 1
        return k * fact(k - 1)
    return fact(n)


def mutual_recursion(n):
    def is_even(k):
        return True if k == 0 else is_odd(k - 1)

    def is_odd(k):
        return False if k == 0 else is_even(k - 1)
    return is_even(n)


def lambda_nesting(x):
    add = lambda a: lambda b: a + b  # noqa: E731
    return add(x)(x * 2)


@pytest.mark.parametrize('x', [3])
def test_simple_nesting(x):
    check_ints(simple_nesting, x)


@pytest.mark.parametrize('x', [2])
def test_two_levels_of_nesting(x):
    check_ints(two_levels, x)


@pytest.mark.parametrize('x', [1, 5])
def test_free_variable_bound_after_definition(x):
    check_ints(free_variable_rebound_after_definition, x)


@pytest.mark.parametrize('n', [0, 4])
def test_closure_sees_rebinding_in_loop(n):
    check_ints(closure_sees_loop_rebinding, n)


@pytest.mark.parametrize('n', [1, 5])
def test_recursion_through_closure(n):
    check(recursion_through_closure, n)


@pytest.mark.parametrize('n', [0, 3, 4])
def test_mutual_recursion_through_closures(n):
    check(mutual_recursion, n)


@pytest.mark.parametrize('x', [4])
def test_nested_lambdas(x):
    check_ints(lambda_nesting, x)


# --- nonlocal ---------------------------------------------------------------------------

def nonlocal_counter(n):
    count = 0

    def bump(k):
        nonlocal count
        count += k
    for i in range(n):
        bump(i)
    return count


def nonlocal_in_branch(x):
    state = 1

    def update():
        nonlocal state
        if x > 0:
            state = state + x
        else:
            state = -state
    update()
    update()
    return state


def nonlocal_two_levels(x):
    v = x

    def middle():
        def inner():
            nonlocal v
            v = v * 2
        inner()
        return v
    first = middle()
    return first + v


def make_counter():
    count = 0

    def step():
        nonlocal count
        count += 1
        return count
    return step


def closure_cell_shared_by_two_functions(x):
    cell = x

    def setter(v):
        nonlocal cell
        cell = v

    def getter():
        return cell
    setter(cell + 5)
    return getter()


@pytest.mark.parametrize('n', [0, 4])
def test_nonlocal_counter(n):
    check_ints(nonlocal_counter, n)


@pytest.mark.parametrize('x', [-2, 3])
def test_nonlocal_written_in_branch(x):
    check_ints(nonlocal_in_branch, x)


@pytest.mark.parametrize('x', [3])
def test_nonlocal_two_levels(x):
    check_ints(nonlocal_two_levels, x)


def test_converted_closure_writes_its_cell_across_calls():
    plain, converted = make_counter(), autograph.convert(make_counter())
    for _ in range(3):
        assert_same(converted(), plain())


@pytest.mark.parametrize('x', [1])
def test_cell_shared_by_setter_and_getter(x):
    check_ints(closure_cell_shared_by_two_functions, x)


# --- global -----------------------------------------------------------------------------

TOTAL = 0
LIMIT = 3


def add_to_global(x):
    global TOTAL
    if x > LIMIT:
        TOTAL = TOTAL + x
    else:
        TOTAL = TOTAL - 1
    return TOTAL


def reads_global_at_call_time(x):
    return x + LIMIT


def local_shadows_global(x):
    LIMIT = x * 2  # noqa: N806
    return LIMIT


@pytest.mark.parametrize('x', [1, 5])
def test_global_written_twice_as_python(x):
    global TOTAL
    TOTAL = 0
    expected = [add_to_global(x), add_to_global(x)]
    TOTAL = 0
    fn = autograph.convert(add_to_global)
    assert [fn(x), fn(x)] == expected
    assert TOTAL == expected[-1]


@pytest.mark.parametrize('x', [1, 5])
def test_global_written_twice_traced(x):
    global TOTAL
    TOTAL = 0
    expected = [int(add_to_global(jnp.int32(x))), int(add_to_global(jnp.int32(x)))]
    TOTAL = 0
    fn = autograph.convert(add_to_global)
    assert [int(fn(jnp.int32(x))), int(fn(jnp.int32(x)))] == expected
    assert int(TOTAL) == expected[-1]
    TOTAL = 0


def test_global_read_at_call_time():
    global LIMIT
    fn = autograph.convert(reads_global_at_call_time)
    try:
        assert int(fn(jnp.int32(1))) == 4
        LIMIT = 10
        assert int(fn(jnp.int32(1))) == 11
    finally:
        LIMIT = 3


@pytest.mark.parametrize('x', [2])
def test_local_shadows_global(x):
    check_ints(local_shadows_global, x)
    assert LIMIT == 3


# --- class scopes -----------------------------------------------------------------------

def class_body_skips_function_locals(x):
    v = x

    class C:
        v = 100
        w = v + 1

        def method(self):
            return v
    return C.w + C().method()


def method_cannot_see_class_names(x):
    name = x

    class C:
        name = -1

        def get(self):
            return name
    return C().get() + C.name


def comprehension_in_class_body(n):
    class C:
        size = n
        items = [i * 2 for i in range(3)]
    return C.items, C.size


class Counter:
    def __init__(self):
        self.count = 0

    def step(self, x):
        if x > 0:
            self.count += x
        else:
            self.count -= 1
        return self.count


@pytest.mark.parametrize('x', [2])
def test_class_body_and_function_scope(x):
    check_ints(class_body_skips_function_locals, x)


@pytest.mark.parametrize('x', [7])
def test_method_does_not_see_class_names(x):
    check_ints(method_cannot_see_class_names, x)


def test_comprehension_in_class_body():
    check(comprehension_in_class_body, 3)


@pytest.mark.parametrize('make', [int, jnp.int32])
@pytest.mark.parametrize('x', [-1, 4])
def test_method_writes_attribute_across_calls(make, x):
    plain, conv = Counter(), Counter()
    step = autograph.convert(Counter.step)
    expected = [plain.step(make(x)), plain.step(make(x))]
    got = [step(conv, make(x)), step(conv, make(x))]
    assert_same(got, expected)
    assert_same(conv.count, plain.count)


# --- unbound locals ---------------------------------------------------------------------

def unbound_on_some_paths(x):
    if x > 0:
        y = x
    return y


def del_then_read(x):
    y = x
    del y
    return y  # noqa: F821


def test_unbound_local_on_the_path_taken():
    check(unbound_on_some_paths, 3)
    with pytest.raises(UnboundLocalError):
        unbound_on_some_paths(-1)
    with pytest.raises(UnboundLocalError):
        autograph.convert(unbound_on_some_paths)(-1)


def test_unbound_local_on_the_path_taken_traced():
    check(unbound_on_some_paths, jnp.int32(3))
    with pytest.raises(UnboundLocalError):
        autograph.convert(unbound_on_some_paths)(jnp.int32(-1))


def test_read_after_del_is_unbound():
    with pytest.raises(UnboundLocalError):
        del_then_read(1)
    with pytest.raises(UnboundLocalError):
        autograph.convert(del_then_read)(1)


def nonlocal_in_a_loop(n):
    acc = 0

    def add(v):
        nonlocal acc
        if v > 1:
            acc += v
    for i in range(n):
        add(i)
    return acc


@pytest.mark.parametrize('n', [0, 4])
def test_nonlocal_written_from_a_traced_loop(n):
    check_ints(nonlocal_in_a_loop, n)
