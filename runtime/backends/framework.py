"""The framework backend: frameworks' own primitives for control flow on their values.

A framework that traces programs with its own values tells autograph how to stage an `if`
and a loop on them, the way `jax.tree_util.register_pytree_node` tells JAX how to flatten
its types:

    autograph.register(lambda v: isinstance(v, MyTracer),
                       cond=my.cond, while_loop=my.while_loop, fori_loop=my.fori_loop)

The three primitives have `jax.lax`'s signatures (`cond(pred, true_fun, false_fun,
*operands)`, `while_loop(cond_fun, body_fun, init_val)`, `fori_loop(lower, upper, body_fun,
init_val)`), so `nnx.cond`, `nnx.while_loop` and `nnx.fori_loop` fit as they are. Every
operator asks runtime.backends.dispatch first; a lowering that claims the condition, the
iterable, or (for a loop over a Python range) a value the loop carries or its body sees,
stages the statement with the framework's primitives; anything else takes the default
path (Python for Python values, `lax` for JAX tracers).

An `Embedding` carries one framework's lowerings and conversion options, so that they touch
nothing other users share. It is active (a context variable) while code converted for it
runs: `autograph.transform(fn, embedding=e)`, or `with e:`. Its lowerings come before the
ones registered globally; a lowering registered with no predicate claims every JAX tracer,
which is what frameworks built on JAX tracing (Flax NNX) want while their code runs.
"""
import dataclasses
import typing

import jax
import jax.numpy as jnp
from jax import lax

from .. import context
from ..errors import AutographError, here
from ..messages import missing_primitive, no_value_after_branches, not_initialised
from ..staging.trace import TRACED
from ..protocol import RETURN_VALUE
from ..values.split import Undefined, is_traced, pack, unpack

_registered = []


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
    select: typing.Callable | None = None

    def claims(self, value):
        if self.owns is None:
            return is_traced(value) or value is TRACED
        return value is not TRACED and bool(self.owns(value))

    def claims_loop(self, iterable):
        """Whether a `for` over `iterable` is this framework's to stage: a staged
        iterable (runtime.loops.iterables) whose bounds or sequences it claims (a framework
        that claims every JAX tracer also takes `autograph.range`), or its own value."""
        values = getattr(iterable, 'loop_values', None)
        if values is None:
            return self.claims(iterable)
        if self.owns is None and getattr(iterable, 'asks_staging', False):
            return True
        return any(self.claims(v) for v in values())

    # --- the statements, in terms of the framework's primitives -------------------------

    def if_stmt(self, pred, if_true, if_false, args, names, what='`if`'):
        """`if_true(*args) if pred else if_false(*args)` as the framework's `cond`."""
        location = here()
        carried, rebuild = _without_undefined(args)

        def branch(fn, which):
            def run(*operands):
                out = pack(names, fn(*rebuild(operands)))
                _check_assigned(names, out, f'the {which} branch of the {what}', location)
                return self._typed(out)
            return run
        out = self.cond(pred, branch(if_true, 'true'), branch(if_false, 'false'), *carried)
        return unpack(names, tuple(out))

    def choose(self, pred, if_true, if_false):
        """`if_true() if pred else if_false()`: conditional expressions, `and`, `or` and
        `not`. With a `select` primitive (`select(pred, on_true, on_false)`, like
        `jax.lax.select` with Python's truth for `pred`), both values are computed and
        one is picked, as the JAX backend does; otherwise the framework's `cond`."""
        if self.select is not None:
            return self.select(pred, if_true(), if_false())
        return self.if_stmt(pred, if_true, if_false, (), ('value',),
                            'conditional expression')

    def _typed(self, values):
        """Branch outputs made one type whatever the branch (the type rule for a
        framework's `cond`): a weakly typed JAX value (a Python number that met an array)
        becomes strongly typed, and, for a framework of JAX tracers (no predicate), a
        Python number becomes an array of JAX's default type for it. Two branches that
        give `k = 0` and `k = k + 1` then give the same type, as `lax.cond` promotes them.
        Other values (the framework's own, and containers and pytrees, which a
        framework may track by identity, as Flax NNX does its modules) pass as they are."""
        return tuple(self._strong(value) for value in values)

    def _strong(self, leaf):
        if isinstance(leaf, jax.Array) or (
                self.owns is None and isinstance(leaf, (bool, int, float, complex))):
            array = jnp.asarray(leaf)
            return lax.convert_element_type(array, array.dtype)   # (drops a weak type)
        return leaf

    def while_stmt(self, test, body, values, names, maximum_iterations=None):
        """`while test(*values): values = body(*values)`, as the framework's while_loop;
        with `maximum_iterations`, a fori_loop whose steps do nothing once `test` fails
        (which reverse-mode differentiation supports)."""
        location = here()
        _check_initialised(names, values, '`while` loop', location)

        def step(state):
            return self._typed(pack(names, body(*state)))
        values = self._typed(values)
        if maximum_iterations is None:
            loop = self._primitive('while_loop', '`while` loop', location)
            return unpack(names, tuple(loop(lambda state: test(*state), step, values)))

        def bounded(i, state):
            return self.guarded(test(*state), step, state)
        loop = self._primitive('fori_loop', 'bounded `while` loop', location)
        return unpack(names, tuple(loop(0, maximum_iterations, bounded, values)))

    def for_stmt(self, iterable, body, values, names, extra_test=None):
        """`for item in iterable: values = body(item, *values)` as the framework's
        fori_loop over the indices (a `break` guards the remaining steps)."""
        location = here()
        _check_initialised(names, values, '`for` loop', location)
        start, stop, item = _indexing(iterable)

        def step(i, state):
            if extra_test is None:
                return self._typed(pack(names, body(item(i), *state)))
            return self.guarded(extra_test(*state),
                                 lambda s: pack(names, body(item(i), *s)), state)
        loop = self._primitive('fori_loop', '`for` loop', location)
        return unpack(names, tuple(loop(start, stop, step, self._typed(values))))

    def guarded(self, go, step, state):
        """`step(state) if go else state`, staged when `go` is this framework's value."""
        if self.claims(go):
            return tuple(self.cond(go, lambda *s: self._typed(step(s)),
                                   lambda *s: self._typed(s), *state))
        return step(state) if go else state

    def _primitive(self, name, what, location):
        primitive = getattr(self, name)
        if primitive is None:
            raise missing_primitive(name, what, location)
        return primitive


def _indexing(iterable):
    """(start, stop, item): the loop runs `item(i)` for i in range(start, stop)."""
    indexing = getattr(iterable, 'indexing', None)
    if indexing is not None:    # a staged iterable or a range's items (runtime.loops.iterables)
        return indexing()
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
            raise no_value_after_branches(name, location, what)


def _check_initialised(names, values, what, location):
    for name, value in zip(names, values):
        if isinstance(value, Undefined) and name != RETURN_VALUE:
            raise not_initialised(name, what, location)


def register(owns, *, cond, while_loop=None, fori_loop=None, select=None):
    """Stage control flow on the values `owns(value)` accepts with these primitives, for
    every user of this process (see `Embedding.register` for a framework's own scope).
    Returns the `Lowering`, which `unregister` takes back."""
    lowering = Lowering(owns, cond, while_loop, fori_loop, select)
    _registered.append(lowering)
    return lowering


def unregister(lowering):
    _registered.remove(lowering)


class Embedding:
    """One framework's lowerings and conversion options.

    `convert_modules` / `do_not_convert_modules`: modules whose functions `ag.call`
    converts (or calls as they are) while this embedding is active, beyond the defaults.
    (Conversion itself never depends on the active embedding: its code is shared by all.)
    `error`: an exception class; autograph's errors raised while the embedding is active
    are also instances of it, so the framework's users can catch its own error type.
    `unroll_loops`: whether a `for` over a Python range whose loop carries or sees the
    framework's values is unrolled (True), staged with its `fori_loop` (False), or, with
    None, staged from `loop_policy.SHORT_LOOP` iterations on, as JAX loops are (a
    `set_loop_options(unroll=...)` in the loop comes first).
    """

    def __init__(self, *, convert_modules=(), do_not_convert_modules=(), error=None,
                 unroll_loops=None):
        self.lowerings = []
        self.unroll_loops = unroll_loops
        self.convert_modules = tuple(convert_modules)
        self.do_not_convert_modules = tuple(do_not_convert_modules)
        self.error = error

    def register(self, owns=None, *, cond, while_loop=None, fori_loop=None, select=None):
        """Like `autograph.register`, for code converted for this embedding only;
        `owns=None` claims every JAX tracer."""
        lowering = Lowering(owns, cond, while_loop, fori_loop, select)
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
        context.current().embeddings.append(self)
        return self

    def __exit__(self, kind, error, traceback):
        context.current().embeddings.pop()
        if error is not None and self.error is not None and not isinstance(error, self.error):
            translated = self._translate(error)
            if translated is not None:
                raise translated.with_traceback(traceback) from error.__cause__

    def _translate(self, error):
        if not isinstance(error, AutographError):
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
