"""Text made from traced values that is only shown or raised (issue 20, "Messages that
need run-time values"): formatted when the compiled program runs, on the path that
reaches it, with the run-time values; compared with the same function run as Python."""
import logging
import warnings

import jax
import jax.numpy as jnp
import pytest

import autograph


def _warned(fn, *args):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        result = fn(*args)
    return result, [(type(w.message), str(w.message), w.lineno) for w in caught]


def tolerance(p0, p1):
    if p1 > p0:
        msg = 'Tolerance of %s reached.' % (p1 - p0)
        warnings.warn(msg, RuntimeWarning)
        p1 = (p0 + p1) / 2
    return p1


def formatted(x):
    if x > 0:
        msg = f'x is {x:.3f} ({x!r})'
        warnings.warn(msg)
    else:
        warnings.warn(f'negative: {-x}', UserWarning)
    return x * 2


@pytest.mark.parametrize('fn, args', [
    (tolerance, (jnp.float32(1.), jnp.float32(1.5))),
    (tolerance, (jnp.float32(1.), jnp.float32(0.5))),    # the path without the warning
    (formatted, (jnp.float32(0.25),)),
    (formatted, (jnp.float32(-2.),)),
])
@pytest.mark.parametrize('wrap', [lambda g: g, jax.jit], ids=['call', 'jit'])
def test_warnings_carry_run_time_values_on_the_taken_path_only(fn, args, wrap):
    expected = _warned(fn, *args)
    got = _warned(wrap(autograph.convert(fn)), *args)
    assert got[1] == expected[1]
    assert float(got[0]) == float(expected[0])


def test_each_call_warns_with_its_own_values():
    g = autograph.convert(tolerance)
    for p1 in (1.25, 0.5, 3.):
        args = jnp.float32(1.), jnp.float32(p1)
        assert _warned(g, *args)[1] == _warned(tolerance, *args)[1]
    assert g.trace_count == 1


def test_print_and_logging_of_text_made_from_traced_values(capsys, caplog):
    logger = logging.getLogger('autograph.tests.messages')

    def f(x, n):
        total = x
        for i in range(n):
            total = total + i
            if total > 2:
                print(f'step {i}: total={total}')
                logger.warning('total %s at step %d', total, i)
        return total
    args = jnp.float32(0.5), jnp.int32(4)
    with caplog.at_level(logging.WARNING, logger=logger.name):
        f(*args)
        python = capsys.readouterr().out, [r.getMessage() for r in caplog.records]
        caplog.clear()
        autograph.convert(f)(*args)
        converted = capsys.readouterr().out, [r.getMessage() for r in caplog.records]
    assert converted == python
    assert python[0].count('\n') == 2        # steps 2 and 3 only


def test_vmap_shows_the_text_of_each_element_that_takes_the_path():
    """Under jax.vmap each element that reaches the warning warns with its own values,
    in element order (as a Python loop over the elements would)."""
    p0 = jnp.float32(1.)
    p1 = jnp.array([1.5, 0.5, 3.], jnp.float32)
    expected = [w for p in p1 for w in _warned(tolerance, p0, p)[1]]
    for wrap in (jax.vmap, lambda g, **k: jax.jit(jax.vmap(g, **k))):
        got = _warned(wrap(autograph.convert(tolerance), in_axes=(None, 0)), p0, p1)
        assert got[1] == expected


def test_raise_of_text_made_before_it():
    def f(x):
        if x > 1:
            msg = f'x is too large: {x}'
            msg += ' (limit %d)' % 1
            raise ValueError(msg)
        return x
    g = autograph.convert(f)
    with pytest.raises(ValueError) as python:
        f(jnp.float32(3.))
    with pytest.raises(ValueError) as converted:
        g(jnp.float32(3.))
    assert str(converted.value) == str(python.value) == 'x is too large: 3.0 (limit 1)'
    assert float(g(jnp.float32(0.5))) == f(jnp.float32(0.5))


def test_newton_secant_warning_in_a_staged_loop():
    """SciPy's secant: the warning inside the loop, followed by a return."""
    def secant(func, x0, tol=1e-6, maxiter=20):
        p0 = x0
        p1 = x0 * (1 + 1e-4) + 1e-4
        q0, q1 = func(p0), func(p1)
        for itr in range(maxiter):
            if q1 == q0:
                if p1 != p0:
                    msg = 'Tolerance of %s reached' % (p1 - p0)
                    warnings.warn(msg, RuntimeWarning)
                return (p1 + p0) / 2.0
            p = p1 - q1 * (p1 - p0) / (q1 - q0)
            if abs(p - p1) < tol:
                return p
            p0, q0 = p1, q1
            p1 = p
            q1 = func(p1)
        return p1
    flat = lambda x: jnp.float32(1.) + 0 * x     # q1 == q0 at once
    for x0 in (jnp.float32(2.), jnp.float32(0.)):
        expected = _warned(secant, flat, x0)
        got = _warned(autograph.convert(secant), flat, x0)
        assert got[1] == expected[1]
        assert float(got[0]) == pytest.approx(float(expected[0]))


def test_text_used_as_data_keeps_the_named_error():
    def key(x):
        name = f'layer{x}'
        return {name: x}

    def compared(x):
        msg = f'{x}'
        warnings.warn(msg)
        return msg == '1'
    for fn in (key, compared):
        with pytest.raises(autograph.ControlFlowError, match='traced value'):
            autograph.convert(fn)(jnp.int32(1))


def test_python_values_format_while_tracing_as_before():
    def f(x, n):
        warnings.warn(f'n is {n}')
        return x + n
    expected = _warned(f, jnp.float32(1.), 3)
    assert _warned(autograph.convert(f), jnp.float32(1.), 3)[1] == expected[1]
    assert "ag.emit(warnings.warn, ag.message('n is {}', n))" in autograph.to_code(f)


def test_generated_code_reads_as_the_message_it_was():
    code = autograph.to_code(tolerance)
    assert "msg = ag.message_percent('Tolerance of %s reached.', p1 - p0)" in code
    assert 'ag.emit(warnings.warn, msg, RuntimeWarning)' in code


def test_grad_through_a_warning():
    def f(x):
        if x > 0:
            warnings.warn(f'x={x}')
        return x * x
    got = _warned(jax.grad(autograph.convert(f)), jnp.float32(3.))
    assert float(got[0]) == float(_warned(jax.grad(f), jnp.float32(3.))[0])
    assert got[1] == _warned(f, jnp.float32(3.))[1]   # (Python's under grad shows a tracer)


def test_no_text_after_a_failed_check():
    """Python stops at the `raise`: the warning after it is never shown."""
    def f(x):
        if x > 1:
            raise ValueError('too large')
        warnings.warn(f'x={x}')
        return x
    g = autograph.convert(f)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        with pytest.raises(ValueError, match='too large'):
            g(jnp.float32(3.))
    assert caught == []
    assert _warned(g, jnp.float32(0.5))[1] == _warned(f, jnp.float32(0.5))[1]


def test_text_given_to_a_method_named_like_logging_keeps_the_named_error():
    class Reporter:
        def error(self, text):
            self.last = text

    def f(x, reporter):
        reporter.error(f'bad {x}')
        return x
    with pytest.raises(autograph.ControlFlowError, match='traced value'):
        autograph.convert(f)(jnp.float32(1.), Reporter())
