"""The state that converted control flow passes around, split for JAX.

A branch or loop body takes and returns the user's variables. Under `lax`, only arrays
(and Python numbers, which become weakly typed arrays) can flow through; everything else
(None, strings, functions, objects, a variable with no value yet) is *static*: it must be
the same on every path, and it is carried around the primitive in Python instead.
"""
import copy
import collections
import dataclasses

import jax
import numpy as np

from ..protocol import RETURN_VALUE


class Undefined:
    """The value of a variable that has not been assigned on this path yet.

    `ag.Undefined('y')` stands for `y` where Python would raise UnboundLocalError on a
    read. Any use of it raises that error, so a Python-mode program behaves as Python does.
    `unread=True` says Python never reads `y` while it is unassigned (see
    analysis.definite): a staged `if` may then fill it with zeros on the path that leaves
    it unassigned, as it does for a return value (`Undefined(RETURN_VALUE)`).
    """

    __slots__ = ('name', 'unread')

    def __init__(self, name, unread=False):
        self.name = name
        self.unread = unread or name == RETURN_VALUE

    def __repr__(self):
        return f'<undefined {self.name}>'

    def __eq__(self, other):
        return isinstance(other, Undefined) and other.name == self.name

    def __hash__(self):
        return hash(('Undefined', self.name))

    def _fail(self, *args, **kwargs):
        raise self.error()

    def error(self):
        return UnboundLocalError(
            f"cannot access local variable '{self.name}' where it is not associated with "
            f"a value", name=self.name)

    __bool__ = __call__ = __getitem__ = __setitem__ = __iter__ = __len__ = _fail
    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = _fail
    __truediv__ = __rtruediv__ = __floordiv__ = __rfloordiv__ = __mod__ = __rmod__ = _fail
    __pow__ = __rpow__ = __matmul__ = __rmatmul__ = __neg__ = __pos__ = __abs__ = _fail
    __lt__ = __le__ = __gt__ = __ge__ = __and__ = __or__ = __xor__ = __invert__ = _fail
    __float__ = __int__ = __index__ = _fail

    def __getattr__(self, attr):
        if attr.startswith('__') and attr.endswith('__'):
            raise AttributeError(attr)
        self._fail()


class Unbound(Undefined):
    """A closure-visible variable (see nonlocals.py) that has no value, on some path.

    Converted code passes a local variable to a branch or loop only when code after the
    statement reads it; a nested function may read a closure-visible variable at any later
    time. So staged control flow lets such a variable stay unset on some of its paths
    (where Python would raise NameError on a later read) and binds it to
    `Unbound(name, reason)`: a read raises `reason` (a ControlFlowError of
    runtime.messages, which names the statement; a copy each time). Without a reason the variable has no value yet on any path (a read raises
    UnboundLocalError, as for `Undefined`).
    """

    __slots__ = ('reason',)

    def __init__(self, name, reason=None):
        super().__init__(name)
        self.reason = reason

    def __eq__(self, other):
        if not isinstance(other, Unbound):
            return NotImplemented   # compared with a plain Undefined: by name
        return (other.name, _text(other.reason)) == (self.name, _text(self.reason))

    def __hash__(self):
        return hash(('Undefined', self.name))

    def error(self):
        if self.reason is None:
            return super().error()
        return copy.copy(self.reason)


def _text(error):
    return None if error is None else str(error)


def grow(value, grown):
    """`value` completed by `grown` (a value of the same kind): undefined parts and dict
    keys that `value` lacks are taken from `grown`. None when `grown` is not `value` with
    parts added (a type or structure that changed). `value` itself is not changed."""
    if isinstance(value, Undefined):
        return grown
    if type(value) in (dict, collections.defaultdict) and type(grown) is type(value) \
            and getattr(value, 'default_factory', None) is \
            getattr(grown, 'default_factory', None):
        if not set(dict.keys(value)) <= set(dict.keys(grown)):
            return None
        parts = {k: grow(dict.__getitem__(value, k), grown[k]) if k in value else grown[k]
                 for k in grown}
        if any(p is None for p in parts.values()):
            return None
        return parts if type(value) is dict else collections.defaultdict(
            value.default_factory, parts)
    if type(value) in (list, tuple) and type(grown) is type(value) \
            and len(value) == len(grown):
        parts = [grow(v, g) for v, g in zip(value, grown)]
        return None if any(p is None for p in parts) else type(value)(parts)
    if jax.tree_util.tree_structure(value) == jax.tree_util.tree_structure(grown):
        return value
    return None


def is_traced(value):
    return isinstance(value, jax.core.Tracer)


def is_dynamic(leaf):
    """True for leaves that become arrays under lax (arrays and Python numbers)."""
    return isinstance(leaf, (jax.Array, np.ndarray, np.generic, bool, int, float, complex))


def any_traced(tree):
    return any(is_traced(leaf) for leaf in jax.tree_util.tree_leaves(tree))


_DYNAMIC = object()


@dataclasses.dataclass(frozen=True)
class Spec:
    """The static part of a value: its tree structure and its non-array leaves."""
    treedef: object
    statics: tuple

    @property
    def dynamic_count(self):
        """How many leaves are arrays (what `split` returns besides the Spec)."""
        return sum(1 for s in self.statics if s is _DYNAMIC)

    def same_as(self, other):
        if self.treedef != other.treedef:
            return False
        return all(_static_equal(a, b) for a, b in zip(self.statics, other.statics))


def _static_equal(a, b):
    if a is b:
        return True
    if a is _DYNAMIC or b is _DYNAMIC or type(a) is not type(b):
        return False
    try:
        return bool(a == b)
    except Exception:  # objects whose == is not a bool (arrays in objects): compare identity
        return False


def split(value, pinned=False):
    """value -> (dynamic leaves, Spec). `merge(spec, leaves)` rebuilds it. `pinned`: its
    Python bools are static too (a flag a loop never changes, see staging.carry)."""
    leaves, treedef = jax.tree_util.tree_flatten(value)
    kept = [is_dynamic(leaf) and not (pinned and type(leaf) is bool) for leaf in leaves]
    dynamic = [leaf for leaf, keep in zip(leaves, kept) if keep]
    statics = tuple(_DYNAMIC if keep else leaf for leaf, keep in zip(leaves, kept))
    return dynamic, Spec(treedef, statics)


def merge(spec, dynamic):
    it = iter(dynamic)
    leaves = [next(it) if s is _DYNAMIC else s for s in spec.statics]
    return jax.tree_util.tree_unflatten(spec.treedef, leaves)


class Description(str):
    """What `describe` returns: the text, and `leaves`, each leaf's text by its key path
    (`['b']`, `[0]`), so that a message can say where two values differ; `objects`: the
    class names of the parts that are Python objects JAX cannot carry (not arrays,
    numbers, strings or pytrees), by key path ('' for the value itself)."""
    leaves = {}
    objects = {}


def describe(value):
    """A short human description of a value's type: 'float32[3]', 'None', "str 'hi'",
    'tuple of 2'."""
    text = Description(_describe_one(value))
    if not jax.tree_util.all_leaves([value]) and not isinstance(value, Undefined):
        paths, _ = jax.tree_util.tree_flatten_with_path(value)
        text.leaves = {jax.tree_util.keystr(path): _describe_one(leaf) for path, leaf in paths}
        text.objects = {jax.tree_util.keystr(path): type(leaf).__name__
                        for path, leaf in paths if _is_object(leaf)}
    elif _is_object(value):
        text.objects = {'': type(value).__name__}
    return text


def _is_object(leaf):
    return not (leaf is None or is_dynamic(leaf)
                or isinstance(leaf, (str, bytes, int, float, complex, Undefined)))


def _describe_one(value):
    if isinstance(value, Undefined):
        return 'undefined'
    if value is None:
        return 'None'
    if is_dynamic(value):
        aval = jax.typeof(value)
        weak = ' (a Python number)' if isinstance(value, (int, float, complex)) else ''
        return aval.str_short(short_dtypes=False) + weak
    if isinstance(value, dict):   # (a dict whose keys exist on some paths: all of them)
        return f'dict of {dict.__len__(value)}'
    if isinstance(value, (tuple, list)):
        return f'{type(value).__name__} of {len(value)}'
    shown = repr(value) if isinstance(value, (str, bytes)) else ''
    return f'{type(value).__name__} {shown}' if 0 < len(shown) <= 40 else type(value).__name__


def pack(names, value):
    """Generated functions return one value per name: bare for one name, a tuple else."""
    if len(names) == 1:
        return (value,)
    return tuple(value) if names else ()


def unpack(names, values):
    if len(names) == 1:
        return values[0]
    return tuple(values) if names else None
