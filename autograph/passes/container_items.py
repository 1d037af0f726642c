"""Arrays taken out of a list or dict, then changed in place:

    params = {'W': W}
    p = params['W']                 p = params['W']
    p -= 1.0                 ->     ag.check_held(p)
                                    p -= 1.0
    for p in params.values():       for p in params.values():
        p -= lr * g                     ag.check_held(p)
                                        p -= lr * g

NumPy changes the array itself, which the container (and `W`, and the caller) holds; the
converted code makes a new array, which none of them sees. So where such a name holds a
traced value standing for a NumPy array when it changes (`x op= e`, an item written,
`p[0] = e`), the program stops with a named error (runtime.items.items.check_held); a
JAX array's `p -= e` rebinds `p` in Python too, and runs. The names: a variable assigned
an item of a variable bound to a list or dict display (`p = params['W']`), and a loop's
targets over such a variable, a display, or its `.values()` / `.items()` (also inside
`zip` or `enumerate`).
"""
import ast

from autograph.analysis.view_bindings import containers, own_statements, stored
from autograph.passes.base import StatementRewriter

_ITEMS = ('values', 'items')


def check_container_items(function, changed, ctx):
    """Put `ag.check_held(name)` before each statement of `function` that changes in
    place a name of `changed` that holds an item of a list or dict (see the module doc)."""
    held = _container_items(function, changed) if changed else ()
    if held:
        _Checks(ctx, held).block(function.body)


def _container_items(function, changed):
    """The names of `changed` that `function` binds to an item of a container."""
    candidates = []   # (the bindings of changed names: the containers are looked for
    for node in own_statements(function.body):   # only where there are some)
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Subscript) and \
                isinstance(node.value.value, ast.Name):
            names = {n for t in node.targets for n in stored(t)} & changed
        elif isinstance(node, ast.For):
            names = set(stored(node.target)) & changed
        else:
            continue
        if names:
            candidates.append((node, names))
    boxes = containers(function) if candidates else ()
    found = set()
    for node, names in candidates:
        if node.__class__ is ast.Assign and node.value.value.id in boxes or \
                node.__class__ is ast.For and _of_items(node.iter, boxes):
            found |= names
    return found


def _of_items(iterable, boxes):
    """Whether a loop over `iterable` takes items out of a container."""
    if isinstance(iterable, (ast.List, ast.Tuple)):
        return True
    if isinstance(iterable, ast.Name):
        return iterable.id in boxes
    if isinstance(iterable, ast.Call) and isinstance(iterable.func, ast.Attribute):
        return iterable.func.attr in _ITEMS and isinstance(iterable.func.value, ast.Name) \
            and iterable.func.value.id in boxes
    if isinstance(iterable, ast.Call) and isinstance(iterable.func, ast.Name) and \
            iterable.func.id in ('zip', 'enumerate'):
        return any(_of_items(arg, boxes) for arg in iterable.args)
    return False


def held_check(name, ctx, item=False, items=None):
    """`ag.check_held(name)` before a statement that changes the array of `name` in
    place, where the function also stored it in a container, an attribute or an item
    (analysis.own_arrays), or took it out of one: a named error where it is traced by
    then. `item`: the change writes items (a helper's `arr[0] = e`), which only a NumPy
    array takes, so also where its kind is unknown (runtime.items.items' `check_held`).
    `items`: the function stored an item of that many indices only (`held_items`)."""
    return ast.parse(f'{ctx.ag}.check_held({name}{", item=True" if item else ""}'
                     f'{"" if items is None else f", held_items={items}"})').body[0]


class _Checks(StatementRewriter):
    def __init__(self, ctx, names):
        super().__init__(ctx)
        self.names = names

    def rewrite(self, stmt):
        name = _changed_name(stmt)
        if name not in self.names:
            return [stmt]
        check = held_check(name, self.ctx)
        return [ast.fix_missing_locations(ast.copy_location(check, stmt)), stmt]


def _changed_name(stmt):
    """The name `stmt` changes in place: `p op= e`, `p[k] = e`, `p[k] op= e`."""
    targets = stmt.targets if isinstance(stmt, ast.Assign) else \
        [stmt.target] if isinstance(stmt, ast.AugAssign) else []
    for target in targets:
        if isinstance(stmt, ast.AugAssign) and isinstance(target, ast.Name):
            return target.id
        while isinstance(target, ast.Subscript):
            target = target.value
            if isinstance(target, ast.Name):
                return target.id
    return None
