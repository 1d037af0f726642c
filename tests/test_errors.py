"""Every error a user can hit names the problem, the variable and their file:line."""
import math
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from tests.helpers import converted, line_of, site


def raises(fn, *args, error=autograph.ControlFlowError):
    with pytest.raises(error) as info:
        autograph.convert(fn)(*args)
    return str(info.value)


def test_assigned_in_one_branch_of_staged_if_is_checked_when_read():
    def f(x):
        if x > 0:
            y = x * 2
        return y
    assert autograph.convert(f)(jnp.float32(1.)) == 2.
    with pytest.raises(UnboundLocalError,
                       match="cannot access local variable 'y' where it is not associated "
                             "with a value") as info:
        autograph.convert(f)(jnp.float32(-1.))
    assert site(f, "return y") in '\n'.join(info.value.__notes__)


def test_one_branch_assignment_is_fine_with_python_condition():
    def f(x, flag):
        if flag:
            y = x * 2
        return y
    assert float(autograph.convert(f)(jnp.float32(1.), True)) == 2.
    with pytest.raises(UnboundLocalError, match="'y'"):
        autograph.convert(f)(jnp.float32(1.), False)


def test_branches_with_different_shapes():
    def f(x):
        if x.sum() > 0:
            y = x
        else:
            y = x.sum()
        return y
    message = raises(f, jnp.ones(3))
    assert "'y' is float32[3] in the true branch but float32[] in the false branch" in message
    assert site(f, "if x.sum()") in message


def test_branches_with_different_dtypes():
    def f(x):
        if x > 0:
            y = jnp.int32(1)
        else:
            y = jnp.float32(2.)
        return y
    message = raises(f, jnp.float32(1.))
    assert "'y' is int32[] in the true branch but float32[] in the false branch" in message


def test_branches_with_different_structures():
    def f(x):
        if x > 0:
            y = (x, x)
        else:
            y = [x, x, x]
        return y
    message = raises(f, jnp.float32(1.))
    assert "'y' is tuple of 2 in the true branch but list of 3 in the false branch" in message


def test_return_in_one_branch_only_gives_none_on_the_other():
    def f(x):
        if x > 0:
            return x
        print('no return here')
    assert autograph.convert(f)(jnp.float32(1.)) == 1.
    assert autograph.convert(f)(jnp.float32(-1.)) is None   # as Python's implicit None


def test_return_of_structures_that_differ_beyond_none_stays_an_error():
    def f(x):
        if x > 0:
            return x, (x, x)
        return None, (x,)
    message = raises(f, jnp.float32(1.))
    assert 'the return value' in message and 'on one path' in message
    assert site(f, "if x > 0") in message


def test_non_scalar_condition():
    def f(x):
        if x > 0:
            x = x + 1
        return x
    message = raises(f, jnp.ones(3))
    assert 'is an array of shape (3,)' in message and 'jnp.any' in message
    assert site(f, "if x > 0") in message


def test_non_scalar_while_condition():
    def f(x):
        while x < 10:
            x = x + 1
        return x
    message = raises(f, jnp.ones(3))
    assert 'condition of the `while` loop' in message and 'shape (3,)' in message


def test_variable_read_before_assigned_in_staged_loop():
    # A variable the loop creates takes its type from the body (tests/test_state.py);
    # one the body reads before assigning it has no value in the first iteration.
    def f(n):
        i = 0
        while i < n:
            last = last + i
            i += 1
        return last
    # Python raises UnboundLocalError whatever n is (in the body, or after zero trips).
    for n in (0, 3):
        with pytest.raises(UnboundLocalError, match="'last'"):
            f(n)
        with pytest.raises(UnboundLocalError, match="'last'"):
            autograph.convert(f)(jnp.int32(n))


def test_carried_dtype_changes():
    def f(x, n):
        acc = jnp.int32(0)
        for i in range(n):
            acc = acc + x
        return acc
    message = raises(f, jnp.float32(1.5), jnp.int32(3))
    assert "'acc' is int32[] before the staged loop" in message
    assert 'float32[] after one iteration' in message and 'as float32' in message
    assert site(f, "for i in range(n)") in message


def test_carried_shape_changes():
    def f(x, n):
        i = 0
        while i < n:
            x = jnp.concatenate([x, x])
            i += 1
        return x
    message = raises(f, jnp.ones(2), jnp.int32(3))
    assert "'x' is float32[2] before the staged loop" in message
    assert 'but float32[4] after one iteration' in message and 'cannot change shape' in message


def test_list_growing_in_while_loop():
    def f(n):
        out = []
        i = 0
        while i < n:
            out.append(i)
            i += 1
        return out
    message = raises(f, jnp.int32(3))
    assert "'out'" in message and 'cannot collect values in a list' in message


def test_recursion_on_traced_value_fails_fast():
    """Reported after a few levels (runtime.python.calls.STAGED_RECURSION_LIMIT), not as
    Python's RecursionError a thousand levels deep. (Not timed: the machines are noisy.)"""
    def fact(n):
        if n <= 1:
            return 1
        return n * fact(n - 1)
    message = raises(fact, jnp.int32(5))
    assert 'fact' in message and 'calls itself' in message
    assert autograph.convert(fact)(5) == 120   # static recursion unrolls


def test_no_source():
    with pytest.raises(autograph.ConversionError, match='no Python source'):
        autograph.to_code(len)


def test_two_lambdas_on_one_line():
    # Told apart by their code (see autograph.parsing) ...
    f, g = (lambda x: x + 1 if x > 0 else x), (lambda x: x - 1 if x > 0 else x)
    for fn in (f, g):
        assert autograph.convert(fn)(jnp.float32(2.)) == fn(2.)
    # ... unless their code has the same lines, constants, names and operators.
    f, g = (lambda x, y: x - y), (lambda x, y: y - x)
    assert g(1, 2) == 1
    with pytest.raises(autograph.ConversionError, match='several lambdas'):
        autograph.to_code(f)
    assert autograph.to_code(lambda y: y if y > 0 else -y).strip().startswith('lambda y')


def test_generator_is_rejected_with_caret():
    def gen(x):
        yield x
    with pytest.raises(SyntaxError) as info:
        autograph.to_code(gen)
    assert info.value.lineno == line_of(gen, 'yield x')
    assert info.value.filename == __file__


def test_errors_point_at_the_user_line():
    def f(x):
        y = x + 1
        z = y @ y      # a shape error inside converted code
        return z
    with pytest.raises(ValueError) as info:
        autograph.convert(f)(jnp.float32(1.))
    notes = '\n'.join(getattr(info.value, '__notes__', []))
    assert f'line {line_of(f, "z = y @ y")}' in notes and 'z = y @ y' in notes


def test_leaked_tracer_is_reported():
    import jax
    class Box:
        pass
    box = Box()

    @autograph.do_not_convert
    def stash(value):
        box.__dict__['value'] = value   # (code left unconverted: no place is shown)

    def leaky(x):
        stash(x + 1)
        return x
    autograph.convert(leaky)(jnp.float32(1.))
    with pytest.raises(jax.errors.UnexpectedTracerError,
                       match='kept outside the code that computed it') as info:
        autograph.convert(lambda x: x + box.value)(jnp.float32(1.))
    assert isinstance(info.value, autograph.ControlFlowError)
    assert 'a global list it appends to' in str(info.value)


def numpy_of_traced(x):
    scale = np.unique(x).max()   # (a size the values decide: NumPy's own, see traced_numpy)
    return x / scale


def numpy_in_helper(x):
    return python_numpy_helper(x)


@autograph.do_not_convert
def python_numpy_helper(x):
    return np.asarray(x) * 2


def test_numpy_of_a_traced_array_names_the_users_line():
    """JAX's error for NumPy code that needs a traced value, raised on a converted line,
    is the project's named error (and still JAX's class); raised in code left
    unconverted, it stays JAX's own, whose traceback shows that code."""
    import jax
    for run in (autograph.convert(numpy_of_traced), jax.jit(converted(numpy_of_traced)),
                jax.vmap(converted(numpy_of_traced))):
        with pytest.raises(jax.errors.ConcretizationTypeError) as info:
            run(jnp.arange(1.0, 4.0))
        assert isinstance(info.value, autograph.ControlFlowError)
        assert info.value.kind == 'python-value-needed'
        assert f'a traced array at {site(numpy_of_traced, "np.unique")}' \
            in str(info.value).replace('tests/', '')
        assert 'jnp.asarray, not np.asarray' in str(info.value)
    x = jnp.arange(1.0, 4.0)   # eager: Python's value
    assert (autograph.convert(numpy_of_traced, jit=False)(x) == numpy_of_traced(x)).all()
    with pytest.raises(jax.errors.TracerArrayConversionError) as info:
        autograph.convert(numpy_in_helper)(x)
    assert not isinstance(info.value, autograph.ControlFlowError)


def truncated(x):
    trunc = getattr(math, 'trunc')   # (not a name the converter sees: Python's math.trunc)
    return trunc(x * 2.5)


def mantissa(x):
    frexp = getattr(math, 'frexp')   # (a `math` function with no traced twin)
    return frexp(x * 2.5)[0]


def test_a_number_method_python_asks_of_a_traced_value_names_the_users_line():
    # (`math.trunc(x)` of a math function reached as a value: Python's TypeError "type
    # DynamicJaxprTracer doesn't define __trunc__ method", raw at first, then the named
    # error; now the twin `ag.math.trunc` computes it, as for `math.trunc(x)` written.)
    import jax
    assert jax.jit(autograph.convert(truncated))(1.5) == truncated(1.5)
    with pytest.raises(autograph.ControlFlowError, match='needs its value') as info:
        jax.jit(autograph.convert(mantissa))(1.5)
    assert info.value.kind == 'python-value-needed'
    assert f'at {site(mantissa, "frexp(x")}' in str(info.value).replace('tests/', '')
    assert autograph.convert(mantissa)(1.5) == mantissa(1.5)   # (a Python float: Python)
    with pytest.raises(TypeError, match='unsupported operand'):   # (Python's own TypeError)
        autograph.convert(lambda x: x + 'a')(jnp.float32(1.0))


class Box:
    def __init__(self, v):
        self.v = v


def choose_a_box(x):
    cur, trial = Box(x), Box(x * 2)
    if x > 0:
        cur = trial
    return cur.v


def return_a_box(x):
    if x > 0:
        return x, Box(x)
    return x, Box(x * 2)


def test_choosing_between_python_objects_names_the_object_and_its_class():
    message = raises(choose_a_box, jnp.float32(1.))
    assert (f"'cur' is a Box object in both branches of the `if` at "
            f"{site(choose_a_box, 'if x > 0')}: a traced condition chooses between arrays"
            in message.replace('tests/', ''))
    assert 'Make Box a pytree (jax.tree_util.register_dataclass' in message
    message = raises(return_a_box, jnp.float32(1.))
    assert ('the return value[1] is a Box object on every path, where the paths part at '
            f"{site(return_a_box, 'if x > 0')}" in message.replace('tests/', ''))
    assert autograph.convert(choose_a_box)(1.) == choose_a_box(1.)   # Python condition


def test_caret_points_at_the_column_in_an_indented_function():
    class Holder:
        def method(self, x):
            yield x
    with pytest.raises(SyntaxError) as info:
        autograph.to_code(Holder.method)
    assert info.value.lineno == line_of(Holder.method, 'yield x')
    import linecache
    line = linecache.getline(__file__, info.value.lineno)
    assert line[info.value.offset - 1:].startswith('yield')


def test_a_set_of_traced_values_is_the_named_error():
    """Python hashes a set's items: a traced value has no hash while tracing (its value
    is known only when the program runs): the named error at the user's line, not
    Python's "unhashable type: 'DynamicJaxprTracer'"."""
    from autograph.errors import TracedValueNeeded

    def roots(parent):
        return len({parent[i] for i in range(3)})
    with pytest.raises(TracedValueNeeded) as info:
        autograph.convert(roots)(jnp.asarray([0, 0, 2]))
    assert f':{line_of(roots, "return len(")}' in str(info.value)
    assert roots(np.asarray([0, 0, 2])) == 2
