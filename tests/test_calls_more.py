"""Lists indexed by traced integers, JAX transforms of user functions (made inside or
outside converted code), results that are not arrays, and concrete functions."""
import functools

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from tests.helpers import _subjaxprs, assert_same, check, primitives, site


# --- a Python list indexed by a traced integer -------------------------------------------

def pick(ws, i):
    return ws[i] * 2 + ws[-1 - i]


@pytest.mark.parametrize('i', [1, -3])
def test_list_of_arrays_at_a_traced_index(i):
    ws = [jnp.full(2, 1.), jnp.full(2, 2.), jnp.full(2, 3.)]
    check(pick, ws, jnp.int32(i))
    batched = jax.vmap(autograph.convert(pick, jit=False), in_axes=(None, 0))(
        ws, jnp.array([0, 1, 2]))
    assert_same(batched, jnp.stack([pick(ws, k) for k in range(3)]))


def test_list_of_pytrees_and_numbers_at_a_traced_index():
    def f(params, scales, i):
        p = params[i]
        return p['w'] * scales[i] + p['b']
    params = [{'w': jnp.ones(2) * k, 'b': jnp.float32(k)} for k in range(3)]
    for i in range(3):
        check(f, params, [0.5, 1.0, 2.0], jnp.int32(i))


def test_list_at_a_traced_index_is_differentiable_and_stays_one_gather():
    def f(ws, i):
        return ws[i] ** 2
    ws = [jnp.float32(1.), jnp.float32(2.), jnp.float32(3.)]
    grads = jax.grad(autograph.convert(f, jit=False))(ws, jnp.int32(1))
    assert [float(g) for g in grads] == [0., 4., 0.]
    # (the Function's program: converted code under someone else's trace reports its
    # index check with a `lax.cond` around a callback, see runtime.checks)
    concrete = autograph.convert(f).get_concrete_function(ws, jnp.int32(1))
    names = set()

    def visit(jaxpr):
        for eqn in jaxpr.eqns:
            names.add(eqn.primitive.name)
            for sub in _subjaxprs(eqn):
                visit(sub)
    visit(concrete.jaxpr.jaxpr)
    assert 'cond' not in names and ('gather' in names or 'dynamic_slice' in names)


def test_list_at_an_index_from_a_staged_loop():
    def f(n):
        ws = [1.0, 10.0, 100.0]
        total = 0.0
        i = 0
        while i < n:
            total = total + ws[i % 3]
            i += 1
        return total
    check(f, jnp.int32(5))


def test_list_of_functions_at_a_traced_index_is_a_switch():
    def double(x):
        return x * 2

    def square(x):
        if x > 1:           # converted: a lax.cond inside the switch branch
            return x * x
        return x

    def f(x, i):
        layers = [double, square, jnp.sin]
        return layers[i](x)
    for i in range(3):
        check(f, jnp.float32(1.5), jnp.int32(i))
    assert 'cond' in primitives(f, jnp.float32(1.5), jnp.int32(0))
    assert 'ag.call(ag.getitem(layers, i), x)' in autograph.to_code(f)


def test_python_index_keeps_python_semantics():
    def f(items, i):
        return items[i], items[i - 1]
    assert autograph.convert(f)(['a', 'b', 'c'], 1) == ('b', 'a')
    with pytest.raises(IndexError):
        autograph.convert(f)([1, 2], 5)


def test_traced_index_out_of_range_is_an_error_when_it_runs():
    def f(ws, i):
        return ws[i]
    ws = [jnp.float32(1.), jnp.float32(2.)]
    g = autograph.convert(f)
    assert float(g(ws, jnp.int32(-2))) == 1.
    with pytest.raises(IndexError, match='^list index out of range'):
        jax.block_until_ready(g(ws, jnp.int32(2)))


def test_list_of_unlike_items_at_a_traced_index_names_the_list():
    def f(x, i):
        mixed = [x, jnp.ones(3)]
        return mixed[i]
    with pytest.raises(autograph.ControlFlowError) as info:
        autograph.convert(f)(jnp.float32(1.), jnp.int32(0))
    message = str(info.value)
    assert message.startswith("'mixed': a Python list of 2 items") and 'mixed[i]' in message
    assert site(f, 'return mixed[i]') in message and 'traced' in message


def test_list_repeated_a_traced_number_of_times_is_a_named_error():
    def f(n):
        zeros = [0] * (n + 1)
        return len(zeros)
    with pytest.raises(autograph.ControlFlowError) as info:
        autograph.convert(f)(jnp.int32(3))
    assert 'zeros = [0] * (n + 1)' in str(info.value) and site(f, 'zeros = [0]') in str(info.value)
    assert autograph.convert(f)(3) == 4


def test_array_indexing_is_left_alone_in_generated_code():
    def f(x, i):
        return x[0] + x[1:].sum() + x[:, None][0, 0] + x.at[i].get()
    code = autograph.to_code(f)
    assert 'ag.getitem' not in code
    check(f, jnp.arange(3.), jnp.int32(1))


# --- JAX transforms of user functions ----------------------------------------------------

def p(a, x):
    if x > 0:
        return a * x * x
    return a - x


def pv(x):
    if jnp.sum(x) > 0:
        return x * x
    return -x


def p_where(a, x):
    """`p` written with jnp.where: the reference for transforms that trace `p`."""
    return jnp.where(x > 0, a * x * x, a - x)


def pv_where(x):
    return jnp.where(jnp.sum(x) > 0, x * x, -x)


X = jnp.float32(1.5)
XS = jnp.array([1., -2., 3.])


TRANSFORM_CASES = {
    'jit': lambda x, p, pv: jax.jit(p)(2., x),
    'jit_static': lambda x, p, pv: jax.jit(p, static_argnums=0)(2., x),
    'grad': lambda x, p, pv: jax.grad(p, argnums=1)(2., x),
    'value_and_grad': lambda x, p, pv: jax.value_and_grad(p, argnums=1)(2., x),
    'vmap': lambda x, p, pv: jax.vmap(p, in_axes=(None, 0))(2., XS * x),
    'pmap': lambda x, p, pv: jax.pmap(p, in_axes=(None, 0))(2., XS[:1] * x),
    'jacfwd': lambda x, p, pv: jax.jacfwd(pv)(XS * x),
    'jacrev': lambda x, p, pv: jax.jacrev(pv)(XS * x),
    'jacobian': lambda x, p, pv: jax.jacobian(p, argnums=1)(2., x),
    'hessian': lambda x, p, pv: jax.hessian(p, argnums=1)(2., x),
    'jvp': lambda x, p, pv: jax.jvp(pv, (XS * x,), (jnp.ones(3),)),
    'vjp': lambda x, p, pv: jax.vjp(pv, XS * x)[1](jnp.ones(3)),
    'linearize': lambda x, p, pv: jax.linearize(pv, XS * x)[1](jnp.ones(3)),
    'checkpoint': lambda x, p, pv: jax.grad(jax.checkpoint(pv))(x),
    'remat': lambda x, p, pv: jax.remat(pv)(x),
    'eval_shape': lambda x, p, pv: jax.eval_shape(pv, x).shape,
    'cond': lambda x, p, pv: jax.lax.cond(x > 1, pv, lambda v: -pv(v), x),
    'switch': lambda x, p, pv: jax.lax.switch(1, [pv, lambda v: pv(-v)], x),
    'while_loop': lambda x, p, pv: jax.lax.while_loop(lambda v: pv(v) < 10, lambda w: w + 1, x),
    'fori_loop': lambda x, p, pv: jax.lax.fori_loop(0, 3, lambda i, v: pv(v) + i, x),
    'scan': lambda x, p, pv: jax.lax.scan(lambda c, v: (c + pv(v), c), x, XS),
    'map': lambda x, p, pv: jax.lax.map(pv, XS * x),
}


@pytest.mark.parametrize('name', sorted(TRANSFORM_CASES))
def test_transform_of_a_user_function_in_converted_code(name):
    fn = TRANSFORM_CASES[name]    # unconverted, p's traced `if` would fail
    assert_same(autograph.convert(fn)(X, p, pv), fn(X, p_where, pv_where))


def test_every_transform_is_known_to_the_calls_pass():
    from autograph.runtime.python.calls import TRANSFORMS
    expected = {'jax.jit', 'jax.grad', 'jax.value_and_grad', 'jax.vmap', 'jax.pmap',
                'jax.jacfwd', 'jax.jacrev', 'jax.jacobian', 'jax.hessian', 'jax.jvp',
                'jax.vjp', 'jax.linearize', 'jax.checkpoint', 'jax.remat', 'jax.custom_jvp',
                'jax.custom_vjp', 'jax.lax.cond', 'jax.lax.switch', 'jax.lax.while_loop',
                'jax.lax.fori_loop', 'jax.lax.scan', 'jax.lax.map'}
    assert expected <= TRANSFORMS


# --- transforms built outside converted code ---------------------------------------------

jp = jax.jit(p)


def calls_prebuilt_jit(x):
    return jp(2., x) + 1


SCALAR, BATCH = jnp.float32(1.5), jnp.array([1.5, -2.])
PREBUILT = {
    'jit': (lambda p: jax.jit(p), SCALAR),
    'jit_static': (lambda p: jax.jit(p, static_argnums=0), SCALAR),
    'vmap': (lambda p: jax.vmap(p, in_axes=(None, 0)), BATCH),
    'jacobian': (lambda p: jax.jacobian(p, argnums=1), SCALAR),
    'grad': (lambda p: jax.grad(p, argnums=1), -SCALAR),
    'hessian': (lambda p: jax.hessian(p, argnums=1), SCALAR),
    'checkpoint': (lambda p: jax.checkpoint(p), -SCALAR),
    'jit_of_vmap': (lambda p: jax.jit(jax.vmap(p, in_axes=(None, 0))), BATCH),
    'pmap': (lambda p: jax.pmap(p, in_axes=(None, 0)), BATCH[:1]),
}


@pytest.mark.parametrize('name', sorted(PREBUILT))
def test_convert_a_prebuilt_transform(name):
    make, x = PREBUILT[name]
    for arg in (x, -x):
        assert_same(autograph.convert(make(p))(2., arg), make(p_where)(2., arg))


@pytest.mark.parametrize('name', sorted(PREBUILT))
def test_to_code_of_a_prebuilt_transform_shows_the_wrapped_function(name):
    assert autograph.to_code(PREBUILT[name][0](p)) == autograph.to_code(p)


def test_prebuilt_jit_called_from_converted_code():
    for x in (1.5, -2.):
        assert float(autograph.convert(calls_prebuilt_jit)(jnp.float32(x))) == \
            pytest.approx(float(p(2., x)) + 1)
    assert 'ag.call(jp, 2.0, x)' in autograph.to_code(calls_prebuilt_jit)
    names = primitives(calls_prebuilt_jit, jnp.float32(1.), cheap_selects=True)
    assert {'cond', 'select_n'} & names   # (the prebuilt jit's own trace: cheap, a select)


def test_prebuilt_vmap_with_dict_axes():
    # Catalyst TestDecorators.test_vmap restated: a vmap made before conversion.
    def workflow(axes):
        if axes['y'] > 2:
            return axes['x'] + axes['y']
        return axes['x'] - axes['y']
    batched = jax.vmap(workflow, in_axes=({'x': None, 'y': 0},))
    got = autograph.convert(batched)({'x': 1, 'y': jnp.arange(5)})
    np.testing.assert_array_equal(got, [1, 0, -1, 4, 5])


@jax.custom_jvp
def soft_abs(x):
    if x > 0:
        return x
    return -x


@soft_abs.defjvp
def soft_abs_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    if x > 0:
        return soft_abs(x), t
    return soft_abs(x), -10 * t


@jax.custom_vjp
def clipped(x):
    if x > 1:
        return jnp.float32(1.)
    return x


def clipped_fwd(x):
    return clipped(x), x


def clipped_bwd(x, g):
    if x > 1:
        return (g * 0.5,)
    return (g,)


clipped.defvjp(clipped_fwd, clipped_bwd)


@pytest.mark.parametrize('x', [2., -3.])
def test_custom_jvp_and_vjp_rules_are_converted(x):
    def f(x):
        return jax.grad(soft_abs)(x) + jax.grad(clipped)(x) + soft_abs(x) + clipped(x)
    with jax.disable_jit():
        expected = f(jnp.float32(x))
    assert_same(autograph.convert(f)(jnp.float32(x)), expected)
    assert_same(autograph.convert(jax.grad(soft_abs))(jnp.float32(x)),
                jnp.float32(1. if x > 0 else -10.))


def test_custom_jvp_made_inside_converted_code():
    def f(x):
        def inner(v):
            if v > 0:
                return v
            return 2 * v
        g = jax.custom_jvp(inner)

        def rule(primals, tangents):
            if primals[0] > 0:
                return g(primals[0]), tangents[0] * 3
            return g(primals[0]), tangents[0] * 5
        g.defjvp(rule)
        return jax.grad(g)(x)
    for x in (1., -1.):
        assert float(autograph.convert(f)(jnp.float32(x))) == (3. if x > 0 else 5.)


# --- results that are not arrays ----------------------------------------------------------

def test_results_that_are_not_arrays_come_back_as_they_are():
    class Box:
        pass
    box = Box()

    def f(x, tag):
        return {'tag': tag, 'y': x * 2, 'n': 3, 'none': None, 'fn': len, 'box': box,
                'pair': ('text', x + 1)}
    g = autograph.convert(f)
    for x in (1., 2.):
        out = g(jnp.float32(x), 'a')
        assert out['tag'] == 'a' and out['n'] == 3 and type(out['n']) is int
        assert out['none'] is None and out['fn'] is len and out['box'] is box
        assert out['pair'][0] == 'text' and float(out['pair'][1]) == x + 1
        assert float(out['y']) == 2 * x
    assert g.trace_count == 1
    assert g(2., 'b')['y'] == 4. and type(g(2., 'b')['y']) is float   # Python in, Python out
    assert autograph.convert(lambda: 'hi')() == 'hi'
    assert autograph.convert(lambda x: None)(jnp.ones(2)) is None


def test_result_kinds_under_input_signature_and_concrete_functions():
    def f(x):
        return 'label', x + 1
    g = autograph.convert(f, input_signature=[jax.ShapeDtypeStruct((), jnp.float32)])
    label, y = g(jnp.float32(1.))
    assert label == 'label' and float(y) == 2.
    concrete = g.get_concrete_function()
    assert concrete(jnp.float32(3.))[0] == 'label'
    assert 'label' in str(concrete)


# --- concrete functions pin Python arguments ---------------------------------------------

def pow(a, b=2):  # noqa: A001 - the seed's name for it
    return a ** b


def test_concrete_function_pins_python_arguments():
    square = autograph.convert(pow).get_concrete_function(
        jax.ShapeDtypeStruct((), jnp.float32), b=2)
    x = jnp.float32(3.)
    assert float(square(x)) == 9. and float(square(x, b=2)) == 9.
    assert float(square(a=x)) == 9.
    with pytest.raises(TypeError) as info:
        square(x, b=3)
    assert 'traced with b=2' in str(info.value) and 'b=3' in str(info.value)
    with pytest.raises(TypeError):
        square(x, 2, 3)
    cube = autograph.convert(pow).get_concrete_function(
        jax.ShapeDtypeStruct((), jnp.float32), 3)
    assert float(cube(jnp.float32(2.))) == 8.
    with pytest.raises(TypeError, match='traced with b=3'):
        cube(jnp.float32(2.), 2)


def power(a, b):
    return a ** b


def test_concrete_function_pins_a_python_argument_without_default():
    square = autograph.convert(power).get_concrete_function(
        jax.ShapeDtypeStruct((), jnp.float32), b=2)
    assert float(square(jnp.float32(3.))) == power(3., 2)
    with pytest.raises(TypeError, match='traced with b=2'):
        square(jnp.float32(3.), b=3)


@pytest.mark.x64
def test_concrete_function_takes_weak_arrays_and_python_numbers_of_its_dtype():
    square = autograph.convert(power).get_concrete_function(
        jax.ShapeDtypeStruct((), jnp.int32), b=2)
    for x in (3, jnp.asarray(3), np.int32(3)):   # Python int, weakly typed, strong int32
        result = square(x)
        assert result.dtype == jnp.int32 and int(result) == power(3, 2)
    assert square.function.trace_count == 1
    with pytest.raises(ValueError, match=r'traced as int32\[\], but got 2.5'):
        square(2.5)   # int32 would truncate it
    with pytest.raises(ValueError, match=r'but got float(32|64)\[\] \(weakly typed\)'):
        square(jnp.asarray(2.5))


def test_defaults_are_part_of_the_call_key():
    f = autograph.convert(pow)
    x = jnp.float32(2.)
    assert float(f(x, 2)) == float(f(x, b=2)) == 4.
    assert f.trace_count == 1
    assert float(f(x, b=3)) == 8. and f.trace_count == 2
    assert float(f(x)) == 4.


def test_partial_of_a_converted_function_still_binds():
    f = autograph.convert(functools.partial(pow, b=3))
    assert float(f(jnp.float32(2.))) == 8.


def test_closures_of_one_def_holding_library_and_user_functions():
    # The generated code is shared by every closure of one `def`: the call of a closure
    # variable is decided when it runs, so a later closure's user function is converted.
    def make(g):
        def f(x):
            return g(x)
        return f

    def user(x):
        if x > 0:
            return x * 2
        return -x

    library_one, user_one = make(jnp.sin), make(user)
    for x in (jnp.float32(1.0), jnp.float32(-2.0)):
        np.testing.assert_allclose(autograph.convert(library_one)(x), jnp.sin(x))
        np.testing.assert_allclose(autograph.convert(user_one)(x), user(float(x)))


# --- a partial of a library function, called in converted code ---------------------------

def scaled_by_a_partial(x, scale):
    times = functools.partial(np.multiply, scale)
    clipped = functools.partial(np.clip, a_min=-1.0)
    total = 0.0
    for v in x:
        total = total + times(v)
    return total, clipped(x * 3.0, a_max=2.0)


def halved_by_a_partial_of_a_user_function(x):
    def scale(v, by):
        return v * by if by > 0 else -v
    half = functools.partial(scale, by=0.5)
    return half(x) + half(by=-1.0, v=x)


@pytest.mark.parametrize('make', [np.asarray, jnp.asarray], ids=['numpy', 'jax'])
def test_a_partial_of_a_numpy_function_is_its_call(make):
    """`partial(np.multiply, scale)(v)` is `np.multiply(scale, v)`, which converted code
    gives traced values as it gives them to `np.multiply` called by name (a
    TracedValueNeeded before: the partial called NumPy's function itself)."""
    x = np.array([1.0, -2.0, 3.0], np.float32)
    check(scaled_by_a_partial, make(x), 2.0)
    check(scaled_by_a_partial, make(x), jnp.float32(2.0))
    grad = jax.grad(lambda s: autograph.convert(scaled_by_a_partial)(make(x), s)[0])
    assert_same(grad(jnp.float32(2.0)), np.float32(x.sum()))


def test_a_partial_of_a_user_function_binds_as_python():
    check(halved_by_a_partial_of_a_user_function, jnp.array([2.0, -4.0]))
