"""Lists that a loop carries and other code holds too: `l2 = l` (a name the loop's body
or test reads), or one row object twice in a list of rows (`[[0.0] * 2] * 2`). In
Python they are one object, so a write through one name (`l[0] = e`, `rows[0][k] = e`)
is seen through the other (`l2[0]`, `rows[1][k]`).

A Python loop passes the very list to each iteration, and Python's meaning holds. A
staged loop passes its state to the body as new lists (a pytree rebuilt from its
leaves): the body would write those while `l2` keeps the items the list had before the
loop, and the rows would no longer be one object. There, a ControlFlowError names the
list (never a silent wrong value).
"""
from ..context import staged_depth
from ..errors import here
from ..messages import held_list_staged


def checked(fn, state, names, leading):
    """`fn(*leading, *values)` (a loop body or test), raising a ControlFlowError where a
    staged loop gives it a new list for a list of `state` (one value per name in
    `names`) that others hold too (see the module doc); `fn` itself where there is none
    (most loops)."""
    if fn is None:
        return fn
    held = _held(state, fn)
    if not held:
        return fn
    depth, location = staged_depth(), here(2)

    def on_held_lists(*args):
        if staged_depth() > depth:   # (a staged loop's trace, not a Python iteration)
            for k, holder in held.items():
                if args[leading + k] is not state[k]:
                    raise held_list_staged(names[k], holder, location)
        return fn(*args)
    return on_held_lists


def _held(state, fn):
    """{position: who else holds it} of the lists in `state` that `fn`'s closure holds
    (`l2 = l`, read in the body), or that hold one list object twice (repeated rows)."""
    lists = {k: value for k, value in enumerate(state) if type(value) is list}
    if not lists:
        return {}
    code, closure = getattr(fn, '__code__', None), getattr(fn, '__closure__', None)
    cells = {}
    for name, cell in zip(code.co_freevars if code else (), closure or ()):
        try:
            cells[name] = cell.cell_contents
        except ValueError:   # (an empty cell)
            continue
    held = {}
    for k, value in lists.items():
        holders = [name for name, c in cells.items() if _holds(c, value)]
        if holders:
            held[k] = f"'{holders[0]}'"
        elif _repeated(value, set()):
            held[k] = 'itself (one list object twice in it)'
    return held


def _holds(obj, target):
    return obj is target or (type(obj) in (list, tuple) and any(o is target for o in obj))


def _repeated(obj, seen):
    """Whether list `obj` holds some list object twice (at any depth)."""
    for item in obj:
        if type(item) is list:
            if id(item) in seen:
                return True
            seen.add(id(item))
            if _repeated(item, seen):
                return True
    return False


def unaliased(value):
    """Python reference: `value` (the statement `name = value`, a whole alias). Where it
    is a list or dict that no code can tell from a copy (autograph.passes.unaliased), a
    shallow copy: a new object, which a staged statement binding the name on some paths
    only merges as it does any new list (where the very object would be a named error,
    see runtime.state.mutation)."""
    if type(value) is list:
        return list(value)
    if type(value) is dict:
        return dict(value)
    return value
