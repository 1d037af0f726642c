"""Which parameters a function writes items of, so that its callers see the change.

    def swap(a, i, j):
        a[i], a[j] = a[j], a[i]        # writes items of `a`: written_parameters -> ('a',)

    def sort(a):
        swap(a, 0, 1)                  # passes `a` where swap writes: ('a',) too

NumPy writes `a[i] = v` into the caller's array; a JAX array is rebound instead (`a =
a.at[i].set(v)`), so the converted function reports the final value of such a parameter
and its caller rebinds the variable it passed (see passes.written_arguments). A parameter
that the function rebinds as a whole (`a = a.copy()`) is not the caller's array
afterwards: only its writes before count (analysis.entry_values).

`of_tree(function, resolve)` reads a FunctionDef (calls resolved by `resolve(name)`, a
function object or None); `of_function(fn)` reads a live function's source, cached per
code object. A function that (indirectly) calls itself counts the writes found so far.
"""
import ast
import inspect
import threading
import weakref

from autograph.analysis.entry_values import entry_values
from autograph.analysis.walk import CHILDREN, SCOPES, children

_cache = weakref.WeakKeyDictionary()   # code object -> tuple of names
_active = threading.local()


def parameters(function):
    args = function.args
    return [a.arg for a in args.posonlyargs + args.args]


def own_nodes(function):
    """The nodes of `function`'s body, not those of functions (or classes) in it, nor the
    contexts and operators (see analysis.walk)."""
    stack = [node for node in function.body if node.__class__ not in _SCOPE_TYPES]
    table = CHILDREN
    while stack:
        node = stack.pop()
        yield node
        stack += [c for c in table[node.__class__](node) if c.__class__ not in _SCOPE_TYPES]



def _base(node):
    while isinstance(node, ast.Subscript):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def argument_base(node):
    """The variable an argument expression passes (or a view of): `a`, `a[lo:hi]`."""
    return node.id if isinstance(node, ast.Name) else (
        _base(node) if isinstance(node, ast.Subscript) else None)


def split_call(call, ag=None):
    """(callee, arguments) of a call: `f(a, b)`, or `ag.call(f, a, b)` once converted."""
    func = call.func
    if (ag is not None and isinstance(func, ast.Attribute) and func.attr == 'call'
            and isinstance(func.value, ast.Name) and func.value.id == ag and call.args):
        return call.args[0], call.args[1:]
    return func, call.args


def of_tree(function, resolve, ag=None):
    """The parameters of the FunctionDef `function` whose items it (or a function it
    calls, found by `resolve(name)`) writes, in parameter order. `ag`: the runtime's
    name, when calls are already `ag.call(f, ...)`.

    Writing a view writes its base (`first = a[:mid]; first[0] = 1` writes `a`), and so
    does an augmented assignment of a parameter (`force += r * s`: NumPy's in-place
    update; the caller keeps its value when it is not an array, see
    runtime.python.calls.call_writing). `a = ag.write_view(a, ...)` (passes.views) is a
    write of `a`, not a rebinding. A write counts where the parameter may still hold the
    caller's object (not after `a = a.copy()`, see analysis.entry_values)."""
    return entry_of_tree(function, resolve, ag).written


def entry_of_tree(function, resolve, ag=None):
    """analysis.entry_values of `function`'s parameters (calls resolved as in
    `of_tree`)."""
    views, by_item = {}, set()   # (`c = a` is followed where `c` or `a` is written
    for node in own_nodes(function):   # by item or passed on, as passes.views does)
        kind = node.__class__
        if kind is ast.Assign or kind is ast.For:
            pair = _view_binding(node, ag)
            if pair is not None:
                views[node] = pair
        elif kind is ast.Subscript and node.ctx.__class__ is ast.Store:
            by_item.add(_base(node))
        elif kind is ast.Call:
            by_item.update(a.id for a in node.args if isinstance(a, ast.Name))
    views = {node: (view, base) for node, (view, base) in views.items()
             if not isinstance(getattr(node, 'value', None), ast.Name)
             or {view, base} & by_item}
    return entry_values(function, parameters(function),
                        lambda node: _effects(node, resolve, ag), views)


def _view_binding(node, ag):
    """(view, base) for `v = b[...]`, `v = b`, `v, v_key = ag.view(b, ...)` or
    `ag.alias(b)` (passes.views) and
    `for v in b:` (each item of an array is a view of it), else None."""
    if isinstance(node, ast.Assign) and len(node.targets) == 1:
        target, value = node.targets[0], node.value
        if (isinstance(target, ast.Name) and isinstance(value, ast.Subscript)
                and _base(value) not in (None, target.id)):
            return target.id, _base(value)
        if (isinstance(target, ast.Name) and isinstance(value, ast.Name)
                and value.id != target.id):   # (`c = a`: for an array, all of it)
            return target.id, value.id
        if (isinstance(target, ast.Tuple) and len(target.elts) == 2
                and isinstance(target.elts[0], ast.Name)
                and (_is_runtime(value, ag, 'view') or _is_runtime(value, ag, 'alias'))
                and value.args and isinstance(value.args[0], ast.Name)):
            return target.elts[0].id, value.args[0].id
    elif (isinstance(node, ast.For) and isinstance(node.target, ast.Name)
          and isinstance(node.iter, ast.Name) and node.iter.id != node.target.id):
        return node.target.id, node.iter.id
    return None


def _effects(node, resolve, ag):
    """(names written, names rebound) by the simple statement or expression `node` (a
    written view writes its base: analysis.entry_values follows the views)."""
    written, rebound, updated = [], [], set()
    stack = [node]
    table, scopes = CHILDREN, _SCOPE_TYPES
    while stack:
        node = stack.pop()
        kind = node.__class__
        if kind is ast.Name:
            if node.ctx.__class__ is not ast.Load and id(node) not in updated:
                rebound.append(node.id)
            continue   # (no children but its context)
        if kind is ast.Subscript and node.ctx.__class__ is ast.Store:
            written.append(_base(node))
        elif kind is ast.AugAssign and node.target.__class__ is ast.Name:
            written.append(node.target.id)
            updated.add(id(node.target))
        elif kind is ast.Assign and is_write_view(node, ag):
            written.append(node.targets[0].id)
            updated.add(id(node.targets[0]))
        elif kind in _DEFINITIONS:
            rebound.append(node.name)
            continue
        elif kind is ast.Call:
            func, args = split_call(node, ag)
            written += [argument_base(args[p]) for p in positions_written(func, args, resolve)]
            names = parameters_written(func, resolve)[0] if node.keywords else ()
            written += [argument_base(k.value) for k in node.keywords if k.arg in names]
        stack += [c for c in table[kind](node) if c.__class__ not in scopes]
    return [w for w in written if w is not None], rebound


_DEFINITIONS = frozenset({ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef})


def _is_runtime(value, ag, attr):
    """Whether `value` is a call `ag.attr(...)`."""
    return (ag is not None and isinstance(value, ast.Call)
            and isinstance(value.func, ast.Attribute) and value.func.attr == attr
            and isinstance(value.func.value, ast.Name) and value.func.value.id == ag)


def is_write_view(node, ag):
    """`b = ag.write_view(b, ...)` (passes.views), `b = ag.in_place(b, 'sort', ...)`
    and `b = ag.with_out(b, np.exp, ...)` (passes.calls), `b = ag.held_update(b, '+=',
    e)` (passes.item_assignments): a write of `b`, not a rebinding."""
    return (len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
            and any(_is_runtime(node.value, ag, writer) for writer in _WRITERS)
            and node.value.args and isinstance(node.value.args[0], ast.Name)
            and node.value.args[0].id == node.targets[0].id)


_WRITERS = ('write_view', 'in_place', 'with_out', 'held_update')


class LocalFunction:
    """A function defined by a `def` in the function being converted (no live function
    yet): its parameters and those it writes items of (`of_tree`)."""

    def __init__(self, params, written):
        self.params, self.written = params, written


def positions_written(func, args, resolve):
    """The positions of the arguments `args` whose items the function called (`func`,
    an expression) writes. `resolve(name)` gives a live function or a LocalFunction."""
    names, params = parameters_written(func, resolve)
    if not names:
        return ()
    return tuple(i for i, arg in enumerate(args)
                 if not isinstance(arg, ast.Starred) and i < len(params)
                 and params[i] in names and argument_base(arg) is not None)


def parameters_written(func, resolve):
    """(the names of the parameters whose items the function called, `func`, writes, the
    names of all its parameters in order); ((), ()) where it writes none or is unknown."""
    callee = resolve(func.id) if isinstance(func, ast.Name) else None
    if callee is None:
        return (), ()
    if isinstance(callee, LocalFunction):
        return callee.written, callee.params
    names = of_function(callee)
    try:
        return (names, list(inspect.signature(callee).parameters)) if names else ((), ())
    except (TypeError, ValueError):
        return (), ()


def of_function(fn):
    """`of_tree` for a live Python function (its source read once per code object)."""
    code = getattr(fn, '__code__', None)
    if code is None or not inspect.isfunction(fn):
        return ()
    if code in _cache:
        return _cache[code]
    active = getattr(_active, 'codes', None)
    if active is None:
        active = _active.codes = set()
    if code in active:
        return ()   # a recursive call: the writes of its own body count
    from autograph import parsing
    from autograph.library import is_library
    if is_library(fn):
        return ()
    active.add(code)
    try:
        node = parsing.parse_function(fn).node
        if not isinstance(node, ast.FunctionDef):
            return ()
        names = of_tree(node, resolver_of(fn))
    except Exception:   # no source: nothing known
        names = ()
    finally:
        active.discard(code)
    _cache[code] = names
    return names


_updated = weakref.WeakKeyDictionary()   # code object -> tuple of names


def updated_only(fn):
    """The parameters live function `fn` changes in place only by `p += e` (no item
    written, no view of it taken, not passed where a call writes it): NumPy's in-place
    update, which its caller sees; on a JAX array (or a number) a rebinding of `fn`'s
    own variable, which its caller does not see (runtime.python.calls.call_writing)."""
    code = getattr(fn, '__code__', None)
    written = of_function(fn)
    if not written:
        return ()
    if code not in _updated:
        from autograph import parsing
        try:
            _updated[code] = _updated_only(parsing.parse_function(fn).node,
                                           resolver_of(fn), written)
        except Exception:   # no source: nothing known (each write counts as an item's)
            _updated[code] = ()
    return _updated[code]


def _updated_only(function, resolve, written):
    augmented, other = set(), set()
    for node in own_nodes(function):
        if isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
            augmented.add(node.target.id)
        elif isinstance(node, ast.Subscript) and not isinstance(node.ctx, ast.Load):
            other.add(_base(node))
        elif isinstance(node, ast.Call):
            func, args = split_call(node)
            other.update(argument_base(args[p]) for p in positions_written(func, args, resolve))
        pair = _view_binding(node, None)
        if pair is not None:
            other.add(pair[1])
    return tuple(p for p in written if p in augmented and p not in other)


def resolver_of(fn):
    """`resolve(name)`: the Python function a name in `fn` refers to, or None."""
    cells = dict(zip(fn.__code__.co_freevars, fn.__closure__ or ()))

    def resolve(name):
        if name in cells:
            try:
                value = cells[name].cell_contents
            except ValueError:
                return None
        else:
            value = fn.__globals__.get(name)
        return value if inspect.isfunction(value) else None
    return resolve


def may_write_parameters(function, ag):
    """Whether `function`'s own code may write a parameter (analysis.written_parameters:
    an item assigned, an update in place, a view of it written) or defines a function
    (whose calls may write): a superset of what `entry_of_tree` finds written, where
    no name refers to a function that writes its parameters."""
    written, views = set(), {}
    stack = list(function.body)
    while stack:
        node = stack.pop()
        cls = node.__class__
        if cls in _SCOPE_TYPES:
            if cls is ast.FunctionDef:
                return True
            continue
        stack += children(node)
        if cls is ast.Subscript and node.ctx.__class__ is not ast.Load:
            written.add(argument_base(node))
        elif cls is ast.AugAssign and node.target.__class__ is ast.Name:
            written.add(node.target.id)
        elif cls is ast.Assign and len(node.targets) == 1 and \
                node.targets[0].__class__ is ast.Name:
            target = node.targets[0].id
            if node.value.__class__ is ast.Subscript:   # (a view: `v = a[i]`)
                views.setdefault(target, set()).add(argument_base(node.value))
            elif is_write_view(node, ag):
                written.add(target)
        elif cls is ast.For and node.target.__class__ is ast.Name and \
                node.iter.__class__ is ast.Name:   # (`for row in a`: views of a)
            views.setdefault(node.target.id, set()).add(node.iter.id)
    pending = list(written)
    while pending:   # (a view's base, and the base of that, ...)
        for base in views.get(pending.pop(), ()):
            if base not in written:
                written.add(base)
                pending.append(base)
    return not written.isdisjoint(parameters(function))


_SCOPE_TYPES = frozenset(SCOPES)
