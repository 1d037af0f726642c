"""Masks and index arrays made from shapes alone: computed while tracing.

    masks = ~jnp.eye(n, dtype=bool)   -> masks = ag.static(lambda: ~jnp.eye(n, dtype=bool))
    rows, cols = jnp.where(masks)     -> rows, cols = ag.static(lambda: jnp.where(masks))
    x[masks]                             (stays: `masks` is a concrete mask now)
    x[~jnp.eye(n, dtype=bool)]        -> x[ag.static(lambda: ~jnp.eye(n, dtype=bool))]

Python (and NumPy) compute `~np.eye(n, dtype=bool)` before selecting with it. Under
`jax.jit` every array operation is traced, even one of constants, and a traced boolean
mask (or `jnp.where(mask)`, `jnp.nonzero(mask)`) selects a number of items known only
when the program runs, which a compiled program cannot hold. An expression that reads
no traced value -- constants, shapes (`x.shape`, `x.ndim`, `x.size`, `x.dtype`,
`len(x)`), variables assigned only such values, and library functions of them -- is
computed while tracing instead (`ag.static`, as a condition made of constants is: see
runtime.operators.conditionals), where its value decides a shape: as a subscript's
index, as the argument of a function whose result's shape depends on values, or as
the value of a variable used so. Everything else stays as written.
"""
import ast

from autograph.analysis import walk
from autograph.library import is_library_module
from autograph.passes.base import ScopeTransformer

SIZE_FROM_VALUES = frozenset({'where', 'nonzero', 'argwhere', 'flatnonzero', 'extract',
                              'compress', 'unique'})
"""Array functions whose result's shape depends on their operands' values (`where` with
one argument)."""

_SHAPE_ATTRIBUTES = frozenset({'shape', 'ndim', 'size', 'dtype'})
_STATIC_BUILTINS = frozenset({'len', 'int', 'float', 'bool', 'min', 'max', 'abs', 'range',
                              'tuple', 'list', 'round'})
_OPERATIONS = (ast.UnaryOp, ast.BinOp, ast.Compare, ast.BoolOp, ast.Tuple, ast.List,
               ast.Slice, ast.Subscript, ast.keyword)


class _Static(ScopeTransformer):
    def __init__(self, root, ctx):
        super().__init__(root, ctx)
        found = walk.nodes(root)
        self.bound = frozenset()   # (first every module counts: a superset of changes)
        self.static = self.needed = set()
        self.active = self._may_change(found, None)
        if self.active:
            bindings, other, self.bound = _bindings(root)
            self.active = self._may_change(found, bindings)
        if self.active:
            self.static = _static_names(bindings, other, self)
            # the static names used where a shape depends on their value
            self.needed = self._decisive_names(found) & self.static

    def _may_change(self, found, bindings):
        """Whether the pass may change something in the nodes `found`: a library call
        in an index, a size-from-values call, or a name used as an index that is
        assigned a library call's result (in `bindings`; None: any assignment)."""
        names = set()
        for node in found:
            if node.__class__ is not ast.Call and node.__class__ is not ast.Subscript:
                continue   # (neither decides a shape)
            if _sizes_from_values(node) and self._library_function(node.func):
                return True
            for operand in self._decisive(node):
                if operand.__class__ is ast.Name:
                    names.add(operand.id)
                elif self._computes(operand):
                    return True
        if bindings is None:
            bindings = {}
            for node in found:
                if node.__class__ is ast.Assign:
                    for target in walk.nodes(ast.Tuple(elts=node.targets)):
                        if target.__class__ is ast.Name and target.id in names:
                            bindings.setdefault(target.id, []).append(node.value)
        return any(self._computes(value) for name in names & bindings.keys()
                   for value in bindings[name])

    def _decisive_names(self, found):
        return {operand.id for node in found
                if node.__class__ is ast.Call or node.__class__ is ast.Subscript
                for operand in self._decisive(node) if operand.__class__ is ast.Name}

    def is_static(self, node, names=None):
        """Whether expression `node` reads no traced value (see the module docstring)."""
        names = self.static if names is None else names
        cls = node.__class__
        if cls is ast.Constant:
            return True
        if cls is ast.Name:   # (a builtin: `dtype=bool`)
            return node.id in names or (node.id not in self.bound
                                        and self.ctx.resolver.is_builtin(node.id))
        if cls is ast.Attribute:
            return node.attr in _SHAPE_ATTRIBUTES or self._library_function(node)
        if cls is ast.Call:
            if _is_len(node.func, self.ctx.ag) and self._static_function(node.func):
                return True   # (the length of any array is known while tracing)
            return self._static_function(node.func) and self._all_static(
                node.args + node.keywords, names)
        if isinstance(node, _OPERATIONS):
            return self._all_static(walk.children(node), names)
        return False

    def _all_static(self, nodes, names):
        """(A loop, not `all(...)`: recursion through C calls is capped on Python 3.12,
        see autograph.limits.)"""
        for node in nodes:
            if not self.is_static(node, names):
                return False
        return True

    def _static_function(self, func):
        if isinstance(func, ast.Name):
            return func.id in _STATIC_BUILTINS and self.ctx.resolver.is_builtin(func.id)
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and \
                func.value.id == self.ctx.ag:
            return func.attr in _STATIC_BUILTINS   # (ag.len, ag.min, ...: the builtins)
        if isinstance(func, ast.Attribute) and func.attr in _SHAPE_ATTRIBUTES:
            return False
        return self._library_function(func)

    def _library_function(self, node):
        """`jnp.eye`, `np.linalg.norm`: an attribute of a library module."""
        while isinstance(node, ast.Attribute):
            node = node.value
        if not isinstance(node, ast.Name) or node.id in self.bound or node.id == self.ctx.ag:
            return False   # (`ag.len`: the runtime's, whatever the module calls `ag`)
        return is_library_module(self.ctx.resolver.module_name(node.id))

    def _decisive(self, node):
        """The operands of `node` whose values decide a shape: a subscript's index (or
        the parts of a tuple index), a size-from-values function's arguments."""
        if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load):
            return node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        if _sizes_from_values(node) and self._library_function(node.func):
            return node.args
        return []

    def visit_Assign(self, node):
        self.generic_visit(node)
        targets = {n.id for t in node.targets for n in walk.nodes(t)
                   if isinstance(n, ast.Name)}
        if targets & self.needed and self._computes(node.value) and \
                self.is_static(node.value):
            node.value = self._static(node.value)
        return node

    def visit_Subscript(self, node):
        self.generic_visit(node)
        if isinstance(node.ctx, ast.Load):
            if isinstance(node.slice, ast.Tuple):
                node.slice.elts = [self._computed(e) for e in node.slice.elts]
            else:
                node.slice = self._computed(node.slice)
        return node

    def visit_Call(self, node):
        self.generic_visit(node)
        if _sizes_from_values(node) and self._library_function(node.func):
            if self.is_static(node):
                return self._static(node)
            node.args = [self._computed(a) for a in node.args]
        return node

    def _computed(self, operand):
        """`operand` computed while tracing when it is a static computation (a slice's
        bounds and step each: `x[:int(np.ceil(len(x) / 2))]`)."""
        if operand.__class__ is ast.Slice:
            for part in ('lower', 'upper', 'step'):
                if getattr(operand, part) is not None:
                    setattr(operand, part, self._computed(getattr(operand, part)))
            return operand
        if self._computes(operand) and self.is_static(operand):
            return self._static(operand)
        return operand

    def _computes(self, node):
        """Whether `node` calls a library function (`jnp.eye(n)`: an array made while
        tracing would be traced; arithmetic of shapes is Python's already)."""
        return any(isinstance(n, ast.Call) and self._library_function(n.func)
                   for n in walk.nodes(node))

    def _static(self, value):
        call = ast.Call(func=self.ctx.runtime('static'),
                        args=[ast.Lambda(args=_no_arguments(), body=value)], keywords=[])
        return ast.copy_location(call, value)


def _sizes_from_values(node):
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr in SIZE_FROM_VALUES and node.args
            and not any(k.arg == 'size' for k in node.keywords)
            and (node.func.attr != 'where' or len(node.args) == 1))


def _static_names(bindings, other, pass_):
    """The local variables every binding of which assigns a static value (`n =
    x.shape[0]`, `rows, cols = table.shape`, `mask = ~jnp.eye(n, dtype=bool)`); the
    parameters and names bound any other way are not (`bindings`, `other`: see
    `_bindings`)."""
    static = {name for name in bindings if name not in other}
    changed = True
    while changed:   # the largest set whose bindings are all static given the set
        changed = False
        for name in sorted(static):
            if not all(pass_.is_static(v, static) for v in bindings[name]):
                static.discard(name)
                changed = True
    return static


def _is_len(func, ag):
    return (isinstance(func, ast.Name) and func.id == 'len') or (
        isinstance(func, ast.Attribute) and func.attr == 'len'
        and isinstance(func.value, ast.Name) and func.value.id == ag)


def _bindings(function):
    """({name: the values assigned to it}, the names bound any other way, all the names
    bound) by `function`'s own code (a local `np` is no module)."""
    bindings, other = {}, set()
    for node in _own_nodes(function):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                for name in walk.nodes(target):
                    if isinstance(name, ast.Name):
                        bindings.setdefault(name.id, []).append(node.value)
        elif isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            other.add(node.id)
        elif isinstance(node, ast.arg):
            other.add(node.arg)
    return bindings, other, other | bindings.keys()


def _own_nodes(function):
    """The nodes of `function`'s own scope (a Name bound by a nested function's
    parameters or body is that function's); Assign targets counted once."""
    out, stack = [], list(walk.children(function))
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda,
                             ast.ClassDef)):
            if not isinstance(node, ast.Lambda):
                out.append(ast.Name(id=node.name, ctx=ast.Store()))
            continue
        if isinstance(node, ast.Assign):
            out.append(node)
            stack.append(node.value)
            continue
        out.append(node)
        stack += walk.children(node)
    return out


def _no_arguments():
    return ast.arguments(posonlyargs=[], args=[], vararg=None, kwonlyargs=[],
                         kw_defaults=[], kwarg=None, defaults=[])


def transform(function, ctx):
    """Run the pass on `function`: its walk only where it may change something (a
    library call where a shape depends on values, or a size-from-values call)."""
    pass_ = _Static(function, ctx)
    if pass_.active:
        pass_.visit(function)
    return function
