"""Which parameters' arrays each name may hold, through names bound to names (for
passes.views: the changes in place that it does not follow).

NumPy's `x += e` changes the array `x` holds, wherever else it is held: the caller's
array, if `x` got it from a parameter through other names, and every other name bound
to it. passes.views follows the whole aliases it can (`c = a` of a parameter `a` that
keeps the caller's array, see analysis.view_bindings' `known_aliases`); a parameter
rebound to another's array, directly or through temporaries, is not followed:

    def step(a, b):
        t = a           # t holds a's array (the caller's first argument)
        a = b           # a holds b's
        b = t           # b holds a's: the caller's first argument
        b += 1.0        # NumPy: the caller's first argument changes

`unfollowed_changes` finds such `x op= e`: where `x` may hold a parameter's array
through a binding `x = y` (or a chain of them), or holds its own caller's array while
another name may hold it through one. It is a may-analysis of the function's own
statements (branches joined, loops to a fixed point; a `break` or `return` is taken to
fall through, which only adds holders).
"""
import ast

from autograph.analysis.view_bindings import stored
from autograph.analysis.walk import blocks
from autograph.analysis.written_parameters import parameters

ENTRY, COPY = 'entry', 'copy'   # (ENTRY, p): the array p held on entry, by p itself;
# (COPY, p): that array, by way of a binding to another name


def unfollowed_changes(function):
    """The statements `x op= e` (ast.AugAssign of a name) of `function`'s own body where
    `x` may hold a parameter's array got through a binding `x = y`, or holds its own
    caller's array while another name may hold that too."""
    start = {p: frozenset({(ENTRY, p)}) for p in parameters(function)}
    found = set()
    _block(function.body, start, found)
    return found


def _block(stmts, state, found):
    for stmt in stmts:
        state = _statement(stmt, state, found)
    return state


def _statement(stmt, state, found):
    cls = stmt.__class__
    if cls is ast.If:
        return _join(_block(stmt.body, state, found), _block(stmt.orelse, state, found))
    if cls in (ast.For, ast.AsyncFor, ast.While):
        head = state
        while True:   # (the holders only grow: a fixed point)
            body = _unbind(stored(stmt.target), head) if cls is not ast.While else head
            joined = _join(head, _block(stmt.body, body, found))
            if joined == head:
                break
            head = joined
        return _block(stmt.orelse, head, found)
    if cls is ast.AugAssign:
        if stmt.target.__class__ is ast.Name and _holds_shared(stmt.target.id, state):
            found.add(stmt)
        return state
    if cls is ast.Assign:
        return _assign(stmt, state)
    inner = blocks(stmt)
    if not inner or cls in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef):
        return _unbind(stored(stmt), state)
    out = _unbind(_header_names(stmt), state)   # (`with`, `try`, `match`: a block may
    for block in inner:                          # not run, or run in part)
        out = _join(out, _block(block, out, found))
    return out


def _holds_shared(name, state):
    """Whether `name` may hold a parameter's array got through a binding, or holds its
    own caller's array while another name may hold it too."""
    held = state.get(name, ())
    if any(kind == COPY for kind, _ in held):
        return True
    return (ENTRY, name) in held and any(
        (COPY, name) in others for other, others in state.items() if other != name)


def _assign(stmt, state):
    """`x = y` gives `x` the arrays `y` may hold (`a, b = b, a` likewise, pairwise); any
    other binding, none."""
    pairs = []
    for target in stmt.targets:
        if target.__class__ is ast.Name and stmt.value.__class__ is ast.Name:
            pairs.append((target.id, stmt.value.id))
        elif target.__class__ is ast.Tuple and stmt.value.__class__ is ast.Tuple and \
                len(target.elts) == len(stmt.value.elts):
            pairs += [(t.id, v.id) for t, v in zip(target.elts, stmt.value.elts)
                      if t.__class__ is ast.Name and v.__class__ is ast.Name]
    copies = {target: frozenset((COPY, p) for _, p in state.get(value, ()))
              for target, value in pairs}
    state = _unbind(stored(stmt), state)
    state.update((name, held) for name, held in copies.items() if held)
    return state


def _header_names(stmt):
    """The names a `with`'s items, a `try`'s handlers or a `match`'s patterns bind."""
    names = []
    for item in getattr(stmt, 'items', ()):
        names += stored(item.optional_vars) if item.optional_vars is not None else []
    names += [h.name for h in getattr(stmt, 'handlers', ()) if h.name]
    for case in getattr(stmt, 'cases', ()):
        names += stored(case.pattern)
    return names


def _unbind(names, state):
    state = dict(state)
    for name in names:
        state.pop(name, None)
    return state


def _join(one, other):
    if one is other:
        return one
    return {name: one.get(name, frozenset()) | other.get(name, frozenset())
            for name in one.keys() | other.keys()}
