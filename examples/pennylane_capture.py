"""PennyLane's program capture, with control flow written as plain Python.

With `qml.capture.enable()`, a QNode is traced by JAX into a program (a jaxpr) that holds
its gates, mid-circuit measurements and control flow; a Python `if` on a parameter or a
measurement cannot be captured, so PennyLane users write `qml.cond`, `qml.while_loop` and
`qml.for_loop` instead. Converted by autograph with the embedding below, the same circuits
are written with `if`/`elif`/`while`/`for`, and each becomes PennyLane's own primitive.

PennyLane's primitives are curried (`qml.cond(pred, t, f)(*ops)`,
`qml.while_loop(c)(body)(*state)`, `qml.for_loop(start, stop, step)(body)(*state)`) and
return a bare value for a single loop variable; autograph calls `jax.lax`'s signatures
with the loop state as one tuple, so the embedding registers three small adapters.

PennyLane 0.45 needs exactly JAX 0.7.1 for program capture (`make test` runs this file's
tests in .venv-jax07). Run it there: `python -m examples.pennylane_capture`.
"""
import jax
import jax.numpy as jnp
import pennylane as qml

import autograph

# --- the embedding: PennyLane's primitives with jax.lax's signatures ----------------------


def _bare(state):
    """PennyLane passes and returns one loop variable bare, several as a tuple, none as
    None."""
    state = tuple(state)
    return state[0] if len(state) == 1 else state or None


def _tupled(out, size):
    return () if size == 0 else (out,) if size == 1 else tuple(out)


def cond(pred, true_fun, false_fun, *operands):
    """`jax.lax.cond`'s signature over `qml.cond(pred, true_fn, false_fn)(*operands)`."""
    return qml.cond(pred, true_fun, false_fun)(*operands)


def while_loop(cond_fun, body_fun, init_val):
    """`jax.lax.while_loop`'s signature over `qml.while_loop(cond)(body)(*state)`."""
    loop = qml.while_loop(lambda *state: cond_fun(state))(
        lambda *state: _bare(body_fun(state)))
    return _tupled(loop(*init_val), len(init_val))


def fori_loop(lower, upper, body_fun, init_val):
    """`jax.lax.fori_loop`'s signature over `qml.for_loop(lower, upper, 1)(body)(*state)`
    (autograph passes the iteration count of a range with a step)."""
    loop = qml.for_loop(lower, upper, 1)(lambda i, *state: _bare(body_fun(i, state)))
    return _tupled(loop(*init_val), len(init_val))


def select(pred, on_true, on_false):
    """`and`, `or`, `not` and conditional expressions pick a value without a `qml.cond`
    (which cannot return a mid-circuit measurement from a branch)."""
    return jnp.where(pred, on_true, on_false)


# PennyLane's values while capturing are JAX tracers: a lowering with no predicate claims
# them all while code converted for this embedding runs.
PENNYLANE = autograph.Embedding(do_not_convert_modules=('pennylane',))
PENNYLANE.register(cond=cond, while_loop=while_loop, fori_loop=fori_loop, select=select)


def circuit(fn, wires=3):
    """A QNode on `default.qubit` running `fn` converted for PennyLane (a mid-circuit
    measurement takes one more wire: default.qubit defers it)."""
    return qml.qnode(qml.device('default.qubit', wires=wires))(
        autograph.transform(fn, embedding=PENNYLANE))


def by_hand(fn, wires=3):
    """A QNode running `fn` as it is (for the circuits written with qml.cond & co)."""
    return qml.qnode(qml.device('default.qubit', wires=wires))(fn)


# --- quantum functions with Python control flow ------------------------------------------


def rotate_if_large(x):
    """`if` on a parameter: RX(x) when x > 1, else RY(2x)."""
    if x > 1.0:
        qml.RX(x, wires=0)
    else:
        qml.RY(2 * x, wires=0)
    return qml.expval(qml.PauliZ(0))


def by_sign(x):
    """An `if`/`elif`/`else` chain on a parameter: nested `qml.cond`s (the embedding API
    has no switch primitive to register qml.cond's `elifs=` as)."""
    if x < -1.0:
        qml.RX(-x, wires=0)
    elif x < 0.0:
        qml.RY(-x, wires=0)
    elif x < 1.0:
        qml.RX(2 * x, wires=0)
    else:
        qml.PauliX(wires=0)
    return qml.expval(qml.PauliZ(0))


def teleport_bit(x):
    """`if` on a mid-circuit measurement: a correction applied when it reads 1."""
    qml.RX(x, wires=0)
    m = qml.measure(0)
    if m:
        qml.PauliX(wires=1)
    return qml.expval(qml.PauliZ(1))


def halve_until_small(x):
    """`while` on a parameter: RX(x / 2**k) for the first k with x / 2**k < 0.5."""
    while x > 0.5:
        x = x / 2
    qml.RX(x, wires=0)
    return qml.expval(qml.PauliZ(0))


def layers(x, n):
    """`for` over `range(n)` applying gates: n layers of RX(x), cos(n x) in closed form."""
    for i in range(n):
        qml.RX(x, wires=0)
    return qml.expval(qml.PauliZ(0))


def three_layers(x):
    """The same over a Python `range(3)`: unrolled, three RX gates."""
    for i in range(3):
        qml.RX(x, wires=0)
    return qml.expval(qml.PauliZ(0))


def five_layers(x):
    """Over a Python `range(5)`: today staged as `lax.scan` without asking PennyLane, which
    then captures no gate (the known silent wrong value the runtime fix removes)."""
    for i in range(5):
        qml.RX(x, wires=0)
    return qml.expval(qml.PauliZ(0))


def nested_with_break(x):
    """Nested Python loops with a `break` on a parameter: each remaining step is a cond."""
    for i in range(3):
        for j in range(3):
            if x * (i + j) > 1.5:
                break
            qml.RX(x, wires=0)
    return qml.expval(qml.PauliZ(0))


def conditional_angle(x):
    """A conditional expression and an `and` of parameter tests."""
    angle = x if x > 0.5 else 2 * x
    if x > 0.2 and x < 1.0:
        angle = angle + x
    qml.RX(angle, wires=0)
    return qml.expval(qml.PauliZ(0))


def ladder(x):
    """A loop with a variable carried through it: RX(x), RX(2x), RX(3x) on wire 0."""
    angle = x
    for i in range(3):
        qml.RX(angle, wires=0)
        angle = angle + x
    return qml.expval(qml.PauliZ(0))


# --- the same circuits written with PennyLane's primitives by hand ------------------------

def rotate_if_large_by_hand(x):
    def large():
        qml.RX(x, wires=0)

    def small():
        qml.RY(2 * x, wires=0)
    qml.cond(x > 1.0, large, small)()
    return qml.expval(qml.PauliZ(0))


def by_sign_by_hand(x):
    def below_minus_one():
        qml.RX(-x, wires=0)

    def negative():
        qml.RY(-x, wires=0)

    def below_one():
        qml.RX(2 * x, wires=0)

    def otherwise():
        qml.PauliX(wires=0)
    qml.cond(x < -1.0, below_minus_one, otherwise,
             elifs=((x < 0.0, negative), (x < 1.0, below_one)))()
    return qml.expval(qml.PauliZ(0))


def teleport_bit_by_hand(x):
    qml.RX(x, wires=0)
    m = qml.measure(0)

    def correct():
        qml.PauliX(wires=1)
    qml.cond(m, correct)()
    return qml.expval(qml.PauliZ(1))


def halve_until_small_by_hand(x):
    x = qml.while_loop(lambda x: x > 0.5)(lambda x: x / 2)(x)
    qml.RX(x, wires=0)
    return qml.expval(qml.PauliZ(0))


def layers_by_hand(x, n):
    @qml.for_loop(0, n, 1)
    def loop(i):
        qml.RX(x, wires=0)
    loop()
    return qml.expval(qml.PauliZ(0))


def main():
    qml.capture.enable()
    x = jnp.float32(0.7)
    print('rotate_if_large', circuit(rotate_if_large)(x), 'closed form', jnp.cos(2 * x))
    print('by_sign', circuit(by_sign)(x), 'by hand', by_hand(by_sign_by_hand)(x))
    print('teleport_bit', circuit(teleport_bit)(x), 'closed form', jnp.cos(x))
    print('layers(x, 5)', circuit(layers)(x, 5), 'closed form', jnp.cos(5 * x))
    print('halve_until_small', circuit(halve_until_small)(x), 'closed form', jnp.cos(x / 2))
    print('d/dx rotate_if_large', jax.grad(circuit(rotate_if_large))(x),
          'closed form', -2 * jnp.sin(2 * x))


if __name__ == '__main__':
    main()
