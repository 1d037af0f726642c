"""A global's or closure variable's list or dict changed by its methods inside a staged
`if` or loop (`G.append(v)`, `D.update(...)`) and read by the function (`jnp.stack(G)`,
`len(G)`) is carried by the staged statement as state, as Python changes the very
object (before: the traced body changed the global itself, an EscapedTracer). A list
the function only appends to is a log (tests/test_logs.py), left as it was.

Ground truth: the same function run unconverted, from the same starting state."""
import jax.numpy as jnp
import numpy as np

import autograph

G = []
D = {}


def grow_and_stack(x):
    for i in range(4):
        G.append(x + i)
    return jnp.stack(G)


def count_under_traced_if(x):
    if x > 0:
        G.append(x)
        D.update(last=x)
    else:
        G.append(-x)
    return len(G), x + 0.0


def closure_list():
    seen = []

    def step(x, n):
        for i in range(n):
            seen.append(x * i)
        return jnp.sum(jnp.stack(seen))
    return step, seen


def log_only(x):
    for i in range(3):
        G.append(i)
    return x * 2


def test_global_list_grown_in_a_staged_loop_and_read():
    G.clear()
    plain = [grow_and_stack(np.float32(1.0)), grow_and_stack(np.float32(2.0))]
    G.clear()
    converted = autograph.convert(grow_and_stack)
    staged = [converted(np.float32(1.0)), converted(np.float32(2.0))]
    for got, want in zip(staged, plain):
        np.testing.assert_array_equal(np.asarray(got), want)
    assert len(G) == 8 and not any(hasattr(v, 'aval') and 'Tracer' in type(v).__name__
                                   for v in G)
    assert 'global G' in autograph.to_code(grow_and_stack)


def test_global_list_and_dict_under_a_traced_if():
    for x in (np.float32(2.0), np.float32(-3.0)):
        G.clear()
        D.clear()
        want = count_under_traced_if(x)
        want_state = (list(G), dict(D))
        G.clear()
        D.clear()
        got = autograph.convert(count_under_traced_if)(x)
        assert int(got[0]) == want[0]
        assert [float(v) for v in G] == [float(v) for v in want_state[0]]
        assert {k: float(v) for k, v in D.items()} == {
            k: float(v) for k, v in want_state[1].items()}


def test_closure_list():
    step, seen = closure_list()
    want = [step(np.float32(1.5), 3), step(np.float32(2.0), 2)]
    step, seen = closure_list()
    converted = autograph.convert(step)
    got = [converted(np.float32(1.5), 3), converted(np.float32(2.0), 2)]
    np.testing.assert_allclose(np.asarray(got), want)
    assert len(seen) == 5


def test_a_log_is_not_declared():
    assert 'global' not in autograph.to_code(log_only)
