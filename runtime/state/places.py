"""State that outlives a call: the places (globals, cells, attributes, containers) that
code reads and writes besides its arguments, for a converted Function and for a staged
statement whose branches or body call functions that write them.

Python reference: two calls `f(x); f(y)` of a plain function share the world: the second
sees the globals, closure cells, attributes and lists that the first changed, and both
read them when they run. A compiled program sees only its inputs and returns only its
outputs, so the Function makes that state part of both, on every call:

    class Acc:
        def add(self, x):
            if x > 0:
                self.total = self.total + x
            return self.total

    add = autograph.convert(Acc().add)   # state: self.total
    add(2.0); add(3.0)                   # 2.0, then 5.0, as in Python

- **Where state lives** (`StateFinder.find`): the globals and closure cells that the
  function's code names, the attributes so named of the objects it reaches (`self`, an
  object argument, a global object or class, nested objects, the objects a list or tuple
  among them holds), and the lists and dicts among them. "Names" are the names the code
  uses (its `co_names`, nested code included), so reading `self.total` or `K` makes them
  state; the functions it calls from converted code add their own names and objects
  while it is traced (`runtime.context`'s `on_call`), for the calls after.
- **Inputs** (`Function._state_key`): the current values ride with the arguments, keyed
  as arguments are (`keys`): arrays are inputs of the compiled program, Python values and
  the structure of containers are part of the cache key (a new value retraces).
- **While tracing** (`Installed`): the traced values are installed in the real places,
  the converted function runs, the new values are read back, and every place gets its
  value from before the call again: no user object keeps a tracer.
- **Outputs**: the places the trace changed come out of the compiled program (arrays) or
  out of the trace (Python values, see `results`), and the Function writes the concrete
  values back after the call: attributes and globals are set, lists and dicts are filled
  in place (other references to them see the change).

The same places serve a staged `if`/`while`/`for` whose branch or body calls a function
that writes a global, an attribute of an object it was given, or a list it was given
(`Watch`): the branch is traced once while the places its calls reach are watched; what
they changed is put back and becomes state of the statement (runtime.state.mutation).
"""
import builtins
import functools
import types
import weakref

import jax

from .. import context
from .kinds import (ARRAYS, CODE, LISTS_AND_DICTS as _LISTS_AND_DICTS, SCALARS,
                    code_contents, is_data, is_pytree_leaf)


_CODE_TYPES = (types.ModuleType, types.FunctionType, types.BuiltinFunctionType)
_DEPTH = 3                    # how deep attributes of objects are followed
MISSING = object()           # a place with no value before the call (a new attribute)
_BUILTIN_NAMES = frozenset(dir(builtins))


def code_names(code):
    """The names `code` and the code nested in it use: globals, attributes, free vars."""
    names = set(code.co_names) | set(code.co_freevars)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= code_names(const)
    return names


class Place:
    """One place state lives: an attribute, a global, a closure cell, a container.
    `log`: a list the code only appends to (see `StateFinder.find`)."""
    __slots__ = ('label', 'get', 'set', 'delete', 'key', 'log', 'argument', 'owner')

    def __init__(self, label, get, set, delete, key, argument=False):
        """`key` tells places apart (two labels may name one place). `argument`: a
        container or NumPy array the caller gave (what the call does to it is always the
        caller's to see, never a trace-time side effect)."""
        self.label, self.get, self.set, self.delete = label, get, set, delete
        self.key = key
        self.log = False
        self.argument = argument
        self.owner = None   # an attribute's: (weak reference to its object, its name)


class PlaceField:
    """A stand-in object whose attribute `value` is a place's value, carried as a field
    of a statement (runtime.state.mutation) under the place's own `key` (a user object's
    attribute is carried under the object's identity, whatever attributes it has)."""
    key = None


def attribute(label, holder, name):
    """An attribute of `holder` as a place. It refers to `holder` weakly where it can (a
    Function keeps the places of its calls: they must not keep its arguments alive); once
    `holder` is gone the place has no value and writes to it go nowhere."""
    try:
        ref = weakref.ref(holder)
    except TypeError:
        ref = lambda: holder   # noqa: E731  (not weakly referenceable: held)

    def get():
        obj = ref()
        return MISSING if obj is None else own_attribute(obj, name)

    def set(value):
        obj = ref()
        if obj is not None:
            setattr(obj, name, value)

    def delete():
        obj = ref()
        if obj is not None and own_attribute(obj, name) is not MISSING:
            delattr(obj, name)
    place = Place(label, get, set, delete, ('attribute', id(holder), name))
    place.owner = (ref, name)
    return place


def own_attribute(obj, name):
    """The value `obj` itself holds under attribute `name` (in its `__dict__`, or in a
    slot of its class's `__slots__`), not its class's; MISSING where it holds none."""
    found = getattr(obj, '__dict__', {}).get(name, MISSING)
    slot = isinstance(getattr(type(obj), name, None), types.MemberDescriptorType)
    return getattr(obj, name, MISSING) if found is MISSING and slot else found


def _global(label, namespace, name):
    return Place(label, lambda: namespace.get(name, MISSING),
                 lambda value: namespace.__setitem__(name, value),
                 lambda: namespace.pop(name, None), ('global', id(namespace), name))


def _cell(label, cell):
    def get():
        try:
            return cell.cell_contents
        except ValueError:
            return MISSING

    def delete():
        try:
            del cell.cell_contents
        except ValueError:
            pass
    return Place(label, get, lambda value: setattr(cell, 'cell_contents', value), delete,
                 ('cell', id(cell)))


def container(label, value, argument=False):
    """A list or dict as a place: its contents (filled in place)."""
    return Place(label, lambda: value, None, None, ('container', id(value)), argument)


def is_code(value):
    """Whether a trace that found `value` under a name depends on that very object: a
    function, method, partial, module or class, and any other value that is neither
    state (`is_data`), nor a list, tuple or dict (see `Installed.changed`), nor an object
    whose attributes are state (`is_holder`: its class is its code), nor a pytree node
    (its leaves would be keyed, not itself). Never state, but part of a call's key by
    identity (see autograph.function.state's `code_key`)."""
    if isinstance(value, CODE):
        return True
    return not (is_data(value) or type(value) in _LISTS_AND_DICTS + (tuple,)
                or value is MISSING or is_holder(value)) and is_pytree_leaf(value)



def is_holder(value):
    """Objects whose attributes are state: user objects that are not pytrees (and not
    library objects, which the active embedding may decide: asked on each call), and
    namespaces (`types.SimpleNamespace`: a library type holding the user's values)."""
    return is_holder_type(value) and (
        isinstance(value, types.SimpleNamespace) or not context.converter.is_library(value))


def is_holder_type(value):
    """Whether `value` is an object that is not a pytree, by its type (library code or
    not, see `is_holder`)."""
    kind = type(value)
    try:
        holder_type = _HOLDER_TYPES[kind]
    except (KeyError, TypeError):
        holder_type = _holder_type(value)
        try:
            _HOLDER_TYPES[kind] = holder_type
        except TypeError:
            pass
    return holder_type and hasattr(value, '__dict__')


_HOLDER_TYPES = weakref.WeakKeyDictionary()
"""type -> whether its objects can hold state by their type (what `_holder_type` says
depends on the type alone: asked once per type)."""


def _holder_type(value):
    if (isinstance(value, (types.ModuleType, types.FunctionType, types.MethodType,
                           types.BuiltinFunctionType, functools.partial))
            or isinstance(value, jax.Array)
            or hasattr(type(value), '__ag_python_function__')):
        return False
    try:
        return jax.tree_util.treedef_is_leaf(jax.tree_util.tree_structure(value))
    except Exception:
        return False


def _through_method(label, value, make):
    """(value, make) of a place found under `label`: for a method bound to a list or dict
    (`store = xs.append`: what it changes is `xs`), that container; else as given."""
    owner = getattr(value, '__self__', None)
    if isinstance(value, types.BuiltinMethodType) and type(owner) in _LISTS_AND_DICTS:
        return owner, lambda: container(label, owner)
    return value, make


_DYNAMIC_ACCESS = frozenset({'getattr', 'setattr', 'delattr', 'hasattr', 'vars', '__dict__'})


class StateFinder:
    """The places a Function's state lives in (see the module docstring). The names and
    global namespaces grow as tracing finds the functions it calls; they are kept for
    the Function's later calls."""

    def __init__(self, fn=None):
        fn = getattr(fn, '__func__', fn)
        code = getattr(fn, '__code__', None)
        self.names = code_names(code) if code is not None else set()
        self.namespaces = []    # (label prefix, globals dict) of the functions it runs
        self.cells = {}         # label -> cell (its name, qualified for a callee's)
        self.seen_codes = set()
        self._properties_seen = weakref.WeakKeyDictionary()   # class -> names seen for it
        self._names_sorted = None
        if code is not None:
            self.seen_codes.add(code)
            self.namespaces.append(('', fn.__globals__))
            self.cells.update(zip(code.co_freevars, fn.__closure__ or ()))

    def add_function(self, fn, cells=False):
        """Add a function converted code calls (while tracing): its names and globals,
        and with `cells` its closure cells (a staged statement's callees: a closure made
        in this very trace, like a counter a helper keeps, is no state of the Function's
        later calls). True when that is new."""
        fn = getattr(fn, '__func__', fn)
        code = getattr(fn, '__code__', None)
        if code is None or code in self.seen_codes:
            return False
        self.seen_codes.add(code)
        self.names |= code_names(code)
        known = {id(cell) for cell in self.cells.values()}
        for name, cell in zip(code.co_freevars, (fn.__closure__ or ()) if cells else ()):
            if id(cell) not in known:
                self.cells[f'{fn.__qualname__}.{name}'] = cell
        namespace = fn.__globals__
        if all(ns is not namespace for _, ns in self.namespaces):
            self.namespaces.append((namespace.get('__name__', '?') + '.', namespace))
        return True

    def find(self, roots=(), potential=False, logs=None, visited=None, code=None):
        """[Place] with the state reachable now: the globals and cells named, and the
        attributes named of `roots` ((label, object)) and of the objects found. With
        `potential`, also the named globals and attributes that have no value yet (that
        the call may create), and the lists and dicts that hold no array yet (the call may
        fill them with arrays: see `Installed.changed`).

        `logs()`: the names the code only appends to (asked when a list is first met): a
        list under such a name is a place marked `log`, whatever it holds (its items are
        not looked at: a log's length does not cost a call anything).

        `visited`: a list that gets the objects whose attributes were looked at, as
        (label, object, depth) (what a `Survey` of this search re-reads). `code`: a dict
        that gets {label: value} of the code read under those names (see `is_code`)."""
        found = _Found(potential, functools.cache(logs or frozenset), code)
        names = self.sorted_names()
        for prefix, namespace in self.namespaces:
            for name in names:
                if name in namespace:
                    plain = namespace[name]
                    value, make = _through_method(
                        prefix + name, plain,
                        lambda p=prefix + name, ns=namespace, n=name: _global(p, ns, n))
                    found.add(prefix + name, value, make, name if value is plain else None)
                elif name in _BUILTIN_NAMES:   # (the builtin, while no global hides it:
                    if code is not None:         # a global of that name is other code)
                        code[prefix + name] = getattr(builtins, name)
                elif potential:
                    found.places.append(_global(prefix + name, namespace, name))
        for name in sorted(self.cells):
            cell = self.cells[name]
            try:
                value = cell.cell_contents
            except ValueError:
                continue
            plain = value
            value, make = _through_method(name, value, lambda n=name, c=cell: _cell(n, c))
            found.add(name, value, make, name.rpartition('.')[2] if value is plain else None)
        for label, obj in roots:
            if not isinstance(obj, ARRAYS + SCALARS) and is_holder(obj) \
                    and id(obj) not in found.seen:
                found.seen.add(id(obj))
                found.holders.append((label, obj, 0))
            found.hold_items(label, obj, 0)
        for label, holder, depth in found.holders:   # (grows as objects are found)
            attributes = vars(holder)
            if self._add_properties(holder, names):
                names = self.sorted_names()
            for name in (sorted(set(names) | set(attributes)) if self.dynamic else names):
                if name in attributes:
                    found.add(f'{label}.{name}', attributes[name],
                              lambda lb=f'{label}.{name}', h=holder, n=name:
                              attribute(lb, h, n), name, depth + 1)
                elif potential:   # an attribute the call may create
                    found.places.append(attribute(f'{label}.{name}', holder, name))
        if visited is not None:
            visited += found.holders
        return found.places

    def _add_properties(self, holder, names):
        """Add the getters of the properties named of `holder`'s class, and the methods
        they call (Python runs them as they are: a value a getter caches, `self._g =
        ...`, is state too). True when that adds names."""
        kind, added = type(holder), False
        if self._properties_seen.get(kind) == len(names):
            return False   # (asked on every call: once per class and set of names)
        self._properties_seen[kind] = len(names)
        pending = [getattr(kind, name).fget for name in names
                   if isinstance(getattr(kind, name, None), property)]
        while pending:
            getter = pending.pop()
            if getter is not None and self.add_function(getter):
                added = True
                pending += [vars(kind)[name] for name in code_names(getter.__code__)
                            if isinstance(vars(kind).get(name), types.FunctionType)]
        return added

    @property
    def dynamic(self):
        """Whether the code reaches attributes by names it computes (`getattr(p, k)`,
        `setattr`, `vars(p)`, `p.__dict__`): then every attribute of the objects found is
        a place, not only those the code names."""
        return not _DYNAMIC_ACCESS.isdisjoint(self.names)

    @property
    def version(self):
        """Grows whenever the names, namespaces or cells do (a function added)."""
        return len(self.seen_codes)

    def sorted_names(self):
        if self._names_sorted is None or len(self._names_sorted) != len(self.names):
            self._names_sorted = sorted(self.names)
        return self._names_sorted


class _Found:
    """What one `StateFinder.find` has found so far: places, holders (label, object,
    depth) to look into, the ids of those, and the code read (into `code`, if any)."""
    __slots__ = ('places', 'holders', 'seen', 'potential', 'logs', 'code')

    def __init__(self, potential, logs, code):
        self.places, self.holders, self.seen = [], [], set()
        self.potential, self.logs, self.code = potential, logs, code

    def hold_items(self, label, value, depth):
        """The objects a list or tuple holds (`layers[0]`: `for l in layers: l.w = e`)."""
        for i, item in enumerate(value if type(value) in (list, tuple) and depth < _DEPTH
                                 else ()):
            if id(item) not in self.seen and is_holder(item):
                self.seen.add(id(item))
                self.holders.append((f'{label}[{i}]', item, depth))

    def add(self, label, value, make, name, depth=0):
        """Add the place `make()` of `value` (or `value` as a holder, or as code). `name`:
        the name the code reaches it by (None: through a bound method)."""
        if type(value) is list and name is not None and name in self.logs():
            place = make()
            place.log = True
            self.places.append(place)
            return
        self.hold_items(label, value, depth + 1)
        if isinstance(value, _CODE_TYPES):   # (modules, functions: never state)
            if self.code is not None:
                self.code[label] = value
            return
        if is_data(value) or (self.potential and type(value) in _LISTS_AND_DICTS):
            self.places.append(make())   # (a list that may get arrays: state if it does)
            return
        holder = is_holder(value)
        if holder and depth < _DEPTH and id(value) not in self.seen:
            self.seen.add(id(value))
            self.holders.append((label, value, depth))
        if self.code is not None:   # (as `is_code` says, with what is known here)
            if holder:   # (its methods: those of its class)
                self.code[label + '.__class__'] = type(value)
            plain = not holder and type(value) not in (list, tuple, dict)
            if isinstance(value, CODE) or (plain and is_pytree_leaf(value)):
                self.code[label] = value
            elif type(value) in (list, tuple, dict):
                contents = code_contents(value)   # (by value: see kinds.Contents)
                if contents is not None:
                    self.code[label] = contents
