"""Frameworks' own lowerings of control flow, consulted before the JAX one.

A framework that traces programs with its own values tells autograph how to stage an `if`
and a loop on them, the way `jax.tree_util.register_pytree_node` tells JAX how to flatten
its types:

    autograph.register(lambda v: isinstance(v, MyTracer),
                       cond=my.cond, while_loop=my.while_loop, fori_loop=my.fori_loop)

The three primitives have `jax.lax`'s signatures (`cond(pred, true_fun, false_fun,
*operands)`, `while_loop(cond_fun, body_fun, init_val)`, `fori_loop(lower, upper, body_fun,
init_val)`), so `nnx.cond`, `nnx.while_loop` and `nnx.fori_loop` fit as they are. The
operators (`if_stmt`, `while_stmt`, `for_stmt`, `if_exp`, `and_`, `or_`, `not_`) ask
`lowering_for(value)` first; a lowering that claims the condition or iterable stages the
statement with the framework's primitives, anything else takes the default path (Python
for Python values, `lax` for JAX tracers).

An `Embedding` carries one framework's lowerings and conversion options, so that they touch
nothing other users share. It is active (a context variable) while code converted for it
runs: `autograph.transform(fn, embedding=e)`, or `with e:`. Its lowerings come before the
ones registered globally; a lowering registered with no predicate claims every JAX tracer,
which is what frameworks built on JAX tracing (Flax NNX) want while their code runs.
"""
import contextlib
import contextvars
import dataclasses
import threading
import typing

from . import iterables
from .errors import ControlFlowError, here, where
from .lowering import TRACED
from .state import RETURN_VALUE, Undefined, is_traced, pack, unpack

_registered = []
_active = contextvars.ContextVar('autograph_embedding', default=None)


@dataclasses.dataclass(frozen=True, eq=False)
class Lowering:
    """How one framework stages control flow on the values `owns` accepts.

    `owns=None` claims every JAX tracer. A predicate is never shown the marker that stands
    for the first, sandboxed test of a `while` loop on JAX tracers, so a framework whose
    values are JAX tracers registers with no predicate, inside its own `Embedding`.
    """
    owns: typing.Callable | None
    cond: typing.Callable
    while_loop: typing.Callable | None = None
    fori_loop: typing.Callable | None = None

    def claims(self, value):
        if self.owns is None:
            return is_traced(value) or value is TRACED
        return value is not TRACED and bool(self.owns(value))

    def claims_loop(self, iterable):
        """Whether a `for` over `iterable` is this framework's to stage."""
        if isinstance(iterable, (iterables.StagedRange, Range)):
            return self.owns is None or any(
                self.claims(b) for b in (iterable.start, iterable.stop, iterable.step))
        if isinstance(iterable, iterables.TracedIterable):
            return any(self.claims(s) for s in iterable.sequences)
        return self.claims(iterable)

    # --- the statements, in terms of the framework's primitives -------------------------

    def if_stmt(self, pred, if_true, if_false, args, names, what='`if`'):
        """`if_true(*args) if pred else if_false(*args)` as the framework's `cond`."""
        location = here()
        carried, rebuild = _without_undefined(args)

        def branch(fn, which):
            def run(*operands):
                out = pack(names, fn(*rebuild(operands)))
                _check_assigned(names, out, f'the {which} branch of the {what}', location)
                return out
            return run
        out = self.cond(pred, branch(if_true, 'true'), branch(if_false, 'false'), *carried)
        return unpack(names, tuple(out))

    def select(self, pred, if_true, if_false):
        """`if_true() if pred else if_false()`: also `and`, `or` and `not`."""
        return self.if_stmt(pred, if_true, if_false, (), ('value',),
                            'conditional expression')

    def while_stmt(self, test, body, values, names, maximum_iterations=None):
        """`while test(*values): values = body(*values)`, as the framework's while_loop;
        with `maximum_iterations`, a fori_loop whose steps do nothing once `test` fails
        (which reverse-mode differentiation supports)."""
        location = here()
        _check_initialised(names, values, '`while` loop', location)

        def step(state):
            return pack(names, body(*state))
        if maximum_iterations is None:
            loop = self._primitive('while_loop', '`while` loop', location)
            return unpack(names, tuple(loop(lambda state: test(*state), step, tuple(values))))

        def bounded(i, state):
            return self.guarded(test(*state), step, state)
        loop = self._primitive('fori_loop', 'bounded `while` loop', location)
        return unpack(names, tuple(loop(0, maximum_iterations, bounded, tuple(values))))

    def for_stmt(self, iterable, body, values, names, extra_test=None):
        """`for item in iterable: values = body(item, *values)` as the framework's
        fori_loop over the indices (a `break` guards the remaining steps)."""
        location = here()
        _check_initialised(names, values, '`for` loop', location)
        start, stop, item = _indexing(iterable)

        def step(i, state):
            if extra_test is None:
                return pack(names, body(item(i), *state))
            return self.guarded(extra_test(*state),
                                 lambda s: pack(names, body(item(i), *s)), state)
        loop = self._primitive('fori_loop', '`for` loop', location)
        return unpack(names, tuple(loop(start, stop, step, tuple(values))))

    def guarded(self, go, step, state):
        """`step(state) if go else state`, staged when `go` is this framework's value."""
        if self.claims(go):
            return tuple(self.cond(go, lambda *s: tuple(step(s)), lambda *s: s, *state))
        return step(state) if go else state

    def _primitive(self, name, what, location):
        primitive = getattr(self, name)
        if primitive is None:
            raise ControlFlowError(
                f'the {what}{where(location)} is on a value of a framework whose lowering '
                f'gives no {name}; register one (autograph.register(..., {name}=...)).')
        return primitive


def _indexing(iterable):
    """(start, stop, item): the loop runs `item(i)` for i in range(start, stop)."""
    if isinstance(iterable, (iterables.StagedRange, Range)):
        r = iterable
        if isinstance(r.step, int) and r.step == 1:
            return r.start, r.stop, lambda i: i
        if not isinstance(r.step, int) or r.step == 0:
            raise ControlFlowError('a staged range needs a Python int step other than 0')
        span = r.stop - r.start if r.step > 0 else r.start - r.stop
        count = (span + abs(r.step) - 1) // abs(r.step)
        return 0, count, lambda k: r.start + k * r.step
    if isinstance(iterable, iterables.TracedIterable):
        t = iterable
        return 0, t.length, lambda k: t.make_item(k, *(s[k] for s in t.sequences))
    return 0, len(iterable), lambda k: iterable[k]


def _without_undefined(values):
    """The values a primitive can carry, and how to put the Undefined ones back."""
    undefined = {i: v for i, v in enumerate(values) if isinstance(v, Undefined)}
    carried = tuple(v for i, v in enumerate(values) if i not in undefined)

    def rebuild(operands):
        it = iter(operands)
        return tuple(undefined[i] if i in undefined else next(it) for i in range(len(values)))
    return carried, rebuild


def _check_assigned(names, values, what, location):
    for name, value in zip(names, values):
        if isinstance(value, Undefined):
            subject = ('the function returns no value' if name == RETURN_VALUE
                       else f"'{name}' has no value")
            raise ControlFlowError(
                f'{subject} at the end of {what}{where(location)}, but the condition is '
                f'staged, so every branch must give it one: assign it before the `if` or '
                f'in both branches.')


def _check_initialised(names, values, what, location):
    for name, value in zip(names, values):
        if isinstance(value, Undefined) and name != RETURN_VALUE:
            raise ControlFlowError(
                f"'{name}' has no value before the staged {what}{where(location)}: a "
                f"framework's loop carries only values it had before the loop; assign "
                f"'{name}' before the loop.")


class Range:
    """`range(...)` over a framework's values: only a converted `for` can iterate it."""

    def __init__(self, *args):
        if not 1 <= len(args) <= 3:
            raise TypeError(f'range expected 1 to 3 arguments, got {len(args)}')
        self.start, self.stop, self.step = (0, args[0], 1) if len(args) == 1 else (
            args[0], args[1], args[2] if len(args) == 3 else 1)

    def __iter__(self):
        raise ControlFlowError('a range over traced bounds cannot be iterated in Python; '
                               'iterate it in a `for` loop of converted code')


# --- lookup -------------------------------------------------------------------------------

def lowering_for(value):
    """The lowering that claims `value`: the active embedding's first, then the global
    registry's, in registration order; None for the default (Python or `lax`)."""
    embedding = _active.get()
    if embedding is None and not _registered:
        return None
    for lowering in (embedding.lowerings if embedding is not None else []) + _registered:
        if lowering.claims(value):
            return lowering
    return None


def loop_lowering_for(iterable):
    """Like `lowering_for`, for the iterable of a `for` loop."""
    embedding = _active.get()
    if embedding is None and not _registered:
        return None
    for lowering in (embedding.lowerings if embedding is not None else []) + _registered:
        if lowering.claims_loop(iterable):
            return lowering
    return None


def register(owns, *, cond, while_loop=None, fori_loop=None):
    """Stage control flow on the values `owns(value)` accepts with these primitives, for
    every user of this process (see `Embedding.register` for a framework's own scope).
    Returns the `Lowering`, which `unregister` takes back."""
    lowering = Lowering(owns, cond, while_loop, fori_loop)
    _registered.append(lowering)
    return lowering


def unregister(lowering):
    _registered.remove(lowering)


def active():
    """The embedding whose converted code is running, or None."""
    return _active.get()


@contextlib.contextmanager
def suspended():
    """No embedding is active inside (for work whose result all embeddings share)."""
    token = _active.set(None)
    try:
        yield
    finally:
        _active.reset(token)


class Embedding:
    """One framework's lowerings and conversion options.

    `convert_modules` / `do_not_convert_modules`: modules whose functions `ag.call`
    converts (or calls as they are) while this embedding is active, beyond the defaults.
    (Conversion itself never depends on the active embedding: its code is shared by all.)
    `error`: an exception class; autograph's errors raised while the embedding is active
    are also instances of it, so the framework's users can catch its own error type.
    """

    def __init__(self, *, convert_modules=(), do_not_convert_modules=(), error=None):
        self.lowerings = []
        self.convert_modules = tuple(convert_modules)
        self.do_not_convert_modules = tuple(do_not_convert_modules)
        self.error = error
        self._local = threading.local()

    def register(self, owns=None, *, cond, while_loop=None, fori_loop=None):
        """Like `autograph.register`, for code converted for this embedding only;
        `owns=None` claims every JAX tracer."""
        lowering = Lowering(owns, cond, while_loop, fori_loop)
        self.lowerings.append(lowering)
        return lowering

    def library_verdict(self, module):
        """True/False when this embedding decides whether `module` is library code."""
        def matches(names):
            return any(module == n or module.startswith(n + '.') for n in names)
        if matches(self.convert_modules):
            return False
        if matches(self.do_not_convert_modules):
            return True
        return None

    def __enter__(self):
        if not hasattr(self._local, 'tokens'):
            self._local.tokens = []
        self._local.tokens.append(_active.set(self))
        return self

    def __exit__(self, kind, error, traceback):
        _active.reset(self._local.tokens.pop())
        if error is not None and self.error is not None and not isinstance(error, self.error):
            translated = self._translate(error)
            if translated is not None:
                raise translated.with_traceback(traceback) from error.__cause__

    def _translate(self, error):
        from autograph.errors import ConversionError
        if not isinstance(error, (ControlFlowError, ConversionError)):
            return None
        try:
            both = _combined(type(error), self.error)
        except TypeError:   # the two classes cannot share instances
            return self.error(str(error))
        translated = both.__new__(both, *error.args)
        translated.__dict__.update(error.__dict__)
        return translated


_combinations = {}


def _combined(ours, theirs):
    """An exception class that is both `ours` and the framework's `theirs`."""
    key = (ours, theirs)
    if key not in _combinations:
        _combinations[key] = type(ours.__name__, (ours, theirs),
                                  {'__module__': ours.__module__})
    return _combinations[key]
