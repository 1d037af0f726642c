"""Frameworks embedding autograph: their lowerings first, their own options and errors.

Ground truth is the user's function run as plain Python on the same inputs: the tiny
graph framework of examples/tinygraph.py (not JAX) evaluates its graphs with Python
numbers; the Flax NNX model of examples/flax_nnx.py runs unconverted, eagerly.
"""
import warnings

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from flax import nnx

import autograph
from autograph.runtime.backends import dispatch
from examples import flax_nnx, tinygraph
from tests.helpers import staged


def sum_of_squares_until(n, limit):
    total = 0
    for i in range(n):
        if total > limit:
            break
        total = total + i * i
    return total


def clipped(x, low):
    y = x if x > low else low
    if not (x > 100 or x < -100) and x != 7:
        y = y * 2
    return y


def countdown(n):
    steps = 0
    while n > 0:
        autograph.set_loop_options(maximum_iterations=5)
        n = n - 2
        steps = steps + 1
    return steps


def strided(n):
    total = 0
    for i in range(1, n, 3):
        total = total + i
    return total


@pytest.mark.parametrize('fn,names,inputs', [
    (tinygraph.collatz_steps, ('n',), [{'n': 27}, {'n': 1}, {'n': 6}]),
    (sum_of_squares_until, ('n', 'limit'), [{'n': 10, 'limit': 50}, {'n': 3, 'limit': 99},
                                            {'n': 0, 'limit': 1}]),
    (clipped, ('x', 'low'), [{'x': 3.0, 'low': 1.0}, {'x': -5.0, 'low': 0.5},
                             {'x': 7, 'low': 0}, {'x': 200.0, 'low': 1.0}]),
    (countdown, ('n',), [{'n': 3}, {'n': 9}, {'n': -1}]),   # within the bound
    (strided, ('n',), [{'n': 11}, {'n': 1}, {'n': 2}]),
])
def test_one_function_under_a_framework_and_under_jax(fn, names, inputs):
    graph = tinygraph.compile(fn, *names)
    for values in inputs:
        expected = fn(**values)
        assert graph.run(**values) == expected
        jax_args = [jnp.asarray(values[name]) for name in names]
        np.testing.assert_allclose(autograph.convert(fn)(*jax_args), expected, rtol=1e-6)


def test_the_graph_stages_loops_and_branches_once():
    graph = tinygraph.compile(tinygraph.collatz_steps, 'n')
    assert {'while', 'cond'} <= graph.ops()
    assert str(graph).count('= cond') == 1 and str(graph).count('= while') == 1
    loop = tinygraph.compile(sum_of_squares_until, 'n', 'limit')
    assert {'fori', 'cond'} <= loop.ops()


def test_python_values_keep_python_control_flow():
    # `limit` is a Python number: only `n` is the framework's value.
    graph = tinygraph.compile(lambda n: sum_of_squares_until(n, 5), 'n')
    assert graph.run(n=10) == sum_of_squares_until(10, 5)
    # A short Python range (fewer than loop_policy.SHORT_LOOP steps) runs as Python.
    unrolled = tinygraph.compile(lambda limit: sum_of_squares_until(3, limit), 'limit')
    assert 'fori' not in unrolled.ops() and unrolled.run(limit=3) == sum_of_squares_until(3, 3)


def layers(x):
    for i in range(8):
        x = x * 2 + i
    return x


def test_a_python_range_over_the_frameworks_values_is_its_fori_loop():
    """A `for` over a Python range whose loop carries (or whose body sees) the
    framework's values is the framework's to stage: its fori_loop, one body, never
    `lax.scan` behind its back and never eight unrolled copies."""
    graph = tinygraph.compile(layers, 'x')
    assert 'fori' in graph.ops() and str(graph).count('= mul') == 1
    assert graph.run(x=3) == layers(3)
    seen = tinygraph.compile(lambda limit: sum_of_squares_until(8, limit), 'limit')
    assert 'fori' in seen.ops()
    assert [seen.run(limit=v) for v in (0, 10, 100)] == [
        sum_of_squares_until(8, v) for v in (0, 10, 100)]


def test_an_embedding_can_ask_for_python_ranges_unrolled():
    unrolling = autograph.Embedding(error=tinygraph.TracingError, unroll_loops=True)
    unrolling.register(lambda value: isinstance(value, tinygraph.Node),
                       cond=tinygraph.cond, while_loop=tinygraph.while_loop,
                       fori_loop=tinygraph.fori_loop)
    graph = tinygraph.trace(autograph.transform(layers, embedding=unrolling), 'x')
    assert 'fori' not in graph.ops() and str(graph).count('= mul') == 8
    assert graph.run(x=3) == layers(3)


def test_set_loop_options_unroll_comes_before_the_embedding():
    def unrolled_layers(x):
        for i in range(8):
            autograph.set_loop_options(unroll=True)
            x = x * 2 + i
        return x
    graph = tinygraph.compile(unrolled_layers, 'x')
    assert 'fori' not in graph.ops() and graph.run(x=3) == layers(3)


def test_without_autograph_the_framework_rejects_python_control_flow():
    with pytest.raises(tinygraph.TracingError, match='no truth value'):
        tinygraph.trace(tinygraph.collatz_steps, 'n')


def one_branch(x):
    if x > 0:
        y = x * 2
    return y


def test_errors_are_ours_and_the_frameworks():
    with pytest.raises(autograph.ControlFlowError) as info:
        tinygraph.compile(one_branch, 'x')
    assert isinstance(info.value, tinygraph.TracingError)
    assert "'y'" in str(info.value) and 'test_embedding.py:' in str(info.value)
    # Outside the embedding, JAX's staging carries `y` with a bound flag (issue 20):
    # Python's value where it is bound, Python's UnboundLocalError where it is not.
    assert float(autograph.convert(one_branch)(jnp.float32(1.0))) == one_branch(1.0)
    with pytest.raises(UnboundLocalError) as unbound:
        autograph.convert(one_branch)(jnp.float32(-1.0))
    assert not isinstance(unbound.value, tinygraph.TracingError)


def loop_created(n):
    i = 0
    while i < n:
        last = i
        i = i + 1
    return last


def test_loop_state_must_exist_before_a_framework_loop():
    with pytest.raises(tinygraph.TracingError, match="'last' has no value before"):
        tinygraph.compile(loop_created, 'n')


def test_lowerings_registered_globally_are_found_without_an_embedding():
    lowering = autograph.register(lambda v: isinstance(v, tinygraph.Node),
                                  cond=tinygraph.cond, while_loop=tinygraph.while_loop,
                                  fori_loop=tinygraph.fori_loop)
    try:
        graph = tinygraph.trace(autograph.transform(tinygraph.collatz_steps), 'n')
    finally:
        autograph.unregister(lowering)
    assert graph.run(n=27) == tinygraph.collatz_steps(27)
    with pytest.raises(tinygraph.TracingError):
        tinygraph.trace(autograph.transform(tinygraph.collatz_steps), 'n')


def test_a_missing_primitive_is_named():
    partial = autograph.Embedding()
    partial.register(lambda v: isinstance(v, tinygraph.Node), cond=tinygraph.cond)
    with pytest.raises(autograph.ControlFlowError, match='gives no while_loop'):
        tinygraph.trace(autograph.transform(tinygraph.collatz_steps, embedding=partial), 'n')


def helper_in_other_module(x):
    if x > 0:
        return x
    return -x


def test_an_embeddings_module_options_stay_its_own():
    skip = autograph.Embedding(do_not_convert_modules=(__name__,))
    skip.register(lambda v: isinstance(v, tinygraph.Node), cond=tinygraph.cond)

    def calls_helper(x):
        return autograph_call(x)
    autograph_call = helper_in_other_module   # resolved when called: goes through ag.call
    with pytest.raises(tinygraph.TracingError, match='no truth value'):
        tinygraph.trace(autograph.transform(calls_helper, embedding=skip), 'x')
    # Other users still get the helper converted.
    assert tinygraph.compile(calls_helper, 'x').run(x=-3) == 3
    assert autograph.convert(calls_helper)(jnp.float32(-3.0)) == 3.0


def test_transform_returns_the_converted_function_without_jit():
    converted = autograph.transform(tinygraph.collatz_steps)
    assert converted(27) == 111
    jaxpr = str(jax.make_jaxpr(converted)(jnp.int32(27)))
    # (the branch is a cond, or a select where it is cheap: runtime.staging.cheap)
    assert 'while[' in jaxpr and ('cond[' in jaxpr or 'select_n' in jaxpr) \
        and 'pjit' not in jaxpr
    assert autograph.to_code(converted) == autograph.to_code(tinygraph.collatz_steps)


# --- Flax NNX: module state changed inside staged control flow ----------------------------

def _plain_call(model, xs):
    return flax_nnx.GatedCounter.__call__.__wrapped__(model, xs)


@pytest.fixture(autouse=False)
def quiet():
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', DeprecationWarning)
        yield


@pytest.mark.parametrize('scale', [1.0, -1.0, 0.01])
def test_nnx_state_changes_match_python(quiet, scale):
    xs = flax_nnx.XS * scale
    model = flax_nnx.GatedCounter(nnx.Rngs(0))
    reference = nnx.clone(model)
    out = nnx.jit(lambda m, xs: m(xs))(model, xs)
    expected = _plain_call(reference, xs)
    np.testing.assert_allclose(out, expected, rtol=1e-5)
    for name in ('mean', 'opened', 'shrinks'):
        np.testing.assert_allclose(getattr(model, name)[...], getattr(reference, name)[...],
                                   rtol=1e-5)


def test_nnx_lowering_is_staged_once(quiet):
    model = flax_nnx.GatedCounter(nnx.Rngs(0))
    graphdef, state = nnx.split(model)
    primitives = str(jax.make_jaxpr(
        lambda state, xs: nnx.merge(graphdef, state)(xs))(state, flax_nnx.XS))
    assert primitives.count('cond[') == 2 and primitives.count('scan[') == 2


def test_nnx_gradients_match_python(quiet):
    model = flax_nnx.GatedCounter(nnx.Rngs(1))
    reference = nnx.clone(model)
    grads = nnx.jit(nnx.grad(flax_nnx.loss_fn))(model, flax_nnx.XS, flax_nnx.TARGET)
    expected = nnx.grad(lambda m, xs, t: jnp.mean((_plain_call(m, xs) - t) ** 2))(
        reference, flax_nnx.XS, flax_nnx.TARGET)
    for a, b in zip(jax.tree_util.tree_leaves(grads), jax.tree_util.tree_leaves(expected)):
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-6)


def test_nnx_model_trains(quiet):
    losses, model = flax_nnx.train(steps=20, learning_rate=0.1)
    assert losses[-1] < 0.5 * losses[0]
    assert int(model.opened[...]) > 0 and int(model.shrinks[...]) > 0


def test_the_nnx_lowering_applies_only_inside_its_functions():
    # Plain jax code converted without the embedding keeps lax (no nnx transforms).
    assert staged(tinygraph.collatz_steps, jnp.int32(27)) == {'while', 'cond'}
    assert autograph.Embedding is type(flax_nnx.NNX) and dispatch.active() is None


# --- optional primitives: select, and the type rule for a framework's cond -------------

def _strict_cond(pred, true_fun, false_fun, *operands):
    """A `cond` that, like PennyLane's, wants identical output types from its branches."""
    shapes = [jax.eval_shape(f, *operands) for f in (true_fun, false_fun)]
    types = [[(a.shape, a.dtype, a.weak_type) for a in jax.tree_util.tree_leaves(s)]
             for s in shapes]
    assert types[0] == types[1], types
    return jax.lax.cond(pred, true_fun, false_fun, *operands)


def _strict_embedding(select=None):
    embedding = autograph.Embedding()
    embedding.register(cond=_strict_cond, while_loop=jax.lax.while_loop,
                       fori_loop=jax.lax.fori_loop, select=select)
    return embedding


def and_then_count(x):
    k = 0
    if x > 0.5 and x < 2.0:
        k = k + 1   # a weakly typed value in one branch, a Python 0 in the other
    return k


@pytest.mark.parametrize('x', [0.2, 1.0, 3.0])
def test_and_uses_the_frameworks_select_and_branches_agree_on_types(x):
    picked = []

    def select(pred, on_true, on_false):
        picked.append(pred)
        return jnp.where(pred, on_true, on_false)
    converted = autograph.transform(and_then_count, embedding=_strict_embedding(select))
    assert int(jax.jit(converted)(jnp.float32(x))) == and_then_count(x)
    assert picked, 'the `and` did not go through the select primitive'


def test_without_a_select_and_goes_through_the_frameworks_cond():
    converted = autograph.transform(and_then_count, embedding=_strict_embedding())
    assert [int(jax.jit(converted)(jnp.float32(x))) for x in (0.2, 1.0)] == [0, 1]
