"""Which values surely are library objects (arrays, lists, dicts, ...), whose methods are
library code, as opposed to objects of any class, whose methods may be the user's.

    ys = jnp.zeros(3)         # `ys`: an array (a function of jax.numpy made it)
    out = []                  # `out`: a list
    total = ys.sum() + 1      # `total`: what an array's method and arithmetic make
    agent = make_agent()      # unknown: any object
    def f(draws): ...         # a parameter: unknown

passes.calls leaves a method of a library value as it is (`out.append(v)`); a method of
anything else (`draws.take(k)`, `agent.update(x)`) may be a user object's, named like a
list's or an array's, and goes through `ag.call`, which tells them apart when the program
runs (and converts the user's).

`Receivers(function, nodes, resolver, local_names)` finds the local variables every
binding of which is such a value (`x = x + 1` keeps `x` one when its other bindings are);
parameters, loop targets and names bound by unpacking are unknown. `resolver` (see
passes.calls) tells what a global name holds: `is_library_name(name)` (a module, or an
object of library code: a global array or list), `is_builtin(name)`, `module_name(name)`.
"""
import ast

from autograph.analysis import walk
from autograph.library import is_library_module

ARRAY_MODULES = ('jax.numpy', 'jax.random', 'jax.nn', 'jax.scipy', 'jax.lax', 'numpy',
                 'math', 'cmath')
"""Modules whose functions return arrays (or numbers): their results are library values."""

_NOT_ARRAYS = ('numpy.random', 'jax.lax.cond', 'jax.lax.switch', 'jax.lax.scan',
               'jax.lax.while_loop', 'jax.lax.fori_loop', 'jax.lax.map',
               'jax.lax.associative_scan', 'jax.lax.custom_root', 'jax.lax.custom_linear_solve')
"""Functions of those modules whose results may be anything (an item drawn from a list,
what a user function returns)."""

MAKING_BUILTINS = frozenset({
    'list', 'dict', 'set', 'tuple', 'frozenset', 'sorted', 'str', 'repr', 'bytes',
    'bytearray', 'int', 'float', 'bool', 'complex', 'len', 'range'})
"""Builtins that return a builtin container, string or number."""

_ITEM_METHODS = frozenset({'pop', 'popitem', 'get', 'setdefault'})
"""Container methods that return an item (any object), not a new container."""

_DISPLAYS = frozenset({ast.List, ast.Tuple, ast.Dict, ast.Set, ast.ListComp, ast.SetComp,
                       ast.DictComp, ast.GeneratorExp, ast.Constant, ast.JoinedStr})


class Receivers:
    def __init__(self, function, nodes, resolver, local_names, methods):
        """`nodes`: those of `function`'s own scope; `methods`: the names of the methods
        that arrays and builtin containers have (those return library values too, but
        for `_ITEM_METHODS`)."""
        self.resolver, self.local_names, self.methods = resolver, local_names, methods
        self.modules = {}       # local name -> the library module a local import binds
        bindings = _bindings(function, nodes, self.modules)
        self.known = set(bindings) | set(self.modules)
        readers = {}            # name -> the names bound to values that read it
        for name, values in bindings.items():
            for node in values:
                for read in walk.nodes(node):
                    if read.__class__ is ast.Name and read.id in bindings:
                        readers.setdefault(read.id, set()).add(name)
        pending = list(bindings)   # the largest set whose bindings all make library
        while pending:             # values: a name out puts those that read it back
            name = pending.pop()
            if name in self.known and not all(self.is_library(v) for v in bindings[name]):
                self.known.discard(name)
                pending += readers.get(name, ())

    def is_library(self, node):
        """True when expression `node` surely gives a library value (see the module
        docstring)."""
        cls = node.__class__
        if cls in _DISPLAYS:
            return True
        if cls is ast.Name:
            if node.id in self.local_names:
                return node.id in self.known
            return self.resolver.is_library_name(node.id) or self.resolver.is_builtin(node.id)
        if cls is ast.BinOp:
            return self.is_library(node.left) and self.is_library(node.right)
        if cls is ast.UnaryOp:
            return self.is_library(node.operand)
        if cls is ast.IfExp:
            return self.is_library(node.body) and self.is_library(node.orelse)
        if cls is ast.Subscript:   # `x.at[i]`: JAX's indexed-update helper
            return node.value.__class__ is ast.Attribute and node.value.attr == 'at'
        if cls is ast.Call:
            return self._library_call(node.func)
        return False

    def _library_call(self, func):
        if func.__class__ is ast.Name:
            return (func.id in MAKING_BUILTINS and func.id not in self.local_names
                    and self.resolver.is_builtin(func.id))
        if func.__class__ is not ast.Attribute:
            return False
        if func.attr in self.methods and func.attr not in _ITEM_METHODS \
                and self.is_library(func.value):
            return True
        dotted = self._dotted(func)
        return dotted is not None and dotted.startswith(
            tuple(m + '.' for m in ARRAY_MODULES)) and not dotted.startswith(_NOT_ARRAYS)

    def _dotted(self, func):
        """'jax.numpy.zeros' for `jnp.zeros` (`jnp` a module); None for other callees."""
        parts = []
        while func.__class__ is ast.Attribute:
            parts.append(func.attr)
            func = func.value
        if func.__class__ is not ast.Name:
            return None
        if func.id in self.local_names:
            module = self.modules.get(func.id) if func.id in self.known else None
        else:
            module = self.resolver.module_name(func.id)
        return '.'.join([module] + parts[::-1]) if module else None


def _bindings(function, nodes, modules):
    """{local name: the values bound to it} for the names bound only by `name = value`
    (`x += v` keeps what `x` is), not parameters; fills `modules` with the names bound
    only by a local import of a library module."""
    stores, values, imported = {}, {}, {}
    for node in nodes:
        cls = node.__class__
        if cls is ast.Name and node.ctx.__class__ is not ast.Load:
            stores[node.id] = stores.get(node.id, 0) + 1
        elif cls is ast.Assign or cls is ast.AnnAssign or cls is ast.NamedExpr:
            targets = node.targets if cls is ast.Assign else [node.target]
            for target in targets:
                if target.__class__ is ast.Name and node.value is not None:
                    values.setdefault(target.id, []).append(node.value)
        elif cls is ast.AugAssign and node.target.__class__ is ast.Name:
            stores[node.target.id] = stores.get(node.target.id, 0) - 1
        elif cls is ast.Import or cls is ast.ImportFrom:
            for alias in node.names:
                name = alias.asname or alias.name.split('.')[0]
                module = alias.name if alias.asname or cls is ast.ImportFrom else name
                if cls is ast.ImportFrom:
                    module = f'{node.module}.{alias.name}' if node.module else None
                imported[name] = module if module and is_library_module(module) else None
    arguments = function.args
    parameters = {a.arg for a in arguments.posonlyargs + arguments.args
                  + arguments.kwonlyargs + [arguments.vararg, arguments.kwarg] if a}
    modules.update((name, module) for name, module in imported.items()
                   if module and name not in stores and name not in parameters)
    return {name: found for name, found in values.items()
            if stores.get(name) == len(found) and name not in parameters
            and name not in imported}
