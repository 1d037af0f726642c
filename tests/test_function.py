"""Function / ConcreteFunction: tf.function's tracing semantics on jax.jit."""
import collections
import os
import subprocess
import sys
import textwrap
import warnings

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from tests.helpers import assert_same


def make_counter():
    traces = []

    @autograph.convert
    def f(x, *rest):
        traces.append(len(traces))   # (read, so not a log: one item per trace)
        return x
    return f, traces


def test_decorator_forms():
    @autograph.convert
    def a(x):
        return x + 1

    @autograph.convert(jit=True)
    def b(x):
        return x + 2
    c = autograph.convert(lambda x: x + 3)
    assert [float(g(jnp.float32(0))) for g in (a, b, c)] == [1., 2., 3.]
    assert isinstance(a, autograph.Function) and a.__name__ == 'a'
    assert a.python_function(1) == 2


def test_cache_keys():
    f, traces = make_counter()
    f(jnp.ones(3))
    f(jnp.zeros(3))                      # same shape and dtype: no retrace
    assert f.trace_count == 1
    f(jnp.ones(4))                       # new shape
    f(jnp.ones(3, jnp.int32))            # new dtype
    assert f.trace_count == 3
    f(jnp.ones(3), 1)
    f(jnp.ones(3), 1)
    f(jnp.ones(3), 2)                    # Python scalars key by value
    assert f.trace_count == 5
    f(jnp.ones(3), 'a')
    f(jnp.ones(3), None)
    f(jnp.ones(3), None)
    assert f.trace_count == 7
    f(jnp.ones(3), [jnp.ones(2), 1])
    f(jnp.ones(3), [jnp.zeros(2), 1])    # same structure and leaf keys
    f(jnp.ones(3), (jnp.zeros(2), 1))    # tuple vs list: new structure
    assert f.trace_count == 9
    Pair = collections.namedtuple('Pair', 'a b')
    f(jnp.ones(3), Pair(1, jnp.ones(1)))
    f(jnp.ones(3), {'k': jnp.ones(1)})
    f(jnp.ones(3), {'k': jnp.ones(1)})
    assert f.trace_count == 11
    assert len(traces) == f.trace_count


def test_objects_key_by_hash_or_identity():
    class Config:
        pass
    f, _ = make_counter()
    one, two = Config(), Config()
    f(jnp.ones(1), one)
    f(jnp.ones(1), one)
    f(jnp.ones(1), two)
    assert f.trace_count == 2


def test_print_runs_while_tracing_only(capsys):
    @autograph.convert
    def f(x):
        print('Tracing with', x)
        return x
    f(jnp.float32(1))
    f(jnp.float32(2))
    f(jnp.int32(1))
    assert capsys.readouterr().out.count('Tracing with') == 2


def test_seed_train_num_steps_retraces_per_value(capsys):
    @autograph.convert
    def train(num_steps):
        print('Tracing with num_steps =', num_steps)
        total = 0
        for i in range(num_steps):
            total += i
        return total
    train(num_steps=10)
    train(num_steps=20)
    train(num_steps=10)
    assert train.trace_count == 2
    assert capsys.readouterr().out.count('Tracing') == 2


def test_input_signature():
    @autograph.convert(input_signature=[jax.ShapeDtypeStruct((None,) and (3,), jnp.int32)])
    def next_collatz(x):
        return jnp.where(x % 2 == 0, x // 2, 3 * x + 1)
    np.testing.assert_array_equal(next_collatz(jnp.array([1, 2, 3])), [4, 1, 10])
    next_collatz(jnp.array([5, 6, 7]))
    assert next_collatz.trace_count == 1
    with pytest.raises(ValueError) as info:
        next_collatz(jnp.array([1., 2., 3.]))
    assert "argument 'x'" in str(info.value)
    assert 'int32[3]' in str(info.value) and 'float32[3]' in str(info.value)
    with pytest.raises(ValueError, match=r'int32\[3\].*int32\[4\]'):
        next_collatz(jnp.array([1, 2, 3, 4]))


def test_get_concrete_function():
    @autograph.convert
    def double(a):
        return a + a
    f1 = double.get_concrete_function(jax.ShapeDtypeStruct((2,), jnp.float32))
    f2 = double.get_concrete_function(jnp.ones(2))
    assert f1 is f2
    np.testing.assert_allclose(f1(jnp.array([1., 2.])), [2., 4.])
    text = str(f1)
    assert 'Args:' in text and 'a: float32[2]' in text and 'Returns:' in text
    assert 'add' in str(f1.jaxpr)
    assert 'stablehlo.add' in f1.as_text()
    (arg,), kwargs = f1.structured_input_signature
    assert arg.shape == (2,) and kwargs == {}
    assert f1.structured_outputs.shape == (2,)
    with pytest.raises(ValueError, match=r"argument 'a'.*float32\[2\].*float32\[3\]"):
        f1(jnp.ones(3))
    with pytest.raises(TypeError):
        f1(jnp.ones(2), jnp.ones(2))
    double.get_concrete_function(jnp.ones(3, jnp.int32))
    listing = double.pretty_printed_concrete_signatures()
    assert 'float32[2]' in listing and 'int32[3]' in listing


def test_python_arguments_are_pinned():
    @autograph.convert
    def power(a, b=2):
        return a ** b
    square = power.get_concrete_function(jnp.float32(3.))
    assert float(square(jnp.float32(3.))) == 9.
    with pytest.raises(TypeError) as info:
        square(jnp.float32(3.), b=3)
    assert 'traced' in str(info.value)


def test_run_functions_eagerly():
    seen = []

    @autograph.convert
    def f(x):
        seen.append(type(x).__name__)
        return x * 2
    autograph.run_functions_eagerly(True)
    try:
        assert autograph.functions_run_eagerly()
        f(jnp.float32(1.))
        f(jnp.float32(1.))
    finally:
        autograph.run_functions_eagerly(False)
    assert not autograph.functions_run_eagerly()
    assert seen == ['ArrayImpl', 'ArrayImpl']
    f(jnp.float32(1.))
    assert seen[-1] != 'ArrayImpl'


def test_retracing_warning_names_the_argument():
    @autograph.convert
    def f(x, n):
        return x * n
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        for n in range(6):
            f(jnp.float32(1.), n)
    messages = [str(w.message) for w in caught]
    assert len(messages) == 1
    assert "'n'" in messages[0] and 'jnp.asarray' in messages[0]


def test_jit_false_embeds_in_user_jit():
    def f(x):
        if x > 0:
            x = x * 2
        return x
    g = autograph.convert(f, jit=False)
    assert float(jax.jit(g)(jnp.float32(2.))) == 4.
    assert g.trace_count == 0


def test_converted_functions_compose():
    @autograph.convert
    def add(a, b):
        if jnp.sum(a) > jnp.sum(b):
            return a + b
        return a - b

    @autograph.convert
    def dense(x, w, b):
        return jax.nn.relu(add(x @ w, b))
    x, w, b = jnp.ones((2, 3)), jnp.ones((3, 4)), jnp.ones(4)
    np.testing.assert_allclose(dense(x, w, b), jax.nn.relu(x @ w + b))
    grad = jax.grad(lambda w: dense(x, w, b).sum())(w)
    assert grad.shape == w.shape
    batched = jax.vmap(dense, in_axes=(0, None, None))(jnp.ones((5, 2, 3)), w, b)
    assert batched.shape == (5, 2, 4)
    assert jax.jit(dense)(x, w, b).shape == (2, 4)


def test_leaked_tracer_says_what_leaked():
    class Box:
        pass
    box = Box()

    @autograph.do_not_convert
    def stash(value):
        box.__dict__['value'] = value   # (code left unconverted: no place is shown)

    @autograph.convert
    def leaky(x):
        stash(x + 1)
        return x
    leaky(jnp.float32(1.))
    with pytest.raises(jax.errors.UnexpectedTracerError, match='leak'):
        jnp.sin(box.value) + 1


def test_sharded_inputs_on_eight_cpu_devices(tmp_path):
    script = textwrap.dedent('''
        import jax, jax.numpy as jnp, numpy as np
        from jax.sharding import Mesh, NamedSharding, PartitionSpec as P
        import autograph
        assert len(jax.devices()) == 8
        mesh = Mesh(np.array(jax.devices()), ('d',))
        x = jax.device_put(jnp.arange(16.), NamedSharding(mesh, P('d')))

        @autograph.convert
        def f(x):
            total = 0.0
            for v in x:
                if v > 3:
                    total = total + v
            while total > 10:
                total = total / 2
            return x * 2, total
        doubled, total = f(x)
        expected = sum(v for v in range(16) if v > 3)
        while expected > 10:
            expected /= 2
        assert np.allclose(total, expected), (total, expected)
        assert doubled.sharding.is_equivalent_to(x.sharding, 1)
        print('ok')
    ''')
    env = dict(os.environ, XLA_FLAGS='--xla_force_host_platform_device_count=8')
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    path = tmp_path / 'sharded.py'
    path.write_text(script)
    env['PYTHONPATH'] = root
    result = subprocess.run([sys.executable, str(path)], env=env, cwd=root,
                            capture_output=True, text=True, timeout=300)
    assert result.stdout.strip().endswith('ok'), result.stderr[-3000:]


def test_library_wrappers_of_functions_are_not_mistaken_for_them():
    def collatz(a):
        steps = 0
        while a > 1:
            a = a // 2 if a % 2 == 0 else 3 * a + 1
            steps += 1
        return steps
    x = jnp.arange(1, 9, dtype=jnp.int32)
    expected = [collatz(int(v)) for v in x]
    f = autograph.convert(jax.vmap(autograph.convert(collatz, jit=False)))
    assert list(f(x)) == expected   # functools.wraps copies attributes: still the vmap


def test_result_object_holding_a_traced_array_is_named():
    # An object that is not a pytree comes back as it is: holding a traced array, it
    # would carry a tracer out of the compiled program.
    class Pair:
        def __init__(self, a):
            self.a = a

    plain = autograph.convert(lambda n: Pair(int(n) + 1))(3)
    assert plain.a == Pair(4).a
    with pytest.raises(autograph.ControlFlowError, match=r"the result\.a .*Pair.*pytree"):
        autograph.convert(lambda n: Pair(n + 1))(jnp.int32(1))


class _Ridge:
    def __init__(self, lam):
        self.lam, self.coef_, self.halved_ = lam, None, 0

    def fit(self, X, y):
        A = X.T @ X + self.lam * jnp.eye(X.shape[1])
        self.coef_ = jnp.linalg.solve(A, X.T @ y)
        if jnp.linalg.norm(self.coef_) > 0.5:
            self.coef_ = self.coef_ / 2
            self.halved_ += 1
        return self


@pytest.mark.parametrize('lam', [0.1, 50.0])
def test_a_method_returning_self_after_setting_traced_attributes(lam):
    """scikit-learn's `fit`: the attributes it sets are state the call gives back, so the
    object returned holds the program's values (a ControlFlowError before, as for an
    object holding a traced array the call does not give back)."""
    X, y = jnp.arange(12.0).reshape(4, 3), jnp.arange(4.0)
    expected = _Ridge(lam).fit(X, y)
    bound, unbound = _Ridge(lam), _Ridge(lam)
    for model, returned in ((bound, autograph.convert(bound.fit)(X, y)),
                            (unbound, autograph.convert(_Ridge.fit)(unbound, X, y))):
        assert returned is model and not isinstance(model.coef_, jax.core.Tracer)
        assert_same(model.coef_, expected.coef_)
        assert int(model.halved_) == expected.halved_


def test_arguments_that_do_not_fit_name_the_function():
    def takes_one(v):
        return v
    with pytest.raises(TypeError, match=r'takes_one\(\): too many positional arguments'):
        autograph.convert(takes_one)(jnp.float32(1.), 2)
    with pytest.raises(TypeError, match=r"takes_one\(\).* missing .*argument: 'v'"):
        autograph.convert(takes_one)()
    with pytest.raises(TypeError, match=r"takes_one\(\).* unexpected keyword argument 'w'"):
        autograph.convert(takes_one)(jnp.float32(1.), w=2)


class _Scale:
    def __init__(self):
        self.calls = 0


def _mixed_result(x, scale):
    scale.calls += 1
    if x > 0:
        y = x * 2
    else:
        y = -x
    while y < 10:
        y = y * 2
    return {'y': y, 'name': 'v', 'n': scale.calls}


@pytest.mark.parametrize('x', [2.0, -3.0])
def test_results_and_state_come_back_as_python_gives_them_under_disable_jit(x):
    expected = _mixed_result(jnp.float32(x), _Scale())
    fn, scale = autograph.convert(_mixed_result), _Scale()
    with jax.disable_jit():
        first = fn(jnp.float32(x), scale)
        second = fn(x, scale)
    for got, n in ((first, 1), (second, 2)):
        assert (type(got), sorted(got), got['name'], got['n']) == (dict, ['n', 'name', 'y'],
                                                                   'v', n)
        assert_same(got['y'], expected['y'])
    assert scale.calls == 2


def _flagged(x, flag):
    if flag is True:
        return x + 1
    return x + 100 * flag


def test_equal_python_values_of_different_types_do_not_share_a_trace():
    fn = autograph.convert(_flagged)
    for flag in (1, True, 1.0, 0, False):
        assert_same(fn(jnp.float32(1.0), flag), _flagged(1.0, flag))
    assert fn.trace_count == 5
