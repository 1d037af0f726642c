"""Call keys: which calls of a Function share a trace, as tf.function's tracing rules say.

A call is keyed by its arguments, bound to the function's parameters with their defaults
(so `f(x)` and `f(x, b=2)` are one trace of `def f(a, b=2)`), flattened as a pytree: the
key is the tree's structure plus a key per leaf,

    ArrayKey   an array (or jax.ShapeDtypeStruct): shape, dtype and weak type, and
               whether it is a NumPy array (whose views write through, whose `+=`
               changes it in place: NumPy's meaning, see runtime.items.views), with
               its memory layout where it is not C order (`m.T`, `x[::2]`: NumPy's
               reshape of it is a copy where a C-ordered array's is a view)
    ValueKey   a Python scalar, string, bytes or None: the value itself, and its type
    ObjectKey  any other object: by hash and `==`, or by identity

so a new shape, dtype or Python value traces again, and an equal one reuses the trace.

Lifetimes: an ObjectKey holds an argument compared by identity (a function, a plain
instance) weakly, and the trace goes when the argument does; arguments with an `==` of
their own are held, as their equal values must find the trace again.

`takes_traced_type` says when a call may still use a trace made for other types (a Python
number for a float32[] array), `leaf_names` names a key's leaves by the parameters they
came from, for messages, and `retrace_message` names the arguments whose keys changed.
"""
import dataclasses
import inspect
import weakref

import jax
import numpy as np

from autograph.runtime.state.places import MISSING

STATE = '<state>'
"""The keyword under which the state a call reads rides with its arguments (see
autograph.function.state; no parameter can have this name)."""

CODE = '<code>'
"""The label in a key's state of the code that is not the code traced first (see
autograph.function.state's `code_key`): no place has it (labels are names), so no trace
installs it."""


@dataclasses.dataclass(frozen=True)
class ArrayKey:
    shape: tuple
    dtype: object
    weak_type: bool = False
    numpy: bool = False
    layout: object = None   # (see `array_layout`)

    def __str__(self):
        weak = ' (weakly typed)' if self.weak_type else ''
        numpy = ' (NumPy)' if self.numpy else ''
        if self.layout is not None:
            numpy = f' (NumPy, strides {self.layout} in items)'
        return f'{np.dtype(self.dtype).name}[{",".join(map(str, self.shape))}]{weak}{numpy}'


@dataclasses.dataclass(frozen=True)
class ValueKey:
    """A Python value: equal values of one type share a key (`1`, `1.0` and `True` are
    equal in Python but not the same argument: `flag is True`, `range(n)` tell them
    apart)."""
    value: object
    kind: type = None

    def __post_init__(self):
        object.__setattr__(self, 'kind', type(self.value))

    def __str__(self):
        return f'{self.value!r} (Python {type(self.value).__name__})'


class ObjectKey:
    """Any other object: equal objects (same type, hash and ==) share a key.

    An object compared by identity (its class defines no `__eq__`: functions, modules,
    plain instances) is held weakly, when it can be: a cache key must not keep it alive.
    Once it is gone, the key equals no other, and its trace is dropped (see
    `Function._concrete_function`)."""

    def __init__(self, obj):
        self._type_name = type(obj).__name__
        try:
            self._hash = hash(obj)
        except TypeError:
            self._hash = id(obj)
        self._obj, self.ref = obj, None
        if type(obj).__eq__ is object.__eq__:
            try:
                self._obj, self.ref = None, weakref.ref(obj)
            except TypeError:   # not weakly referenceable: held
                pass

    @property
    def obj(self):
        """The object (None once a weakly held object is gone)."""
        return self._obj if self.ref is None else self.ref()

    def __eq__(self, other):
        if not isinstance(other, ObjectKey):
            return False
        mine, theirs = self.obj, other.obj
        return mine is not None and theirs is not None and _same_object(mine, theirs)

    def __hash__(self):
        return self._hash

    def __str__(self):
        return f'{self._type_name} object'


def _same_object(a, b):
    if a is b:
        return True
    try:
        return type(a) is type(b) and hash(a) == hash(b) and bool(a == b)
    except TypeError:
        return False


_PYTHON_VALUES = (bool, int, float, complex, str, bytes, type(None))


def leaf_key(leaf):
    if isinstance(leaf, jax.ShapeDtypeStruct):
        return ArrayKey(tuple(leaf.shape), np.dtype(leaf.dtype), getattr(leaf, 'weak_type', False))
    if isinstance(leaf, jax.Array):   # (its aval, when it has one: jax.typeof is slower)
        aval = getattr(leaf, 'aval', None) or jax.typeof(leaf)
        return ArrayKey(leaf.shape, leaf.dtype, aval.weak_type)
    if isinstance(leaf, np.ndarray):
        return ArrayKey(leaf.shape, leaf.dtype, numpy=True, layout=array_layout(leaf))
    if isinstance(leaf, np.generic):
        return ArrayKey(leaf.shape, leaf.dtype)
    if isinstance(leaf, _PYTHON_VALUES):
        return ValueKey(leaf)
    return ObjectKey(leaf)


def call_key(args, kwargs):
    """The key of a call with these (bound) arguments, and the flattened arguments."""
    leaves, treedef = jax.tree_util.tree_flatten((args, kwargs))
    return (treedef, tuple(leaf_key(leaf) for leaf in leaves)), leaves


def array_layout(array):
    """The memory layout of NumPy array `array` where it is not C order (NumPy's flag):
    its strides in items (a tuple), or 'bytes' where they are no whole items; None for
    C order (the common case: one test)."""
    if array.flags.c_contiguous:
        return None
    size = array.itemsize
    if any(stride % size for stride in array.strides):
        return 'bytes'
    return tuple(stride // size for stride in array.strides)


NUMPY = 'numpy'
"""A NumPy array's place in a static part (see `static_part`): one in C order; one of
another layout has `(NUMPY, its layout)`."""


def static_part(key):
    """What a key holds besides its arrays' shapes and dtypes: (structure, the leaves'
    keys with None for each JAX array, NUMPY for each NumPy array in C order, (NUMPY,
    layout) for another). Keys with one static part share a jax.jit, which keys the
    arrays itself (see `Function._static_jit`)."""
    treedef, keys = key
    return treedef, tuple(_static(k) if isinstance(k, ArrayKey) else k for k in keys)


def _static(k):
    if not k.numpy:
        return None
    return NUMPY if k.layout is None else (NUMPY, k.layout)


def traced_layouts(key, leaves):
    """{id: (leaf, layout)} of the leaves (traced) of NumPy arrays not laid out in C
    order, by `key` (runtime.context's `layouts`)."""
    return {id(leaf): (leaf, k.layout) for k, leaf in zip(key[1], leaves)
            if getattr(k, 'layout', None) is not None}


def numpy_leaves(key, leaves, args, kwargs):
    """(the leaves (traced) of the NumPy arrays of a call, by `key`; {id: leaf} of those
    given as arguments, not as the call's state: runtime.context's `arguments`)."""
    numpy = [leaf for k, leaf in zip(key[1], leaves) if getattr(k, 'numpy', False)]
    given = {id(leaf) for leaf in jax.tree_util.tree_leaves(
        (args, {k: v for k, v in kwargs.items() if k != STATE}))}
    return numpy, {id(leaf): leaf for leaf in numpy if id(leaf) in given}


def full_key(static, arrays):
    """(key, leaves) of a call with static part `static` and these arrays (or tracers)."""
    treedef, keys = static
    arrays = iter(arrays)
    leaves, full = [], []
    for k in keys:
        if k is None or k is NUMPY or type(k) is tuple:
            leaf = next(arrays)
            array_key = leaf_key(leaf)
            full.append(array_key if k is None else dataclasses.replace(
                array_key, numpy=True, layout=None if k is NUMPY else k[1]))
        else:
            leaf = k.value if isinstance(k, ValueKey) else k.obj
            full.append(k)
        leaves.append(leaf)
    return (treedef, tuple(full)), leaves


def takes_traced_type(traced, given):
    """Whether the argument keyed `given` may stand for an array traced as `traced`: a
    Python number, or a weakly typed array of the same shape, that JAX's promotion
    with the traced dtype leaves at the traced dtype."""
    if isinstance(given, ArrayKey) and given.weak_type and given.shape == traced.shape:
        number = _PYTHON_NUMBER_OF_KIND.get(np.dtype(given.dtype).kind)
    elif isinstance(given, ValueKey) and type(given.value) in (bool, int, float) \
            and traced.shape == ():
        number = given.value
    else:
        return False
    return number is not None and jax.numpy.result_type(traced.dtype, number) == traced.dtype


_PYTHON_NUMBER_OF_KIND = {'b': False, 'i': 0, 'f': 0.0, 'c': 0j}


# --- names, for messages ----------------------------------------------------------------

def parameter_names(fn):
    """`fn`'s parameter names ([] when it has no signature Python can read)."""
    try:
        return list(inspect.signature(fn).parameters)
    except (TypeError, ValueError):
        return []


def leaf_names(fn, treedef):
    """A name per leaf of a call key with structure `treedef`: the parameter it came from
    ('argument 2' past the named parameters)."""
    params = parameter_names(fn)
    args_counts, kwargs_counts = _arg_structure(treedef)
    names = []
    for i, leaf_count in enumerate(args_counts):
        label = params[i] if i < len(params) else f'argument {i}'
        names += [label] * leaf_count
    for name, leaf_count in kwargs_counts:
        names += [name] * leaf_count if isinstance(leaf_count, int) else leaf_count
    return names


def _state_names(label, value):
    """A name per leaf of the state under `label`: the code's own labels (one leaf each)."""
    if label == CODE:
        return sorted(value)
    return [label] * jax.tree_util.tree_structure(value).num_leaves


def _arg_structure(treedef):
    args_def, kwargs_def = treedef.children()
    args_counts = [child.num_leaves for child in args_def.children()]
    kwargs = jax.tree_util.tree_unflatten(kwargs_def, [0] * kwargs_def.num_leaves)
    kwargs_counts = [(k, jax.tree_util.tree_structure(v).num_leaves) for k, v in kwargs.items()]
    for i, (k, v) in enumerate(kwargs_counts):
        if k == STATE:   # the state a call reads (see autograph.function.state), by place
            state = kwargs[k]
            kwargs_counts[i] = (k, [name for label in sorted(state)
                                    for name in _state_names(label, state[label])])
    return args_counts, kwargs_counts


# --- the retrace warning ----------------------------------------------------------------

RETRACE_WINDOW = 5
"""A Function traced again on each of its last RETRACE_WINDOW calls warns once."""


def retrace_message(function, previous, current):
    """The warning for a Function traced again on each of its last calls: what changed
    between the last two keys, by argument or by the state it reads (see
    autograph.function.state), with the fix for that kind of change."""
    fn = function.python_function
    changed = _changed_arguments(fn, previous, current)
    state = [what for what, is_state in changed if is_state]
    what = ', '.join(what for what, _ in changed) or 'its arguments'
    message = (f'{function.__qualname__} was traced again on each of its last '
               f'{RETRACE_WINDOW} calls, because {what} changed each time. ')
    if state:
        return message + (
            'The state a function reads besides its arguments (globals, closure '
            'variables, attributes, the functions they hold, and lists and dicts among '
            'them) is part of each '
            'call\'s key: each new Python value, shape, dtype or length traces and '
            'compiles it again. Keep values that change in arrays; a list the function '
            'only appends to (never reads) is a log, which is not part of the key.')
    return message + (
        'Each new Python value, shape or dtype traces and compiles the function again. '
        'Pass numbers that change as arrays (jnp.asarray(...)), or fix the argument '
        'shapes with input_signature=[jax.ShapeDtypeStruct(...)].')


def _changed_arguments(fn, previous, current):
    """[(what changed, whether it is state the function reads)] between two keys."""
    if previous is None:
        return [('the structure of the arguments', False)]
    if previous[0] == current[0]:
        names = leaf_names(fn, current[0])
        state = _state_leaves(current[0])
        return [(f"'{names[i]}' ({a} -> {b})", i in state)
                for i, (a, b) in enumerate(zip(previous[1], current[1]))
                if a != b and i < len(names)]
    (args0, kwargs0), (args1, kwargs1) = (
        jax.tree_util.tree_unflatten(key[0], key[1]) for key in (previous, current))
    params = parameter_names(fn)
    changed = []
    if len(args0) != len(args1):
        changed.append((f'the number of arguments ({len(args0)} -> {len(args1)})', False))
    for i, (a, b) in enumerate(zip(args0, args1)):
        label = params[i] if i < len(params) else f'argument {i}'
        changed += _tree_change(label, a, b, False)
    for name in sorted(set(kwargs0) | set(kwargs1), key=str):
        if name == STATE:
            state0, state1 = kwargs0.get(STATE, {}), kwargs1.get(STATE, {})
            for label in sorted(set(state0) | set(state1)):
                if label == CODE:   # (a label it lacks holds the code traced first)
                    code0, code1 = state0.get(CODE, {}), state1.get(CODE, {})
                    changed += [(f"'{code}' ({_code(code0, code)} -> {_code(code1, code)})",
                                 True) for code in sorted(set(code0) | set(code1))]
                    continue
                changed += _tree_change(label, state0.get(label, _NONE),
                                        state1.get(label, _NONE), True)
        else:
            changed += _tree_change(name, kwargs0.get(name, _NONE), kwargs1.get(name, _NONE),
                                    False)
    return changed or [('the structure of the arguments', False)]


_NONE = object()   # (a keyword or a place the other key lacks)


def _code(code, label):
    """The key of the code under `label` in words (see `CODE`)."""
    if label not in code:
        return 'the code traced first'
    return 'no code' if code[label].obj is MISSING else str(code[label])


def _state_leaves(treedef):
    """The positions of the leaves of a key with structure `treedef` that are state."""
    _, kwargs = jax.tree_util.tree_unflatten(treedef, range(treedef.num_leaves))
    return set(jax.tree_util.tree_leaves(kwargs.get(STATE, {})))


def _tree_change(label, a, b, is_state):
    if a is _NONE or b is _NONE:
        what = 'none' if a is _NONE else _described(a)
        return [(f"'{label}' ({what} -> {'none' if b is _NONE else _described(b)})",
                 is_state)]
    if jax.tree_util.tree_structure(a) != jax.tree_util.tree_structure(b):
        return [(f"'{label}' ({_described(a)} -> {_described(b)})", is_state)]
    return [(f"'{label}' ({x} -> {y})", is_state) for x, y in
            zip(jax.tree_util.tree_leaves(a), jax.tree_util.tree_leaves(b)) if x != y]


def _described(tree):
    """A key's part, in words: its container and size, or its leaf's key."""
    kind = type(tree)
    if kind in (list, tuple):
        return f'a {kind.__name__} of {len(tree)} item{"s" if len(tree) != 1 else ""}'
    if kind is dict:
        return f'a dict with keys {sorted(map(str, tree))}'
    if jax.tree_util.treedef_is_leaf(jax.tree_util.tree_structure(tree)):
        return str(tree)
    return f'a {kind.__name__}'
