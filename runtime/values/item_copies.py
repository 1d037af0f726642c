"""A list or dict read from a Python list at a traced index (`rows[i]`, see
runtime.items.indexing): a new object built from the stacked items, not the item
itself, since which item it is is known only when the program runs. Python's
`rows[i].append(v)` changes the list's item; changing the copy would change nothing, a
silent difference, so the copy refuses every in-place change with the project's named
error (IN_PLACE_CHANGE) at the user's line. Reading it is reading the item.

Both are pytrees whose rebuilt values are copies again, so the guard survives staged
branches and loops that carry them.
"""
import jax

from ..errors import here
from ..messages import item_copy_changed


def _refuse(kind, change):
    def refused(self, *args, **kwargs):
        raise item_copy_changed(kind, change, here())
    refused.__name__ = change
    return refused


class ListCopy(list):
    """A list read at a traced index (see the module docstring)."""


class DictCopy(dict):
    """A dict read at a traced index (see the module docstring)."""


for _name in ('append', 'extend', 'insert', 'pop', 'remove', 'clear', 'sort', 'reverse',
              '__setitem__', '__delitem__', '__iadd__', '__imul__'):
    setattr(ListCopy, _name, _refuse('list', _name))
for _name in ('pop', 'popitem', 'clear', 'update', 'setdefault', '__setitem__',
              '__delitem__', '__ior__'):
    setattr(DictCopy, _name, _refuse('dict', _name))

jax.tree_util.register_pytree_node(ListCopy, lambda xs: (list(xs), None),
                                   lambda _, children: ListCopy(children))
jax.tree_util.register_pytree_with_keys(
    DictCopy, lambda d: ([(jax.tree_util.DictKey(k), v) for k, v in d.items()], tuple(d)),
    lambda keys, children: DictCopy(zip(keys, children)),
    lambda d: (list(d.values()), tuple(d)))


def guarded(value):
    """`value` (an item read at a traced index) with a list or dict made a copy that
    refuses in-place changes."""
    if type(value) is list:
        return ListCopy(value)
    if type(value) is dict:
        return DictCopy(value)
    return value
