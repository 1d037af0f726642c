"""Route calls so that user functions called from converted code are converted too.

    jnp.sum(x)            stays (library code, resolved while converting)
    math.exp(x)           -> ag.math.exp(x)   (Python's math, and a traced scalar's)
    statistics.mean(xs)   -> ag.statistics.mean(xs)   (the same for traced data; heapq too)
    print(x)              stays (a builtin with Python semantics)
    range(n)              -> ag.range(n)    (builtins that must see traced values)
    helper(x)             -> ag.call(helper, x)   (converted when called, if user code)
    self.layer(x)         -> ag.call(self.layer, x)
    x.reshape(-1)         stays where `x` surely is an array, list, dict, ... (a method
                          of theirs on a value analysis.receivers knows: `x = jnp.ones(3)`,
                          `out = []` in the function, a global list)
    draws.take(k)         -> ag.call(draws.take, k)   (a method of any other object, such
                                                       as a parameter: it may be a user
                                                       object's, named like an array's;
                                                       ag.call calls an array's as is)
    x.item()              -> ag.item(x)     (a traced array's element stays traced)
    x.is_integer()        -> ag.number_method(x, 'is_integer')()   (also `bit_length`)
    xs.sort(key=k)        -> ag.call(xs.sort, key=k)   (a list's items may have traced
                                                        keys: ordered as ag.sorted does)
    d.get(k, e)           -> ag.call(d.get, k, e)      (a traced key of a dict of Python
                                                        number keys: its item, or `e`)
    jax.grad(loss)        -> ag.call(jax.grad, loss)   (JAX transformations convert the
                                                         functions they are given)
    jnp.stack(out)        -> ag.call(jnp.stack, out)   (a list a staged loop collected
                                                         is already stacked)

What a name refers to is decided by a resolver: the function's live globals and closure
when converting a function object, the file's imports for `autograph-show`.
"""
import ast
import builtins
import inspect

import jax
import numpy as np

from autograph.analysis.activity import scope_of
from autograph.analysis.created_attributes import owner_class
from autograph.analysis.receivers import Receivers
from autograph.analysis.selections import may_hold_a_selection, sliced_names
from autograph.passes.base import walk_scope
from autograph.passes.in_place_calls import InPlaceCalls, may_change_in_place
from autograph.passes.method_routes import (draws_randomly, is_array_method_call, is_item_call,
                                            method_route)
from autograph.passes.object_updates import object_updates
from autograph.runtime.python.calls import (OVERRIDDEN_BUILTINS, REDUCTIONS, TRANSFORMS,
                                            TWINNED)
from autograph.runtime.values.stacked import STACKERS

_CONTAINER_METHODS = frozenset().union(
    *[{n for n in dir(t) if not n.startswith('_')}
      for t in (jax.Array, np.ndarray, list, dict, set, tuple, str)])


_ARRAY_COMPUTATIONS = frozenset({
    'all', 'any', 'argmax', 'argmin', 'argsort', 'astype', 'clip', 'conj', 'conjugate',
    'cumprod', 'cumsum', 'diagonal', 'dot', 'flatten', 'max', 'mean', 'min', 'nonzero',
    'prod', 'ptp', 'ravel', 'repeat', 'reshape', 'round', 'squeeze', 'std', 'sum',
    'swapaxes', 'trace', 'transpose', 'var', 'view', 'tolist', 'tobytes'})
"""Array methods that compute from the array: on any receiver but `self` they stay plain
calls (a user class whose method of such a name changes state is rare; generated code
keeps reading as array code). Other container methods on a receiver that is not surely
an array, list or dict (`draws.take(k)`, `agent.update(x)`, `memory.append(t)`) go
through `ag.call`, which calls an array's or a list's as is."""


def _at_index(receiver):
    """`x.at[i]`: JAX's indexed-update helper (its `.set`, `.add`, ... are JAX's)."""
    return (isinstance(receiver, ast.Subscript) and isinstance(receiver.value, ast.Attribute)
            and receiver.value.attr == 'at')


_MISSING = object()


class Resolution:
    LIBRARY = 'library'      # call as is
    BUILTIN = 'builtin'      # a builtin: overridden ones go to ag.<name>, others stay
    USER = 'user'            # route through ag.call


def transform(function, ctx):
    local_names = scope_of(function).locals
    nodes = walk_scope(function)
    found = [n for n in nodes if isinstance(n, ast.Call)]  # parents first
    appended = {n.func.value.id for n in found if isinstance(n.func, ast.Attribute)
                and n.func.attr == 'append' and isinstance(n.func.value, ast.Name)}
    calls = _Calls(ctx, local_names, _method_receiver(function), appended)
    if any(n.func.__class__ is ast.Attribute and n.func.attr in _CONTAINER_METHODS
           for n in found):   # (only those ask: see `_library_receiver`)
        calls.receivers = Receivers(function, nodes, ctx.resolver, local_names,
                                    _CONTAINER_METHODS)
    calls.user_objects = ctx.user_objects[function] = calls.user_objects_in(function, nodes)
    object_updates(function, nodes, ctx)   # (`a += e` of an instance of a user class)
    calls.nodes = nodes
    in_place = any(map(may_change_in_place, found))
    for node in found:
        calls.rewrite(node)
    if in_place:
        rewriter = InPlaceCalls(ctx, function, local_names)
        rewriter.block(function.body)
        rewriter.kinds.note()
    return function


def _method_receiver(function):
    """`self`/`cls` when the function looks like a method: calls on it are converted."""
    args = function.args.posonlyargs + function.args.args
    if args and args[0].arg in ('self', 'cls'):
        return args[0].arg
    return None


class _Calls:
    def __init__(self, ctx, local_names, receiver, appended):
        self.ctx = ctx
        self.local_names = local_names
        self.receiver = receiver
        self.appended = appended   # lists the function collects values in
        self.user_objects = set()  # local names bound only to objects made by user code
        self.receivers = None      # analysis.receivers, where a container method is called
        self.nodes = ()            # the nodes of the function's own scope
        self.sliced = None         # those of its names that may hold a selection
        self.user_results = None   # those assigned what a call of user code returns

    def user_objects_in(self, function, nodes):
        """Local names every binding of which is `name = f(...)` with `f` user code (a
        user class, mostly): objects whose methods are user code whatever their names.
        Parameters and names bound any other way (loop targets, unpacking) are unknown.
        (`nodes`: those of `function`'s own scope.)"""
        stores, made = {}, {}
        for node in nodes:
            if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
                stores[node.id] = stores.get(node.id, 0) + 1
            elif (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)
                  and self._classify(node.value.func)[0] == Resolution.USER):
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        made[target.id] = made.get(target.id, 0) + 1
        arguments = function.args
        parameters = {a.arg for a in arguments.posonlyargs + arguments.args
                      + arguments.kwonlyargs + [arguments.vararg, arguments.kwarg] if a}
        return {name for name, count in made.items()
                if stores.get(name) == count and name not in parameters}

    def _library_receiver(self, receiver):
        """Whether the methods of `receiver` (the `x` of `x.m(...)`) are surely library
        code: `x` an array, list, dict, ... (see analysis.receivers). The object a method
        is defined on (`self`) is the user's."""
        if isinstance(receiver, ast.Name) and receiver.id == self.receiver:
            return False
        return self.receivers.is_library(receiver)

    def rewrite(self, node):
        """Route the call `node` (in place): as is, to an `ag` builtin, or via ag.call."""
        kind, name = self._classify(node.func)
        if kind == Resolution.LIBRARY and (self._stacks_collected_list(node)
                                            or self._reduces_a_slice(node)
                                            or self._given_a_user_result(node)
                                            or is_array_method_call(node, self._module)
                                            or draws_randomly(node.func, self.ctx.resolver)):
            kind = Resolution.USER
        if is_item_call(node) and (kind == Resolution.LIBRARY or not (   # (`w.sum().item()`)
                isinstance(node.func.value, ast.Name) and node.func.value.id == self.receiver)):
            node.args = [node.func.value]   # (ag.item calls a user object's `item`)
            node.func = ast.copy_location(self.ctx.runtime('item'), node.func)
            return
        route = method_route(node, self.receiver)
        if route is not None:   # (`float(x).is_integer()`)
            node.func = ast.copy_location(ast.Call(
                func=self.ctx.runtime(route),
                args=[node.func.value, ast.Constant(node.func.attr)], keywords=[]), node.func)
            return
        if kind == Resolution.LIBRARY:
            name = self._known(node.func)
            if name in TWINNED:   # (`math.exp(x)` -> `ag.math.exp(x)`:
                module, _, attr = name.partition('.')  # of a traced x too)
                node.func = ast.copy_location(ast.Attribute(
                    value=self.ctx.runtime(module), attr=attr, ctx=ast.Load()), node.func)
            return
        if kind == Resolution.BUILTIN:
            if name in OVERRIDDEN_BUILTINS:
                node.func = ast.copy_location(self.ctx.runtime(name), node.func)
            return
        node.args = [node.func] + node.args
        node.func = ast.copy_location(self.ctx.runtime('call'), node.func)

    def _module(self, name):
        return self.ctx.resolver.module_name(name) is not None

    def _known(self, func):
        dotted = dotted_name(func)
        return self.ctx.resolver.known_name(dotted) if dotted else None

    def _stacks_collected_list(self, node):
        """`jnp.stack(out)` where the function appends to `out`: see runtime.values.stacked."""
        return (len(node.args) == 1 and not node.keywords
                and isinstance(node.args[0], ast.Name) and node.args[0].id in self.appended
                and self._known(node.func) in STACKERS)

    def _reduces_a_slice(self, node):
        """`jnp.mean(x[mask], axis=0)`, `jnp.any(x[i:j] > 0)`, `jnp.sum(window)` with
        `window` assigned such an expression: a slice of run-time length (and arithmetic
        of it) reduces itself (see runtime.python.calls.REDUCTIONS), which `ag.call` asks
        it to."""
        if not node.args or self._known(node.func) not in REDUCTIONS:
            return False
        if self.sliced is None:   # (asked only where such a call is made)
            self.sliced = sliced_names(self.nodes)
        return may_hold_a_selection(node.args[0], self.sliced)

    def _given_a_user_result(self, node):
        """`jnp.sum(h(x))`, or `r = h(x)` then `jnp.sum(r)` (a function of a library
        module or a global library function; not a method, `xs.append(r)`, which may
        take None): what user code returns may be None on some paths (an optional
        value), which `ag.call` checks before library code sees it."""
        base = node.func
        while base.__class__ is ast.Attribute:
            base = base.value
        if base.__class__ is not ast.Name or base.id in self.local_names or \
                self.ctx.resolver.classify(base.id) != Resolution.LIBRARY:
            return False
        for arg in node.args + [k.value for k in node.keywords]:
            if arg.__class__ is ast.Call and self._is_user_call(arg):
                return True
            if arg.__class__ is ast.Name:
                if self.user_results is None:   # (asked only where a name is given)
                    self.user_results = {
                        t.id for n in self.nodes if n.__class__ is ast.Assign
                        and n.value.__class__ is ast.Call and self._is_user_call(n.value)
                        for t in n.targets if t.__class__ is ast.Name}
                if arg.id in self.user_results:
                    return True
        return False

    def _is_user_call(self, call):
        func = call.func   # (`ag.call(h, ...)` where the call was routed already)
        if dotted_name(func) == f'{self.ctx.ag}.call' and call.args:
            func = call.args[0]
        return self._classify(func)[0] == Resolution.USER

    def _classify(self, func):
        kind, name = self._classify_callee(func)
        if kind == Resolution.LIBRARY and self._known(func) in TRANSFORMS:
            return Resolution.USER, None
        return kind, name

    def _classify_callee(self, func):
        if isinstance(func, ast.Call) and self._known(func.func) in TRANSFORMS:
            return Resolution.LIBRARY, None   # jax.grad(f)(x): what JAX made
        if isinstance(func, ast.Name):
            if func.id in self.local_names:
                return Resolution.USER, None
            return self.ctx.resolver.classify(func.id), func.id
        if isinstance(func, ast.Attribute):
            base = func
            while isinstance(base, ast.Attribute):
                base = base.value
            if isinstance(base, ast.Name) and base.id == self.ctx.ag:
                return Resolution.LIBRARY, None  # the runtime's own operators
            if func.attr in ('sort', 'get', 'index') and not (   # xs.sort(key=...): keys
                    isinstance(base, ast.Name) and self.ctx.resolver.module_name(base.id)):
                return Resolution.USER, None     # may be traced; d.get(k): so may `k`
            if isinstance(base, ast.Name) and base.id not in self.local_names:
                kind = self.ctx.resolver.classify(base.id)
                if kind == Resolution.LIBRARY:
                    return kind, None
            if func.attr in _CONTAINER_METHODS and self._library_receiver(func.value):
                return Resolution.LIBRARY, None  # e.g. out.append(v), jnp.zeros(3).sum()
            if (func.attr in _ARRAY_COMPUTATIONS and not self._user_object(func.value)) \
                    or _at_index(func.value):
                return Resolution.LIBRARY, None  # e.g. x.sum(), x.at[i].set(v)
        return Resolution.USER, None

    def _user_object(self, receiver):
        """Whether `receiver` surely holds an object of a user class: `self`, a local
        made only by calling a user class (`c = Clipper(3.0)`), a global instance."""
        if not isinstance(receiver, ast.Name):
            return False
        name = receiver.id
        if name == self.receiver:
            return True
        if name in self.local_names:
            return name in self.user_objects
        return self.ctx.resolver.is_user_object(name)


def dotted_name(func):
    """'jax.lax.scan' for the expression `jax.lax.scan`; None for other callees."""
    parts = []
    while isinstance(func, ast.Attribute):
        parts.append(func.attr)
        func = func.value
    if not isinstance(func, ast.Name):
        return None
    return '.'.join([func.id] + parts[::-1])


class LiveResolver:
    """Resolves names in a live function's globals, closure and builtins."""

    def __init__(self, fn):
        self.globals = getattr(fn, '__globals__', {})
        code = getattr(fn, '__code__', None)
        cells = getattr(fn, '__closure__', None) or ()
        self.free = set(code.co_freevars if code else ())
        self.closure = {}
        for name, cell in zip(code.co_freevars if code else (), cells):
            try:
                self.closure[name] = cell.cell_contents
            except ValueError:  # an empty cell: assigned later
                pass
        self._classified = {}   # name -> classify(name), for the one conversion
        self.code = code
        self.owner = owner_class(fn) if code is not None else None   # (for a method)

    def classify(self, name):
        """How a call of `name` is routed. A closure variable is always routed through
        `ag.call`, which decides when called: the generated code is shared by every
        closure of one `def`, and another closure may hold user code there."""
        found = self._classified.get(name)
        if found is None:
            found = self._classified[name] = self._classify(name)
        return found

    def _classify(self, name):
        from autograph.library import is_library
        from autograph.prebuilt import wraps_user_code
        if name in self.free:
            return Resolution.USER
        if name in self.globals:
            value = self.globals[name]
        elif hasattr(builtins, name):
            return Resolution.BUILTIN
        else:
            return Resolution.USER
        if value is getattr(builtins, name, None):
            return Resolution.BUILTIN
        if hasattr(type(value), '__ag_python_function__'):   # an autograph.Function
            return Resolution.USER
        if is_library(value) and not wraps_user_code(value):
            return Resolution.LIBRARY
        return Resolution.USER

    def is_library_name(self, name):
        """True when global `name` holds a module or an object of library code (an
        array, a list, ...): its methods are library code. Closure variables vary between
        the closures that share the generated code: unknown (False)."""
        return self.classify(name) == Resolution.LIBRARY

    def is_user_class(self, name):
        """True when global `name` holds a class of user code that does not make NumPy
        arrays (a closure variable varies between closures: unknown, False)."""
        from autograph.library import is_library
        value = self.globals.get(name, _MISSING) if name not in self.free else _MISSING
        return inspect.isclass(value) and not is_library(value) and \
            not issubclass(value, np.ndarray)

    def is_user_object(self, name):
        """True when global `name` holds an instance of a user class (closure variables
        vary between the closures that share the generated code: unknown)."""
        from autograph.library import is_library
        value = self.globals.get(name, _MISSING) if name not in self.free else _MISSING
        if value is _MISSING or inspect.ismodule(value) or inspect.isclass(value) \
                or inspect.isroutine(value):
            return False
        return not is_library(value)

    def holds_sequence(self, name):
        """True when global (or closure variable) `name` holds a list or tuple now (a
        hint: converted code compares it with `ag.eq`, which is `==` for anything else)."""
        value = self.closure.get(name, _MISSING) if name in self.free else \
            self.globals.get(name, _MISSING)
        return isinstance(value, (list, tuple))

    def module_name(self, name):
        """The dotted name of the module global `name` holds, or None (a closure
        variable varies between the closures that share the generated code: None)."""
        value = None if name in self.free else self.globals.get(name)
        return value.__name__ if inspect.ismodule(value) else None

    def is_builtin(self, name):
        return self.classify(name) == Resolution.BUILTIN

    def known_name(self, dotted):
        from autograph.runtime.python.calls import known_name
        base, *attrs = dotted.split('.')
        value = self.closure.get(base, self.globals.get(base))
        for attr in attrs:
            value = getattr(value, attr, None)
        return known_name(value)
