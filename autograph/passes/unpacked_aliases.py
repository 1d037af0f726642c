"""Aliases bound by unpacking or by a chain of targets, one statement each (for
passes.views, which follows `c = a`: NumPy's `c is a`).

    b, n = v, 0         ->    b = v
                              n = 0
    b = c = v           ->    b = v
                              c = v
    b = c = v[1:3]      ->    b = v[1:3]           (any other value: evaluated once,
                              c = b                 both names hold the one object)

Python evaluates the whole right-hand side, then binds the targets left to right. Taken
one by one the statements mean the same where the values are names and constants that
none of the targets rebinds (not the swap `a, b = b, a`), outside a `try` (where an
unbound value would stop the statement before its first binding). Only statements
whose names the function changes in place (`changed`; None: any name, where a call may
change its arguments) are split: elsewhere an alias needs no following.
"""
import ast

from autograph.analysis.view_bindings import view_bindings
from autograph.analysis.walk import blocks
from autograph.analysis.written_parameters import parameters
from autograph.passes.called_functions import changes_elsewhere


def view_bindings_unpacked(function, changed, ctx, resolve):
    """analysis.view_bindings of `function` (`resolve`: the resolver of its calls) once
    its unpacked aliases are split (those of the names in `changed`, the names its own
    code changes in place, or all where a call may change its arguments) and its
    exchanges of arrays guarded (`guard_exchanges`: `ag.check_exchange(a, b)` first)."""
    everywhere = changes_elsewhere(ctx)
    join_rotations(function, None if everywhere else changed)
    split_unpacked_aliases(function, None if everywhere else changed)
    found = view_bindings(function, ctx.ag, resolve)
    guard_exchanges(function, changed, set(parameters(function)) | {
        n for pair in found.values() for n in pair},
        lambda names: ast.parse(f'{ctx.ag}.check_exchange({", ".join(names)})').body[0])
    return found


def join_rotations(function, changed):
    """`t = a; a = b; b = t` -> `a, b = b, a`, where `a` or `b` is in `changed` (None:
    any name) and nothing else reads the temporary `t` (nor declares it `global` or
    `nonlocal`): the names hold the same arrays after as in Python, and the exchange is
    one statement, which passes.views leaves to `guard_exchanges` (the three whole
    aliases would be followed as views of one another, which a loop cannot follow)."""
    rotations = [(stmts, i, names) for stmts in statement_lists(function.body)
                 for i in range(len(stmts) - 2)
                 for names in [_rotation(stmts[i:i + 3])] if names is not None and (
                     changed is None or set(names[1:]) & changed)]
    if not rotations:
        return
    reads, declared = {}, set()
    for node in ast.walk(function):
        if node.__class__ is ast.Name and node.ctx.__class__ is ast.Load:
            reads[node.id] = reads.get(node.id, 0) + 1
        elif node.__class__ in (ast.Global, ast.Nonlocal):
            declared.update(node.names)
    uses = {}
    for _, _, (temporary, _, _) in rotations:
        uses[temporary] = uses.get(temporary, 0) + 1
    for stmts, i, (temporary, a, b) in reversed(rotations):
        if reads[temporary] == uses[temporary] and temporary not in declared:
            exchange = ast.parse(f'{a}, {b} = {b}, {a}').body[0]
            stmts[i:i + 3] = [ast.copy_location(exchange, stmts[i])]


def _rotation(stmts):
    """(t, a, b) where `stmts` are `t = a`, `a = b`, `b = t` (names, three of them)."""
    pairs = []
    for stmt in stmts:
        if stmt.__class__ is not ast.Assign or len(stmt.targets) != 1 or \
                stmt.targets[0].__class__ is not ast.Name or \
                stmt.value.__class__ is not ast.Name:
            return None
        pairs.append((stmt.targets[0].id, stmt.value.id))
    (t, a), (a2, b), (b2, t2) = pairs
    if a2 != a or b2 != b or t2 != t or len({t, a, b}) != 3:
        return None
    return t, a, b


def split_unpacked_aliases(function, changed):
    """Split, in `function`'s own statements outside `try`, the unpackings and chains
    of targets that bind a name in `changed` or bind one to a name in `changed`."""
    _block(function.body, changed)


def guard_exchanges(function, changed, aliased, check):
    """`check(names)` (a statement) before each `a, b = b, a` (an unpacking whose values
    are among its targets) in `function`'s statements that exchanges a name in
    `changed` (changed in place) with `aliased` names (parameters, whole aliases,
    views): NumPy's arrays change places between the names there, which passes.views
    does not follow (the check is a named error where they are traced NumPy arrays)."""
    for stmts in statement_lists(function.body):
        for i in range(len(stmts) - 1, -1, -1):
            stmt = stmts[i]
            if stmt.__class__ is ast.Assign and len(stmt.targets) == 1 and \
                    stmt.targets[0].__class__ is ast.Tuple and \
                    stmt.value.__class__ is ast.Tuple:
                targets = {t.id for t in stmt.targets[0].elts if t.__class__ is ast.Name}
                exchanged = targets & {v.id for v in stmt.value.elts
                                       if v.__class__ is ast.Name}
                if exchanged & changed and exchanged & aliased:
                    stmts.insert(i, ast.copy_location(check(sorted(exchanged)), stmt))


def guard_unfollowed(function, statements, ctx):
    """`ag.check_unfollowed(x, 'x')` before each of `statements` (`x op= e`, see
    analysis.parameter_copies) in `function`: a named error where `x` is a traced NumPy
    array then, whose change passes.views does not follow to the caller's array."""
    if not statements:
        return
    for stmts in statement_lists(function.body):
        for i in range(len(stmts) - 1, -1, -1):
            if stmts[i] in statements:
                name = stmts[i].target.id
                check = ast.parse(f'{ctx.ag}.check_unfollowed({name}, {name!r})').body[0]
                stmts.insert(i, ast.copy_location(check, stmts[i]))
    ast.fix_missing_locations(function)


def statement_lists(stmts):
    """`stmts` and the statement lists in them, not in nested functions and classes."""
    yield stmts
    for stmt in stmts:
        if stmt.__class__ not in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef):
            for inner in blocks(stmt):
                yield from statement_lists(inner)


def _block(stmts, changed):
    i = 0
    while i < len(stmts):
        stmt = stmts[i]
        pairs = _pairs(stmt) if stmt.__class__ is ast.Assign else None
        if pairs and (changed is None or any(
                t in changed or (v.__class__ is ast.Name and v.id in changed)
                for t, v in pairs)):
            stmts[i:i + 1] = [
                ast.copy_location(ast.Assign(targets=[ast.copy_location(
                    ast.Name(id=target, ctx=ast.Store()), stmt)], value=value), stmt)
                for target, value in pairs]
            i += len(pairs)
            continue
        if stmt.__class__ not in (ast.Try, ast.FunctionDef, ast.AsyncFunctionDef,
                                  ast.ClassDef) and stmt.__class__.__name__ != 'TryStar':
            for inner in blocks(stmt):
                _block(inner, changed)
        i += 1


def _pairs(stmt):
    """[(target name, value)] of `t1, t2 = v1, v2` or `t1 = t2 = v` (names bound to
    names and constants, no target among the values), of `t1 = t2 = e` (`e` any other
    expression: [(t1, e), (t2, t1)]), else None."""
    targets, value = stmt.targets, stmt.value
    if len(targets) > 1 and all(t.__class__ is ast.Name for t in targets) and \
            value.__class__ not in (ast.Name, ast.Constant):   # (`a = b = v[1:3]`: one
        first = targets[0].id                                  # object, evaluated once)
        return [(first, value)] + [(t.id, ast.Name(id=first, ctx=ast.Load()))
                                   for t in targets[1:]] \
            if len({t.id for t in targets}) == len(targets) else None
    if len(targets) > 1 and all(t.__class__ is ast.Name for t in targets):
        pairs = [(t.id, value) for t in targets]
    elif len(targets) == 1 and targets[0].__class__ is ast.Tuple and \
            value.__class__ is ast.Tuple and len(targets[0].elts) == len(value.elts) and \
            all(t.__class__ is ast.Name for t in targets[0].elts):
        pairs = [(t.id, v) for t, v in zip(targets[0].elts, value.elts)]
    else:
        return None
    names = {t for t, _ in pairs}
    if len(names) < len(pairs) or not all(
            v.__class__ is ast.Constant or (v.__class__ is ast.Name and v.id not in names)
            for _, v in pairs):
        return None
    return pairs
