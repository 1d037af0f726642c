"""Every kind of error of staged code (autograph.runtime.messages.KINDS) raised by one
program that Python runs but staging cannot: the error has its kind, names the user's
line, and is rendered in the one style (what, where: why. Fix.)."""
import jax
import jax.numpy as jnp
import pytest

import autograph
from autograph.runtime.loops import loop_policy
from autograph.runtime.messages import KINDS
from examples import tinygraph
from tests.helpers import site


def branches_differ(x):
    if x > 0:
        y = jnp.zeros(2)
    else:
        y = 1.0
    return y


def loop_state(x, n):
    for i in range(n):
        x = jnp.concatenate([x, x])
    return x


def list_in_staged_loop(xs):
    out = [0.]
    for x in xs:
        out.append(out[-1] + x)
    return jnp.stack(out)


def condition(x):
    if x > 0:
        return x
    return -x


def python_value_needed(xs):
    return [v for v in xs if v > 0][0]     # (a comprehension reduced at once converts)


def run_time_shape(x):
    return x[x > 0].shape     # (reduced at once, `x[x > 0].sum()`, it converts)


def in_place_change(xs, x):
    if x > 0:
        xs[0] = x
    else:
        xs = [x, x]
    return xs


def staging_limit(n):
    if n <= 1:
        return 1
    return n * staging_limit(n - 1)


class Box:     # not a pytree
    def __init__(self, value):
        self.value = value


def result_leaves_trace(x):
    return Box(x + 1)


def _framework_lowering():
    partial = autograph.Embedding()
    partial.register(lambda v: isinstance(v, tinygraph.Node), cond=tinygraph.cond)
    tinygraph.trace(autograph.transform(tinygraph.collatz_steps, embedding=partial), 'n')


def _converted(fn, *args):
    return lambda: autograph.convert(fn)(*args)


f32, i32 = jnp.float32, jnp.int32
EXAMPLES = {
    'branches-differ': (_converted(branches_differ, f32(1.)),
                        site(branches_differ, 'if x > 0')),
    'loop-state': (_converted(loop_state, jnp.ones(2), i32(3)),
                   site(loop_state, 'for i in range(n)')),
    'list-in-staged-loop': (_converted(list_in_staged_loop, jnp.arange(   # (not unrolled)
        loop_policy.LONGEST_ARRAY_UNROLL + 1.)),
                            site(list_in_staged_loop, 'for x in xs')),
    'condition': (_converted(condition, jnp.ones(3)), site(condition, 'if x > 0')),
    'python-value-needed': (_converted(python_value_needed, jnp.arange(3.)),
                            site(python_value_needed, 'if v > 0')),
    'run-time-shape': (_converted(run_time_shape, jnp.arange(3.)),
                       site(run_time_shape, 'x[x > 0]')),
    'in-place-change': (_converted(in_place_change, [f32(0), f32(0)], f32(1)),
                        site(in_place_change, 'if x > 0')),
    'staging-limit': (_converted(staging_limit, i32(5)),
                      site(staging_limit, 'def staging_limit')),     # (where defined)
    'framework-lowering': (_framework_lowering, 'tinygraph.py:'),
    'result-leaves-trace': (_converted(result_leaves_trace, f32(1.)),
                            site(result_leaves_trace, 'def result_leaves_trace')),
}


def test_every_kind_has_an_example():
    assert set(EXAMPLES) == set(KINDS)


@pytest.mark.parametrize('kind', sorted(EXAMPLES))
def test_each_kind_names_its_line_in_the_one_style(kind):
    run, where = EXAMPLES[kind]
    with pytest.raises(autograph.ControlFlowError) as info:
        run()
    message = str(info.value).split('\n')[0]
    assert info.value.kind == kind
    head, _, rest = message.partition(': ')
    assert where in head                                    # what and where, then
    assert rest.endswith('.') and '. ' in rest              # why. Fix.


def positive_step_or_nothing(x):
    if x > 0:
        return x * 2


class Last:
    value = 0.0


def keeps_the_last_positive(x):
    if x > 0:
        Last.value = None
    else:
        Last.value = x
    return x


def test_an_optional_result_inside_someone_elses_jit_names_where_it_is_none():
    """Falling off the end: the last line; state it leaves: the variable."""
    f = autograph.convert(positive_step_or_nothing, jit=False)
    line = positive_step_or_nothing.__code__.co_firstlineno + 2
    with pytest.raises(autograph.ControlFlowError, match=(
            rf'positive_step_or_nothing\(\) returns None by falling off its end at '
            rf'.*py:{line} on some paths')):
        jax.jit(f)(jnp.float32(1.))
    f = autograph.convert(keeps_the_last_positive, jit=False)
    with pytest.raises(autograph.ControlFlowError,
                       match=r"keeps_the_last_positive\(\) leaves 'Last.value' None at"):
        jax.jit(f)(jnp.float32(1.))
