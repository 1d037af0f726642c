"""Which local names a piece of code reads and writes.

Scopes nest: a nested `def` writes its own name and reads its free variables (at the
point of definition, conservatively); lambdas and comprehensions read their free
variables. `x[i] = v` and `x.a = v` modify `x`, so they count as a read and a write of `x`
(the functional form must pass the modified container on).
"""
import ast
import dataclasses

from autograph.analysis.walk import CHILDREN, children


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
    reads, writes = set(), set()
    _collect([node], reads, writes)
    return Activity(frozenset(reads), frozenset(writes))


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
    return frozenset(_scope_reads(node))


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


def _collect(stack, reads, writes):
    """Add the names the nodes of `stack` (and those under them) read and write, depth
    first; a node of `_HANDLERS`' classes is looked at by its handler, which also says
    whether to walk under it. (The names and constants, the commonest nodes, inline.)"""
    table, handlers, name, constant, load = CHILDREN, _HANDLERS, ast.Name, ast.Constant, ast.Load
    while stack:
        node = stack.pop()
        kind = node.__class__
        if kind is name:
            ctx = node.ctx.__class__
            if ctx is load:
                reads.add(node.id)
            else:   # `del x` needs x's value too: it fails when x has none
                if ctx is ast.Del:
                    reads.add(node.id)
                writes.add(node.id)
            continue
        if kind is constant:
            continue
        handler = handlers.get(kind)
        if handler is not None and handler(node, reads, writes, stack):
            continue   # (its handler pushed what to walk under it)
        stack += table[kind](node)


def _arg(node, reads, writes, stack):
    writes.add(node.arg)
    return True


def _modified(node, reads, writes, stack):   # `x[i] = v`, `x.a = v`: x changes
    if node.ctx.__class__ is not ast.Load:
        base = base_name(node)
        if base is not None:
            reads.add(base)
            writes.add(base)
    return False


def _call(node, reads, writes, stack):
    func, changed = called_method(node), changed_argument(node)
    if changed is not None:   # (`heapq.heappush(h, v)`, `list.append(h, v)`)
        writes.add(changed.id)
    elif func is not None and func.attr in MUTATING_METHODS:
        target = func.value     # `xs.append(v)`, or `d['a'].append(v)`: changes d
        while isinstance(target, ast.Subscript):
            target = target.value
        if isinstance(target, ast.Name):
            writes.add(target.id)
    return False


def _handler(node, reads, writes, stack):   # `except E as e:` binds e (and unbinds it)
    if node.name:
        writes.add(node.name)
    return False


def _capture(node, reads, writes, stack):   # `case [x, *rest]`, `case _ as z`, `{**rest}`
    name = node.rest if node.__class__ is ast.MatchMapping else node.name
    if name:
        writes.add(name)
    return False


def _augmented(node, reads, writes, stack):
    base = base_name(node.target)
    if base is not None:
        reads.add(base)
    return False


def _definition(node, reads, writes, stack):
    writes.add(node.name)
    stack += [e for e in node.decorator_list + node.args.defaults + node.args.kw_defaults
              if e is not None]
    reads |= free_variables(node)
    return True


def _class(node, reads, writes, stack):
    writes.add(node.name)
    stack += node.bases + node.decorator_list
    inner = activity(node.body)
    reads |= inner.reads - inner.writes
    return True


def _lambda(node, reads, writes, stack):
    stack += [e for e in node.args.defaults + node.args.kw_defaults if e is not None]
    reads |= free_variables(node)
    return True


def _comprehension(node, reads, writes, stack):
    reads |= free_variables(node)
    return True


def _declaration(node, reads, writes, stack):
    return True


_HANDLERS = {
    ast.arg: _arg, ast.Subscript: _modified, ast.Attribute: _modified, ast.Call: _call,
    ast.ExceptHandler: _handler, ast.MatchAs: _capture, ast.MatchStar: _capture,
    ast.MatchMapping: _capture, ast.AugAssign: _augmented, ast.FunctionDef: _definition,
    ast.AsyncFunctionDef: _definition, ast.ClassDef: _class, ast.Lambda: _lambda,
    ast.ListComp: _comprehension, ast.SetComp: _comprehension,
    ast.DictComp: _comprehension, ast.GeneratorExp: _comprehension,
    ast.Global: _declaration, ast.Nonlocal: _declaration}
"""node class -> its handler in `_collect`: what the node itself reads and writes, and
whether its own nodes are pushed by it (True) rather than walked as children."""


def _scope_reads(node):
    """The free variables of a function, lambda or comprehension: what it reads that it
    does not write, less what it declares global."""
    reads, writes, declared = set(), set(), set()
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
        body = node.body if isinstance(node.body, list) else [node.body]
        _collect([node.args], reads, writes)
        for stmt in body:
            _collect([stmt], reads, writes)
        if not isinstance(node, ast.Lambda):   # (a lambda holds no statement)
            for n in ast.walk(node):
                if isinstance(n, ast.Global):
                    declared.update(n.names)
    else:  # comprehension
        for generator in node.generators:
            _collect([generator], reads, writes)
        for field in ('elt', 'key', 'value'):
            if hasattr(node, field):
                _collect([getattr(node, field)], reads, writes)
    return reads - writes - declared
