"""`and`, `or` and `not` on values that may be traced.

Python reference: `left and right()` is `right()` when `left` is true, else `left`;
`left or right()` is `left` when it is true, else `right()`. A traced `left` selects as
Python would, `jnp.where(left, right, left)` (or `jnp.logical_and`/`logical_or` for two
booleans), so a scalar `left` needs a scalar `right` (Python's result is one of them,
as it is: a select would broadcast it). An array `left` of more elements (whose truth Python cannot tell)
combines element by element, as TensorFlow's and Catalyst's AutoGraph do. A framework's
value selects with the framework's primitive (see runtime.backends.dispatch).

A `left` that is None on some paths (an optional value, runtime.checks.absent's Maybe)
or a value of another kind on some (a Choice, runtime.values.choice) is as true as
Python's (`checks.absent.truth`), and the result is one of the operands, as Python's:
`rest() if left else left` for `and` on that truth, an optional value where one is
None, a Choice where the operands' kinds differ (`s or 'default'`, `s and x > 0`).

A later operand that changes state where it runs (a method ticking a counter, a draw
splitting an object's key: found as a staged statement finds it, runtime.state.watches)
runs only where Python runs it: the rest of the chain is then a conditional expression
on the traced operand (`rest() if left else left`), staged with that state. (The
converter makes statements of such operands where it sees them, passes.short_circuits;
this covers those it cannot: in a lambda or a comprehension.)
"""
import numbers

import jax
import jax.numpy as jnp
import numpy as np

from ..checks import checks
from ..checks.absent import truth
from ..checks.raises import on_path
from ..staging import branches as staged
from ..values import choice
from ..values.choice import Choice
from ..values.maybe import Maybe
from ..python import identity
from ..backends import dispatch
from ..errors import ControlFlowError, here
from ..messages import operands_differ
from ..state import watches
from .conditionals import if_exp


def and_(left, *rights):
    """Python reference: `left and rights[0]() and rights[1]() ...`."""
    return _short_circuit(left, rights, take_right_when=True)


def or_(left, *rights):
    """Python reference: `left or rights[0]() or rights[1]() ...`."""
    return _short_circuit(left, rights, take_right_when=False)


def _short_circuit(left, rights, take_right_when):
    """`left` where `bool(left) != take_right_when` (`and`: false, `or`: true), else the
    rest of the chain, `rights[0]() ... rights[-1]()`, as Python evaluates it: right to
    left-associated, so an operand that is a Python value deciding the result (`a is
    None` in `x > 1 or a is None or a > 1`) stops the chain before the later operands
    are evaluated, also after a traced one. After a traced scalar, an operand that is
    None or not an array (a text, a container, a function) is joined with it as staged
    branches join values (an optional value, a Choice): the result is Python's operand.
    After a traced array of more elements, None is a false value."""
    if not rights:
        return left
    right, rest = rights[0], rights[1:]

    def keep_left():
        return left

    def rest_of_chain():
        return _short_circuit(right(), rest, take_right_when)
    if isinstance(left, Choice) or (isinstance(left, Maybe) and left.absent is None):
        return _on_truth(left, rest_of_chain, take_right_when)
    backend = dispatch.backend_for(left)
    if backend is dispatch.PYTHON:
        return rest_of_chain() if bool(left) == take_right_when else left
    if backend is not dispatch.JAX:   # a framework's
        branches = ((rest_of_chain, keep_left) if take_right_when
                    else (keep_left, rest_of_chain))
        return backend.choose(left, *branches)
    # The rest runs only where `left` does not decide: its checks count only there
    # (those it records, and those that report themselves: a path of its own).
    watch = watches.Watch(rights)
    continues = lambda: _continues(left, take_right_when)   # noqa: E731
    value = watch.during(checks.guarded, on_path(rest_of_chain, continues, keep_left),
                         continues)
    if watch.changed and jnp.size(left) == 1:   # (it changed state: put back, see Watch)
        keep = lambda: left   # noqa: E731
        return if_exp(lambda: left, *((rest_of_chain, keep) if take_right_when
                                      else (keep, rest_of_chain)))
    if _of_kinds(value) and jnp.size(left) == 1:   # (one of the operands, as Python's)
        cond = jnp.reshape(jnp.asarray(left).astype(bool), ())
        when_true, when_false = (value, left) if take_right_when else (left, value)
        return _joined(cond, when_true, when_false, 'and' if take_right_when else 'or')
    if value is None:
        value = False
    if jnp.size(left) == 1 and jnp.size(value) != 1:   # (one element each: a condition)
        raise operands_differ('and' if take_right_when else 'or', jnp.shape(left),
                              jnp.shape(value), here(2))
    if _both_bool(left, value):
        combine = jnp.logical_and if take_right_when else jnp.logical_or
        return identity.combined(combine(left, value), (left, value), take_right_when)
    return jnp.where(left, value, left) if take_right_when else jnp.where(left, left, value)


def _on_truth(left, rest_of_chain, take_right_when):
    """`rest_of_chain() if left else left` (`and`), `left if left else rest_of_chain()`
    (`or`) for an optional `left` or a Choice, on its truth (a true optional value is
    not None: `or` gives its value). Traced, the rest runs where it decides (its checks
    count only there) and the two values are joined as a conditional expression's are
    (an optional value where one is None); values of different kinds (None, a float, a
    bool) are a Choice, given back after the run as the one this run gave."""
    cond = truth(left)
    kept = left.value if not take_right_when and isinstance(left, Maybe) else left
    backend = dispatch.backend_for(cond)
    if backend is dispatch.PYTHON:
        return rest_of_chain() if bool(cond) == take_right_when else kept
    if backend is not dispatch.JAX:   # a framework's
        branches = ((rest_of_chain, lambda: kept) if take_right_when
                    else (lambda: kept, rest_of_chain))
        return backend.choose(cond, *branches)
    continues = cond if take_right_when else jnp.logical_not(cond)
    value = checks.guarded(rest_of_chain, lambda: continues)
    if not take_right_when:
        return _joined(cond, kept, value, 'or')
    result = _joined(cond, value, kept, 'and')
    return identity.present_where_true(result, left) if isinstance(left, Maybe) else result


def _of_kinds(value):
    """None, an optional value, a Choice, or any value that is not an array or a number:
    a text, a Python container, a function (`flag and [1, 2]`, of which Python gives the
    list or `flag`). Joined with a traced operand as staged branches join values (else as
    a Choice, whose truth a test can use), not selected as an array."""
    if isinstance(value, Maybe):
        return value.absent is None
    return not isinstance(value, _NUMERIC)


_NUMERIC = (jax.Array, np.ndarray, np.generic, numbers.Number)


def _joined(cond, when_true, when_false, op):
    """`when_true if cond else when_false` (two values computed already), as staged
    branches join them, else as a Choice of their kinds (else the join's error)."""
    location = here(3)
    try:
        (value,) = staged.cond(cond, lambda: when_true, lambda: when_false, (), ('value',),
                               location, f'`{op}`')
        return value
    except ControlFlowError:
        chosen = choice.either(cond, when_true, when_false)
        if chosen is None:
            raise
        return chosen


def _continues(left, take_right_when):
    """Where the chain goes on after a traced `left` (a scalar: all of it, else any)."""
    truth = left if jnp.result_type(left) == jnp.bool_ else left != 0
    truth = jnp.any(truth) if take_right_when else jnp.any(jnp.logical_not(truth))
    return truth


def _both_bool(left, right):
    return jnp.result_type(left) == jnp.bool_ and jnp.result_type(right) == jnp.bool_


def not_(value):
    """Python reference: `not value`; a traced value (or an optional one, or a Choice:
    see checks.absent.truth) gives `jnp.logical_not`."""
    tested = identity.truth_of(value, truth(value))
    backend = dispatch.backend_for(tested)
    if backend is dispatch.PYTHON:
        return not tested
    if backend is not dispatch.JAX:   # a framework's
        return backend.choose(tested, lambda: False, lambda: True)
    return identity.negated(tested)
