"""Lists that a staged loop appends to: the appended items become per-iteration outputs.

    out = [x0]
    for x in xs:                 # staged: lax.scan, the body traced once
        out.append(f(x))         # f(x) of every iteration, stacked by the scan
    # out == [x0, f(xs[0]), f(xs[1]), ...], as Python leaves it

While the body is traced, each list of the loop's state (also one inside a dict, list or
tuple of the state) is a `Collecting` list: its items from before the loop, then the
items this iteration appends. After the trace the appended items are split off as the
scan's per-iteration outputs and the list is carried with its items from before the loop;
after the loop it holds those, then each iteration's items in order.

Reading such a list in the body (`len(out)`, `out[-1]`, iterating, `jnp.stack(out)`, any
method but `append`, `extend` and `+=`) would see only those items, not the ones earlier
iterations appended, so Python's values cannot be had from one trace. The list records
the read, and a loop whose body both reads and grows a list raises
`messages.ListReadInLoop` (a ControlFlowError naming the list and the line): a loop over a
Python range, or over the rows of an array of static length, then runs as Python
(unrolled, see runtime.loops.loop_policy), any other loop reports the error. Reading a
list that the body does not grow is fine: it is carried whole.
"""
import os
import sys

import jax
import jax.numpy as jnp

from ..errors import here
from ..messages import collects_non_arrays, read_while_appending
from ..values.stacked import Stacked
from .logs import Block, Iterations
from ..values.split import describe, is_dynamic, pack, unpack


_READING = (
    '__getitem__', '__len__', '__iter__', '__reversed__', '__contains__', '__eq__', '__ne__',
    '__lt__', '__le__', '__gt__', '__ge__', '__add__', '__mul__', '__rmul__', '__imul__',
    '__repr__', '__str__', '__setitem__', '__delitem__', '__reduce_ex__', 'copy', 'count',
    'index', 'insert', 'pop', 'remove', 'clear', 'sort', 'reverse')
"""The list methods but `append`, `extend` and `+=` (which only add items at the end):
each reads, or changes, items that earlier iterations appended."""


class Collecting(list):
    """A list of a staged loop's state while its body is traced (see the module doc).
    `source`: the Collecting list of an enclosing loop's body that this one copies (a
    read of the copy is a read of it too); `loop_at`: the user's line of the loop. A read
    that fails for want of an earlier iteration's item is the loop's named error."""
    __slots__ = ('label', 'entry_length', 'read_at', 'source', 'loop_at')

    def __radd__(self, other):   # `prefix + out`: list.__add__ would read it unseen
        self._read()
        return list(other) + list(list.__iter__(self))

    def _read(self, location=None):
        if self.read_at is None:
            self.read_at = location or here(2) or ''
            if self.source is not None:
                self.source._read(self.read_at)


def _reading(name):
    method = getattr(list, name)
    missing = (IndexError, ValueError) if name in ('index', 'remove') else IndexError

    def read(self, *args, **kwargs):
        self._read()
        try:
            return method(self, *args, **kwargs)
        except missing:   # an item of an earlier iteration, which the trace lacks
            raise _read_error(self) from None
    read.__name__ = name
    return read


for _name in _READING:
    setattr(Collecting, _name, _reading(_name))


def _flatten(collecting):
    """A Collecting list as a pytree (a plain list when rebuilt). Flattening it is a read
    (`jnp.array(out)` reads it that way) unless the runtime's own code does it, to carry
    the list's items through a staged statement nested in the body."""
    if not _runtime_caller():
        collecting._read()
    return list(list.__iter__(collecting)), None


_RUNTIME = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))   # (runtime/)
_TREE_UTIL = os.path.abspath(jax.tree_util.tree_flatten.__code__.co_filename)


def _runtime_caller():
    """Whether the code that flattens (past JAX's tree functions) is the runtime's."""
    frame = sys._getframe(2)
    while frame is not None and os.path.abspath(frame.f_code.co_filename) == _TREE_UTIL:
        frame = frame.f_back
    return frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(
        _RUNTIME + os.sep)   # (the runtime's subpackages included: staging/, operators/)


jax.tree_util.register_pytree_node(Collecting, _flatten, lambda _, items: list(items))


def plain(values):
    """`values` with each Collecting or Stacked list in them (in dicts, lists, tuples
    too) a plain list: how a loop nested in a staged body carries them."""
    return tuple(_plain(value) for value in values)


def _plain(value):
    if isinstance(value, (list, Stacked)):
        items = list.__iter__(value) if isinstance(value, list) else value
        return [_plain(item) for item in items]
    if type(value) is dict:
        return {key: _plain(item) for key, item in value.items()}
    if type(value) is tuple:
        return tuple(_plain(item) for item in value)
    return value


def mark(names, values, sources):
    """`values` with each list in them (in dicts, lists, tuples too) a fresh Collecting.
    `sources`: the values as they came into the loop (where a list is a Collecting one,
    the loop runs in the body of another, whose list it copies)."""
    loop_at = here()
    return tuple(_mark(name, value, source, loop_at)
                 for name, value, source in zip(names, values, sources))


def _mark(label, value, source, loop_at):
    if isinstance(value, list):
        marked = Collecting(_mark(f'{label}[{i}]', item, _part(source, i), loop_at)
                            for i, item in enumerate(list.__iter__(value)))
        marked.label, marked.entry_length = label, list.__len__(marked)
        marked.read_at, marked.loop_at = None, loop_at
        marked.source = source if isinstance(source, Collecting) else None
        return marked
    if type(value) is dict:
        return {key: _mark(f'{label}[{key!r}]', item, _part(source, key), loop_at)
                for key, item in value.items()}
    if type(value) is tuple:
        return tuple(_mark(f'{label}[{i}]', item, _part(source, i), loop_at)
                     for i, item in enumerate(value))
    return value


def _part(source, key):
    """`source[key]` if `source` is a list, dict or tuple that has it, else None."""
    if isinstance(source, list) and isinstance(key, int) and key < list.__len__(source):
        return list.__getitem__(source, key)
    if type(source) is dict or type(source) is tuple:
        try:
            return source[key]
        except (KeyError, IndexError, TypeError):
            return None
    return None


def split(names, args, out):
    """(carried values, {path: items appended per iteration}, appended arrays): the body's
    results `out` with the items appended to the lists of `args` (as `mark` made them)
    split off. A path is (variable index, key, ...)."""
    appended, extra = {}, []
    kept = tuple(_split((i,), before, after, appended, extra)
                 for i, (before, after) in enumerate(zip(args, out)))
    return kept, appended, extra


def _split(path, before, after, appended, extra):
    if isinstance(before, Collecting):
        if after is not before:
            return after   # rebound to another list: carried as it is
        items = list(list.__iter__(after))
        n = after.entry_length
        if len(items) > n:
            if after.read_at is not None:
                raise _read_error(after)
            new = items[n:]
            if all(isinstance(item, Block) for item in new):   # a log's (see logs.py)
                leaves, treedef = jax.tree_util.tree_flatten(new)
                appended[path] = _Blocks(treedef, len(leaves))
                extra += leaves
            else:
                appended[path] = len(new)
                extra += [_collectable(after.label, item) for item in new]
            items = items[:n]
        return [_split(path + (i,), item, item, appended, extra)
                for i, item in enumerate(items)]
    if type(before) is dict and type(after) is dict:
        return {key: _split(path + (key,), before[key], value, appended, extra)
                if key in before else value for key, value in after.items()}
    if type(before) is tuple and type(after) is tuple and len(before) == len(after):
        return tuple(_split(path + (i,), b, a, appended, extra)
                     for i, (b, a) in enumerate(zip(before, after)))
    return after


class _Blocks:
    """What an iteration appends to a log's list (see runtime.state.logs): Blocks, with
    `leaves` arrays in all, of structure `treedef` (a list of Blocks)."""

    def __init__(self, treedef, leaves):
        self.treedef, self.leaves = treedef, leaves


def read_whole(value):
    """Note a read of list `value` by a library function that reads its items in C
    (`heapq.heappush`, which list methods overridden in Python do not see): where it is
    a staged loop's Collecting list, as a read of it (see the module doc)."""
    if isinstance(value, Collecting):
        value._read(here(2))


def _read_error(collecting):
    return read_while_appending(collecting.label, collecting.read_at, collecting.loop_at)


def _collectable(name, item):
    """An item appended to list `name` in a staged loop, as an array (or a named error:
    a function or object made in a staged iteration cannot outlive its trace)."""
    if not is_dynamic(item):
        raise collects_non_arrays(name, describe(item), here())
    return jnp.asarray(item)


def extend(inputs, values, appended, ys, length):
    """The loop's results `values` with each list that collected items (`appended`, in
    the order of the per-iteration outputs `ys`) extended by them: its items before the
    loop, then each iteration's items. A list that was empty and got one item per
    iteration stays one stacked array (see runtime.values.stacked). A list the loop got from an
    enclosing staged loop's body (a Collecting one) is extended in place, so that the
    enclosing loop collects the items too."""
    values, start = list(values), 0
    for path, count in appended.items():
        blocks = count if isinstance(count, _Blocks) else None
        count = blocks.leaves if blocks else count
        stacked = ys[start:start + count]
        start += count
        source, old = _at(inputs, path), _at(values, path)
        if blocks:   # a log's Blocks, one per iteration: their arrays stacked
            new = source if isinstance(source, Collecting) else list(old)
            list.extend(new, [Iterations(block, length) for block in
                              jax.tree_util.tree_unflatten(blocks.treedef, stacked)])
        elif not isinstance(source, Collecting) and not old and count == 1:
            new = Stacked(stacked[0])
        else:
            new = source if isinstance(source, Collecting) else list(old)
            list.extend(new, [s[t] for t in range(length) for s in stacked])
        values = _replaced(values, path, new)
    return tuple(values)


def _at(value, path):
    for key in path:
        value = _part(value, key)
    return value


def _replaced(value, path, new):
    """`value` with the part at `path` replaced by `new` (lists and dicts in place)."""
    if not path:
        return new
    key, rest = path[0], path[1:]
    if type(value) is tuple:
        return value[:key] + (_replaced(value[key], rest, new),) + value[key + 1:]
    value[key] = _replaced(value[key], rest, new)
    return value


def refill(names, before, after, aliased):
    """The loop's results `after` (one value per name, see state.unpack), where each list
    named in `aliased` that came in as a plain list is that very object again, holding
    the loop's items: other code holding it (the caller of a function that appends to its
    parameter, or `alias = out`) sees them, as Python's `append` shows them. This costs
    one slice per item of a collected (Stacked) list, so it is done only for those."""
    if not aliased:
        return after
    values = list(pack(names, after))
    for i, name in enumerate(names):
        came, went = before[i], values[i]
        if name in aliased and type(came) is list and went is not came \
                and isinstance(went, (list, Stacked)):
            came[:] = list(went)
            values[i] = came
    return unpack(names, tuple(values))
