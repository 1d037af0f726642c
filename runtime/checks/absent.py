"""Values that exist on some paths only: a placeholder and a flag, checked where read.

Python decides when the program runs whether a variable has a value:

    i = 0
    while i < n:          # n traced: the loop may run zero times
        y = x * i
        i = i + 1
    return y              # UnboundLocalError when it ran zero times

Staged control flow decides while tracing, so a variable that a staged `if` assigns in
one branch only, or that a staged loop creates, is carried as `Maybe(value, present)`:
the value the assigning path gives it (zeros of its type on the other paths) and a
traced bool that says whether the path the program took assigned it. `Maybe` is a pytree,
so it flows through `lax.cond`, `lax.while_loop` and `lax.scan` like any other state.

The converter reads such a variable through `ag.check_defined` where analysis says it
may be unbound (`y = ag.check_defined(y)` before the statement that reads it), which
raises Python's UnboundLocalError, with the user's line, when the program runs on a path
that left it unbound (a run-time check, see runtime.checks.raises): when it is bound, the value
is exactly Python's. A check inside a staged branch fires only on the path that takes
the branch, so a read guarded by a condition that implies the binding never raises.
"""
import jax
import jax.numpy as jnp

from .keys import Keyed, factory_of, flags, item
from ..values import choice
from ..values.choice import Choice
from ..values.maybe import Maybe
from .raises import raise_if
from ..errors import here
from ..messages import condition_shape, optional_truth
from ..protocol import RETURN_VALUE
from ..values.split import Undefined, Unbound


_OPERATORS = {'add': '+', 'sub': '-', 'mul': '*', 'truediv': '/', 'floordiv': '//',
              'mod': '%', 'pow': '**', 'matmul': '@', 'lt': '<', 'le': '<=', 'gt': '>',
              'ge': '>=', 'and': '&', 'or': '|', 'xor': '^'}


def _operator(name, symbol, reflected):
    """`optional <op> other` (or reflected, or `optional <op>= other` as `symbol` says):
    the value's result where it is present, Python's TypeError for None where it is not
    (checked when the program runs)."""
    def method(self, other):
        if isinstance(other, Maybe):   # (two optional values: each checked)
            other = _present_value(other, lambda: TypeError(
                f"unsupported operand type(s) for {symbol}: 'NoneType' and 'NoneType'"))
        value = _present_value(self, lambda: TypeError(
            f"unsupported operand type(s) for {symbol}: "
            + (f"'{type(other).__name__}' and 'NoneType'" if reflected
               else f"'NoneType' and '{type(other).__name__}'")))
        return getattr(value, f'__{"r" if reflected else ""}{name}__')(other)
    return method


def present(value, error):
    """`value`, or for an optional value (a Maybe) its value, with a check that raises
    `error()` where it is None (as Python would raise using None there)."""
    return _present_value(value, error) if isinstance(value, Maybe) else value


def _present_value(optional, error):
    if optional.absent is not None:
        raise optional.absent.error()   # (read through check_defined, never here)
    raise_if(jnp.logical_not(optional.present), error)
    return optional.value


for _name, _symbol in _OPERATORS.items():
    setattr(Maybe, f'__{_name}__', _operator(_name, _symbol, False))
    if _name not in ('lt', 'le', 'gt', 'ge'):
        setattr(Maybe, f'__r{_name}__', _operator(_name, _symbol, True))
        setattr(Maybe, f'__i{_name}__', _operator(_name, _symbol + '=', False))
Maybe.__neg__ = lambda self: -_present_value(
    self, lambda: TypeError("bad operand type for unary -: 'NoneType'"))
Maybe.__bool__ = lambda self: _python_truth(self)
Maybe.__getitem__ = lambda self, index: _present_value(
    self, lambda: TypeError("'NoneType' object is not subscriptable"))[index]


def _python_truth(optional):
    """Python reference: `bool(value)` asked by Python itself (code that is not
    converted): its truth where it is known while tracing, else a named error (converted
    code asks `truth`)."""
    value = truth(Maybe(optional.value, optional.present, None))
    if isinstance(value, jax.core.Tracer):
        raise optional_truth(here(2))
    return bool(value)


def is_absent(value):
    """A variable with no value here, which staged control flow may carry as a Maybe:
    an `Undefined` that Python may read (not the return value, nor an `unread` one, which
    staged code fills with zeros), and not a closure-visible `Unbound` (runtime.state.nonlocals).
    An attribute that staged code creates (`acc.last`, its label dotted names) is one too,
    also one a called method creates (runtime.state.method_state; the converter checks
    the reads after such a call, autograph.analysis.created_attributes):
    runtime.state.mutation sets it where its flag says."""
    return (type(value) is Undefined and not value.unread and value.name != RETURN_VALUE
            and all(part.isidentifier() for part in value.name.split('.')))


def lifted(value, absent):
    """`value` as a Maybe that is present (a Maybe stays itself)."""
    if isinstance(value, Maybe):
        return value
    return Maybe(value, jnp.asarray(True), absent)


def placeholder(like, absent):
    """A Maybe with no value: zeros shaped as `like` (a value, or a Maybe's value)."""
    if isinstance(like, Maybe):
        like = like.value
    zeros = jax.tree_util.tree_map(
        lambda leaf: jnp.zeros_like(leaf) if _is_array_like(leaf) else leaf, like)
    return Maybe(zeros, jnp.asarray(False), absent)


DIFFERENT = object()
"""What `joined` returns for values that differ by more than None in place of a part."""


def joined(a, b):
    """The structure holding both `a` and `b` where they differ only by None in place of
    a part (`(None, phi)` and `(step, phi)`, in tuples, lists, dicts or other pytree
    nodes of one kind): that part becomes an optional Maybe.
    DIFFERENT when they differ otherwise (leaves are left for the caller to compare)."""
    if a is None or b is None:
        other = b if a is None else a
        if other is None or (isinstance(other, Maybe) and other.absent is None):
            return other
        return DIFFERENT if isinstance(other, Maybe) else Maybe(other, True, None)
    if isinstance(a, Maybe) or isinstance(b, Maybe):
        if any(isinstance(x, Maybe) and x.absent is not None for x in (a, b)):
            return DIFFERENT
        inner = joined(*(x.value if isinstance(x, Maybe) else x for x in (a, b)))
        return DIFFERENT if inner is DIFFERENT else Maybe(inner, True, None)
    if isinstance(a, _TEXTS) or isinstance(b, _TEXTS):
        return _joined_texts(a, b)
    if type(a) in (tuple, list) and type(a) is type(b) and len(a) == len(b):
        parts = [joined(x, y) for x, y in zip(a, b)]
        return DIFFERENT if any(p is DIFFERENT for p in parts) else type(a)(parts)
    if isinstance(a, dict) and isinstance(b, dict) and (
            isinstance(a, Keyed) or isinstance(b, Keyed) or a.keys() != b.keys()):
        return _joined_keys(a, b)
    if type(a) is dict and type(b) is dict and a.keys() == b.keys():
        parts = {k: joined(a[k], b[k]) for k in a}
        return DIFFERENT if any(p is DIFFERENT for p in parts.values()) else parts
    nodes = _node(a), _node(b)
    if nodes[0] is not None and nodes[1] is not None and nodes[0][0] == nodes[1][0]:
        parts = [joined(x, y) for x, y in zip(nodes[0][1], nodes[1][1])]
        return DIFFERENT if any(p is DIFFERENT for p in parts) else nodes[0][0].unflatten(parts)
    containers = (tuple, list, dict)
    return DIFFERENT if isinstance(a, containers) or isinstance(b, containers) \
        or nodes != (None, None) else a


_TEXTS = (str, bytes, Choice)


def _joined_texts(a, b):
    """Parts where a text (a str) stands on some path: the same text on both, or a Choice
    among the texts and values of both (runtime.values.choice), also inside a container
    (`{"prob": p, "prev": "Rainy"}` on one path, `"Sunny"` on another)."""
    if type(a) is type(b) and not isinstance(a, Choice) and a == b:
        return a
    joint = choice.template([a, b])
    return DIFFERENT if joint is None else joint


def _node(value):
    """(one-level treedef, children) of a pytree node of another kind than those above
    (a namedtuple, a registered class: a function's result with its written parameters),
    or None for a leaf."""
    children, treedef = jax.tree_util.tree_flatten(value, is_leaf=lambda x: x is not value)
    return None if jax.tree_util.treedef_is_leaf(treedef) else (treedef, children)


def _joined_keys(a, b):
    """Dicts `a` and `b` joined (see `joined`), a key that one lacks (or has on some
    paths only) kept with a flag (runtime.checks.keys)."""
    parts, present = {}, {}
    for key in [*dict.keys(a), *(k for k in dict.keys(b) if not dict.__contains__(a, k))]:
        both = dict.__contains__(a, key) and dict.__contains__(b, key)
        part = joined(item(a, key), item(b, key)) if both else item(
            a if dict.__contains__(a, key) else b, key)
        if part is DIFFERENT:
            return DIFFERENT
        parts[key] = part
        if not both or key in flags(a) or key in flags(b):
            present[key] = True
    if factory_of(a) is not factory_of(b):
        return DIFFERENT
    return Keyed(parts, present, factory_of(a))


def conformed(value, template):
    """`value` in the structure `template` (see `joined`): its parts that are None there
    optional placeholders, its parts that are values there present Maybes."""
    if isinstance(template, Maybe):
        if value is None:
            return placeholder(template.value, None)
        if isinstance(value, Maybe):
            return value
        return lifted(conformed(value, template.value), None)
    if isinstance(template, Choice):
        return choice.chosen(value, template)
    if isinstance(template, Keyed) and isinstance(value, dict):
        return _conformed_keys(value, template)
    if type(template) in (tuple, list) and type(value) is type(template):
        return type(value)(conformed(v, t) for v, t in zip(value, template))
    if type(template) is dict and type(value) is dict and value.keys() == template.keys():
        return {k: conformed(value[k], template[k]) for k in template}
    nodes = _node(value), _node(template)
    if nodes[0] is not None and nodes[1] is not None and nodes[0][0] == nodes[1][0]:
        return nodes[0][0].unflatten([conformed(v, t) for v, t in zip(nodes[0][1],
                                                                       nodes[1][1])])
    return value   # (a leaf; or a different structure, which the caller rejects)


def _conformed_keys(value, template):
    """Dict `value` in the keys of `template` (a Keyed, see `_joined_keys`): a key it
    has is present (or keeps its flag), one it lacks a false placeholder."""
    parts, present, had = {}, {}, flags(value)
    for key in dict.keys(template):
        part = item(template, key)
        if dict.__contains__(value, key):
            parts[key] = conformed(item(value, key), part)
            if key in template.present:
                present[key] = had.get(key, jnp.asarray(True))
        else:
            parts[key] = placeholder(part, None).value
            present[key] = jnp.asarray(False)
    return Keyed(parts, present, factory_of(template))


def truth(value):
    """Python reference: `bool(value)` where a condition tests it. An optional value (a
    Maybe that is None where it is absent) is false where it is None, else as true as
    its value (a traced bool); so is a Choice (runtime.values.choice) as its option; any
    other value is given back as it is."""
    if isinstance(value, Choice):
        return value.truth()
    if not isinstance(value, Maybe) or value.absent is not None:
        return value
    inner = value.value
    if _is_array_like(inner) and not isinstance(inner, (bool, int, float, complex)):
        if jnp.size(inner) != 1:   # (Python: the truth of such an array is ambiguous)
            raise condition_shape('test', jnp.shape(inner), here(2))
        inner = jnp.reshape(jnp.asarray(inner).astype(bool), ())
    else:
        inner = bool(inner)
    return jnp.logical_and(value.present, inner)


def _is_array_like(leaf):
    return isinstance(leaf, (jax.Array, bool, int, float, complex)) or hasattr(leaf, 'dtype')


def check_defined(value):
    """Python reference: `value` (reading a variable, or every part of a value).

    An `Undefined` part raises Python's UnboundLocalError (in staged code: when the
    program runs on this path, see runtime.checks.raises); a `Maybe` is checked on its flag
    and read as its value.
    """
    if not any(isinstance(leaf, (Undefined, Maybe)) for leaf in _parts(value)):
        return value
    return jax.tree_util.tree_map(_check_one, value, is_leaf=_is_marker)


def _parts(value):
    return jax.tree_util.tree_leaves(value, is_leaf=_is_marker)


def _is_marker(value):
    return isinstance(value, (Undefined, Maybe))


def _check_one(leaf):
    if isinstance(leaf, Maybe):
        if leaf.absent is None:
            return leaf   # an optional value: None is a value (see runtime.python.identity)
        raise_if(jnp.logical_not(leaf.present), leaf.absent.error)
        return check_defined(leaf.value)
    if isinstance(leaf, Undefined):
        if isinstance(leaf, Unbound) and leaf.reason is not None:
            raise leaf.error()
        raise_if(True, leaf.error)   # here only when staged: a check on this path
    return leaf
