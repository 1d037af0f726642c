"""Which local names a piece of code reads and writes.

Scopes nest: a nested `def` writes its own name and reads its free variables (at the
point of definition, conservatively); lambdas and comprehensions read their free
variables. `x[i] = v` and `x.a = v` modify `x`, so they count as a read and a write of `x`
(the functional form must pass the modified container on).
"""
import ast
import dataclasses

from autograph.analysis.walk import CHILDREN, Visitor, children


@dataclasses.dataclass(frozen=True)
class Activity:
    reads: frozenset
    writes: frozenset

    def dump(self):
        return f'reads={sorted(self.reads)} writes={sorted(self.writes)}'


def activity(node):
    """The names `node` (a statement, expression or list of them) reads and writes."""
    if isinstance(node, list):
        return _union([activity(item) for item in node])
    visitor = _Visitor()
    visitor.visit(node)
    return Activity(frozenset(visitor.reads), frozenset(visitor.writes))


_COMPOUND = (ast.If, ast.While, ast.For, ast.With, ast.Try)
_BLOCK_FIELDS = ('body', 'orelse', 'finalbody')
_MISSING = object()


class ActivityCache:
    """`activity` memoized per node for one pass over a tree that does not change under
    it; compound statements combine their children's cached results."""

    def __init__(self):
        self._cache = {}

    def __call__(self, node):
        return self.of(node)

    def of(self, node):
        """(A method, not `__call__`, where it recurses: Python 3.12 limits recursion
        through C calls, which calling an object is, to about 1,500 frames.)"""
        if isinstance(node, list):
            return _union([self.of(item) for item in node])
        result = self._cache.get(id(node))
        if result is None:
            result = self._compute(node)
            self._cache[id(node)] = (node, result)
        else:
            result = result[1]
        return result

    def _compute(self, node):
        if not isinstance(node, _COMPOUND):
            return activity(node)
        parts = []
        for field in node._fields:   # (as ast.iter_fields, without a generator)
            value = getattr(node, field, _MISSING)
            if value is _MISSING:
                continue
            if field in _BLOCK_FIELDS:
                parts.append(self.of(value))
            elif field == 'handlers':
                for handler in value:
                    parts.append(self.of(handler.type) if handler.type else None)
                    parts.append(self.of(handler.body))
                    if handler.name:
                        parts.append(Activity(frozenset(), frozenset([handler.name])))
            elif isinstance(value, ast.AST):   # (its test, target, iterable: often
                parts.append(self.of(value))      # asked for already, by a Dataflow)
            elif isinstance(value, list):
                parts += [self.of(v) for v in value if isinstance(v, ast.AST)]
        return _union([p for p in parts if p is not None])


def _union(activities):
    reads, writes = set(), set()
    for a in activities:
        reads |= a.reads
        writes |= a.writes
    return Activity(frozenset(reads), frozenset(writes))


def free_variables(node):
    """Names a nested function/lambda/comprehension reads from its enclosing scope."""
    known = getattr(node, _FREE_VARIABLES, None)
    if known is not None:
        return known
    visitor = _Visitor()
    visitor.visit_scope(node)
    return frozenset(visitor.reads)


def finished(function):
    """Mark the nested function `function` converted: no later pass changes it (the
    passes of the functions around it do not enter it), so its free variables, which
    every analysis of those functions asks for again (scopes, liveness, a statement's
    activity), are found once, here, and kept on it. (Its converted body is several
    times the size of the user's.)"""
    setattr(function, _FREE_VARIABLES, free_variables(function))


_FREE_VARIABLES = '_ag_free_variables'


@dataclasses.dataclass(frozen=True)
class Scope:
    """What one walk over a function's own scope finds.

    `locals`: names bound in the scope (parameters, targets, nested definitions, imports)
    less those declared global/nonlocal; `declared`: {name: 'global' or 'nonlocal'};
    `closures`: {nested function name: the names it reads from this scope}; `order`: each
    name's rank by first appearance, for readable parameter lists.
    """
    locals: frozenset
    declared: dict
    closures: dict
    order: dict


def scope_of(function):
    bound, declared, closures, order = set(), {}, {}, {}
    body = function.body if isinstance(function.body, list) else [ast.Expr(function.body)]
    # Depth first, in source order (`order` ranks names by first appearance).
    stack = body[::-1] + children(function.args)[::-1]
    table, special = CHILDREN, _SPECIAL
    name, constant, load = ast.Name, ast.Constant, ast.Load
    while stack:
        child = stack.pop()
        kind = child.__class__
        if kind is name:
            order.setdefault(child.id, len(order))
            if child.ctx.__class__ is not load:
                bound.add(child.id)
            continue   # nothing but its context under it
        if kind is constant:
            continue
        if kind in special and _scope_entry(child, kind, bound, declared, closures, order):
            continue   # (a nested scope: not entered)
        inner = table[kind](child)
        inner.reverse()
        stack += inner
    local = frozenset(bound - set(declared))
    return Scope(local, declared, closures, order)


def _scope_entry(child, kind, bound, declared, closures, order):
    """What `scope_of` records of a node of the classes in `_SPECIAL` (binding a name
    otherwise than as a `Name`, declaring, or opening a scope); True for the nodes of
    nested scopes, whose insides are not the function's."""
    if kind is ast.arg:
        order.setdefault(child.arg, len(order))
        bound.add(child.arg)
    elif kind in _DEFINITIONS:
        bound.add(child.name)
        if kind is not ast.ClassDef:
            closures[child.name] = closures.get(child.name, frozenset()) | \
                free_variables(child)
        return True
    elif kind in _INNER_SCOPES:
        return True
    elif kind in _CAPTURES:   # (`except E as e`, a `case` pattern's names)
        name = child.rest if kind is ast.MatchMapping else child.name
        if name:
            order.setdefault(name, len(order))
            bound.add(name)
    elif kind is ast.Import or kind is ast.ImportFrom:
        bound.update((a.asname or a.name).split('.')[0] for a in child.names)
    elif kind is ast.Global or kind is ast.Nonlocal:
        label = 'global' if kind is ast.Global else 'nonlocal'
        declared.update((n, label) for n in child.names)
    return False


_DEFINITIONS = frozenset({ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef})
_CAPTURES = frozenset({ast.ExceptHandler, ast.MatchAs, ast.MatchStar, ast.MatchMapping})
_INNER_SCOPES = frozenset({ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp,
                           ast.GeneratorExp})
_SPECIAL = frozenset({ast.arg, ast.Import, ast.ImportFrom, ast.Global, ast.Nonlocal}) | \
    _DEFINITIONS | _CAPTURES | _INNER_SCOPES
"""The node classes `scope_of` looks at (`_scope_entry`) rather than only walks through."""


def captures(pattern):
    """The names a `case` pattern binds."""
    return frozenset(name for node in ast.walk(pattern) if node.__class__ in _CAPTURES
                     and (name := node.rest if node.__class__ is ast.MatchMapping
                          else node.name))


def base_name(node):
    """`x` for `x`, `x[i]`, `x.a.b`, `x[i].a`; None for anything else."""
    while isinstance(node, (ast.Subscript, ast.Attribute)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


MUTATING_METHODS = frozenset({
    'append', 'extend', 'insert', 'pop', 'remove', 'clear', 'update', 'setdefault', 'add',
    'discard', 'popitem', 'sort', 'reverse'})
"""`x.append(v)` and the like modify `x`: a loop that appends carries the list."""


IN_PLACE_FUNCTIONS = frozenset({'heappush', 'heappop', 'heapify', 'heappushpop',
                                'heapreplace', 'insort', 'insort_left', 'insort_right',
                                'shuffle'})
"""Functions of the standard library that change the list given first in place
(`heapq.heappush(h, v)`, `bisect.insort(xs, v)`, `random.shuffle(xs)`), called by name
or as a module's attribute."""


def changed_argument(call):
    """The variable (a Name) whose list or dict `call` changes in place as its first
    argument: `heapq.heappush(h, v)`, `heappush(h, v)`, `list.append(h, v)`; None for
    other calls. (By name: a user's own `shuffle(xs)` is taken for one too, which can
    only add state.)"""
    func, args = called(call)
    if not args or args[0].__class__ is not ast.Name:
        return None
    name = called_name(call)
    if name in IN_PLACE_FUNCTIONS or (
            func.__class__ is ast.Attribute and func.value.__class__ is ast.Name
            and func.value.id in ('list', 'dict', 'set') and name in MUTATING_METHODS):
        return args[0]
    return None


def called(call):
    """(the callee, the arguments) of `call`, or of the call it stands for: `ag.call(f,
    *args)` (passes.calls) is a call of `f`."""
    func = call.func
    if (func.__class__ is ast.Attribute and func.attr == 'call' and call.args
            and func.value.__class__ is ast.Name):
        return call.args[0], call.args[1:]
    return func, call.args


def called_name(call):
    """The name of the function `call` calls (`heappush` of `heapq.heappush(h, v)` or of
    `ag.call(heappush, h, v)`), or None."""
    func = called(call)[0]
    return func.attr if func.__class__ is ast.Attribute else getattr(func, 'id', None)


def called_method(call):
    """The callee `x.m` of a method call: `x.m(...)`, or `ag.call(x.m, ...)`, as
    passes.calls writes a call of a method of an object whose type it cannot know (a
    user object's method, or a list's); None for other calls. Either way the call is one
    of `m` on `x` (a user's own `obj.call(x.m, ...)` is taken for one too: that can only
    add state)."""
    func = call.func
    if func.__class__ is not ast.Attribute:
        return None
    if (func.attr == 'call' and call.args and func.value.__class__ is ast.Name
            and call.args[0].__class__ is ast.Attribute):
        return call.args[0]
    return func


class _Visitor(Visitor):
    def __init__(self):
        self.reads = set()
        self.writes = set()

    def visit_arg(self, node):
        self.writes.add(node.arg)

    def visit_Name(self, node):
        if isinstance(node.ctx, ast.Load):
            self.reads.add(node.id)
        else:   # `del x` needs x's value too: it fails when x has none
            if isinstance(node.ctx, ast.Del):
                self.reads.add(node.id)
            self.writes.add(node.id)

    def _visit_modified(self, node):
        if not isinstance(node.ctx, ast.Load):
            base = base_name(node)
            if base is not None:
                self.reads.add(base)
                self.writes.add(base)
        self.generic_visit(node)

    visit_Subscript = visit_Attribute = _visit_modified

    def visit_Call(self, node):
        func, changed = called_method(node), changed_argument(node)
        if changed is not None:   # (`heapq.heappush(h, v)`, `list.append(h, v)`)
            self.writes.add(changed.id)
        elif func is not None and func.attr in MUTATING_METHODS:
            target = func.value     # `xs.append(v)`, or `d['a'].append(v)`: changes d
            while isinstance(target, ast.Subscript):
                target = target.value
            if isinstance(target, ast.Name):
                self.writes.add(target.id)
        self.generic_visit(node)

    def visit_ExceptHandler(self, node):   # `except E as e:` binds e (and unbinds it)
        if node.name:
            self.writes.add(node.name)
        self.generic_visit(node)

    def _visit_capture(self, node):   # `case [x, *rest]`, `case _ as z`, `{**rest}`
        name = node.rest if node.__class__ is ast.MatchMapping else node.name
        if name:
            self.writes.add(name)
        self.generic_visit(node)

    visit_MatchAs = visit_MatchStar = visit_MatchMapping = _visit_capture

    def visit_AugAssign(self, node):
        base = base_name(node.target)
        if base is not None:
            self.reads.add(base)
        self.generic_visit(node)

    def visit_FunctionDef(self, node):
        self.writes.add(node.name)
        for expr in node.decorator_list + node.args.defaults + node.args.kw_defaults:
            if expr is not None:
                self.visit(expr)
        self.reads |= free_variables(node)

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_ClassDef(self, node):
        self.writes.add(node.name)
        for expr in node.bases + node.decorator_list:
            self.visit(expr)
        inner = activity(node.body)
        self.reads |= inner.reads - inner.writes

    def visit_Lambda(self, node):
        for expr in node.args.defaults + node.args.kw_defaults:
            if expr is not None:
                self.visit(expr)
        self.reads |= free_variables(node)

    def _visit_comprehension(self, node):
        self.reads |= free_variables(node)

    visit_ListComp = visit_SetComp = visit_DictComp = visit_GeneratorExp = _visit_comprehension

    def visit_Global(self, node):
        pass

    visit_Nonlocal = visit_Global

    def visit_scope(self, node):
        """Free variables of a function, lambda or comprehension."""
        inner = _Visitor()
        declared = set()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            inner.visit(node.args)
            body = node.body if isinstance(node.body, list) else [node.body]
            for stmt in body:
                inner.visit(stmt)
            if not isinstance(node, ast.Lambda):   # (a lambda holds no statement)
                for n in ast.walk(node):
                    if isinstance(n, ast.Global):
                        declared.update(n.names)
        else:  # comprehension
            for generator in node.generators:
                inner.visit(generator)
            for field in ('elt', 'key', 'value'):
                if hasattr(node, field):
                    inner.visit(getattr(node, field))
        self.reads |= inner.reads - inner.writes - declared
