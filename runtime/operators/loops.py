"""The functional forms of `while` and `for` that converted code calls.

Each operator decides at run time, per statement (see runtime.backends.dispatch): a
framework's value is staged with the framework's loop primitives; a traced condition or
iterable with a while loop or `lax.scan` (runtime.staging.loops); a Python one runs the
plain Python loop, which may turn staged midway (a `break` flag that becomes traced).
A `for` over a Python range (or a Python list of like arrays) with traced state is staged
as one loop or unrolled, by runtime.loops.loop_policy, with the framework's primitives when its values are a framework's.
Loop bodies are functions of the variables they change; `names` are those variables'
names in the user's code, used in error messages.
"""
import builtins
import functools

from ..staging import loop_autodiff
from ..loops import live as live_, loop_policy, reductions as reductions_, vectorized
from ..backends import dispatch
from ..errors import ControlFlowError, StagedRecursion, here
from ..loops.iterables import (StagedRange, StackedItems, TracedIterable, range_items,
                               stacked_items, unstacked_reason)
from ..messages import reused_iterator
from ..checks.absent import truth
from ..checks.raises import on_path
from ..staging import branches, carry, loops
from ..staging.trace import probe
from ..values.types import predicate
from ..values.split import any_traced, is_traced, pack, unpack
from ..state import held_lists
from ..state.statement import Statement


def while_stmt(test, body, state=(), names=(), maximum_iterations=None, autodiff=None,
               fields=None, nonlocals=(), overwritten_after=()):
    """Python reference:

        while test(*state):
            state = body(*state)
        return state

    The loop is staged into a while loop from the first time `test` gives a traced
    value (so a loop whose flag becomes traced midway switches over then); `autodiff`
    picks its lowering (see loop_autodiff). `overwritten_after` names the attributes
    that the code after the loop assigns before reading them: staged, those the body
    assigns before reading them take its types (see runtime.staging.carry).
    """
    body = held_lists.checked(body, state, names, 0)
    test = held_lists.checked(test, state, names, 0)
    statement = Statement(state, names, fields, nonlocals, (body, test), loop=True)
    test, body = statement.bind_test(_truthful(test)), statement.bind(body)
    with loop_autodiff.autodiff_mode(autodiff), carry.overwritten_after(overwritten_after):
        values = statement.staged(lambda objects: _while(
            objects.wrap(test, returns_state=False), objects.wrap(body), objects.state,
            objects.all_names, maximum_iterations))
    return statement.finish(values)


def _truthful(test):
    """`test`, whose value is as true as Python's where it is an optional value or a
    Choice (see checks.absent.truth)."""
    @functools.wraps(test)
    def truthful(*state):
        return truth(test(*state))
    return truthful


def _while(test, body, values, names, maximum_iterations):
    iterations = 0
    while True:
        if maximum_iterations is not None and iterations >= maximum_iterations:
            break
        # Inside a trace, the first test is tried in a sandbox: if it is traced, its
        # equations are not left behind (the staged loop evaluates it again).
        if iterations == 0 and any_traced(values):
            cond = probe(test, values)
        else:
            cond = test(*values)
        backend = dispatch.backend_for(cond)
        remaining = (None if maximum_iterations is None
                     else maximum_iterations - iterations)
        if backend is dispatch.JAX:
            body = on_path(body, test, lambda *state: unpack(names, state))
            values = loops.while_loop(test, body, values, names, here(), remaining)
            break
        if backend is not dispatch.PYTHON:   # a framework's
            values = pack(names, backend.while_stmt(test, body, values, names, remaining))
            break
        if not cond:
            break
        values = pack(names, body(*values))
        iterations += 1
    return values


def for_stmt(iterable, body, state=(), names=(), extra_test=None, unroll=None,
             autodiff=None, fields=None, nonlocals=(), iterator=None, aliased=(),
             independent_axis=None, reductions=None, sequential_sums=None, unchanged=(),
             reads=(), overwritten_after=(), counters=None, live=None, rebound=()):
    """Python reference:

        for item in iterable:
            if extra_test is not None and not extra_test(*state):
                break
            state = body(item, *state)
        return state

    A traced iterable (an array, or a range with traced bounds) is staged: `lax.scan`
    over an array's leading axis, a while loop over a traced range (`autodiff` picks its
    lowering, see loop_autodiff). A range with Python bounds (also under `enumerate`,
    `zip`, `reversed`) is staged as one loop when its values are traced, unless it is
    short, `unroll` (a `set_loop_options` directive) says otherwise, or its body needs
    the index as a Python int: see runtime.loops.loop_policy.

    `iterator` names an iterable the code after the loop reads again (a Python iterator
    must not be left where a traced `break` decides). `aliased` names the lists the loop
    grows that other code may also hold (a parameter, `alias = out`): they stay the same objects, with the
    loop's items (see runtime.state.lists.refill). `independent_axis` says the converter
    proved the iterations independent: a staged loop over a range is then vectorised
    where it can be (see runtime.loops.vectorized), its accumulators `reductions`
    ({name: kind}) reduced at once (runtime.loops.reductions), the arrays `unchanged`
    it carries passed whole to every iteration, which must give them back as they came
    (the bases of views that were copies), the arrays `reads` names read by the body at
    the index as items (runtime.items.parts); `sequential_sums`
    (a `set_loop_options` directive) keeps Python's order of float sums in this loop
    and those nested in it; `overwritten_after` is as for `while_stmt`. `counters`
    ({name: step}): variables every iteration changes by the same Python int (`n += 1`
    atop a body with no `break` or `return`, see passes.loops), which hold Python's int
    after a staged loop of a known number of iterations (the body sees it traced), so
    that the code after it (`if n < 2:`) decides as Python does. `live` and `rebound`:
    the iterated variables the body changes in place (and rebinds), whose items a staged
    loop reads from the carried values, as Python's iterator does (runtime.loops.live).
    """
    independent = None if independent_axis is None else (
        independent_axis, reductions, unchanged, vectorized.read_arrays(body, reads))
    if iterator is not None and extra_test is not None and not is_traced(iterable) \
            and builtins.iter(iterable) is iterable:
        extra_test = _untraced_exit(extra_test, iterator, here())
    body, extra_test = (held_lists.checked(body, state, names, 1),
                        held_lists.checked(extra_test, state, names, 0))
    statement = Statement(state, names, fields, nonlocals, (body, extra_test), loop=True,
                          aliased=aliased)
    if live:
        iterable, independent = _live_items(iterable, statement, live, rebound, independent)
    body, extra_test = statement.bind(body), statement.bind_test(extra_test)
    framework = dispatch.loop_lowering_for(iterable)
    if framework is not None:
        return statement.finish(framework.for_stmt(iterable, body, statement.values,
                                                   statement.names, extra_test))
    with loop_autodiff.autodiff_mode(autodiff), reductions_.sequential_sums(sequential_sums), \
            carry.overwritten_after(overwritten_after):
        values = statement.staged(lambda objects: _for(
            iterable, objects.wrap(body, leading=1), objects.state, objects.all_names,
            objects.wrap(extra_test, returns_state=False), unroll, independent, counters))
    return statement.finish(values)


def _live_items(iterable, statement, live, rebound, independent):
    """(the iterable, the independence) of a loop whose body changes what it iterates
    (`live`, `rebound`: see runtime.loops.live; the statement's nonlocals count too): a
    loop that reads its items from the carried values is not vectorised (each step
    reads what the steps before it wrote)."""
    iterable = live_.live_items(iterable, statement.values, statement.names, live, rebound)
    return iterable, (None if isinstance(iterable, live_.LiveItems) else independent)


def _untraced_exit(extra_test, iterator, location):
    """`extra_test`, raising a named error when its value is traced."""
    def test(*state):
        go = extra_test(*state)
        if is_traced(go):
            raise reused_iterator(iterator, location)
        return go
    return test


def _for(iterable, body, values, names, extra_test, unroll, independent=None,
         counters=None):
    if isinstance(iterable, live_.LiveItems):   # (a loop over its step counts)
        return _for(iterable.indices(), iterable.body(body, names), values, names,
                    extra_test, unroll, None, counters)
    items = range_items(iterable)
    if extra_test is not None:  # a staged body runs only while the loop has not broken
        body = on_path(body, lambda item, *state: extra_test(*state),
                       lambda item, *state: unpack(names, state))
    if isinstance(iterable, (TracedIterable, StagedRange)) or is_traced(iterable):
        staged = iterable if isinstance(iterable, (TracedIterable, StagedRange)) \
            else TracedIterable.over(iterable)
        if isinstance(staged, TracedIterable) and staged.static():   # (may run as Python)
            return _counted(counters, len(staged), values, names, _items_for(
                staged, staged, body, values, names, extra_test, unroll))
        if extra_test is None:   # (Python's errors of the body: only where it runs)
            body = on_path(body, lambda item, *state: True,
                           lambda item, *state: unpack(names, state))
        values = staged.loop(body, values, names, here(), extra_test)
    elif items is not None or (
            isinstance(iterable, (list, tuple)) and loop_policy.wanted(
                len(iterable), unroll, loop_policy.SHORT_LIST) is not False
            and (items := stacked_items(iterable, values)) is not None):
        values = _counted(counters, len(items), values, names, _items_for(
            iterable, items, body, values, names, extra_test, unroll, independent))
    else:
        location = here(2)
        traced = any_traced(values) or dispatch.sees(body, any_traced)
        with loop_policy.unrolled(location, _length(iterable), unstacked_reason(iterable),
                                  traced=traced) as count:
            values = _python_for(iterable, body, values, names, extra_test, count=count)
    return values


def _counted(counters, length, before, names, after):
    """The values after a loop of `length` iterations, its `counters` ({name: step})
    that held a Python int before it set to the Python int each iteration's step gives
    (see `for_stmt`)."""
    if not counters:
        return after
    after = list(after)
    for name, step in counters.items():
        k = names.index(name) if name in names else None
        if k is not None and type(before[k]) is int:
            after[k] = before[k] + step * length
    return after


def _length(iterable):
    return len(iterable) if isinstance(iterable, (list, tuple, dict, set, str)) else None


def _items_for(iterable, items, body, values, names, extra_test, unroll,
               independent=None):
    """A `for` over a range with Python bounds (`items` a RangeItems), a Python list of
    like arrays (a StackedItems) or an array's rows (a TracedIterable of static length,
    always tried staged first: its items are traced): one staged loop (vectorised when
    its iterations are independent), or the Python loop. A range loop that carries or
    sees a framework's values is the framework's to stage. `independent`: (axis,
    reductions, unchanged, arrays read at the index) of a loop the converter proved
    independent (see `for_stmt`)."""
    location = here(2)
    rows = isinstance(items, TracedIterable)
    framework = None if rows else dispatch.range_lowering_for(values, body)
    if framework is not None and isinstance(items, StackedItems):
        return _python_for(iterable, body, values, names, extra_test)
    if unroll is None and framework is not None:
        unroll = dispatch.unroll_option()
    stage = None if rows else loop_policy.wanted(len(items), unroll, (
        loop_policy.SHORT_LIST if isinstance(items, StackedItems) else loop_policy.SHORT_LOOP))
    traced = rows or any_traced(values)
    if independent is not None and framework is None and extra_test is None \
            and not isinstance(items, StackedItems) and vectorized.wanted(unroll) \
            and (traced or dispatch.sees(body, any_traced)):
        try:
            vectorised = vectorized.loop(iterable, body, values, names, independent[0],
                                         not traced, *independent[1:])
        except StagedRecursion:
            raise
        except (loops.NothingTraced,) + _NEEDS_PYTHON:
            vectorised = None   # (the ordinary loop meets it again, and says so)
        if vectorised is not None:
            vectorized.report(location, len(items), independent[0])
            return vectorised
    reason = None     # (why staging failed)
    if stage is not False and (framework is not None or traced
                               or dispatch.sees(body, any_traced)):
        try:
            if framework is not None:
                staged = pack(names, framework.for_stmt(items, body, values, names,
                                                        extra_test))
                how = 'loop of the framework'
            else:
                staged = items.loop(body, values, names, location, extra_test,
                                    require_traced=not traced)
                how = 'lax.while_loop' if extra_test else 'lax.scan'
        except loops.NothingTraced:
            pass
        except _NEEDS_PYTHON as error:
            if isinstance(error, StagedRecursion) or \
                    not loop_policy.may_unroll(len(items), rows):
                raise
            reason = _reason(error)
        else:
            loop_policy.report_staged(location, len(items), how)
            _use_up(iterable)
            return staged
    staged_rest = items if stage is not False and framework is None else None
    if reason is None:   # (not staged, or its body computes nothing from traced values)
        return _python_for(iterable, body, values, names, extra_test, staged_rest)
    with loop_policy.unrolled(location, len(items), reason, asked=stage) as count:
        return _python_for(iterable, body, values, names, extra_test, staged_rest, count)


_NEEDS_PYTHON = (TypeError, IndexError, ControlFlowError)
"""What staging a loop over a Python range raises when its body needs the index as a
Python int (`layers[i]`, `jnp.zeros(i)`, `int(i)`) or its state cannot be carried (a
shape that grows): such a loop runs as Python instead. Any other error is the user's own
and propagates (the Python loop would raise it too), as does StagedRecursion: unrolled,
the loop would recurse as deep again, once per level it unrolls (exponential time)."""


def _use_up(iterable):
    """A Python iterator (not a range) is used up after a staged loop over it, as the
    Python loop would leave it."""
    if builtins.iter(iterable) is iterable:
        for _ in iterable:
            pass


def _reason(error):
    message = str(error).strip().splitlines()
    return f'{type(error).__name__}: {message[0] if message else "no message"}'


def _python_for(iterable, body, values, names, extra_test, items=None, count=None):
    """The plain Python loop, which turns staged if a `break` flag becomes traced (the
    rest of the loop is one staged loop when `items` are the range's items). `count`: a
    list whose first item counts the iterations run as Python, the second says how the
    rest ran (see loop_policy.unrolled)."""
    count = [0, None] if count is None else count
    iterator = builtins.iter(iterable)
    while True:
        # The exit flag is read before the next item is taken: after a `break`, Python
        # leaves the rest of an iterator to whoever iterates it next.
        go, backend = None, dispatch.PYTHON
        if extra_test is not None:   # (a loop without `break` skips all of this)
            go = extra_test(*values)
            backend = dispatch.backend_for(go)
            if backend is dispatch.PYTHON and not go:
                break
        item = next(iterator, _END)
        if item is _END:
            break
        if backend is dispatch.JAX:
            return _finish_staged(items, item, iterator, count, body, values, names,
                                  extra_test, iterator is iterable)
        if backend is not dispatch.PYTHON:   # each remaining step under the framework's cond
            values = backend.guarded(go, lambda s, item=item: pack(names, body(item, *s)),
                                     values)
            continue
        values = pack(names, body(item, *values))
        count[0] += 1
    return values


_END = object()


def _finish_staged(items, item, rest, count, body, values, names, extra_test, use_up):
    """Run the rest of a Python loop after its exit flag became traced.

    Over a range the rest becomes one staged loop if it can; otherwise each remaining
    iteration becomes a `lax.cond` on the flag. (`count`: as `_python_for`'s, told which.)
    """
    location = here(2)
    if items is not None:
        try:
            staged = items.after(count[0]).loop(body, values, names, location, extra_test,
                                                require_traced=False)
            if use_up:
                _use_up(rest)
            count[1] = loop_policy.REST_STAGED
            return staged
        except StagedRecursion:
            raise
        except _NEEDS_PYTHON:
            pass
    count[1] = loop_policy.REST_GUARDED
    for item in _chain(item, rest):
        go = extra_test(*values)

        def run(*state, item=item):
            return body(item, *state)

        def skip(*state):
            return unpack(names, state)
        if is_traced(go):
            pred = predicate(go, location, '`for` loop')
            values = branches.cond(pred, run, skip, values, names, location)
        elif go:
            values = pack(names, body(item, *values))
        else:
            break
    return values


def _chain(first, rest):
    yield first
    yield from rest
