"""`Choice`: one of several values of different kinds, picked by a traced index.

Python reference: after

    if iterations == max_iterations:      # traced
        result = "No root found"
    else:
        result = x                        # a float32 array

`result` is the str on some runs and the array on others. A compiled program carries
arrays only, so staged branches that give a variable a text (a str) on some paths and
another text, a number or an array on others carry it as `Choice(index, options)`:
every kind of value a path may give it (`options`, the arrays of those that have some
in each), and the traced index of the one this run gave. After the program ran, the
Function gives back the option the index names (autograph.function.results), as it gives
back None or the value of an optional value. An optional value (runtime.checks.absent's
Maybe with None where it is absent) that meets another text becomes a Choice with None
among its options. (Staged branches still need containers and other objects to be the
same on every path; `flag and [1, 2]` with a traced `flag` holds the list as an option,
runtime.operators.logical.)

While tracing, a Choice can be stored, returned, compared with `==`/`!=` with a constant
and tested (`if result:`, `not result`): those give traced bools. Any other use (`str()`,
`+`, `<`, an item, an attribute; `''.join` of one: autograph.errors) is a named error
(the option is known only when the program runs).
"""
import jax
import jax.numpy as jnp

from ..errors import here
from ..messages import chosen_used, items_differ
from .maybe import Maybe
from .split import Undefined, is_dynamic, split


@jax.tree_util.register_pytree_node_class
class Choice:
    """`options[index]`: `index` a traced int32 scalar, `options` a tuple of values."""

    __slots__ = ('index', 'options', '__weakref__')   # (tests remember it)

    def __init__(self, index, options):
        self.index, self.options = index, tuple(options)

    def tree_flatten(self):
        return (self.index, self.options), None

    @classmethod
    def tree_unflatten(cls, _, children):
        return cls(*children)

    def __repr__(self):
        return f'<one of {self.options!r} at {self.index!r}>'

    def truth(self):
        """`bool(options[index])`, a traced bool (options of arrays: element truth)."""
        return self.picked([_truth(option) for option in self.options])

    def picked(self, values):
        """`values[index]` of one traced bool per option."""
        return jnp.stack([jnp.asarray(v, bool) for v in values])[self.index]

    def __eq__(self, other):
        if isinstance(other, Choice) or split(other)[0]:
            raise chosen_used('==', here(2))
        return self.picked([_constant(o) and o == other for o in self.options])

    def __ne__(self, other):
        return jnp.logical_not(self.__eq__(other))

    def __hash__(self):   # (a dict key or set item: which one is known at run time)
        raise chosen_used('a dict key or set item', here(2))

    def __bool__(self):
        raise chosen_used('its truth in Python', here(2))

    def __str__(self):
        raise chosen_used('str()', here(2))

    def __format__(self, spec):
        raise chosen_used('an f-string', here(2))

    def __iter__(self):    # (`a, b = flag and (x, y)`: a tuple on some paths only)
        raise chosen_used('unpacking or iterating', here(1))

    def __len__(self):
        raise chosen_used('len()', here(1))

    def __getitem__(self, key):
        raise chosen_used('indexing', here(1))

    def __getattr__(self, attr):
        if attr.startswith('_') or attr in _PROBED:   # (what code asks of any value)
            raise AttributeError(attr)
        raise chosen_used(f'.{attr}', here(2))


_PROBED = frozenset({'dtype', 'shape', 'ndim', 'size', 'aval', 'weak_type', 'sharding'})


def _refused(symbol):
    def operator(self, *_):
        raise chosen_used(f'`{symbol}`', here(1))
    return operator


for _name, _symbol in [('add', '+'), ('sub', '-'), ('mul', '*'), ('truediv', '/'),
                       ('floordiv', '//'), ('mod', '%'), ('pow', '**')]:
    setattr(Choice, f'__{_name}__', _refused(_symbol))   # (`s + s` of a str chosen by a
    setattr(Choice, f'__r{_name}__', _refused(_symbol))  # traced `if`: which str is known
for _name, _symbol in [('neg', '-'), ('lt', '<'), ('le', '<='), ('gt', '>'),   # only
                       ('ge', '>=')]:                                          # later)
    setattr(Choice, f'__{_name}__', _refused(_symbol))


_TEXT = (str, bytes)
"""The constants a Choice is made for (with None, and arrays or numbers): a container, or
another object, must be the same on every path (a named error where it is not)."""


def _constant(value):
    return not split(value)[0]


def _truth(option):
    if _constant(option) or isinstance(option, (list, tuple, dict, set, frozenset)):
        return bool(option)   # (a container's truth is its length's, whatever it holds)
    return jnp.reshape(jnp.asarray(option).astype(bool), ())


def _options(value):
    """The options a value stands for, with the index of the one it is (traced), or
    None where it is not a value a Choice can hold (a variable with no value)."""
    if isinstance(value, Choice):
        return value.options, value.index
    if isinstance(value, Maybe):
        if value.absent is not None:
            return None
        return (None, value.value), jnp.asarray(value.present, jnp.int32)
    if isinstance(value, Undefined) or any(isinstance(leaf, (Undefined, Maybe, Choice))
                                           for leaf in jax.tree_util.tree_leaves(
                                               value, is_leaf=_is_marker)):
        return None
    return (value,), jnp.int32(0)


def _is_marker(value):
    return isinstance(value, (Undefined, Maybe, Choice))


def template(values):
    """The Choice holding every option of `values` (a value per branch: zeros where
    they have arrays), when besides None they are two or more texts (str) and arrays or
    numbers, one of them a text; else None: the values must agree as they are (or be
    None and one value: an optional value, runtime.checks.absent)."""
    found = [_options(value) for value in values]
    if any(f is None for f in found):
        return None
    options = []
    for own, _ in found:
        for option in own:
            if not any(_same(option, o) for o in options):
                options.append(option)
    values = [o for o in options if o is not None]   # (None and one value: optional)
    if len(values) < 2 or not any(isinstance(o, _TEXT) for o in values) \
            or not all(isinstance(o, _TEXT) or is_dynamic(o) for o in values):
        return None
    return Choice(jnp.int32(0), options)


def chosen(value, like):
    """`value` as a Choice among the options of `like` (a `template`)."""
    own, index = _options(value)
    slots = [next(k for k, o in enumerate(like.options) if _same(option, o))
             for option in own]
    options = list(like.options)
    for slot, option in zip(slots, own):
        options[slot] = option
    return Choice(jnp.asarray(slots, jnp.int32)[index], options)


def picked(items, index, what):
    """`items[index]` of Python items of one structure, for a traced `index`, leaf by
    leaf: a constant all items share stays; texts (or None) that differ become a Choice
    of them; other leaves are stacked and indexed. A named error where the items differ
    in structure."""
    def pick(*leaves):
        first = leaves[0]
        if all(not is_dynamic(x) and type(x) is type(first) and x == first
               for x in leaves):
            return first
        if any(isinstance(x, _TEXT) for x in leaves):
            return Choice(index, leaves)
        return jnp.stack([jnp.asarray(x) for x in leaves])[index]
    try:
        return jax.tree_util.tree_map(pick, *items)
    except (ValueError, TypeError) as error:
        raise items_differ(what, error, here(2)) from None


def either(pred, a, b):
    """`a if pred else b` (`pred` a traced bool) as a Choice among the options of both
    (None, texts, numbers, arrays of any type or shape: `s and x > 0` where `s` is
    optional), or None where one of them is not a value a Choice can hold."""
    found = [_options(a), _options(b)]
    if any(f is None for f in found):
        return None
    options = []
    for own, _ in found:
        options += [o for o in own if not any(_same(o, p) for p in options)]
    like = Choice(jnp.int32(0), options)
    on_true, on_false = chosen(a, like), chosen(b, like)
    options = [jax.tree_util.tree_map(lambda x, y: jnp.where(pred, x, y) if is_dynamic(x)
                                      else x, t, f)
               for t, f in zip(on_true.options, on_false.options)]
    return Choice(jnp.where(pred, on_true.index, on_false.index), options)


def _same(a, b):
    (a_leaves, a_spec), (b_leaves, b_spec) = split(a), split(b)
    return a_spec.same_as(b_spec) and all(
        jnp.shape(x) == jnp.shape(y) and jnp.result_type(x) == jnp.result_type(y)
        for x, y in zip(a_leaves, b_leaves))
