"""Logs: lists a Function only appends to, kept out of its calls' keys.

Python reference: `return python_function(*args)`. A list the function only appends to
(`calls.append(loss)`, `self.history.extend(xs)`, `self.history += [x]`) is a log kept
for the code after the call, which sees each item once the call has appended it:

    calls = []

    @autograph.convert
    def step(x):
        calls.append(x.sum())     # only appended to, never read by the function
        return x * 2

    for i in range(1000):
        step(jnp.ones(3) * i)     # one trace; calls == [0.0, 3.0, 6.0, ...], 1000 arrays

A list the function reads (indexes, iterates, `len`, passes elsewhere, returns, rebinds)
is state (autograph.function.state): its contents are part of the call's key, and Python
semantics are exact. A log is not: it is neither keyed nor passed in, so its length
costs a call nothing and no call traces again because it grew. While tracing, each log is
empty (runtime.state.logs: the function never sees its items); the items the trace
appends are outputs of the compiled program, and after each call they are appended to
the real list, in order: arrays as the call's concrete values, Python values as the trace
appended them (on every call, as Python would). Under a staged `if` an item is appended
on the calls whose program takes that branch, in a staged loop once per iteration
(runtime.state.logs; `expand` puts them in Python's order); a staged loop without a fixed
trip count (`while`, `break`) cannot append to a log (the named error of a list it grows).

Which lists are logs is decided from the code, not from what a trace did: a real list
cannot report its reads at run time (`len`, iteration, C code reading it, the runtime
carrying it through a staged statement), while the code names each one. The converter's
analysis (autograph.analysis.logs) of the generated code of the function and of each
converted function its traces call gives the names only appended to; a list is a log
when it is reached by such a name, by no other name the function reads, and is not an
argument (`LogNames`, `kept_apart`). A name that a
function called for the first time while tracing reads (a helper's `len(calls)`) makes
the list state on the spot: the trace stops (`LogRead`) and the call starts again with
the list in its key. A list reached only through getattr with a computed name, or read by
code that is not converted (a `do_not_convert` function, library code), is not seen:
such code sees the empty list while tracing, as with any trace-time side effect.

Under someone else's trace (`convert(f, jit=False)` under `jax.jit`, or a Function called
inside `jax.jit`, `jax.grad`, `jax.vmap`) there is no call boundary of ours: the items are
that trace's values, appended once, when it traces, as JAX does with any Python side
effect (an item under a staged `if` there is an error: whether it exists is known only
when that program runs).
"""
import linecache
import weakref

import jax

from autograph import codegen, syntax_trees
from autograph.analysis import logs as analysis
from autograph.function.results import _name_and_line, given_back
from autograph.runtime.checks.absent import Maybe
from autograph.runtime.messages import log_in_foreign_trace
from autograph.runtime.state.logs import Block, Iterations
from autograph.runtime.state.kinds import is_data
from autograph.runtime.state.places import Place, code_names


class LogRead(Exception):
    """A trace stopped: a function it calls reads a list the call took for a log."""


_USES = weakref.WeakKeyDictionary()   # code object -> analysis.Uses


def code_uses(code):
    """The Uses of `code`: from its generated source (converted code, nested functions
    included); for other code, every name it uses counts as read."""
    found = _USES.get(code)
    if found is None:
        found = _generated_uses(code) if codegen.is_generated(code) else None
        if found is None:
            found = analysis.Uses(frozenset(), frozenset(code_names(code)))
        _USES[code] = found
    return found


def _generated_uses(code):
    entry = linecache.cache.get(code.co_filename)
    if not entry or not entry[2]:
        return None
    try:
        tree = syntax_trees.parse(''.join(entry[2]))
        runtime_name = tree.body[0].args.args[0].arg   # (the factory's first parameter)
    except (SyntaxError, RecursionError, MemoryError, ValueError, IndexError,
            AttributeError):   # (then every name it uses counts as read)
        return None
    return analysis.uses(tree, runtime_name)


def _code_of(fn):
    fn = getattr(fn, 'func', fn)   # (functools.partial)
    fn = getattr(fn, '__func__', fn)
    return getattr(fn, '__code__', None)


class LogNames:
    """The log names of one Function: the names only appended to in its converted code
    and in the converted functions its traces called (its StateFinder's codes)."""

    def __init__(self, function, finder):
        self._function, self._finder = function, finder
        self._own = None
        self._seen = -1
        self._names = frozenset()

    def __call__(self):
        finder = self._finder
        if len(finder.seen_codes) != self._seen:
            if self._own is None:
                self._own = _code_of(self._function.converted)
                self._original = _code_of(self._function._function)
            seen = len(finder.seen_codes)
            uses = code_uses(self._own) if self._own is not None else analysis.NONE
            for code in list(finder.seen_codes):
                if code is not self._original:
                    uses = uses | code_uses(code)
            self._names, self._seen = uses.logs, seen
        return self._names


def kept_apart(places, args, kwargs, potential=False):
    """`places` with each log place that is not a log after all made state again, or
    dropped as state would be: a list also reached by a name that is not a log name, or
    given as an argument. Of two log places of one list the first is kept. (`places`
    are left as they are: a log made state is a copy.)"""
    state = {id(p.get()) for p in places if not p.log}
    state |= {id(a) for a in list(args) + list(kwargs.values()) if type(a) is list}
    out, logs = [], set()
    for place in places:
        if place.log:
            items = id(place.get())
            if items in logs:
                continue
            if items in state:
                if not (potential or is_data(place.get())):
                    continue
                place = Place(place.label, place.get, place.set, place.delete, place.key)
            else:
                logs.add(items)
        out.append(place)
    return out


def expand(items, defined, out=None):
    """A call's logged items as Python appended them: the items of the staged branches
    the program took and of each iteration of its staged loops, in order (see
    runtime.state.logs). `defined`: the Python function, for errors."""
    out = [] if out is None else out
    for item in items:
        if isinstance(item, Maybe) and isinstance(item.value, Block):
            if isinstance(item.present, jax.core.Tracer):
                raise log_in_foreign_trace(*_name_and_line(defined))
            if bool(item.present):
                expand(item.value.items, defined, out)
        elif isinstance(item, Block):
            expand(item.items, defined, out)
        elif isinstance(item, Iterations):
            for block in item.blocks():
                expand(block.items, defined, out)
        else:
            out.append(given_back(item, defined))
    return out


def append_logged(places, logged, defined):
    """After a call: append each log's items (by label) to its list."""
    by_label = {place.label: place for place in places}
    for label, items in logged.items():
        place = by_label.get(label)
        target = place.get() if place is not None else None
        if type(target) is list:
            target.extend(expand(items, defined))


_ATTEMPTS = 4
"""How many times a call starts again because a list it took for a log is read by a
function its trace called first (see `LogRead`): each time the list is
state from then on, so this runs out only on lists found one by one."""


def again_if_log_read(call, args, kwargs):
    """`call(args, kwargs)`, started again (a few times) when it raises LogRead."""
    for _ in range(_ATTEMPTS - 1):
        try:
            return call(args, kwargs)
        except LogRead:
            continue
    return call(args, kwargs)
