"""The functional forms of `if`, `while` and `for` that converted code calls.

Each operator decides at run time, per statement: a concrete (Python/NumPy) condition or
iterable runs the plain Python statement; a traced one is staged into `lax`. Branches and
loop bodies are functions of the variables they change; `names` are those variables'
names in the user's code, used in error messages.
"""
import builtins
import collections.abc
import types
import warnings

import jax
import jax.numpy as jnp
from jax import lax

from . import lists, loop_autodiff, loop_policy, lowering, registry
from .errors import ControlFlowError, here, where
from .iterables import StagedRange, TracedIterable, range_items
from .mutation import Mutations
from .nonlocals import Nonlocals
from .raises import on_path
from .state import any_traced, is_traced, pack, unpack

UNROLL_WARNING_ITERATIONS = 500
_warned_unrolls = set()


def if_stmt(cond, if_true, if_false, args=(), names=(), returned=None, fields=None,
            nonlocals=()):
    """Python reference: `return if_true(*args) if cond else if_false(*args)`.

    A traced `cond` becomes `lax.cond`: both branches are traced once. `if_false=None`
    stands for an absent `else`: the state passes through unchanged. `returned` ('true'
    or 'false') names a branch taken only after the function has returned: variables it
    leaves undefined are never read, so they may be undefined there. `fields` gives the
    attributes the branches assign (see mutation.py); `nonlocals` the variables they
    assign in place (see nonlocals.py).
    """
    if if_false is None:
        def if_false(*state):
            return unpack(names, state)
    if nonlocals:
        shared = Nonlocals(nonlocals, (if_true, if_false))
        return shared.finish(names, if_stmt(
            cond, shared.wrap(if_true, names), shared.wrap(if_false, names),
            tuple(args) + shared.get(), tuple(names) + shared.names, returned, fields))
    framework = registry.lowering_for(cond)
    if framework is not None:
        return framework.if_stmt(cond, if_true, if_false, args, names)
    if is_traced(cond):
        location = here()
        pred = lowering.predicate(cond, location, '`if`')
        objects = Mutations(args, names, fields)
        return objects.finish(lowering.cond(
            pred, objects.wrap(if_true), objects.wrap(if_false), objects.state,
            objects.all_names, location, returned=returned))
    if cond:
        return if_true(*args)
    return if_false(*args)


def if_chain(tests, branches, args=(), names=(), returned=(), fields=None, nonlocals=()):
    """Python reference (an `if`/`elif`/.../`else` chain):

        for test, branch in zip(tests, branches):
            if test():
                return branch(*args)
        return branches[-1](*args)          # the `else`

    `tests` are functions of no arguments, one per branch before the `else`;
    `branches[-1]=None` stands for an absent `else` (the state passes through). Tests run
    in order until one is true, as in Python. When some are traced, the branches they
    guard and the branch taken when none of them is true are staged as one `lax.switch`
    on the index of the first true test (each branch traced once); a test after a traced
    one is traced on the path where the ones before it are false. `returned` lists the
    branches taken only after the function has returned (see `if_stmt`); `fields` and
    `nonlocals` are as for `if_stmt`.
    """
    branches = list(branches)
    if branches[-1] is None:
        branches[-1] = lambda *state: unpack(names, state)
    if nonlocals:
        shared = Nonlocals(nonlocals, branches)
        return shared.finish(names, if_chain(
            tests, [shared.wrap(branch, names) for branch in branches],
            tuple(args) + shared.get(), tuple(names) + shared.names, returned, fields))
    def framework_if(framework, cond, i):   # the chain from test i as nested `if`s
        def rest(*state):
            return if_chain(tests[i + 1:], branches[i + 1:], state, names,
                            [r - i - 1 for r in returned if r > i], fields)
        return lambda *state: framework.if_stmt(cond, branches[i], rest, state, names)
    return _run_chain(tests, branches, args, names, returned, fields, '`if`', framework_if)


def if_exp_chain(tests, values):
    """Python reference (`a if c1 else b if c2 else d`):

        for test, value in zip(tests, values):
            if test():
                return value()
        return values[-1]()

    Staged as `if_chain` stages it: one `lax.switch` when some tests are traced.
    """
    def framework_select(framework, cond, i):
        return lambda: framework.select(
            cond, values[i], lambda: if_exp_chain(tests[i + 1:], values[i + 1:]))
    return _run_chain(tests, values, (), ('value',), (), None, 'conditional expression',
                      framework_select)


def _run_chain(tests, branches, args, names, returned, fields, what, framework_branch):
    """The chain's result (see `if_chain`). `framework_branch(framework,
    cond, i)` is the branch that takes over when test i gives a framework's condition
    (see registry): the rest of the chain, nested."""
    location = here(2)
    conditions, staged, taken = [], [], len(branches) - 1
    for i, test in enumerate(tests):
        if conditions:   # runs only where the traced tests before it are false
            cond = lowering.guarded(test, lambda previous=tuple(conditions): _none_true(
                previous))
        else:
            cond = test()
        framework = registry.lowering_for(cond)
        if framework is not None:
            branches = branches[:i] + [framework_branch(framework, cond, i)]
            taken = i
            break
        if is_traced(cond):
            conditions.append(lowering.predicate(cond, location, what))
            staged.append(i)
        elif cond:
            taken = i
            break
    if not conditions:
        return branches[taken](*args)
    index = jnp.int32(len(conditions))   # the first true condition's, else the default's
    for position in reversed(range(len(conditions))):
        index = lax.select(conditions[position], jnp.int32(position), index)
    chosen = staged + [taken]
    objects = Mutations(args, names, fields)
    labels, what = _chain_labels(chosen, len(tests), location, what)
    return objects.finish(lowering.switch(
        index, [objects.wrap(branches[i]) for i in chosen], objects.state,
        objects.all_names, location, what, [p for p, i in enumerate(chosen) if i in returned],
        labels))


def _none_true(conditions):
    none = jnp.logical_not(conditions[0])
    for cond in conditions[1:]:
        none = jnp.logical_and(none, jnp.logical_not(cond))
    return none


def _chain_labels(chosen, tests, location, what):
    """How errors name the chosen branches of a chain ('2nd `elif`', '`else`'), and the
    chain (a `match` on a traced subject is one, see passes.match)."""
    if what != '`if`':
        return tuple(f'{_ordinal(i + 1)}' for i in chosen), what
    if location is not None and location.source_line().startswith('case '):
        return tuple(f'{_ordinal(i + 1)} `case`' for i in chosen), '`match`'
    return tuple('`else`' if i == tests else '`if`' if i == 0 else f'{_ordinal(i)} `elif`'
                 for i in chosen), '`if`/`elif` chain'


def _ordinal(n):
    suffix = 'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')
    return f'{n}{suffix}'


def while_stmt(test, body, state=(), names=(), maximum_iterations=None, autodiff=None,
               fields=None, nonlocals=()):
    """Python reference:

        while test(*state):
            state = body(*state)
        return state

    The loop is staged into a while loop from the first time `test` gives a traced
    value (so a loop whose flag becomes traced midway switches over then); `autodiff`
    picks its lowering (see loop_autodiff).
    """
    if nonlocals:
        shared = Nonlocals(nonlocals, (body, test), loop=True)
        return shared.finish(names, while_stmt(
            shared.wrap_test(test), shared.wrap(body, names), tuple(state) + shared.get(),
            tuple(names) + shared.names, maximum_iterations, autodiff, fields))
    objects = Mutations(state, names, fields)
    test, body = objects.wrap(test, returns_state=False), objects.wrap(body)
    with loop_autodiff.autodiff_mode(autodiff):
        values = _while(test, body, objects.state, objects.all_names, maximum_iterations)
    return objects.finish(values)


def _while(test, body, values, names, maximum_iterations):
    iterations = 0
    while True:
        if maximum_iterations is not None and iterations >= maximum_iterations:
            break
        # Inside a trace, the first test is tried in a sandbox: if it is traced, its
        # equations are not left behind (the staged loop evaluates it again).
        if iterations == 0 and any_traced(values):
            cond = lowering.probe(test, values)
        else:
            cond = test(*values)
        framework = registry.lowering_for(cond)
        if framework is not None:
            remaining = (None if maximum_iterations is None
                         else maximum_iterations - iterations)
            values = pack(names, framework.while_stmt(test, body, values, names, remaining))
            break
        if is_traced(cond) or cond is lowering.TRACED:
            remaining = (None if maximum_iterations is None
                         else maximum_iterations - iterations)
            body = on_path(body, test, lambda *state: unpack(names, state))
            values = lowering.while_loop(test, body, values, names, here(), remaining)
            break
        if not cond:
            break
        values = pack(names, body(*values))
        iterations += 1
    return values


def for_stmt(iterable, body, state=(), names=(), extra_test=None, unroll=None,
             autodiff=None, fields=None, nonlocals=(), iterator=None, aliased=()):
    """Python reference:

        for item in iterable:
            if extra_test is not None and not extra_test(*state):
                break
            state = body(item, *state)
        return state

    A traced iterable (an array, or a range with traced bounds) is staged: `lax.scan`
    over an array's leading axis, a while loop over a traced range
    (`autodiff` picks its lowering, see loop_autodiff). A range with
    Python bounds (also under `enumerate`, `zip`, `reversed`) is staged as one loop when
    its values are traced, unless it is short, `unroll` (a `set_loop_options` directive)
    says otherwise, or its body needs the index as a Python int: see runtime.loop_policy.

    `iterator` names the iterable when the code after the loop reads it again: a Python
    iterator it names (a generator, `iter(xs)`) must then not be left at a position that
    a traced `break` decides. `aliased` names the lists the loop grows that other code
    may also hold (a parameter, `alias = out`): they stay the same objects, with the
    loop's items (see runtime.lists.refill).
    """
    if iterator is not None and extra_test is not None and not is_traced(iterable) \
            and builtins.iter(iterable) is iterable:
        extra_test = _untraced_exit(extra_test, iterator, here())
    if nonlocals:
        shared = Nonlocals(nonlocals, (body, extra_test), loop=True)
        return shared.finish(names, for_stmt(
            iterable, shared.wrap(body, names), tuple(state) + shared.get(),
            tuple(names) + shared.names, shared.wrap_test(extra_test), unroll, autodiff,
            fields, aliased=aliased))
    framework = registry.loop_lowering_for(iterable)
    if framework is not None:
        return framework.for_stmt(iterable, body, tuple(state), names, extra_test)
    objects = Mutations(state, names, fields)
    body = objects.wrap(body, leading=1)
    extra_test = objects.wrap(extra_test, returns_state=False)
    with loop_autodiff.autodiff_mode(autodiff):
        values = _for(iterable, body, objects.state, objects.all_names, extra_test, unroll)
    return lists.refill(names, state, objects.finish(values), aliased)


def _untraced_exit(extra_test, iterator, location):
    """`extra_test`, raising a named error when its value is traced."""
    def test(*state):
        go = extra_test(*state)
        if is_traced(go):
            raise ControlFlowError(
                f'the `for` loop{where(location)} may `break` on a traced condition, which '
                f'would leave the iterator {iterator!r} at a position known only when the '
                f'program runs, and the code after the loop reads {iterator!r} again. '
                f'Iterate over a list or an array instead, or do not reuse the iterator.')
        return go
    return test


def _for(iterable, body, values, names, extra_test, unroll):
    items = range_items(iterable)
    if extra_test is not None:  # a staged body runs only while the loop has not broken
        body = on_path(body, lambda item, *state: extra_test(*state),
                       lambda item, *state: unpack(names, state))
    if isinstance(iterable, (TracedIterable, StagedRange)) or is_traced(iterable):
        staged = iterable if isinstance(iterable, (TracedIterable, StagedRange)) \
            else TracedIterable.over(iterable)
        values = staged.loop(body, values, names, here(), extra_test)
    elif items is not None:
        values = _range_for(iterable, items, body, values, names, extra_test, unroll)
    else:
        values = _python_for(iterable, body, values, names, extra_test)
    return values


def _range_for(iterable, items, body, values, names, extra_test, unroll):
    """A `for` over a range with Python bounds: one staged loop, or the Python loop."""
    location = here(2)
    stage = loop_policy.wanted(len(items), unroll)
    traced = any_traced(values)
    reported = False
    if stage is not False and (traced or _reads_traced(body)):
        try:
            staged = items.loop(body, values, names, location, extra_test,
                                require_traced=not traced)
        except lowering.NothingTraced:
            pass
        except _NEEDS_PYTHON as error:
            loop_policy.report_unrolled(location, len(items), _reason(error), stage)
            reported = True
        else:
            loop_policy.report_staged(location, len(items), 'lax.while_loop' if extra_test
                                      else 'lax.scan')
            _use_up(iterable)
            return staged
    staged_rest = items if stage is not False else None
    return _python_for(iterable, body, values, names, extra_test, staged_rest,
                       warn=stage is not False and not reported)


_NEEDS_PYTHON = (TypeError, IndexError, ControlFlowError)
"""What staging a loop over a Python range raises when its body needs the index as a
Python int (`layers[i]`, `jnp.zeros(i)`, `int(i)`) or its state cannot be carried (a
shape that grows): such a loop runs as Python instead. Any other error is the user's own
and propagates (the Python loop would raise it too)."""


def _use_up(iterable):
    """A Python iterator (not a range) is used up after a staged loop over it, as the
    Python loop would leave it."""
    if builtins.iter(iterable) is iterable:
        for _ in iterable:
            pass


def _reason(error):
    message = str(error).strip().splitlines()
    return f'{type(error).__name__}: {message[0] if message else "no message"}'


def _reads_traced(fn, depth=3):
    """Whether `fn` closes over traced values (directly, or through the functions and
    plain objects it closes over, up to `depth` levels)."""
    fn = getattr(fn, '__wrapped__', fn)   # a body wrapped by runtime.raises.on_path
    for cell in fn.__closure__ or ():
        try:
            value = cell.cell_contents
        except ValueError:   # an empty cell: a variable not assigned yet
            continue
        if isinstance(value, types.FunctionType):
            if depth > 0 and _reads_traced(value, depth - 1):
                return True
        elif isinstance(value, collections.abc.Iterator):
            continue   # a generator or iterator: not looked into (that would consume it)
        elif any_traced(value) or any_traced(_attributes(value)):
            return True
    return False


def _attributes(value):
    if isinstance(value, (types.ModuleType, type)) or not hasattr(value, '__dict__'):
        return []
    return list(vars(value).values())


def _python_for(iterable, body, values, names, extra_test, items=None, warn=True):
    """The plain Python loop, which turns staged if a `break` flag becomes traced (the
    rest of the loop is one staged loop when `items` are the range's items). With `warn`,
    a long loop over traced values is reported once."""
    count = 0
    iterator = builtins.iter(iterable)
    while True:
        # The exit flag is read before the next item is taken: after a `break`, Python
        # leaves the rest of an iterator to whoever iterates it next.
        go = framework = None
        if extra_test is not None:   # (a loop without `break` skips all of this)
            go = extra_test(*values)
            framework = registry.lowering_for(go)
            if framework is None and not is_traced(go) and not go:
                break
        item = next(iterator, _END)
        if item is _END:
            break
        if framework is not None:   # each remaining step runs under the framework's cond
            values = framework.guarded(go, lambda s, item=item: pack(names, body(item, *s)),
                                       values)
            continue
        if go is not None and is_traced(go):
            return _finish_staged(items, item, iterator, count, body, values, names,
                                  extra_test, iterator is iterable)
        values = pack(names, body(item, *values))
        count += 1
        if count == UNROLL_WARNING_ITERATIONS and warn:
            _warn_unroll(values)
    return values


_END = object()


def _finish_staged(items, item, rest, done, body, values, names, extra_test, use_up):
    """Run the rest of a Python loop after its exit flag became traced.

    Over a range the rest becomes one staged loop if it can; otherwise each remaining
    iteration becomes a `lax.cond` on the flag.
    """
    location = here(2)
    if items is not None:
        try:
            staged = items.after(done).loop(body, values, names, location, extra_test,
                                            require_traced=False)
            if use_up:
                _use_up(rest)
            return staged
        except _NEEDS_PYTHON:
            pass
    for item in _chain(item, rest):
        go = extra_test(*values)

        def run(*state, item=item):
            return body(item, *state)

        def skip(*state):
            return unpack(names, state)
        if is_traced(go):
            pred = lowering.predicate(go, location, '`for` loop')
            values = lowering.cond(pred, run, skip, values, names, location)
        elif go:
            values = pack(names, body(item, *values))
        else:
            break
    return values


def _chain(first, rest):
    yield first
    yield from rest


def _warn_unroll(values):
    if not any(is_traced(leaf) for leaf in jax.tree_util.tree_leaves(values)):
        return
    location = here()
    if location in _warned_unrolls:
        return
    _warned_unrolls.add(location)
    warnings.warn(
        f'the Python loop at {location} has run {UNROLL_WARNING_ITERATIONS} iterations while '
        f'tracing; each one is unrolled into the compiled program. Iterate over an array '
        f'or a range to stage it as one loop instead.',
        stacklevel=4)


def if_exp(cond, if_true, if_false):
    """Python reference: `if_true() if cond else if_false()` (a conditional expression)."""
    framework = registry.lowering_for(cond)
    if framework is not None:
        return framework.select(cond, if_true, if_false)
    if is_traced(cond):
        location = here()
        pred = lowering.predicate(cond, location, 'conditional expression')
        (value,) = lowering.cond(pred, if_true, if_false, (), ('value',), location,
                                 'conditional expression')
        return value
    return if_true() if cond else if_false()


def and_(left, *rights):
    """Python reference: `left and rights[0]() and rights[1]() ...`. A traced value
    selects as Python would, `jnp.where(left, right, left)` (`jnp.logical_and` for
    booleans)."""
    for right in rights:
        left = _and(left, right)
    return left


def _and(left, right):
    framework = registry.lowering_for(left)
    if framework is not None:
        return framework.select(left, right, lambda: left)
    if is_traced(left):
        right = right()
        if _both_bool(left, right):
            return jnp.logical_and(left, right)
        return jnp.where(left, right, left)
    return left and right()


def or_(left, *rights):
    """Python reference: `left or rights[0]() or rights[1]() ...`. A traced value
    selects as Python would, `jnp.where(left, left, right)` (`jnp.logical_or` for
    booleans)."""
    for right in rights:
        left = _or(left, right)
    return left


def _or(left, right):
    framework = registry.lowering_for(left)
    if framework is not None:
        return framework.select(left, lambda: left, right)
    if is_traced(left):
        right = right()
        if _both_bool(left, right):
            return jnp.logical_or(left, right)
        return jnp.where(left, left, right)
    return left or right()


def _both_bool(left, right):
    return jnp.result_type(left) == jnp.bool_ and jnp.result_type(right) == jnp.bool_


def not_(value):
    """Python reference: `not value`; a traced value gives `jnp.logical_not`."""
    framework = registry.lowering_for(value)
    if framework is not None:
        return framework.select(value, lambda: False, lambda: True)
    if is_traced(value):
        return jnp.logical_not(value)
    return not value
