"""Results of a compiled call: returned as the function returned them.

Python reference: `return python_function(*args)`. A compiled program returns only arrays,
so the array leaves come out of it, and everything else (strings, None, Python numbers,
functions, objects) is kept from the trace that made them, as `equinox.filter_jit` does:

    @autograph.convert
    def f(x):
        return {'loss': x.sum(), 'name': 'sum', 'steps': 3}

    f(x)   # {'loss': <the compiled program's array>, 'name': 'sum', 'steps': 3}

A leaf that is not an array must not hide a traced array (inside an object that is not a
pytree): it would outlive its trace. `Result.of` rejects it with a ControlFlowError that
names the path to it, except in an attribute the Function gives back as state after the
call (`self.coef_ = ...; return self`: the object returned then holds the program's value).
"""
import ast

import jax
import jax.numpy as jnp
import numpy as np

from autograph import parsing
from autograph.analysis.optional_results import none_returns
from autograph.runtime.checks import keys
from autograph.runtime.checks.absent import Maybe
from autograph.runtime.checks.raises import raise_if
from autograph.runtime.messages import (key_absent_in_result, optional_in_foreign_trace,
                                        traced_in_object)
from autograph.runtime.origin import Location, name_of
from autograph.runtime.state.installed import flagged, put
from autograph.runtime.state.places import MISSING
from autograph.runtime.values.choice import Choice
from autograph.runtime.values.split import Undefined


class Result:
    """A traced result with leaves that are not arrays, as a pytree node: its children
    are the array leaves (what the compiled program returns), its auxiliary data the rest.
    jax.jit keeps the auxiliary data of each trace and rebuilds the result from it on each
    call: unflattening returns the user's own value, not a Result."""

    def __init__(self, arrays, spec):
        self.arrays = arrays
        self.spec = spec

    @staticmethod
    def of(value, defined, label='the result', given=frozenset()):
        """`value` as a traced function returns it: itself when all its leaves are
        arrays, else a Result. `label` names it in errors, with `defined`, the
        Python function that returned it; `given`: the (id(object), attribute name) of
        the attributes the call gives back as state."""
        leaves, treedef = jax.tree_util.tree_flatten(value)
        if all(_is_array(leaf) for leaf in leaves):
            return value
        for path, leaf in jax.tree_util.tree_flatten_with_path(value)[0]:
            if not _is_array(leaf):
                _reject_hidden_tracers(leaf, label + jax.tree_util.keystr(path), defined,
                                       given)
        arrays = [leaf for leaf in leaves if _is_array(leaf)]
        return Result(arrays, (treedef, [None if _is_array(leaf) else (leaf,)
                                         for leaf in leaves]))

    @staticmethod
    def rebuild(spec, arrays):
        treedef, statics = spec
        it = iter(arrays)
        return jax.tree_util.tree_unflatten(
            treedef, [next(it) if s is None else s[0] for s in statics])


jax.tree_util.register_pytree_node(Result, lambda r: (r.arrays, r.spec), Result.rebuild)


def _is_array(leaf):
    return isinstance(leaf, (jax.Array, np.ndarray, np.generic))


def _reject_hidden_tracers(value, label, defined, given, depth=4):
    """A result leaf that is not an array is returned as it is, so it must hold no traced
    value: a traced array inside an object that is not a pytree would outlive its trace.
    Looks into attributes (but those `given` back as state) and containers, `depth`
    levels deep."""
    if depth == 0 or isinstance(value, (str, bytes, int, float, complex, type(None))):
        return
    if isinstance(value, dict):
        children = [(f'[{k!r}]', v) for k, v in value.items()]
    elif isinstance(value, (list, tuple, set, frozenset)):
        children = [(f'[{i}]', v) for i, v in enumerate(value)]
    elif hasattr(value, '__dict__') and not callable(value):
        children = [(f'.{k}', v) for k, v in vars(value).items() if (id(value), k) not in given]
    else:
        return
    for suffix, child in children:
        if isinstance(child, jax.core.Tracer):
            raise traced_in_object(*_name_and_line(defined), label + suffix,
                                   type(value).__name__)
        _reject_hidden_tracers(child, label + suffix, defined, given, depth - 1)


def given_back(value, defined, label=None):
    """A call's result as Python gives it: an optional value (a result that is None on
    some paths of staged code, see runtime.checks.absent) becomes its value where its flag
    is true and None where it is false; a Choice (runtime.values.choice) the option it
    names. Inside someone else's trace (`convert(..., jit=False)` under `jax.jit`), where
    the flag is known only when that program runs, it is a ControlFlowError naming
    `defined`, the Python function that returned it, and the `return` that gave None (or
    `label`, the variable of the state it leaves).
    A dict whose keys exist on some paths only (runtime.checks.keys) holds the keys
    present on this run; inside someone else's trace it holds them all, and a run
    where one is absent raises a ControlFlowError naming it."""
    if keys.has_keyed(value):
        value = keys.plain_dicts(value, lambda label, flag: _absent_key(label, flag, defined),
                                 'the result')
    if not any(isinstance(leaf, (Maybe, Choice)) for leaf in
               jax.tree_util.tree_leaves(value, is_leaf=_is_optional)):
        return value
    return jax.tree_util.tree_map(lambda leaf: _given_back_one(leaf, defined, label),
                                  value, is_leaf=_is_optional)


def given_back_fields(changed, defined):
    """{label: value} of the state a call changed, each attribute that staged code
    created on some paths only (a Maybe with an Undefined marker, see
    runtime.state.installed.flagged) its value where its flag is true, MISSING (deleted)
    where it is false; inside someone else's trace, where the flag is traced, the value
    and a run-time check that names it."""
    return {label: _field(value, label, defined) for label, value in changed.items()}


def _field(value, label, defined):
    """`value` of state `label` as `given_back_fields` gives it."""
    if not (isinstance(value, Maybe) and isinstance(value.absent, Undefined)):
        return value
    if isinstance(value.present, jax.core.Tracer):
        _absent_key(label, value.present, defined)
        return value.value
    return value.value if bool(value.present) else MISSING


def given_back_to(places, defined):
    """After a call without a boundary (`jit=False`): each place holding an optional
    value (None on some paths of staged code) gets None or the value, as `given_back`
    gives a result (a named error inside someone else's trace); an attribute staged code
    created on some paths only is kept or deleted as `given_back_fields` says."""
    for place in places:
        value = _field(flagged(place, place.get()), place.label, defined)
        if value is MISSING:
            place.delete()
            continue
        if keys.has_keyed(value) or any(_is_optional(leaf) for leaf in
                                         jax.tree_util.tree_leaves(value, is_leaf=_is_optional)):
            put(place, given_back(value, defined, place.label))   # (filled in place)


def _absent_key(label, flag, defined):
    """A run-time check: dict key `label` of a result is present where `flag` holds."""
    name, location = _name_and_line(defined)
    raise_if(jnp.logical_not(flag), key_absent_in_result, (name, location, label))


def _is_optional(value):
    return isinstance(value, Choice) or (isinstance(value, Maybe) and value.absent is None)


def _given_back_one(leaf, defined, label=None):
    if not _is_optional(leaf):
        return leaf
    chosen = isinstance(leaf, Choice)
    flag = leaf.index if chosen else leaf.present
    if isinstance(flag, jax.core.Tracer):
        name, location = _name_and_line(defined)
        found, how = (_none_return(defined) if label is None and not chosen else None) \
            or (location, None)
        raise optional_in_foreign_trace(name, found, how, label, chosen)
    if chosen:   # (one of several kinds: the one this run gave)
        return given_back(leaf.options[int(leaf.index)], defined)
    return leaf.value if bool(leaf.present) else None


def _none_return(fn):
    """(location, 'return') of the first `return` of Python function `fn` that may give
    None, or (its last line, 'end') where it may fall off its end, or None."""
    try:
        source = parsing.parse_function(getattr(fn, '__func__', fn))
    except Exception:   # (no source: the `def` line says where)
        return None
    if not isinstance(source.node, ast.FunctionDef):
        return None
    found = none_returns(source.node)
    if not found:
        return None
    if found[0] is None:
        line, how = source.node.body[-1].end_lineno, 'end'
    else:
        line, how = found[0].lineno, 'return'
    return Location(source.file, line, getattr(fn, '__qualname__', '')), how


def _name_and_line(fn):
    """The name of Python function `fn` and the location of its `def` (or None)."""
    name = name_of(fn)
    code = getattr(getattr(fn, '__func__', fn), '__code__', None)
    return name, code and Location(code.co_filename, code.co_firstlineno, name)
