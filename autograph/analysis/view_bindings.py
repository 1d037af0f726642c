"""The syntax of NumPy's views (for analysis.views): the statements that bind a view,
`v = b[key]` with a key that may be basic, `v = b` (a whole alias: NumPy's `v is b`, a
view of all of `b`) and `for v in b:`, the names that the parts of a statement bind, and
what a statement reads, binds and changes in place (`effects`); the groups of views that
changes reach (`groups`), and the whole aliases whose kind the function decides
(`known_aliases`).
"""
import ast

from autograph.analysis.array_kinds import JAX, NEUTRAL
from autograph.analysis.view_chains import chain_of, may_be_basic
from autograph.analysis.walk import SCOPES, children
from autograph.analysis.written_parameters import (argument_base, is_write_view,
                                                   positions_written, split_call)


def view_bindings(function, ag=None, resolve=None):
    """{Assign or For: (view name, base name)} for the statements `v = b[key]`, `v = b`,
    `v = <a chain of views of b>` (analysis.view_chains: `b[1:][::-1]`,
    `b.reshape(2, 2)`, `head(b)`; `ag`, `resolve`: as `effects`'s) and the loops `for v
    in b:` in `function`'s own body."""
    found = {}
    for node in own_statements(function.body):
        chain = chain_of(node.value, ag, resolve) if isinstance(node, ast.Assign) and \
            len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) else None
        if chain is not None and chain[0] != node.targets[0].id:
            found[node] = (node.targets[0].id, chain[0])
            continue
        if (isinstance(node, ast.Assign) and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name)
                and isinstance(node.value, ast.Subscript)
                and isinstance(node.value.value, ast.Name)
                and node.value.value.id != node.targets[0].id
                and may_be_basic(node.value.slice)):
            found[node] = (node.targets[0].id, node.value.value.id)
        elif is_whole(node) and node.value.id != node.targets[0].id:
            found[node] = (node.targets[0].id, node.value.id)
        elif isinstance(node, ast.For):   # (`for row in M`: M[0], ...)
            row = iterated_row(node, ag, resolve)
            if row is not None:
                found[node] = (row[0], row[1])
    return found


def iterated_row(loop, ag, resolve=None):
    """(the name, the variable whose view it is, the iterable giving it) of the item
    that `loop` binds to a name: `for row in M[1:]`, `for i, row in ag.enumerate(M)`
    (any start: the loop's own index keys the row), `for row, e in ag.zip(M, v)` (the
    first such name); or None."""
    target, iterable = loop.target, loop.iter
    if isinstance(target, ast.Tuple) and isinstance(iterable, ast.Call) \
            and isinstance(iterable.func, ast.Attribute) \
            and isinstance(iterable.func.value, ast.Name) and iterable.func.value.id == ag \
            and not iterable.keywords \
            and not any(isinstance(a, ast.Starred) for a in iterable.args):
        if iterable.func.attr == 'enumerate' and len(target.elts) == 2 and \
                len(iterable.args) in (1, 2):
            pairs = [(target.elts[1], iterable.args[0])]
        elif iterable.func.attr == 'zip' and len(target.elts) == len(iterable.args):
            pairs = list(zip(target.elts, iterable.args))
        else:
            pairs = []
    else:
        pairs = [(target, iterable)]
    for name, part in pairs:
        base = _iterated_base(part, ag, resolve) if isinstance(name, ast.Name) else None
        if base is not None and base != name.id and base not in stored(target):
            return name.id, base, part
    return None


def iterated_part(iterable):
    """The array whose rows a loop `for v in iterable` gives, as an expression: `M`,
    `M[1:]`, a chain of views (`M.T`), `reversed(M)` as `M[::-1]`, `iter(M)` as `M`
    (passes.views checks that they are the builtins); None for any other iterable."""
    if isinstance(iterable, ast.Call) and isinstance(iterable.func, ast.Name) \
            and iterable.func.id in ('reversed', 'iter') and len(iterable.args) == 1 \
            and not iterable.keywords and not isinstance(iterable.args[0], ast.Starred):
        inner = iterated_part(iterable.args[0])
        return inner if inner is None or iterable.func.id == 'iter' else ast.Subscript(
            value=inner, slice=ast.Slice(step=ast.Constant(-1)), ctx=ast.Load())
    return iterable if isinstance(iterable, (ast.Name, ast.Subscript, ast.Attribute,
                                             ast.Call)) else None


def shadowed_builtin(stmt, ag, builtin):
    """Whether view binding `stmt` is a loop whose item comes from `reversed(...)` or
    `iter(...)` where that name is not the builtin (`builtin(name)` says)."""
    if not isinstance(stmt, ast.For):
        return False
    names = {node.func.id for node in ast.walk(iterated_row(stmt, ag)[2])
             if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)}
    return not all(builtin(name) for name in names & {'reversed', 'iter'})


def _iterated_base(iterable, ag, resolve):
    """The variable whose view `iterated_part(iterable)` is, or None."""
    part = iterated_part(iterable)
    if part is None or isinstance(part, ast.Name):
        return None if part is None else part.id
    row = ast.Subscript(value=part, slice=ast.Name(id='_', ctx=ast.Load()), ctx=ast.Load())
    chain = chain_of(row, ag, resolve)
    return chain[0] if chain is not None and chain[1] is not None else None


def is_whole(node):
    """Whether `node` is `v = b` (one name bound to another's value: for an array, the
    same array)."""
    return (isinstance(node, ast.Assign) and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name) and isinstance(node.value, ast.Name))


_CONTAINERS = (ast.List, ast.Dict, ast.Set, ast.ListComp, ast.DictComp, ast.SetComp)


def containers(function):
    """The names that `function` binds to a list, dict or set display (or comprehension,
    or `list(...)`, `dict(...)`, `set(...)`) and nothing else: a whole alias of one is
    the same Python object already (no view to follow)."""
    kinds = {}
    for node in own(function.body):
        if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = getattr(node, 'targets', None) or [node.target]
            display = isinstance(node.value, _CONTAINERS) or (
                isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Name)
                and node.value.func.id in ('list', 'dict', 'set'))
            for name in (n for t in targets for n in stored(t)):
                kinds[name] = kinds.get(name, True) and display and isinstance(
                    node, ast.Assign)
        elif isinstance(node, (ast.For, ast.NamedExpr, ast.comprehension, ast.withitem)):
            target = getattr(node, 'target', getattr(node, 'optional_vars', None))
            for name in stored(target) if target is not None else ():
                kinds[name] = False
    return {name for name, is_container in kinds.items() if is_container}


def own(stmts):
    """The nodes of `stmts`, not those of the functions and classes in them."""
    stack = list(stmts)
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, SCOPES):
            stack += children(node)
        elif not isinstance(node, ast.Lambda):
            stack += node.decorator_list


def own_statements(stmts):
    """The statements `own(stmts)` gives, in its order, without walking expressions
    (which hold no statements): the nodes walked are statements and the `except`
    clauses and `case`s that hold them."""
    stack = list(stmts)
    while stack:
        node = stack.pop()
        if node.__class__ in _CLAUSES:
            stack += [c for c in children(node) if isinstance(c, ast.stmt)]
            continue
        yield node
        if node.__class__ not in _SCOPE_CLASSES:
            stack += [c for c in children(node) if isinstance(c, _HOLDING)]


_CLAUSES = frozenset({ast.ExceptHandler, ast.match_case})
_HOLDING = (ast.stmt, ast.ExceptHandler, ast.match_case)
_SCOPE_CLASSES = frozenset(SCOPES)


def self_view(stmt, name):
    """Whether `stmt` is `name = name[key]` (a view of the view it rebinds)."""
    return (isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Subscript)
            and root(stmt.value) == name and may_be_basic(stmt.value.slice))


def root(node):
    while isinstance(node, ast.Subscript):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def stored(node):
    names = []
    for inner in own([node]):
        if isinstance(inner, ast.Name) and not isinstance(inner.ctx, ast.Load):
            names.append(inner.id)
        for field in ('name', 'rest'):   # (the captures of `match` patterns)
            value = getattr(inner, field, None)
            if isinstance(inner, ast.pattern) and isinstance(value, str):
                names.append(value)
    return names


def header(stmt):
    if isinstance(stmt, ast.With):
        return list(stmt.items)
    if isinstance(stmt, ast.Try):
        return [h.type for h in stmt.handlers if h.type is not None]
    return [stmt.subject] + [c.pattern for c in stmt.cases] + [
        c.guard for c in stmt.cases if c.guard is not None]


def blocks(stmt):
    if isinstance(stmt, ast.With):
        return [stmt.body]
    if isinstance(stmt, ast.Try):
        return [stmt.body] + [h.body for h in stmt.handlers] + [stmt.orelse,
                                                                stmt.finalbody]
    return [c.body for c in stmt.cases]


def groups(bindings, changed):
    """The bindings whose view, or base, is changed in place, or is a view or base of
    one that is (a group of views)."""
    changed, grew = set(changed), True
    while grew:
        grew = False
        for view, base in bindings.values():
            if (view in changed) != (base in changed):
                changed |= {view, base}
                grew = True
    return {stmt: pair for stmt, pair in bindings.items() if pair[0] in changed}


def aliases_written(bindings, by_item):
    """The bindings but the whole aliases (`c = a`) of a group that no item write or
    helper changes (nor has a `known` kind, see `Views`): there `c += e` may mean a new
    array (a JAX array's), as before."""
    names = {name for pair in groups(bindings, by_item).values() for name in pair}
    return {stmt: pair for stmt, pair in bindings.items()
            if not is_whole(stmt) or pair[0] in names}


def known_aliases(function, found, bindings, kept, kinds):
    """The whole aliases `c = a` of a parameter `a` that holds the caller's array
    throughout, or of a variable whose arrays' kind the parameters decide (`a = v *
    1.0`, see analysis.array_kinds' `kinds`), where each binding of `c` is one (`c is a`
    wherever `c` is read), or makes an array of a kind the code decides too (`c = a` on
    one path, `c = np.zeros(3)` on another: a flag follows which, see analysis.views):
    `c += e` changes `a` in place where the caller gave a NumPy array (NumPy's meaning),
    and rebinds `c` only where it gave a JAX array (passes `numpy=`)."""
    numbers = _numbers(function)
    return {view for stmt, (view, base) in found.items() if is_whole(stmt) and
            (base in kept or kinds.kind(base) not in (None, JAX, NEUTRAL))
            and not {view, base} & numbers and
            (all(isinstance(value, ast.Name) and value.id == base
                 for value in bindings.get(view, [None]))
             or kinds.kind(view) not in (None, JAX, NEUTRAL))}


def _numbers(function):
    """The names `function` uses as numbers: compared in the test of an `if` or a
    `while`, given to `range`, or an index (their `c += e` rebinds `c` only)."""
    found = set()
    for node in own(function.body):
        parts = []
        if isinstance(node, (ast.If, ast.While)):
            parts = [n for n in ast.walk(node.test) if isinstance(n, ast.Compare)]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                node.func.id == 'range':
            parts = node.args
        elif isinstance(node, ast.Subscript):
            parts = [node.slice]
        found.update(name for part in parts for name in _bare_names(part))
    return found


def _bare_names(node):
    """The names expression `node` uses as values themselves: not the arguments of a
    call (`len(v)`), the array of an item (`w` of `w[i]`, whose `i` is one) nor the
    object of an attribute (`v.shape[0]`)."""
    stack = [node]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Name):
            yield node.id
        elif isinstance(node, ast.Subscript):
            stack.append(node.slice)
        elif not isinstance(node, (ast.Call, ast.Attribute)):
            stack += children(node)


def effects(stmt, ag, resolve, writers=None):
    """(names read, names bound, names changed in place, those changed by an item write
    or a helper) by the simple statement `stmt` (by a compound one: by the statements in
    it too); `ag`, `resolve`: the runtime's name and the resolver of called functions;
    `writers`: {nested function: the variables around it it changes, analysis.scopes}.
    (`w = ag.in_place(w, 'sort', ...)`, passes.calls' form of `w.sort()`, changes `w`
    in place.)"""
    loads, stores, changed, by_item = [], [], [], []
    updated, local = set(), set()   # (`x += ...`'s `x`; a comprehension's variables)
    for node in own([stmt]):
        if isinstance(node, ast.AugAssign):
            updated.add(id(node.target))
        elif isinstance(node, ast.Assign) and is_write_view(node, ag):
            updated.add(id(node.targets[0]))   # (NumPy's in-place change, as an item
            by_item.append(node.targets[0].id)   # write's)
        elif isinstance(node, ast.comprehension):
            local.update(id(n) for n in own([node.target]))
        if isinstance(node, ast.Name):
            if id(node) in local:
                continue
            if id(node) in updated:
                loads.append(node.id)
                changed.append(node.id)
            elif isinstance(node.ctx, ast.Load):
                loads.append(node.id)
            else:
                stores.append(node.id)
        elif isinstance(node, ast.Subscript) and not isinstance(node.ctx, ast.Load):
            by_item.append(root(node))
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            stores.append(node.name)
        elif isinstance(node, ast.Call):   # (a helper writing its arguments)
            func, args = split_call(node, ag)
            if func is not node.func:
                by_item += [argument_base(args[p])
                            for p in positions_written(func, args, resolve)]
            if writers and isinstance(func, ast.Name):   # (`def put(e): w[3] = e`)
                by_item += sorted(writers.get(func.id, ()))
    changed += by_item
    return loads, stores, list(dict.fromkeys(n for n in changed if n is not None)), by_item


def nested_reads(function):
    """The names that the functions and lambdas nested in `function` read (when they are
    called: not where analysis.views sees a load of the name)."""
    return {n.id for scope in ast.walk(function) if scope is not function
            and isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            for n in ast.walk(scope) if isinstance(n, ast.Name)
            and isinstance(n.ctx, ast.Load)}
