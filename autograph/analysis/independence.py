"""Which `for` loops run iterations that do not depend on each other (a dependence
analysis of the loop body), so that the runtime may run them as one vectorised
computation (`jax.vmap` of the body over the index range) instead of a sequential loop.

    for i in range(h):                 # independent along axis 0 of `out`
        for j in range(w):             # independent along axis 1 of `out`
            x = zr[i, j]
            k = 0
            while k < 100 and x * x < 4.0:
                x = x * x + c
                k += 1
            out[i, j] = k

A loop `for v in range(...)` is independent when its iterations can run in any order
and give Python's result, which this analysis proves syntactically and conservatively:

- the arrays it writes (`out[...] = e`, `out[...] op= e`) are written and read only
  through subscripts whose leading indices are exactly the loop variables of the nest
  (`out[i]`, `out[i, j]`, `out[i, k]` in a loop over `i`; for an inner loop over `j`
  vectorised inside one over `i`, `out[i, j, ...]`), never used any other way (passed to
  a call, rebound, read whole), so iteration `i` touches only the part `out[i, ...]`;
- its loop variable(s) are not assigned in the body; every other name it assigns is
  a temporary of one iteration. That every such temporary is assigned before any read
  in each iteration and is not read after the loop is checked by the pass that uses
  this analysis (passes.loops): the loop then carries exactly the written arrays;
- it contains only assignments, `if`, `while` and nested `for v in range(...)` without
  `else`, `pass`, and expressions that call only pure functions (jax.numpy, numpy but
  its `random`, math, jax.nn, jax.scipy; the builtins abs, min, max, ...; a few array
  methods): no `break`, `continue`, `return`, `raise`, `assert`, `del`, `yield`,
  nested functions, lambdas, comprehensions, list/dict displays, f-strings, attribute
  or global writes, and no call of user code (which could do any of those).

A loop may also accumulate (analysis.accumulators): `s += x[i]`, `s *= e`,
`s = max(s, e)`, ... where the body reads `s` nowhere else. Its iterations are then
independent but for those updates, which the runtime applies as one reduction over the
iterations (`reductions`: {name: kind}); a loop that neither writes items nor
accumulates stays sequential. An accumulator read anywhere else (`out[i] = s`), or
updated by two kinds of operator, is not one: the loop carries it, and the pass that
marks loops (passes.loops) leaves it sequential.

`axis` is the position of the loop's variable among the written indices: 0 for a loop
vectorised on its own, k for a loop nested in k enclosing loops that are vectorised
too (the runtime vectorises it along that axis only when the enclosing loops were).

`reads` are the arrays the loop only reads, at its own index: names it never assigns,
read as `xs[i]`, `xs[i, ...]` or, nested, `xs[i, j]` and `pos[j, 0]` (the key starting
with variables of the vectorised nest, this loop's among them). The runtime gives the
vectorised body the iteration's item of each as an input (runtime.items.parts), where
reading at a batched index would gather it.
"""
import ast
import dataclasses

from autograph.analysis.accumulators import accumulators
from autograph.analysis.activity import scope_of
from autograph.analysis.walk import blocks, nodes

PURE_MODULES = ('jax.numpy', 'numpy', 'math', 'cmath', 'jax.nn', 'jax.scipy')
"""Modules whose functions compute values only (with `random` submodules excluded)."""

PURE_BUILTINS = frozenset({'abs', 'min', 'max', 'float', 'int', 'bool', 'complex',
                           'round', 'pow', 'range', 'len', 'divmod'})

PURE_METHODS = frozenset({'astype', 'sum', 'prod', 'mean', 'max', 'min', 'any', 'all',
                          'conj', 'conjugate', 'dot', 'reshape', 'transpose', 'ravel',
                          'flatten', 'clip', 'round', 'squeeze', 'cumsum'})
"""Array methods that return a new value (NumPy's and JAX's alike)."""

_EXPRESSIONS = (ast.Constant, ast.BinOp, ast.UnaryOp, ast.BoolOp, ast.Compare, ast.IfExp,
                ast.Tuple, ast.Name, ast.Subscript, ast.Attribute, ast.Call, ast.Slice)


@dataclasses.dataclass(frozen=True)
class Independence:
    """One `for` loop's verdict: `axis` (None: sequential, with `reason`), the names
    of the arrays the loop writes items of, and its accumulators as (name, kind) pairs
    (analysis.accumulators)."""
    axis: object
    written: tuple
    reason: str = ''
    reductions: tuple = ()
    reads: tuple = ()

    def dump(self):
        if self.axis is None:
            return f'sequential: {self.reason}'
        reduces = ''.join(f' reduces {name!r} ({kind})' for name, kind in self.reductions)
        reads = f' reads {list(self.reads)}' if self.reads else ''
        return f'axis {self.axis} writes {list(self.written)}{reduces}{reads}'


class _Dependent(Exception):
    """What makes a loop's iterations possibly dependent (the reason)."""


def independent_loops(function, resolver, scope=None, held=None):
    """{For node: Independence} for every `for` loop in `function`'s own scope (not in
    nested functions). `resolver` tells what a global name refers to:
    `resolver.module_name(name)` is the dotted name of the module it holds (`'jax.numpy'`
    for `jnp`) or None, `resolver.is_builtin(name)` whether it is Python's builtin.
    `scope` is `function`'s activity.Scope when the caller has it. `held`: {name: its
    holders} for the names whose arrays another object holds too (analysis.own_arrays):
    a loop writing or accumulating one stays sequential, where each change meets its
    run-time check, unless the loop nest writes the holders by item (`acc[i] = s`
    after an inner loop accumulating `s`, into an array: a copy)."""
    scope = scope or scope_of(function)
    analysis = _Analysis(scope.locals | set(scope.declared), set(scope.declared), resolver)
    analysis.held, analysis.nest_written = held or {}, frozenset()
    found = {}
    analysis.walk(function.body, (), found)
    return found


def dump(function, resolver):
    """The verdicts as lines `line N: ...`, in source order, for tests."""
    found = independent_loops(function, resolver)
    return [f'line {loop.lineno}: {found[loop].dump()}'
            for loop in sorted(found, key=lambda n: (n.lineno, n.col_offset))]


class _Analysis:
    def __init__(self, local_names, declared, resolver):
        self.local_names = local_names
        self.declared = declared
        self.resolver = resolver

    def walk(self, stmts, prefix, found):
        """Decide every loop in `stmts`: `prefix` are the variables of the enclosing
        loops found independent (the loops in `stmts` are tried as nested in them)."""
        for stmt in stmts:
            if isinstance(stmt, ast.For):
                verdict = self.loop(stmt, prefix)
                found[stmt] = verdict
                inner = prefix + (stmt.target.id,) if verdict.axis is not None else ()
                outer, self.nest_written = self.nest_written, \
                    self.nest_written | set(_written_arrays(stmt.body))
                self.walk(stmt.body, inner, found)
                self.nest_written = outer
                self.walk(stmt.orelse, (), found)
            elif isinstance(stmt, (ast.If, ast.While)):
                self.walk(stmt.body, prefix, found)
                self.walk(stmt.orelse, prefix, found)
            elif isinstance(stmt, (ast.With, ast.Try)) or hasattr(stmt, 'cases'):
                for block in blocks(stmt):
                    self.walk(block, (), found)

    def loop(self, node, prefix):
        written = tuple(sorted(_written_arrays(node.body)))
        loop_vars = prefix + (getattr(node.target, 'id', None),)
        try:
            self._header(node)   # (first: a loop it rejects needs no accumulators)
            body = _Body(self, loop_vars, set(written))
            if written:
                body.block(node.body)   # (so is its body where it writes array items)
            reductions = tuple((name, kind) for name, kind
                               in accumulators(node.body, self).items()
                               if name not in written + loop_vars
                               and name not in self.declared)
            if not written:
                if not reductions:
                    raise _Dependent('it writes no array items')
                body.block(node.body)
            self._unheld(written + tuple(name for name, _ in reductions), written)
        except _Dependent as reason:
            return Independence(None, written, str(reason))
        return Independence(len(prefix), written, reductions=reductions,
                            reads=_reads(node.body, loop_vars, set(written)))

    def _unheld(self, changed, written):
        for name in changed:
            if not self.held.get(name, set()) <= self.nest_written | set(written):
                raise _Dependent(f'{name!r} is also held by a container, an attribute or '
                                 f'an item: its changes in place run one by one')

    def _header(self, node):
        if not isinstance(node.target, ast.Name):
            raise _Dependent('its target is not a name')
        if node.orelse:
            raise _Dependent('it has an `else`')
        if not self.is_builtin_call(node.iter, 'range'):
            raise _Dependent('it does not iterate over `range(...)`')
        if node.iter.keywords or not 1 <= len(node.iter.args) <= 3:
            raise _Dependent('its `range` has unusual arguments')
        if node.target.id in self.declared:
            raise _Dependent(f'its variable {node.target.id!r} is global or nonlocal')

    def is_builtin_call(self, node, name=None):
        return (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and (name is None or node.func.id == name)
                and node.func.id not in self.local_names
                and self.resolver.is_builtin(node.func.id))

    def pure_function(self, func):
        """Whether `func` (a call's callee) names a pure library function."""
        parts = []
        while isinstance(func, ast.Attribute):
            parts.append(func.attr)
            func = func.value
        if not isinstance(func, ast.Name) or func.id in self.local_names or not parts:
            return False
        module = self.resolver.module_name(func.id)
        if module is None:
            return False
        dotted = '.'.join([module] + parts[::-1])
        return (any(dotted.startswith(m + '.') for m in PURE_MODULES)
                and 'random' not in dotted.split('.'))


def _written_arrays(stmts):
    """The names whose items the statements assign (`x[...] = v`, `x[...] op= v`)."""
    names = set()
    for stmt in stmts:
        for node in nodes(stmt):
            targets = (node.targets if isinstance(node, ast.Assign)
                       else [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign))
                       else [])
            for target in targets:
                for part in nodes(target):
                    if part.__class__ is ast.Subscript and part.value.__class__ is ast.Name:
                        names.add(part.value.id)
    return names


def _reads(stmts, loop_vars, written):
    """The names the statements read at the loop's own index (`xs[i, ...]`, the key's
    leading variables of the nest `loop_vars` including the last, this loop's) and
    never assign (see the module docstring)."""
    assigned, found = set(written) | set(loop_vars), set()
    for stmt in stmts:
        for node in nodes(stmt):
            if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
                assigned.add(node.id)
            elif isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load) \
                    and isinstance(node.value, ast.Name):
                key = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
                leading = []
                for part in key:
                    if not (isinstance(part, ast.Name) and part.id in loop_vars):
                        break
                    leading.append(part.id)
                if loop_vars[-1] in leading:
                    found.add(node.value.id)
    return tuple(sorted(found - assigned))


class _Body:
    """The checks of one loop body; raises _Dependent with the first reason found."""

    def __init__(self, analysis, loop_vars, written):
        self.analysis = analysis
        self.loop_vars = loop_vars
        self.written = written

    def block(self, stmts):
        for stmt in stmts:
            self.statement(stmt)

    def statement(self, stmt):
        line = f' (line {stmt.lineno})'
        if isinstance(stmt, ast.Assign):
            for target in stmt.targets:
                self.target(target)
            self.expression(stmt.value)
        elif isinstance(stmt, ast.AugAssign):
            self.target(stmt.target)
            self.expression(stmt.value)
        elif isinstance(stmt, (ast.If, ast.While)):
            if isinstance(stmt, ast.While) and stmt.orelse:
                raise _Dependent(f'an inner `while` has an `else`{line}')
            self.expression(stmt.test)
            self.block(stmt.body)
            self.block(stmt.orelse)
        elif isinstance(stmt, ast.For):
            self.analysis._header(stmt)   # (the reasons name the inner loop)
            self.target(stmt.target)
            self.expression(stmt.iter)
            self.block(stmt.body)
        elif isinstance(stmt, ast.Pass):
            pass
        elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
            pass   # a string as a comment
        elif _is_directive(stmt):
            pass   # autograph.set_loop_options(...): read by passes.directives
        else:
            raise _Dependent(f'it contains {_describe(stmt)}{line}')

    def target(self, target):
        if isinstance(target, ast.Name):
            if target.id in self.loop_vars:
                raise _Dependent(f'it assigns its loop variable {target.id!r}')
            if target.id in self.written:
                raise _Dependent(f'it rebinds {target.id!r}, whose items it writes')
            if target.id in self.analysis.declared:
                raise _Dependent(f'it assigns {target.id!r}, declared global or nonlocal')
        elif isinstance(target, ast.Tuple):
            for element in target.elts:
                self.target(element)
        elif isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name):
            self.item(target)
        else:
            raise _Dependent(f'it assigns `{ast.unparse(target)}` (line {target.lineno})')

    def item(self, node):
        """`out[key]` of a written array: the key must start with the loop variables."""
        name, key = node.value.id, node.slice
        parts = list(key.elts) if isinstance(key, ast.Tuple) else [key]
        n = len(self.loop_vars)
        leading = [p.id if isinstance(p, ast.Name) else None for p in parts[:n]]
        if leading != list(self.loop_vars):
            raise _Dependent(
                f'it accesses `{ast.unparse(node)}` (line {node.lineno}), not at '
                f'`{name}[{", ".join(self.loop_vars)}{", ..." if n else ""}]`')
        for part in parts[n:]:
            if isinstance(part, ast.Slice) or isinstance(part, ast.Starred):
                raise _Dependent(f'it slices `{ast.unparse(node)}` (line {node.lineno})')
            self.expression(part)

    def expression(self, node):
        if not isinstance(node, _EXPRESSIONS):
            raise _Dependent(f'it contains {_describe(node)} (line {node.lineno})')
        if isinstance(node, ast.Name):
            if node.id in self.written:
                raise _Dependent(f'it uses {node.id!r} whole (line {node.lineno}), not one '
                                 f'item of it')
            return
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) \
                and node.value.id in self.written:
            self.item(node)
            return
        if isinstance(node, ast.Call):
            self.call(node)
            return
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.expr):
                self.expression(child)

    def call(self, node):
        func = node.func
        if self.analysis.is_builtin_call(node):
            if func.id not in PURE_BUILTINS:
                raise _Dependent(f'it calls {func.id}() (line {node.lineno})')
        elif self.analysis.pure_function(func):
            pass
        elif isinstance(func, ast.Attribute) and func.attr in PURE_METHODS:
            self.expression(func.value)
        else:
            raise _Dependent(f'it calls `{ast.unparse(func)}` (line {node.lineno}), '
                             f'which may not be pure')
        for arg in node.args:
            self.expression(arg)
        for keyword in node.keywords:
            if keyword.arg is None:
                raise _Dependent(f'it passes **keywords (line {node.lineno})')
            self.expression(keyword.value)


def _is_directive(stmt):
    """`autograph.set_loop_options(...)` (passes.directives reads it, with its keywords
    only)."""
    if not (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call)):
        return False
    call, func = stmt.value, stmt.value.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, 'id', None)
    return name == 'set_loop_options' and not call.args and all(
        isinstance(k.value, ast.Constant) for k in call.keywords)


def _describe(node):
    names = {ast.Break: '`break`', ast.Continue: '`continue`', ast.Return: '`return`',
             ast.Raise: '`raise`', ast.Assert: '`assert`', ast.Delete: '`del`',
             ast.Expr: 'a call as a statement', ast.Lambda: 'a lambda',
             ast.Yield: '`yield`', ast.YieldFrom: '`yield`', ast.NamedExpr: '`:=`'}
    return names.get(type(node), f'a {type(node).__name__} node')
