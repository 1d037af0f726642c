"""NumPy's views: `v = a[i]` is a view of `a` when `i` is a basic index, and writes
through either one are seen by the other (see autograph.passes.views):

    v = a[i]              ->  v, v_key = ag.view(a, i)
    v += e                    v += e
                              a = ag.write_view(a, v_key, v)
    a[0, 0] = 9               a = ag.setitem(a, (0, 0), 9)
                              v = ag.read_view(a, v_key, v)

A JAX array cannot be written in place, so converted code keeps the view's key (computed
once, where the view is made, as NumPy fixes the view's place then) and writes the
view's new value into its base after each in-place change of the view, and reads the
view again from its base after each change of the base.

NumPy's rule for `a[key]` (a NumPy or JAX array `a`): a basic key (ints, integer
scalars, slices, windows `i:i + k` that a traced `i` moves (`ag.span`), None, Ellipsis,
or a tuple of those) gives a view, except where it selects a single item (as many integers as `a` has axes, nothing else: NumPy gives a
scalar, a copy); an index array or a boolean mask (fancy indexing) gives a copy. The key
is None for a copy: then `write_view` and `read_view` change nothing.

Only NumPy arrays have views: a JAX array's `a[i]` is a new array (JAX copies), so a view
of a base that does not stand for a NumPy array (`numpy_meaning`: a NumPy array, or a
traced value standing for one, see runtime.context's `numpy`) is a copy too, as plain
Python gives it on that array. A list's item is the object itself: where it is a NumPy
array, its in-place changes are the list's (the key is its index); a list's slice is a
copy, as in Python.
"""
import jax
import jax.numpy as jnp
import numpy as np

from ..context import kind_unknown, mark_numpy, numpy_meaning, stands_for_numpy
from ..context import layout as traced_layout
from ..errors import here
from ..messages import (array_kind_unknown, attribute_view_changed, helper_view_unknown,
                        method_view_unknown, view_base_unknown, view_layout_unknown,
                        view_on_some_paths, view_not_followed)
from ..values.choice import Choice
from ..values.maybe import Maybe
from ..values.split import is_traced
from .indexing import getitem
from .items import setitem
from .slicing import span, windows
from .view_chains import (Chain, Step, as_array, read_chain, reshaped, resolve_chain,
                          write_chain)

_ARRAYS = (jax.Array, np.ndarray)
_NONE = object()


def layout_of(value):
    """Python reference: None. The memory layout of the NumPy array that traced `value`
    stands for, where the converted Function was given one that is not laid out in C
    order (strides in items, see runtime.context's `layouts`), else None; taken where
    the function starts, for `view`'s `layout`."""
    return traced_layout(value) if is_traced(value) else None


def view(base, key, item=_NONE, numpy=None, c_order=True, layout=None):
    """Python reference: `(base[key], key if base[key] is a view of base else None)`.
    `item`: the item a loop `for item in base` gives (for a base that is no array, such
    as an iterator, it is the item, as it is). `numpy`: whether a traced `base` stands
    for a NumPy array, where the converter knows it (a parameter that holds the
    caller's array: its `numpy_meaning` at entry; see autograph.analysis.array_kinds);
    else its `numpy_meaning` now (and for a concrete `base`, its type). `c_order`:
    whether a traced `base` is laid out in C order where the converter knows it (an
    array the function was given or made by arithmetic; see runtime.items.view_chains:
    a reshape of another is a ControlFlowError). `layout`: the strides of the caller's
    array a traced parameter `base` stands for (`layout_of`; None: C order). A loop's
    `item` of a JAX array is that item: Python's iterator reads the array the loop
    started with, which `base[key] = e` (a rebinding of `base`) leaves as it was."""
    if not isinstance(base, _ARRAYS):   # (a list's item: the object itself)
        if item is _NONE and isinstance(key, Chain):   # (`np.ravel(rows)`: a new array)
            return read_chain(base, key, _read), None
        value = getitem(base, key) if item is _NONE else item
        same = type(base) is list and isinstance(key, (int, np.integer)) \
            and isinstance(value, _ARRAYS)
        return value, (key if same and numpy_meaning(value) else None)
    viewed = None
    if isinstance(key, Chain):   # (a reshape's order 'A' or 'K' decided by the layout)
        read_only = _of_jax_buffer(base, key, numpy)
        key, viewed = _chain(base, key, numpy, c_order, layout)
        if read_only:
            return _read(base, key), READ_ONLY
    view_key = _view_key(base, key, numpy, c_order, viewed)
    if item is not _NONE and view_key is None and not _numpy_base(base, numpy):
        return item, None   # (a JAX array's loop: the rows of the array it started with)
    value, key = _read(base, key), view_key
    return (value if key is None else _numpy(value)), key


class _ReadOnly:
    """The type of READ_ONLY."""
    __slots__ = ()

    def __repr__(self):
        return 'READ_ONLY'


READ_ONLY = _ReadOnly()
"""The key of a read-only NumPy view: `np.asarray(a)` of a JAX array `a` (NumPy's view of
the array's buffer, which refuses writes: `write_view` raises NumPy's ValueError)."""


def _of_jax_buffer(base, key, numpy):
    """Whether chain `key` of array `base` starts by `np.asarray` (`as_array`) of a base
    that is a JAX array (has no NumPy meaning): NumPy gives a read-only view."""
    return isinstance(key[0], as_array) and not _numpy_base(base, numpy)


def seen(base, key, value, numpy=None):
    """Python reference: `value`, which the same statement read as `base[key]` before it
    stored items of `base` (`a[k], a[p] = a[p], a[k]`, see autograph.passes.
    item_assignments): where that read is a NumPy view (a row of a NumPy array), what
    the view holds now, `base[key]` (NumPy's swap of rows leaves both rows equal to row
    `p`); else `value` (an item, a copy, a JAX array's row, a list's object).
    `numpy`: as `view`'s."""
    if not isinstance(base, _ARRAYS):
        return value
    return read_view(base, _view_key(base, key, numpy), value)


def attribute_view(base, key=Ellipsis, whole=False):
    """Python reference: `base[key]` (`base` itself where `whole`), of an attribute's
    array (`v = self.w[0]`, `w = self.w`) that the function changes in place through
    the name it binds, or whose items it writes: where it is a NumPy view (or the NumPy
    array itself), a ControlFlowError (views of attributes' arrays are not followed:
    the converted code would change a copy)."""
    if isinstance(base, _ARRAYS) and _view_key(base, key) is not None:
        raise attribute_view_changed(here())
    return base if whole else getitem(base, key)


def unviewed(base, key):
    """Python reference: `base[key]`, bound to a name that the converted code follows as
    a copy only (autograph.passes.view_guards: it is a NumPy view on some paths only). A
    ControlFlowError where it is a NumPy view (see `view`), which would see the changes
    of its array, and its array its changes: a copy would not."""
    value, view_key = view(base, key)
    if view_key is not None:
        raise view_not_followed(here())
    return value


def helper_result(value, method=None):
    """Python reference: `value`, a helper's result that may be a NumPy view of its
    argument, not followed (autograph.passes.view_keys's `helper_views`), where it or
    the argument is changed in place: a ControlFlowError where it is a traced array of
    a call given NumPy arrays (a view or a copy, the converted code cannot tell; a
    number, an item, is a copy). `method`: the name of the array's method that gave
    `value` (`squeeze`: a view no step follows), None for a helper's result."""
    if is_traced(value) and jnp.ndim(value) > 0 and (
            kind_unknown(value) or stands_for_numpy(value)):
        raise helper_view_unknown(here()) if method is None else \
            method_view_unknown(method, here())
    return value


def is_view(base, key, numpy=None):
    """Python reference: whether `base[key]` is a NumPy view of `base` (see `view`)."""
    return isinstance(base, _ARRAYS) and _view_key(base, key, numpy) is not None


def _numpy_base(base, numpy):
    """Whether array `base` has NumPy's meaning (`numpy`: the converter's word)."""
    return numpy_meaning(base) if numpy is None or not is_traced(base) else numpy


def _view_key(base, key, numpy=None, c_order=True, viewed=None):
    """`key` where `base[key]` of array `base` is a NumPy view, else None (see `view`;
    `(None,)` for the key None, `base[None]`: None says "a copy"). A chain of steps
    (runtime.items.view_chains) is a view where each step makes one (`viewed`: whether
    it does, where `_chain` found it already)."""
    if isinstance(key, Chain):
        if viewed is None:
            viewed = _chain(base, key, numpy, c_order)[1]
        if not viewed:
            return None
    elif not _is_basic(key):
        return None   # (fancy indexing: a copy)
    elif _single_item(base, key):
        return None   # (a single item: a scalar)
    if numpy is None or not is_traced(base):
        if numpy is None and kind_unknown(base):
            raise array_kind_unknown(here())
        numpy = numpy_meaning(base)
    if not numpy:
        return None   # (a JAX array's: a copy)
    return (None,) if key is None else key


def _chain(base, key, numpy, c_order, strides=None):
    """(chain `key` with its reshapes' orders decided, whether it makes a NumPy view of
    array `base`): a copy where a step is fancy indexing or a reshape needs one (by the
    layout of `base`: a traced one's is `strides`, the layout of the caller's array
    where the converted Function was given one (`layout_of`); else C order, or
    unknown where not `c_order`: a ControlFlowError for a reshape of an array standing
    for a NumPy one)."""
    if not all(_is_basic(step) for step in key if not isinstance(step, Step)):
        if any(isinstance(s, reshaped) and s.order not in ('C', 'F') for s in key):
            raise view_layout_unknown(here())
        return key, False   # (fancy indexing: a copy)
    strides = (strides or traced_layout(base)) if is_traced(base) else None
    if is_traced(base) and (strides == 'bytes' or not c_order and strides is None) and \
            any(isinstance(s, reshaped) for s in key) and \
            (numpy_meaning(base) if numpy is None else numpy):
        raise view_layout_unknown(here())   # (a JAX array's: a copy, as it is)
    viewed, resolved = resolve_chain(base, key, _single_item, strides)
    return resolved, viewed


def _single_item(base, key):
    """Whether the basic `key` selects a single item of `base` (NumPy gives a scalar)."""
    parts = _parts(key)
    whole = any(p is None or p is Ellipsis or isinstance(p, (slice, span)) for p in parts)
    return not (whole or len(parts) < jnp.ndim(base))


def numpy_kind(*values, made=False):
    """Python reference: whether NumPy's arithmetic of `values` (`values[0] * 2.0 -
    values[1]`) gives a NumPy array: some value is one (see runtime.context's
    `numpy_meaning`), or a NumPy function makes part of it (`made`: `np.zeros(3) * b`),
    and no value is another array (a JAX array wins)."""
    arrays = [value for value in values if isinstance(value, _ARRAYS)]
    return (made or bool(arrays)) and all(map(numpy_meaning, arrays))


def view_of(base, key):
    """Python reference: `base[key]`, given to a function that changes it in place (see
    autograph.passes.written_arguments): where it is a NumPy view, its changes are
    `base`'s (a traced one is noted as standing for a NumPy array, see `view`)."""
    return view(base, key)[0]


def alias(base, numpy=None):
    """Python reference: `(base, key)` for `c = base`, with the key of all of `base`
    (`...`: `c is base`, writes through either one are seen by the other) for an
    array of one axis or more, a JAX array too (the same object: its item writes, which
    converted code makes in place, are seen through both names); None (nothing
    followed) for anything else (a list or dict is the same object already; a 0-d
    array stands for a number here). `numpy`: whether `base` is a NumPy array, where
    the alias is followed for its `c += e` only (autograph.passes.views): a JAX array's
    `c += e` rebinds `c`, so nothing is followed where it is False."""
    whole = isinstance(base, _ARRAYS) and jnp.ndim(base) > 0 and numpy is not False
    return base, (Ellipsis if whole else None)


def write_view(base, key, value, where=True, own=False):
    """Python reference: `base` (the view `value` of `base` at `key` was changed in
    place, and so was `base`). Returns `base` with `value` at `key` (as it is when `key`
    is None: `value` was a copy).

    `where`: whether `base` is the array the view was taken from (False where the
    variable was rebound since, see autograph.passes.views); a traced `where` (rebound
    on some staged paths) selects between the written array and `base`. `own`: `base`
    is a NumPy array the function made and keeps to itself (see `setitem`)."""
    if key is READ_ONLY:
        raise ValueError('assignment destination is read-only (NumPy\'s `np.asarray` of a '
                         'JAX array is a read-only view of it: take a copy to write, '
                         '`np.array(a)`)')
    if key is None or not (is_traced(where) or where):
        return base
    if isinstance(key, (Maybe, Choice)):   # (a view's key, or None, by staged path)
        raise view_on_some_paths(here())
    if not is_traced(where):
        return _numpy(_write(base, key, value, own), base, value)
    written = _write(_now(base), key, value, own)
    return _numpy(_select(where, written, _now(base)), base, value)


def read_view(base, key, value, where=True):
    """Python reference: `value` (a view of `base` at `key`, which sees the changes made
    to `base`). Returns `base[key]` (`value` when `key` is None: a copy, or where `where`
    is false: `base` is no longer the array the view was taken from)."""
    if key is None or key is READ_ONLY or not (is_traced(where) or where):
        return value   # (a JAX array does not change in place: nor does its view)
    if isinstance(key, (Maybe, Choice)):
        raise view_on_some_paths(here())
    if not is_traced(where):
        if isinstance(value, np.ndarray) and isinstance(base, np.ndarray) and \
                np.may_share_memory(value, base):
            return value   # (NumPy's own view: it sees the change, and stays the object)
        return _numpy(_read(base, key), base, value)
    return _numpy(_select(where, _read(_now(base), key), _now(value)), base, value)


def _numpy(value, *sources):
    """`value`, noted as standing for a NumPy array where it is traced and made of a
    view or base that stands for one (see `view`; a JAX array's whole alias has a key
    too, see `alias`)."""
    if is_traced(value) and (not sources or any(map(numpy_meaning, sources))):
        mark_numpy(value)
    return value


def _select(where, value, other):
    """`value if where else other` for a traced `where` (see `write_view`)."""
    if np.shape(value) != np.shape(other):
        raise view_base_unknown(_described(value), _described(other), here())
    return jnp.where(where, value, jnp.asarray(other).astype(jnp.result_type(value)))


def _now(value):
    """A NumPy array as it is now, as a new array: JAX keeps the constant it made of an
    array by the array's identity, and a NumPy array may be changed in place later."""
    return np.array(value) if isinstance(value, np.ndarray) else value


def _described(value):
    return f'{jnp.result_type(value)}{list(np.shape(value))}'


def _write(base, key, value, own):
    """`base` with `value` at `key` (a chain of steps: written back through each)."""
    if isinstance(key, Chain):
        return write_chain(base, key, value, lambda target, k, v, own=own: setitem(
            target, k, v, own=own), _read)
    return setitem(base, key, value, own=own)


def _read(base, key):
    if isinstance(key, Chain):
        return read_chain(base, key, _read)
    parts = _parts(key)
    if any(isinstance(p, span) for p in parts):   # (a window `i:i + k`, see items.slicing)
        return windows(base, parts)
    return getitem(base, key)


def _is_basic(key):
    """A basic index in NumPy's sense (see the module docstring)."""
    return all(_is_basic_part(k) for k in _parts(key))


def _parts(key):
    return key if isinstance(key, tuple) and not isinstance(key, span) else (key,)


def _is_basic_part(key):
    if key is None or key is Ellipsis or isinstance(key, (slice, span)):
        return True
    if isinstance(key, bool):
        return False
    if isinstance(key, (int, np.integer)):
        return True
    return (isinstance(key, _ARRAYS) and jnp.ndim(key) == 0
            and jnp.issubdtype(key.dtype, jnp.integer))
