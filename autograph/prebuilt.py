"""JAX transformations built before conversion: `jax.jit(p)`, `jax.vmap(p, in_axes=...)`,
`jax.custom_jvp(p)`, ... made outside converted code and then converted or called from it.

Such a wrapper is library code holding the user's unconverted `p`, so calling it as is
would trace `p`'s Python `if` on a tracer. Instead it is rebuilt around the converted `p`,
with the same options: in Python, `rewrap(jax.vmap(p, in_axes=(None, 0)), convert)` is
`jax.vmap(convert(p), in_axes=(None, 0))`.

One mechanism serves every transformation: JAX's wrappers keep the function they wrap
(and the wrappers it wraps) in their closure cells (vmap, grad, jacobian, checkpoint,
pmap, ...) or their attributes (custom_jvp/custom_vjp and their rules); a copy with each
user function there replaced by its converted version is the rebuilt wrapper. `jax.jit`'s
compiled wrapper has neither, and is made again from its recorded options (and so is
jaxlib's compiled `pmap` wrapper of JAX 0.7).
"""
import functools
import inspect
import types

import jax

from autograph import attached
from autograph.library import is_library

_PJIT = type(jax.jit(lambda: None))
_ATTRIBUTE = '__autograph_rebuilt__'   # a wrapper's rebuilt version (autograph.attached)


def wraps_user_code(value):
    """True for a JAX wrapper around a user function: one that sets `__wrapped__`, or a
    closure that holds one (JAX 0.8's `pmap`, made without functools.wraps)."""
    if not _is_jax(value):
        return False
    inner = wrapped_function(value)
    return inner is not None and not is_library(inner)


def wrapped_function(wrapper):
    """The user function inside JAX wrappers (`p` for `jax.jit(jax.vmap(p))`); None
    when there is none."""
    if getattr(wrapper, '__wrapped__', None) is not None:
        return inspect.unwrap(wrapper, stop=lambda f: not _is_jax(f))
    found = _closed_over_user_functions(wrapper, depth=2)
    return found[0] if len(found) == 1 else None


def _closed_over_user_functions(fn, depth):
    """The user functions a JAX closure holds, through JAX closures `depth` deep."""
    if not inspect.isfunction(fn) or not fn.__closure__ or depth == 0:
        return []
    found = []
    for cell in fn.__closure__:
        value = _cell_contents(cell)
        if not inspect.isfunction(value):
            continue
        if not _is_jax(value):
            if not is_library(value) and value not in found:
                found.append(value)
        else:
            found += [f for f in _closed_over_user_functions(value, depth - 1)
                      if f not in found]
    return found


def rewrap(wrapper, convert):
    """`wrapper` rebuilt with every user function in it replaced by `convert(fn)`
    (cached per wrapper); `wrapper` itself when it holds nothing to convert."""
    rebuilt = attached.get(wrapper, _ATTRIBUTE)
    if rebuilt is None:
        rebuilt = _Rewrapper(convert).rebuild(wrapper)
        attached.attach(wrapper, _ATTRIBUTE, rebuilt)
    return rebuilt


class _Rewrapper:
    def __init__(self, convert):
        self.convert = convert
        self.seen = {}       # id -> rebuilt value (wrappers can share inner functions)

    def rebuild(self, value):
        key = id(value)
        if key not in self.seen:
            self.seen[key] = value       # a cycle leaves the value as it is
            self.seen[key] = self._rebuild(value)
        return self.seen[key]

    def _rebuild(self, value):
        if isinstance(value, functools.partial):
            func = self.rebuild(value.func)
            return value if func is value.func else functools.partial(
                func, *value.args, **value.keywords)
        if isinstance(value, type) or not (callable(value) or _is_jax(value)):
            return value
        if not is_library(value):
            return self.convert(value)
        if not _is_jax(value) or inspect.ismodule(value):
            return value
        if isinstance(value, _PJIT):
            return self._rejit(value)
        if isinstance(getattr(value, '_prepare_pmap', None), functools.partial):
            return self._repmap(value)
        if inspect.isfunction(value):
            return self._function(value)
        return self._object(value)

    def _function(self, fn):
        """A copy of `fn` whose closure cells hold the rebuilt values."""
        cells = fn.__closure__ or ()
        contents = [_cell_contents(cell) for cell in cells]
        new = [self.rebuild(c) for c in contents]
        if all(a is b for a, b in zip(contents, new)):
            return fn
        copy_ = types.FunctionType(fn.__code__, fn.__globals__, fn.__name__, fn.__defaults__,
                                   tuple(types.CellType(c) for c in new))
        copy_.__kwdefaults__ = fn.__kwdefaults__
        copy_.__dict__.update(fn.__dict__)
        if '__wrapped__' in fn.__dict__:
            copy_.__wrapped__ = self.rebuild(fn.__wrapped__)
        return copy_

    def _object(self, obj):
        """A shallow copy of `obj` (custom_jvp, custom_vjp, pmap's wrapped function)
        with the functions in its attributes rebuilt."""
        names = set(getattr(obj, '__dict__', ())) | set(getattr(type(obj), '__slots__', ()))
        names |= {'jvp', 'fwd', 'bwd'}   # rules that defjvp/defvjp set
        changed = {name: self.rebuild(getattr(obj, name)) for name in names
                   if hasattr(obj, name) and not name.startswith('__')}
        changed = {name: v for name, v in changed.items() if v is not getattr(obj, name)}
        if not changed:
            return obj
        state = dict(getattr(obj, '__dict__', {}))
        state.update({name: getattr(obj, name) for name in getattr(type(obj), '__slots__', ())
                      if hasattr(obj, name)})
        state.update(changed)
        new = object.__new__(type(obj))   # a shallow copy (their __new__ wants arguments)
        for name, v in state.items():
            setattr(new, name, v)
        return new

    def _rejit(self, jitted):
        fun = self.rebuild(jitted.__wrapped__)
        if fun is jitted.__wrapped__:
            return jitted
        return jax.jit(fun, **_jit_options(jitted))


    def _repmap(self, pmapped):
        """jaxlib's C++ `pmap` wrapper (JAX < 0.8; later `pmap` is a Python function),
        made again from the options its `_prepare_pmap` partial records."""
        (fun, in_axes, out_axes, static, donate, devices, backend,
         axis_size) = pmapped._prepare_pmap.args
        new = self.rebuild(fun)
        if new is fun:
            return pmapped
        return jax.pmap(new, pmapped._axis_name, in_axes=in_axes, out_axes=out_axes,
                        static_broadcasted_argnums=static, devices=devices, backend=backend,
                        axis_size=axis_size, donate_argnums=donate)


def _cell_contents(cell):
    try:
        return cell.cell_contents
    except ValueError:   # an empty cell
        return None


def _jit_options(jitted):
    """The keyword arguments `jax.jit` was given for `jitted` (from its recorded info)."""
    info = jitted._jit_info
    options = dict(static_argnums=info.static_argnums, static_argnames=info.static_argnames,
                   donate_argnums=info.donate_argnums, donate_argnames=info.donate_argnames,
                   keep_unused=info.keep_unused, inline=info.inline)
    for name, treedef, leaves in (
            ('in_shardings', info.in_shardings_treedef, info.in_shardings_leaves),
            ('out_shardings', info.out_shardings_treedef, info.out_shardings_leaves)):
        if not all(type(leaf).__name__ == 'UnspecifiedValue' for leaf in leaves):
            options[name] = jax.tree_util.tree_unflatten(treedef, leaves)
    return options


def _is_jax(value):
    """Made by JAX (the wrapper's own module: functools.wraps copies the user's)."""
    if inspect.isfunction(value):
        module = value.__globals__.get('__name__') or ''
    else:
        module = type(value).__module__ or ''
    return module.split('.')[0] in ('jax', 'jaxlib')
