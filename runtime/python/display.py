"""`ag.emit(fn, *args)`: a call that shows text (`print`, `warnings.warn`, a logging call)
whose text is known only when the program runs.

Python reference: `fn(*args, **kwargs)`, run where the program reaches it.

The converter routes such calls here when an argument is text made by `ag.message` (see
runtime.values.text). When the text and the values are Python ones, the call runs now, as
Python runs it. Otherwise the compiled program shows it when it runs: a
`jax.debug.callback`, under a `lax.cond` on the path that reaches the call (the
predicates of the staged branches and loop bodies it is in, and no check failed before
it: Python would have stopped there), formats the text from the run-time values and
calls `fn`. A site may be reached any number of times (in a loop), each time with its
own values and in the program's order, so the callback shows them as they come rather
than carrying them to the Function's boundary (where a fixed error state could carry
one).

Under `jax.vmap`, each element that takes the path shows its own text (the elements of
one step in order); the `lax.cond` tests whether any element does, so the callback does
not run on steps where none does. `print(x)` of a traced value itself keeps tf.function's
meaning (it prints JAX's placeholder while tracing, see runtime.values.text); logging's own
`%` arguments are text made from them, shown when the program runs.

A warning names the user's line (`warnings.warn_explicit`); its `stacklevel` counts the
user's frames (generated code and plain Python) while tracing.
"""
import builtins
import logging
import sys
import warnings

import jax
import jax.numpy as jnp
from jax import lax
from jax.custom_batching import custom_vmap

from ..checks import checks
from .calls import call
from ..errors import here
from ..origin import frame_location
from ..checks.raises import path_conditions
from ..values.split import is_traced
from ..values.text import Message, rendered

_LOG_METHODS = frozenset(
    {'debug', 'info', 'warning', 'warn', 'error', 'critical', 'exception', 'log'})


def _kind(fn):
    if fn is builtins.print:
        return 'print'
    if fn is warnings.warn:
        return 'warn'
    owner = getattr(fn, '__self__', None)
    if isinstance(owner, (logging.Logger, logging.LoggerAdapter)) or (
            getattr(fn, '__module__', None) == 'logging' and owner is None):
        return 'log' if getattr(fn, '__name__', '') in _LOG_METHODS else None
    return None


def emit(fn, *args, **kwargs):
    """Python reference: `fn(*args, **kwargs)` (see the module docstring)."""
    kind = _kind(fn)
    if kind is None:
        for leaf in _messages((args, kwargs)):
            leaf.misused()   # text to show, given to something else
        return call(fn, *args, **kwargs)
    show = _shower(kind, fn, here(), args, kwargs)
    if not _messages((args, kwargs)) and not (kind == 'log' and _logs_traced(fn, args)):
        return show(args, kwargs)
    leaves, tree = jax.tree_util.tree_flatten((args, kwargs))
    traced = [i for i, v in enumerate(leaves) if is_traced(v)]
    statics = [None if i in traced else v for i, v in enumerate(leaves)]

    def fire(values):
        filled = list(statics)
        for i, v in zip(traced, values):
            filled[i] = v
        show(*rendered(jax.tree_util.tree_unflatten(tree, filled)))

    conditions = path_conditions()
    errors = checks.current()
    if errors is not None and errors.code is not None:
        conditions.append(errors.code == 0)
    if any(c is False for c in conditions):
        return None   # a path the program never takes
    taken = jnp.asarray(True)
    for c in conditions:
        if c is not True:
            taken = jnp.logical_and(taken, c)
    values = [lax.stop_gradient(leaves[i]) for i in traced]
    _emitter(fire)(jnp.reshape(taken, (1,)), [jnp.expand_dims(v, 0) for v in values])
    return None


def _messages(tree):
    return [leaf for leaf in jax.tree_util.tree_leaves(
        tree, is_leaf=lambda leaf: isinstance(leaf, Message)) if isinstance(leaf, Message)]


def _logs_traced(fn, args):
    """A logging call whose `%` arguments are traced (logging formats them into text)."""
    first = 2 if getattr(fn, '__name__', '') == 'log' else 1
    return any(is_traced(leaf) for leaf in jax.tree_util.tree_leaves(args[first:]))


def _emitter(fire):
    """`emit(taken, values)`, `taken` and each value with a leading axis of elements:
    calls `fire(values of an element)` for each element taken, in order. Under
    `jax.vmap`, the batch joins that axis (so the callback stays one, behind one cond)."""
    @custom_vmap
    def emit(taken, values):
        def show(taken, values):
            for i in range(taken.shape[0]):
                if bool(taken[i]):
                    fire([v[i] for v in values])
        lax.cond(jnp.any(taken), lambda t, v: jax.debug.callback(show, t, v),
                 lambda t, v: None, taken, values)
        return taken

    @emit.def_vmap
    def _batched(axis_size, in_batched, taken, values):
        def joined(value, batched):
            if not batched:
                value = jnp.broadcast_to(value, (axis_size,) + value.shape)
            return value.reshape((-1,) + value.shape[2:])
        emit(joined(taken, in_batched[0]),
             [joined(v, b) for v, b in zip(values, in_batched[1])])
        return jnp.broadcast_to(taken, (axis_size,) + taken.shape), in_batched[0]
    return emit


def _shower(kind, fn, location, args, kwargs):
    """`show(args, kwargs)`: what the call does with its text made."""
    if kind != 'warn':
        return lambda a, k: fn(*a, **k)
    _, _, stacklevel = _warn_arguments(*args, **kwargs)
    file, line, module, registry = _warning_site(location, stacklevel)

    def warn(a, k):
        text, category, _ = _warn_arguments(*a, **k)
        category = category or UserWarning
        if isinstance(text, Warning):
            category = type(text)
        warnings.warn_explicit(text, category, file, line, module, registry)
    return warn


def _warn_arguments(message, category=None, stacklevel=1, source=None, **_):
    """(message, category, stacklevel) of a `warnings.warn` call's arguments (Python's own
    signature, which `inspect` cannot read on Python 3.12 and later)."""
    return message, category, stacklevel


def _warning_site(location, stacklevel):
    """(file, line, module, registry) of the frame `stacklevel` user frames up from the
    call (as `warnings.warn` finds it), seen while tracing."""
    frames, generated = [], None
    frame = sys._getframe(3)
    while frame is not None and len(frames) < stacklevel:
        file = frame.f_code.co_filename
        user = frame_location(frame)
        if user is not None:
            if file != generated:   # (a staged branch's function is the same user frame)
                frames.append((user.file, user.line, frame.f_globals))
            generated = file
        elif not _is_library(frame.f_globals.get('__name__', '')):
            frames.append((file, frame.f_lineno, frame.f_globals))
            generated = None
        frame = frame.f_back
    if not frames:
        return location.file, location.line, None, None
    file, line, namespace = frames[-1]
    module = namespace.get('__name__', '<string>')
    return file, line, module, namespace.setdefault('__warningregistry__', {})


def _is_library(module):
    return module.split('.')[0] in ('jax', 'jaxlib', 'autograph', 'contextlib', 'functools')
