"""Dict keys that exist on some paths only: a dict with a presence flag per such key.

Python decides when the program runs which keys a dict has:

    d = {}
    while n > 0:          # n traced: the loop may run zero times
        d['a'] = n
        n -= 1
    'a' in d              # False when it ran zero times
    d['a']                # KeyError when it ran zero times

Staged control flow fixes a dict's keys while tracing, so a key that a staged loop
creates, or that a staged branch sets (or deletes) on some paths only, is kept in a
`Keyed` dict: the item is a plain value (zeros of its type where the key is absent) and
`present[key]` a traced bool that says whether the path the program took has the key.
`Keyed` is a pytree, so it flows through `lax.cond`, `lax.while_loop` and `lax.scan`.

Its items are plain values, so generated code reads them with plain subscripts:
`d['a']` gives the item and records a check that raises Python's KeyError when the
program runs where the key is absent (runtime.checks.raises). `'a' in d` (`ag.in_`) is
the flag; `d.get('a', default)` selects the item or the default (with no default, an
optional value, see runtime.checks.absent); `pop`, `setdefault`, `update`, `|`, `copy`
and writes keep the flags exact. `len(d)` (`ag.len`) counts the keys present, a traced
count where a flag is. What needs the keys themselves (iterating, `keys()`, `items()`,
`==`) is Python's where the flags are known, else a named error.
A Function gives back a plain dict with the keys present on that run (see
autograph.function.results). A defaultdict's Keyed keeps its `default_factory`: reading
a key absent on the path taken gives `default_factory()` there and makes the key
present, as Python's `__missing__` does, in the dict of the staged branch or body (its
state: `counts[k] += 1` under a staged `if`); where a deeper one only reads it, an error.
"""
import collections

import jax
import jax.numpy as jnp
from jax.tree_util import DictKey, GetAttrKey

from ..values import choice
from ..values.maybe import Maybe
from .raises import raise_if
from ..errors import here
from ..context import staged_depth
from ..messages import default_read_elsewhere, key_default_differs, keys_unknown
from ..values.split import is_dynamic


@jax.tree_util.register_pytree_with_keys_class
class Keyed(dict):
    """A dict whose keys in `present` exist where their flag is true (module doc)."""

    __slots__ = ('present', 'default_factory', 'depth')

    def __init__(self, items=(), present=None, default_factory=None):
        super().__init__(items)
        self.present = dict(present or {})
        self.default_factory = default_factory
        self.depth = staged_depth()   # (where it was made: see `__getitem__`)

    def tree_flatten_with_keys(self):
        keys = _ordered(self)
        flagged = tuple(k for k in keys if k in self.present)
        children = [(DictKey(k), dict.__getitem__(self, k)) for k in keys]
        children += [(GetAttrKey(f'present[{k!r}]'), self.present[k]) for k in flagged]
        return children, (keys, flagged, self.default_factory)

    def tree_flatten(self):
        children, aux = self.tree_flatten_with_keys()
        return [child for _, child in children], aux

    @classmethod
    def tree_unflatten(cls, aux, children):
        keys, flagged, factory = aux
        children = list(children)
        return cls(zip(keys, children), zip(flagged, children[len(keys):]), factory)

    def __getitem__(self, key):
        value = dict.__getitem__(self, key)   # (a key it lacks: `__missing__`)
        if key in self.present:
            if self.default_factory is not None:   # (a defaultdict's: made present, but
                if staged_depth() > self.depth and not _concrete(self.present[key]):
                    raise default_read_elsewhere(key, here())   # not by a deeper branch)
                value = either(self.present.pop(key), value, self.default_factory(), key)
                dict.__setitem__(self, key, value)
                return value
            _check(self.present[key], key)
        return value

    def __missing__(self, key):
        if self.default_factory is None:
            raise KeyError(key)
        value = self.default_factory()
        dict.__setitem__(self, key, value)
        return value

    def __setitem__(self, key, value):
        dict.__setitem__(self, key, value)
        self.present.pop(key, None)

    def __delitem__(self, key):
        if dict.__contains__(self, key) and key in self.present:
            _check(self.present[key], key)
        dict.__delitem__(self, key)
        self.present.pop(key, None)

    def contains(self, key):
        """Python reference: `key in self`: a traced bool for a key in `present`."""
        if not dict.__contains__(self, key):
            return False
        return self.present.get(key, True)

    def __contains__(self, key):
        if not dict.__contains__(self, key) or key not in self.present:
            return dict.__contains__(self, key)
        return _known(self.present[key], f'`{key!r} in` a dict', key)

    def get(self, key, default=None):
        if not dict.__contains__(self, key) or key not in self.present:
            return dict.get(self, key, default)
        return either(self.present[key], dict.__getitem__(self, key), default, key)

    def pop(self, key, *default):
        if not dict.__contains__(self, key) or key not in self.present:
            return dict.pop(self, key, *default)
        value = self.get(key, *default) if default else self[key]
        dict.__delitem__(self, key)
        del self.present[key]
        return value

    def setdefault(self, key, default=None):
        if dict.__contains__(self, key) and key not in self.present:
            return dict.__getitem__(self, key)
        self[key] = value = self.get(key, default)
        return value

    def update(self, *args, **kwargs):
        for key, value in dict(*args, **kwargs).items():
            self[key] = value

    def __ior__(self, other):
        self.update(other)
        return self

    def __or__(self, other):
        if not isinstance(other, dict):
            return NotImplemented
        out = self.copy()
        out.update(other)
        return out

    def __ror__(self, other):
        if not isinstance(other, dict):
            return NotImplemented
        out = Keyed(other, default_factory=factory_of(other))
        for key, value in dict.items(self):
            if key not in self.present:
                out[key] = value
            elif key in other:
                out[key] = either(self.present[key], value, other[key], key)
            else:
                dict.__setitem__(out, key, value)
                out.present[key] = self.present[key]
        return out

    def copy(self):
        return Keyed(dict.items(self), self.present, self.default_factory)

    __copy__ = copy

    def known(self, operation):
        """The plain dict this one is where every flag is known (concrete), else the named
        error that `operation` needs the keys."""
        traced = [k for k, flag in self.present.items() if _concrete(flag) is None]
        if traced:
            raise keys_unknown(operation, traced, here(2))
        return {k: v for k, v in dict.items(self)
                if k not in self.present or _concrete(self.present[k])}

    def count(self):
        """Python reference: `len(self)`: the keys present, a traced int32 where a
        flag is traced (`__len__` cannot return one: `ag.len` calls this)."""
        count = 0
        for key in dict.keys(self):
            flag = self.present.get(key, True)
            known = _concrete(flag)
            count = count + (int(known) if known is not None else
                             jnp.asarray(flag).astype(jnp.int32))
        return count

    def __iter__(self):
        return iter(self.known('iterating over a dict'))

    def __len__(self):
        return len(self.known('`len()` of a dict'))

    def keys(self):
        return self.known('`keys()` of a dict').keys()

    def values(self):
        return self.known('`values()` of a dict').values()

    def items(self):
        return self.known('`items()` of a dict').items()

    def __reversed__(self):
        return reversed(self.known('`reversed()` of a dict'))

    def popitem(self):
        key = next(reversed(self.known('`popitem()` of a dict')))
        return key, self.pop(key)

    def clear(self):
        dict.clear(self)
        self.present.clear()

    def __eq__(self, other):
        if isinstance(other, Keyed):
            other = other.known('`==` of dicts')
        return self.known('`==` of dicts') == other

    def __ne__(self, other):
        return not self == other

    __hash__ = None

    def __repr__(self):
        flags = ', '.join(f'{k!r}: {v!r}' for k, v in self.present.items())
        factory = '' if self.default_factory is None else f', {self.default_factory!r}'
        return f'Keyed({dict.__repr__(self)}, present={{{flags}}}{factory})'


def _ordered(d):
    """The keys of dict `d` in a fixed order (sorted, as JAX orders a dict's, when they
    can be), so that equal dicts have one tree structure."""
    keys = tuple(dict.keys(d))
    try:
        return tuple(sorted(keys))
    except TypeError:
        return keys


def _check(flag, key):
    raise_if(jnp.logical_not(flag), _key_error, (key,))


def _key_error(key):
    return KeyError(key)


def _concrete(flag):
    """A flag's Python bool, or None when it is traced."""
    try:
        return bool(flag)
    except jax.errors.ConcretizationTypeError:
        return None


def _known(flag, operation, key):
    value = _concrete(flag)
    if value is None:
        raise keys_unknown(operation, [key], here(3))
    return value


def either(flag, value, default, key):
    """`value if flag else default`: a select of two values of one structure, or (with
    a None default) an optional value (runtime.checks.absent.Maybe). `key` names the item
    (or attribute) in the error for a default of another structure."""
    known = _concrete(flag)
    if known is not None:
        return value if known else default
    if default is None:
        return Maybe(value, flag, None)
    values, tree = jax.tree_util.tree_flatten(value, is_leaf=_is_text)
    defaults, default_tree = jax.tree_util.tree_flatten(default, is_leaf=_is_text)
    if tree != default_tree:
        raise key_default_differs(key, here(3))
    try:
        picked = [_either_part(flag, v, d) for v, d in zip(values, defaults)]
    except (TypeError, ValueError):
        raise key_default_differs(key, here(3)) from None
    return jax.tree_util.tree_unflatten(tree, picked)


def _is_text(value):
    return isinstance(value, (str, bytes, choice.Choice))


def _either_part(flag, value, default):
    """One part of `either`: arrays selected, the same text kept, texts that differ (or a
    text and an array) a Choice (runtime.values.choice); a TypeError for anything else."""
    if _is_text(value) or _is_text(default):
        if type(value) is type(default) and not isinstance(value, choice.Choice) \
                and value == default:
            return value
        chosen = choice.either(flag, value, default)
        if chosen is None:
            raise TypeError('no Choice holds them')
        return chosen
    if not (is_dynamic(value) and is_dynamic(default)):
        raise TypeError('not arrays')
    return jnp.where(flag, value, default)


def factory_of(value):
    """The `default_factory` of dict `value` (a defaultdict, or a Keyed made of one), or
    None."""
    return getattr(value, 'default_factory', None)


def flags(value):
    """{key: flag} of the keys of dict `value` that exist on some paths only."""
    return value.present if isinstance(value, Keyed) else {}


def item(value, key):
    """The item of dict `value` at `key`, with no check (internal reads)."""
    return dict.__getitem__(value, key)


def plain_dicts(value, traced_key, label=''):
    """`value` with each Keyed in it (in dicts, lists and tuples) a plain dict that holds
    the keys present where the flags are known; a traced flag is `traced_key(label,
    flag)`'s to check, and the item kept."""
    if isinstance(value, dict):
        factory, changed = factory_of(value), isinstance(value, Keyed)
        out = {} if factory is None else collections.defaultdict(factory)
        for key, part in dict.items(value):
            flag = flags(value).get(key)
            known = True if flag is None else _concrete(flag)
            if known is None:
                traced_key(f'{label}[{key!r}]', flag)
            if known is not False:
                out[key] = plain_dicts(part, traced_key, f'{label}[{key!r}]')
                changed = changed or out[key] is not part
        return out if changed else value
    if type(value) in (list, tuple):
        return type(value)(plain_dicts(part, traced_key, f'{label}[{i}]')
                           for i, part in enumerate(value))
    return value


def has_keyed(value):
    """Whether a Keyed is in `value` (in dicts, lists and tuples)."""
    if isinstance(value, Keyed):
        return True
    if isinstance(value, dict):
        return any(has_keyed(part) for part in dict.values(value))
    return type(value) in (list, tuple) and any(map(has_keyed, value))
