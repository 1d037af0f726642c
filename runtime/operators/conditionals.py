"""The functional forms of `if`, `if`/`elif` chains and conditional expressions.

Each operator decides at run time, per statement (see runtime.backends.dispatch): a
framework's value is staged with the framework's `cond`; a JAX tracer with `lax.cond`,
`lax.switch` or a select (runtime.staging.branches); a Python/NumPy value runs the plain
Python statement. Branches are functions of the variables they change; `names` are those
variables' names in the user's code, used in error messages.

Tests are functions of no arguments, evaluated with operations on constants computed
while tracing (`tested`): a condition computed only from Python constants is a Python
value, also when written with `jnp` functions, as it is in Python, so the dead branch is
never traced.
"""
import functools

import jax
import jax.numpy as jnp
from jax import lax

from .. import context
from ..python import identity
from ..checks.absent import Maybe, truth
from ..backends import dispatch
from ..errors import here
from ..staging import branches as staged
from ..values.types import predicate
from ..values.varying import inside_manual
from ..values.split import is_traced, unpack
from ..state import watches
from ..state.statement import Statement


def tested(test):
    """Python reference: `test()`. Operations on constants (`jnp.isfinite(-inf)`) are
    computed while tracing (`jax.ensure_compile_time_eval`), so a condition computed only
    from constants is a Python value; operations on traced values are traced.

    Not inside `jax.shard_map`: there a constant that meets a value varying over the
    mesh axes is cast to vary too (`lax.pvary`, runtime.values.varying), which JAX
    cannot compute while tracing (`jnp.mean(x) > 0` would fail): the test is traced.
    Nor where shapes are symbolic (`jax.export`): a symbolic dimension used as a value
    (`jnp.mean(xs)` divides by one, `xs[i]` compares `i` with one) is known only when
    the program runs. The converted function's arguments tell (`context.symbolic`); a
    test that meets a symbolic dimension otherwise (read from a closure) is traced again.
    An optional value (or a Choice) tested is as true as Python's (`checks.absent.truth`)."""
    if inside_manual() or context.current().symbolic:
        return _truth(test())
    try:
        with jax.ensure_compile_time_eval():
            return _truth(test())
    except NotImplementedError as error:   # (JAX's words for a symbolic dimension)
        if 'dim_as_value' not in str(error):
            raise
    return _truth(test())


def _truth(value):
    """The truth of a test's value, a test of the optional value it tests (`if s:`,
    `if s and x > 0:`: the branch taken knows `s` is not None, see `_narrowed`)."""
    return identity.truth_of(value, truth(value))


def static(compute):
    """Python reference: `compute()`, a value made from shapes and constants alone that
    decides a shape (a boolean mask, `jnp.where(mask)`: see autograph.passes.static_values):
    computed while tracing as `tested` computes a test, so it is concrete there."""
    return tested(compute)


def if_stmt(test, if_true, if_false, args=(), names=(), returned=None, fields=None,
            nonlocals=(), unread_if_false=()):
    """Python reference: `return if_true(*args) if test() else if_false(*args)`.

    `test` is a function of no arguments (see `tested`). A traced condition becomes
    `lax.cond`: both branches are traced once. `if_false=None`
    stands for an absent `else`: the state passes through unchanged. `returned` ('true'
    or 'false') names a branch taken only after the function has returned: variables it
    leaves undefined are never read, so they may be undefined there. `fields` gives the
    attributes the branches assign (see mutation.py); `nonlocals` the variables they
    assign in place (see nonlocals.py). `unread_if_false` names variables that Python
    never reads after the false branch (an `if not did_break:` guard's, taken once the
    loop has broken, of variables dead after the loop): staged, their values there may
    differ in type from the true branch's.
    """
    cond = tested(test)   # (before the branches' state is taken, as in Python)
    if if_false is None:
        if_false = _passing(names)
    statement = Statement(args, names, fields, nonlocals, (if_true, if_false))
    if_true, if_false = statement.bind(if_true), statement.bind(if_false)
    args, names = statement.values, statement.names
    if_true, if_false = _narrowed(cond, args, if_true, if_false, fields)
    backend = dispatch.backend_for(cond)
    if backend is dispatch.PYTHON:
        return statement.finish(if_true(*args) if cond else if_false(*args))
    if backend is not dispatch.JAX:   # a framework's
        return statement.finish(backend.if_stmt(cond, if_true, if_false, args, names))
    location = here()
    pred = predicate(cond, location, '`if`')
    return statement.finish(statement.staged(lambda objects: staged.cond(
        pred, objects.wrap(if_true), objects.wrap(if_false), objects.state,
        objects.all_names, location, returned=returned, unread_if_false=unread_if_false)))


def _narrowed(cond, args, if_true, if_false, fields=None):
    """The branches, where `cond` is `y is None` (or `is not None`) for an optional
    value `y` among `args` or the attributes `fields` gives: the branch on which `y` is
    not None gets its value, not the optional (so `if y is None: y = default` leaves a
    plain value, as Python's; see `_narrowing`)."""
    narrowing = _narrowing(cond, args, fields)
    if narrowing is None:
        return if_true, if_false
    present, none_when_true = narrowing
    return (if_true, present(if_false)) if none_when_true else (present(if_true), if_false)


def _narrowing(cond, args, fields):
    """(a function giving a branch on which the optional value traced `cond` tests is
    surely there: the variable among `args`, or the attribute among `fields` (see
    `if_stmt`), that holds it gets its value; whether `cond` tests for None, so that the
    branches taken where it is false are those), or None where `cond` tests none."""
    tested = identity.tested_optional(cond) if is_traced(cond) else None
    if tested is None:
        return None
    optional, none_when_true = tested
    at = [i for i, arg in enumerate(args) if arg is optional]
    places = _attributes_holding(fields, optional)
    if not at and not places:
        return None

    def present(branch):
        def run(*values):
            values = list(values)
            for i in at:
                if isinstance(values[i], Maybe):
                    values[i] = values[i].value
            for holder, attr in places:   # (the branch's own value of it, installed)
                value = getattr(holder, attr, None)
                if isinstance(value, Maybe):
                    setattr(holder, attr, value.value)
            return branch(*values)
        return run
    return present, none_when_true


def _attributes_holding(fields, optional):
    """The (object, attribute) pairs of the converter's `fields` (a function giving
    {label: (object, attribute)}) whose attribute holds `optional` now."""
    if fields is None:
        return []
    try:
        table = fields()
    except (AttributeError, NameError, LookupError, TypeError):
        return []   # (an object not there yet: as runtime.state.mutation's `_resolve`)
    return [(holder, attr) for holder, attr in table.values()
            if getattr(holder, attr, None) is optional]


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
        branches[-1] = _passing(names)
    statement = Statement(args, names, fields, nonlocals, branches)
    branches = [statement.bind(branch) for branch in branches]
    args, names = statement.values, statement.names

    def framework_if(framework, cond, i):   # the chain from test i as nested `if`s
        def rest(*state):
            return if_chain(tests[i + 1:], branches[i + 1:], state, names,
                            [r - i - 1 for r in returned if r > i], fields)
        return lambda *state: framework.if_stmt(cond, branches[i], rest, state, names)
    return statement.finish(_run_chain(tests, branches, args, names, returned, statement,
                                       '`if`', framework_if, fields))


def _passing(names):
    """The branch of an absent `else`: the state passes through unchanged (the arguments
    after it, variables the test compares with None, are only read)."""
    names = tuple(names)
    return lambda *state: unpack(names, state[:len(names)])


def if_exp_chain(tests, values, returned=False):
    """Python reference (`a if c1 else b if c2 else d`):

        for test, value in zip(tests, values):
            if test():
                return value()
        return values[-1]()

    Staged as `if_chain` stages it: one `lax.switch` when some tests are traced.
    """
    def framework_select(framework, cond, i):
        return lambda: framework.choose(
            cond, values[i], lambda: if_exp_chain(tests[i + 1:], values[i + 1:]))
    statement = Statement((), ('value',), returned=returned)
    return statement.finish(_run_chain(tests, values, (), ('value',), (), statement,
                                       'conditional expression', framework_select))


def _run_chain(tests, branches, args, names, returned, statement, what, framework_branch,
               fields=None):
    """The chain's result (see `if_chain`). `framework_branch(framework, cond, i)` is the
    branch that takes over when test i gives a framework's condition (see
    runtime.backends.framework): the rest of the chain, nested. A traced test of an
    optional value (`y is None`) narrows the branches taken where it is false (those
    after it) or true (its own), as an `if`'s (see `_narrowing`)."""
    location = here(2)
    conditions, staged_tests, taken = [], [], len(branches) - 1
    for i, test in enumerate(tests):
        if conditions:   # runs only where the traced tests before it are false
            cond = staged.guarded(functools.partial(tested, test),
                                  lambda previous=tuple(conditions): _none_true(previous))
        else:
            cond = tested(test)
        backend = dispatch.backend_for(cond)
        if backend is dispatch.JAX:
            conditions.append(predicate(cond, location, what))
            staged_tests.append(i)
            branches = _narrow_chain(branches, i, _narrowing(cond, args, fields))
        elif backend is not dispatch.PYTHON:   # a framework's
            branches = branches[:i] + [framework_branch(backend, cond, i)]
            taken = i
            break
        elif cond:
            taken = i
            break
    if not conditions:
        return branches[taken](*args)
    index = jnp.int32(len(conditions))   # the first true condition's, else the default's
    for position in reversed(range(len(conditions))):
        index = lax.select(conditions[position], jnp.int32(position), index)
    chosen = staged_tests + [taken]
    labels, what = _chain_labels(chosen, len(tests), location, what)
    return statement.staged(lambda objects: staged.switch(
        index, [objects.wrap(branches[i]) for i in chosen], objects.state,
        objects.all_names, location, what, [p for p, i in enumerate(chosen) if i in returned],
        labels))


def _narrow_chain(branches, i, narrowing):
    """`branches` where test `i` has given `narrowing` (see `_narrowing`)."""
    if narrowing is None:
        return branches
    present, none_when_true = narrowing
    return [present(branch) if (j > i if none_when_true else j == i) else branch
            for j, branch in enumerate(branches)]


def _none_true(conditions):
    none = jnp.logical_not(conditions[0])
    for cond in conditions[1:]:
        none = jnp.logical_and(none, jnp.logical_not(cond))
    return none


def _chain_labels(chosen, tests, location, what):
    """How errors name the chosen branches of a chain ('2nd `elif`', '`else`'), and the
    chain (a `match` on a traced subject is one, see passes.match: the converter records
    the statement's kind in the origin map)."""
    if what != '`if`':
        return tuple(f'{_ordinal(i + 1)}' for i in chosen), what
    if location is not None and location.fact('kind') == 'match':
        return tuple(f'{_ordinal(i + 1)} `case`' for i in chosen), '`match`'
    return tuple('`else`' if i == tests else '`if`' if i == 0 else f'{_ordinal(i)} `elif`'
                 for i in chosen), '`if`/`elif` chain'


def _ordinal(n):
    suffix = 'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')
    return f'{n}{suffix}'


def if_exp(test, if_true, if_false, args=(), returned=False):
    """Python reference: `if_true(*args) if test() else if_false(*args)` (a conditional
    expression; `test` as for `if_stmt`; `args`, the variables it tests for None: the
    value on which one that is optional is surely not None gets its value, see
    `_narrowed`; `returned`: the function returns the value, `return a if c else b`)."""
    cond = tested(test)
    functions = (if_true, if_false)   # (the user's code: a staged one's state is found there)
    if args:
        if_true, if_false = _narrowed(cond, args, if_true, if_false)
        if_true = functools.partial(if_true, *args)
        if_false = functools.partial(if_false, *args)
    backend = dispatch.backend_for(cond)
    if backend is dispatch.PYTHON:
        return if_true() if cond else if_false()
    if backend is not dispatch.JAX:   # a framework's
        return backend.choose(cond, if_true, if_false)
    location = here()
    pred = predicate(cond, location, 'conditional expression')
    statement = Statement((), ('value',), functions=functions, returned=returned)
    if_true, if_false = statement.bind(if_true), statement.bind(if_false)
    return statement.finish(statement.staged(lambda objects: staged.cond(
        pred, objects.wrap(if_true), objects.wrap(if_false), objects.state,
        objects.all_names, location, 'conditional expression')))


def kept_item(kept, item):
    """Python reference: `item()`, an item of a comprehension reduced at once (see
    runtime.python.selections), called by the converted code only where the item changes
    state (a method ticking a counter): Python computes it only where the comprehension's
    `if`s keep it. A traced `kept` computes it as a conditional expression on `kept`
    (the state it changes changes only there), zeros elsewhere (which the reduction
    ignores); a Python one computes it."""
    if not is_traced(kept):
        return item()
    watch = watches.Watch((item,))
    value = watch.during(item)
    if not watch.changed:
        return value
    return if_exp(lambda: kept, item, lambda: jax.tree_util.tree_map(jnp.zeros_like, value))
