"""The one tracing context: everything the runtime remembers while converted code runs.

Converted code calls operators (`ag.if_stmt`, `ag.for_stmt`, ...) that nest: a staged
branch calls more operators while JAX traces it. What an operator needs to know about the
statements around it lives here, in one object per thread (a context variable), instead
of one hidden stack per module:

- `depth`: how many staged branches/loop bodies are being traced (runtime.staging);
- `paths`: the predicates of the staged branches being traced, innermost last
  (runtime.checks.raises: a run-time `raise` fires only on the path the program takes);
- `errors`: the error state that run-time checks update on this path (runtime.checks),
  or None where checks report themselves;
- `try_scopes`: the enclosing converted `try` statements (runtime.checks.handlers);
- `range_items`: the traced items of the range loops being staged (runtime.items.slicing);
- `calls`: the converted functions being called, with their staging depths
  (runtime.python.calls: recursion on a traced value);
- `batch`: how many iterations of the vectorised loops being traced run side by side
  (runtime.loops.vectorized): a value traced in their body stands for that many
  (runtime.staging.item_branches sizes branches by it);
- `parts`: the items that the bodies of the vectorised loops being traced take of the
  arrays they read at their indices, innermost last (runtime.items.parts);
- `autodiff`, `unroll_loops` and `sequential_sums`: the loop options in force
  (runtime.staging.loop_autodiff, runtime.loops.loop_policy, runtime.loops.reductions);
- `on_call`: while a converted Function is traced, told of each converted function its
  code calls, before the call (autograph.function.state: the state those functions read
  and write);
- `discovered`: per staged statement (the code of its branches or body), the places
  that functions it calls were found to change while the converted Function being
  traced ran (runtime.state.statement);
- `staging`: the staged statements whose paths are being traced, outermost first
  (runtime.state.restaging);
- `written`: the calls of functions that write items of their array parameters, with
  the final values they report (runtime.python.calls.call_writing);
- `logs`: while a converted Function is traced, the lists its code only appends to
  (runtime.state.logs: staged statements carry what they append to them);
- `embeddings`: the frameworks whose converted code is running, innermost last (None
  where an embedding is suspended; runtime.registry);
- `fields`: while a converted Function runs, the attributes that staged code created on
  some paths only, {(id(object), name): (object, value, flag)}: the object holds the
  plain value, the flag says where Python's has the attribute (`field_flag`); and the
  plain dicts it gave keys on some paths only, {('dict', id): (dict, the flagged dict
  the variable holds)} (`changed_dict`; runtime.state.mutation sets both);
- `numpy`: while a converted Function runs, the traced values that stand for NumPy
  arrays, {id: value} (the arrays it was given as NumPy arrays, and what staged
  statements and views make of them: `stands_for_numpy`); views of those are NumPy's
  views (runtime.items.views), views of any other traced value copies, as JAX's are;
- `arguments`: while a converted Function is traced, the traced values that stand for
  the NumPy arrays given to it as arguments, {id: value} (not its state's: a changed
  argument is given back through its parameter, see `argument_array`);
- `layouts`: while a converted Function is traced, the memory layouts of the NumPy
  arrays it was given that are not laid out in C order (`m.T`, `x[::2]`), {id: (traced
  value, strides in items)} (`layout`; runtime.items.view_chains: a reshape of one is
  a view or a copy by it);
- `symbolic`: whether the converted function being run was given arrays with symbolic
  dimensions (`jax.export`): its tests are then traced, not computed while tracing
  (runtime.operators.conditionals.tested).

Process-wide services sit beside it: the objects that converted code makes (`made`: a
serial number each, so that a staged statement tells the objects its body makes from
those there before it); the recursion limit, which Python keeps per process, is raised
and restored through one counted, locked protocol (`recursion_room`), shared with the
converter's worker threads; and the converter installs `converter`, the hook through
which the runtime converts the functions converted code calls (the runtime imports
nothing from the converter).
"""
import contextlib
import contextvars
import dataclasses
import itertools
import sys
import threading
import weakref

import numpy as np


@dataclasses.dataclass
class TracingContext:
    depth: int = 0
    paths: list = dataclasses.field(default_factory=list)
    errors: object = None
    try_scopes: list = dataclasses.field(default_factory=list)
    range_items: list = dataclasses.field(default_factory=list)
    calls: dict = dataclasses.field(default_factory=dict)
    batch: int = 1
    parts: tuple = ()
    autodiff: str = None
    unroll_loops: bool = None
    sequential_sums: bool = None
    embeddings: list = dataclasses.field(default_factory=list)   # innermost last
    on_call: object = None
    written: list = dataclasses.field(default_factory=list)
    discovered: dict = dataclasses.field(default_factory=dict)
    staging: tuple = ()
    logs: object = None
    symbolic: bool = False
    fields: dict = None
    numpy: dict = None
    arguments: dict = None
    layouts: dict = None


_current = contextvars.ContextVar('autograph_tracing_context', default=None)


def staged_depth():
    """How many staged branches/bodies are being traced on this thread right now."""
    return current().depth


def current():
    """This thread's TracingContext (made on first use: a new thread starts empty)."""
    context = _current.get()
    if context is None:
        context = TracingContext()
        _current.set(context)
    return context


_NOTHING = object()


def stands_for_numpy(value):
    """Whether traced `value` stands for a NumPy array (see `numpy`)."""
    marks = current().numpy
    return bool(marks) and marks.get(id(value)) is value


def numpy_meaning(value):
    """Whether `value` has NumPy's meaning (views, in-place changes): a NumPy array, or
    a traced value that stands for one (see `numpy`)."""
    return isinstance(value, np.ndarray) or stands_for_numpy(value)


def kind_unknown(value):
    """Whether traced `value` may stand for a NumPy array or a JAX array alike: a
    converted Function given NumPy arrays runs (see `numpy`), and `value` is not noted
    as standing for one (a value NumPy's code may have made of them)."""
    marks = current().numpy
    return bool(marks) and marks.get(id(value)) is not value and \
        isinstance(value, jax_tracer()) and value.ndim > 0   # (0-d: a number)


def jax_tracer():
    import jax
    return jax.core.Tracer


def numpy_marks(values=()):
    """A new `numpy`: this one's marks and `values` (a converted Function run inside
    another's trace keeps the marks of the one around it)."""
    return {**(current().numpy or {}), **{id(value): value for value in values}}


def argument_array(value):
    """Whether traced `value` stands for a NumPy array given to the converted Function
    being traced as an argument (see `arguments`)."""
    arguments = current().arguments
    return bool(arguments) and arguments.get(id(value)) is value


def mark_argument(value):
    """Note traced `value` as the very array of an argument (see `arguments`)."""
    arguments = current().arguments
    if arguments is not None:
        arguments[id(value)] = value


def layout(value):
    """The strides in items of the NumPy array traced `value` stands for, where the
    converted Function being traced was given one that is not laid out in C order (see
    `layouts`), else None (C order)."""
    layouts = current().layouts
    entry = layouts.get(id(value)) if layouts else None
    return entry[1] if entry is not None and entry[0] is value else None


def mark_numpy(value):
    """Note traced `value` as standing for a NumPy array (where a Function runs); gives
    `value`."""
    marks = current().numpy
    if marks is not None:
        marks[id(value)] = value
    return value


def field_flag(holder, name):
    """The traced flag of attribute `name` of `holder` where staged code created it on
    some paths only and it still holds that value (see `fields`), else None."""
    entry = (current().fields or {}).get((id(holder), name))
    if entry is None or entry[0] is not holder \
            or getattr(holder, name, _NOTHING) is not entry[1]:
        return None
    return entry[2]


def changed_dict(target):
    """The dict with keys on some paths only that staged code made of plain dict `target`
    (see `fields`: under ('dict', id)), which the variable holds from then on, or None."""
    entry = (current().fields or {}).get(('dict', id(target)))
    return None if entry is None or entry[0] is not target else entry[1]


def innermost_embedding():
    """The embedding whose converted code is running on this thread, or None (as
    `current().embeddings[-1]`, without making a context: asked on every cached call)."""
    context = _current.get()
    embeddings = context.embeddings if context is not None else None
    return embeddings[-1] if embeddings else None


context_made = _current.get
"""The thread's context, or None where none was made yet (then no embedding is active)."""


@contextlib.contextmanager
def setting(**values):
    """The context's fields set to `values` inside (restored after, also on errors)."""
    context = current()
    previous = {name: getattr(context, name) for name in values}
    for name, value in values.items():
        setattr(context, name, value)
    try:
        yield context
    finally:
        for name, value in previous.items():
            setattr(context, name, value)


# --- objects made by converted code ---------------------------------------------------

_made = {}                  # id(object) -> (weak reference, serial)
_serials = itertools.count(1)


def made(obj):
    """Note `obj` as made now, by a call of a user class in converted code (where it is
    surely a new object); gives `obj`. Objects that take no weak reference are not noted."""
    key = id(obj)
    try:
        ref = weakref.ref(obj, lambda _, key=key: _made.pop(key, None))
    except TypeError:
        return obj
    _made[key] = (ref, next(_serials))
    return obj


def made_mark():
    """A mark: objects noted after it are `made_since` it."""
    return next(_serials)


def made_since(obj, mark):
    """True when `obj` was noted by `made` after `mark` (see `made_mark`)."""
    entry = _made.get(id(obj))
    return entry is not None and entry[0]() is obj and entry[1] > mark


# --- the recursion limit: one process-wide setting, shared by counted requests ----------

_limit_lock = threading.Lock()
_requests = []          # the limits asked for by the holders inside, in any order
_base_limit = None      # the limit before the first request, restored after the last
_applied = None         # the limit set by the requests (to tell a change made outside)


@contextlib.contextmanager
def recursion_limit(limit):
    """Inside, Python's recursion limit is at least `limit`.

    The limit is one setting for the whole process, while the threads that need a higher
    one (the converter's workers, staging deep bodies) come and go in any order. So the
    limit in force is the largest of the requests held at the moment, and when the last
    one ends, the limit from before the first comes back (unless code outside changed it
    meanwhile: then it stays as that code set it).
    """
    global _base_limit
    with _limit_lock:
        if not _requests:
            _base_limit = sys.getrecursionlimit()
        _requests.append(limit)
        _apply()
    try:
        yield
    finally:
        with _limit_lock:
            _requests.remove(limit)
            _apply()


def _apply():
    global _applied
    if sys.getrecursionlimit() != _applied and _applied is not None and not _requests:
        _applied = None          # changed outside meanwhile: leave it
        return
    target = max([_base_limit, *_requests])
    sys.setrecursionlimit(target)
    _applied = target if _requests else None


def frames_in_use():
    """How many Python frames this thread's stack holds now."""
    used, frame = 0, sys._getframe(1)
    while frame is not None:
        used += 1
        frame = frame.f_back
    return used


def recursion_room(headroom):
    """Inside (a context manager), at least `headroom` frames are free above the
    caller's."""
    return recursion_limit(frames_in_use() + headroom)


# --- the converter's hook -------------------------------------------------------------

class _NoConverter:
    """Before the converter is imported: every function is called as it is."""

    @staticmethod
    def converted_callable(fn):
        return fn

    @staticmethod
    def converts_init(cls):
        return False

    @staticmethod
    def assigned_on_self(code):
        return ()

    @staticmethod
    def updated_only(fn):
        return ()

    @staticmethod
    def is_library(obj):
        return False

    @staticmethod
    def is_converted(fn):
        return False

    @staticmethod
    def refusal(code):
        return None


converter = _NoConverter()
"""What the converter installs (`install_converter`): `converted_callable(fn)` gives the
converted version of a function converted code calls (or `fn` itself for library code
and for converted code: a function defined inside converted code, which `is_converted`),
`converts_init(cls)` whether `cls(...)` runs its `__init__` converted,
`assigned_on_self(code)` the attributes a method assigns on its first parameter,
`is_library(obj)` whether an object is library code, `refusal(code)` why the user
function of a code object is called unconverted (or None), and `updated_only(fn)` the
parameters a function changes in place only by `p += e`."""


def install_converter(hook):
    global converter
    converter = hook
