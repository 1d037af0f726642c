"""PennyLane's program capture as an embedding (examples/pennylane_capture.py).

Each converted circuit runs on `default.qubit` with capture enabled and is compared with
the same circuit written with qml.cond / qml.for_loop / qml.while_loop by hand where
PennyLane can express it, and with its closed-form expectation value. The cases PennyLane
cannot stage yet through the plain embedding are strict xfails naming why, so that each
flips when the embedding API grows what it needs (issue 21).
"""
import warnings

import numpy as np
import pytest

qml = pytest.importorskip(
    'pennylane', reason='PennyLane needs JAX 0.7.1: runs in .venv-jax07')
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402

from examples import pennylane_capture as pc  # noqa: E402

if jax.__version__ != '0.7.1':
    pytest.skip('PennyLane needs JAX 0.7.1: runs in .venv-jax07', allow_module_level=True)


@pytest.fixture(autouse=True)
def capture():
    qml.capture.enable()
    with warnings.catch_warnings():   # "capture is an experimental feature" and x64 notes
        warnings.simplefilter('ignore', UserWarning)
        yield
    qml.capture.disable()


def close(actual, expected):
    np.testing.assert_allclose(np.asarray(actual), np.asarray(expected), atol=2e-6)


X = [-1.5, -0.5, 0.4, 0.7, 1.3]


@pytest.mark.parametrize('x', X)
def test_if_on_a_parameter(x):
    x = jnp.float32(x)
    expected = jnp.cos(x) if x > 1.0 else jnp.cos(2 * x)
    close(pc.circuit(pc.rotate_if_large)(x), expected)
    close(pc.by_hand(pc.rotate_if_large_by_hand)(x), expected)


@pytest.mark.parametrize('x', X)
def test_elif_chain(x):
    x = jnp.float32(x)
    expected = (jnp.cos(x) if x < 0.0 else jnp.cos(2 * x) if x < 1.0 else -1.0)
    close(pc.circuit(pc.by_sign)(x), expected)
    close(pc.by_hand(pc.by_sign_by_hand)(x), expected)


@pytest.mark.parametrize('x', [0.0, 0.7, 2.5])
def test_if_on_a_measurement(x):
    x = jnp.float32(x)
    close(pc.circuit(pc.teleport_bit)(x), jnp.cos(x))   # 1 - 2 P(m = 1)
    close(pc.by_hand(pc.teleport_bit_by_hand)(x), jnp.cos(x))


@pytest.mark.parametrize('x', [0.3, 0.7, 5.0])
def test_while_on_a_parameter(x):
    final = x
    while final > 0.5:
        final /= 2
    x = jnp.float32(x)
    close(pc.circuit(pc.halve_until_small)(x), jnp.cos(final))
    close(pc.by_hand(pc.halve_until_small_by_hand)(x), jnp.cos(final))


@pytest.mark.parametrize('n', [0, 1, 4, 7])
def test_for_over_a_traced_range(n):
    x = jnp.float32(0.7)
    close(pc.circuit(pc.layers)(x, n), jnp.cos(n * x))
    close(pc.by_hand(pc.layers_by_hand)(x, n), jnp.cos(n * x))


def test_short_python_loops_unroll():
    x = jnp.float32(0.7)
    close(pc.circuit(pc.three_layers)(x), jnp.cos(3 * x))
    close(pc.circuit(pc.ladder)(x), jnp.cos(6 * x))       # RX(x), RX(2x), RX(3x)


def test_for_over_a_python_range_of_five():
    """A Python range of 4+ steps over PennyLane's values is its for_loop (it was staged
    as lax.scan behind its back: no gate captured, expectation 1.0)."""
    x = jnp.float32(0.7)
    expected = pc.by_hand(pc.layers_by_hand)(x, 5)
    close(expected, jnp.cos(5 * x))
    close(pc.circuit(pc.five_layers)(x), expected)


@pytest.mark.parametrize('x', [0.3, 0.7, 0.9])
def test_nested_loops_with_break(x):
    gates = 0
    for i in range(3):
        for j in range(3):
            if x * (i + j) > 1.5:
                break
            gates += 1
    close(pc.circuit(pc.nested_with_break)(jnp.float32(x)), np.cos(gates * x))


@pytest.mark.parametrize('x', [0.1, 0.4, 0.7, 1.3])
def test_conditional_expression_and_and(x):
    angle = x if x > 0.5 else 2 * x
    if x > 0.2 and x < 1.0:
        angle += x
    close(pc.circuit(pc.conditional_angle)(jnp.float32(x)), np.cos(angle))


def test_grad_through_converted_control_flow():
    x = jnp.float32(0.7)
    close(jax.grad(pc.circuit(pc.rotate_if_large))(x), -2 * jnp.sin(2 * x))
    close(jax.grad(pc.circuit(pc.ladder))(x), -6 * jnp.sin(6 * x))
    close(jax.grad(pc.circuit(pc.halve_until_small))(jnp.float32(3.0)),
          -jnp.sin(3.0 / 8) / 8)


def test_the_classical_parts_run_under_jax():
    """The same control flow without a quantum part: the default JAX lowering."""
    import autograph

    def halve(x):
        while x > 0.5:
            x = x / 2
        return x
    assert float(autograph.convert(halve)(jnp.float32(3.0))) == 0.375


# --- what the plain embedding cannot stage yet -------------------------------------------

def while_with_and(x):
    k = 0
    while x > 0.5 and k < 3:
        x = x / 2
        k += 1
    qml.RX(x, wires=0)
    return qml.expval(qml.PauliZ(0))


def test_while_with_and():
    close(pc.circuit(while_with_and)(jnp.float32(5.0)), jnp.cos(0.625))


def both_measured(x):
    qml.RX(x, wires=0)
    qml.RX(x, wires=1)
    m0 = qml.measure(0)
    m1 = qml.measure(1)
    if m0 and m1:
        qml.PauliX(wires=2)
    return qml.expval(qml.PauliZ(2))


def both_measured_by_hand(x):
    qml.RX(x, wires=0)
    qml.RX(x, wires=1)
    m0 = qml.measure(0)
    m1 = qml.measure(1)

    def flip():
        qml.PauliX(wires=2)
    qml.cond(m0 & m1, flip)()
    return qml.expval(qml.PauliZ(2))


@pytest.mark.xfail(strict=True, raises=AssertionError, reason=(
    '`m0 and m1` is the select jnp.where(m0, m1, m0) of two mid-circuit measurements, '
    "which PennyLane's deferred measurements cannot interpret (by hand: m0 & m1)"))
def test_if_on_an_and_of_measurements():
    x = jnp.float32(0.7)
    expected = 1 - 2 * jnp.sin(x / 2) ** 4
    close(pc.by_hand(both_measured_by_hand, wires=5)(x), expected)
    close(pc.circuit(both_measured, wires=5)(x), expected)


def repeat_until_zero(x):
    qml.Hadamard(0)
    m = qml.measure(0)
    tries = 0
    while m == 1 and tries < 3:
        qml.Hadamard(0)
        m = qml.measure(0)
        tries += 1
    return qml.expval(qml.PauliZ(0))


@pytest.mark.xfail(strict=True, raises=TypeError, reason=(
    '`m == 1 and tries < 3` over a measurement re-measured in the loop: PennyLane\'s '
    'while_loop cannot carry a mid-circuit measurement value'))
def test_while_on_a_measurement_with_and():
    pc.circuit(repeat_until_zero, wires=6)(jnp.float32(0.0))


def test_the_guide_shows_the_example_s_embedding():
    """docs/embedding.md's PennyLane block (not run by the docs test, which runs on the
    newest JAX) is the example's code."""
    import inspect
    import os
    import re
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with open(os.path.join(root, 'docs', 'embedding.md'), encoding='utf-8') as f:
        (block,) = re.findall(r'^```py\n(.*?)^```', f.read(), re.MULTILINE | re.DOTALL)
    source = inspect.getsource(pc)
    for line in block.splitlines():
        code = line.split('  #')[0].rstrip()
        if code:
            assert code in source, f'docs/embedding.md: {code!r} is not in the example'


def flip_unless_measured(x):
    qml.RX(x, wires=0)
    m = qml.measure(0)
    if not m:
        qml.PauliX(wires=1)
    return qml.expval(qml.PauliZ(1))


def flip_unless_measured_by_hand(x):
    qml.RX(x, wires=0)
    m = qml.measure(0)

    def flip():
        qml.PauliX(wires=1)
    qml.cond(m == 0, flip)()   # (~m is a bitwise not of the captured int: always true)
    return qml.expval(qml.PauliZ(1))


@pytest.mark.xfail(strict=True, raises=AssertionError, reason=(
    '`not m` is the select jnp.where(m, False, True) of a mid-circuit measurement, '
    "which PennyLane's deferred measurements cannot interpret (by hand: m == 0)"))
def test_not_of_a_measurement():
    x = jnp.float32(0.7)
    close(pc.by_hand(flip_unless_measured_by_hand)(x), -jnp.cos(x))
    close(pc.circuit(flip_unless_measured)(x), -jnp.cos(x))
