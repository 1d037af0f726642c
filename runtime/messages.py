"""The errors of staged statements, each naming the user's variable, the statement's
file:line and the fix, rendered in one style: what differs (narrowed to the first part of
the value that differs), where, why staging needs it, and what to write instead."""
from .errors import ControlFlowError, where
from .state import RETURN_VALUE

TWO_WAY = ('true', 'false')
"""How errors name the two branches of an `if`."""


def branch_mismatch(name, true_value, false_value, location, what, labels=TWO_WAY):
    """The error for variable `name` differing between two branches, called by `labels`
    ('true'/'false', or '2nd'/'`else`' in a chain)."""
    a, b = labels
    every = 'both branches' if labels == TWO_WAY else 'every branch'
    statement = location.source_line() if location else ''
    if what == 'conditional expression' and location and location.fact('kind') == 'compound':
        name = RETURN_VALUE  # `if c: return a` + `return b` (see passes.returns)
    if name == RETURN_VALUE:
        label, true_value, false_value = where_differs('the return value', true_value,
                                                        false_value)
        ends = (' (`return None`, or the end of the function)'
                if 'None' in (true_value, false_value) else '')
        return ControlFlowError(
            f'{label} is {true_value} on one path but {false_value} on another{ends}: the '
            f'paths part{where(location)} (`{statement}`), where a condition is traced, so '
            f'every path must return a value of the same shape, dtype and structure.')
    if what == 'conditional expression':
        name, true_value, false_value = where_differs('the value', true_value, false_value)
        when = (f'when its condition is true but {false_value} when it is false'
                if labels == TWO_WAY else f'in its {a} branch but {false_value} in its {b}')
        return ControlFlowError(
            f'the conditional expression{where(location)} (`{statement}`) gives {name} '
            f'{true_value} {when}. The condition is traced, so '
            f'{"both" if labels == TWO_WAY else "every branch"} must have the same shape, '
            f'dtype and structure.')
    if 'undefined' in (true_value, false_value):
        assigned, other = (a, b) if false_value == 'undefined' else (b, a)
        return ControlFlowError(
            f"'{name}' is assigned in the {assigned} branch of the {what}{where(location)} "
            f"but not in the {other} branch, and it is used after the {what}. The condition "
            f"is traced (its value is known only when the program runs), so {every} "
            f"must give '{name}' a value: assign it before the {what} or in {every}.")
    label, true_value, false_value = where_differs(f"'{name}'", true_value, false_value)
    static = (' (its non-array parts differ: attributes or metadata that JAX keeps static, '
              'such as Python numbers stored in a pytree)' if true_value == false_value else '')
    return ControlFlowError(
        f"{label} is {true_value} in the {a} branch but {false_value} in the {b} branch "
        f"of the {what}{where(location)}{static}. With a traced condition {every} must "
        f"give '{name}' the same shape, dtype and structure.")


def unset_on_a_path(name, location, what):
    return (f"'{name}' is assigned on only some paths of the {what}{where(location)}, whose "
            f"condition is traced, and it is read after it (by a closure or a later "
            f"statement). Python would raise NameError on the paths that leave it unset; "
            f"here the path is known only when the program runs: assign '{name}' before the "
            f"{what} or on every path.")


def where_differs(label, a, b):
    """(label, a, b) narrowed to the first part of two described values that differs:
    `'y['b']'`, or a key that one of them has and the other has not."""
    a_leaves, b_leaves = getattr(a, 'leaves', {}), getattr(b, 'leaves', {})
    if not (a_leaves or b_leaves) or a.partition(' of ')[0] != b.partition(' of ')[0]:
        return label, a, b
    if a != b and not a.startswith('dict'):
        return label, a, b  # sequences of different lengths: 'list of 1' says it
    for path in list(a_leaves) + list(b_leaves):
        if path not in b_leaves:
            return _with_path(label, path), a_leaves[path], 'missing'
        if path not in a_leaves:
            return _with_path(label, path), 'missing', b_leaves[path]
    for path, text in a_leaves.items():
        if b_leaves[path] != text:
            return _with_path(label, path), text, b_leaves[path]
    return label, a, b


def _with_path(label, path):
    """`'d'` and `['a']['b']` -> `'d['a']['b']'`: the part named as the user writes it."""
    if len(label) > 1 and label[0] == label[-1] == "'":
        return f"'{label[1:-1]}{path}'"
    return f'{label}{path}'


def carry_mismatch(name, before, after, location, hint=''):
    if before == 'undefined':
        return ControlFlowError(
            f"'{name}' has no value before the staged loop{where(location)} but is assigned "
            f"in it and used after it or by the next iteration. The loop is staged (its "
            f"condition or iterable is traced), so '{name}' needs a value of its final shape "
            f"and dtype before the loop starts: initialise it before the loop.")
    quoted = 'the return value' if name == RETURN_VALUE else f"'{name}'"
    label, before, after = where_differs(quoted, before, after)
    return ControlFlowError(
        f"{label} is {before} before the staged loop{where(location)} but {after} after one "
        f"iteration. A staged loop carries each variable with a fixed shape, dtype and "
        f"structure; {hint or _carry_fix(name, before, after)}.")


def _carry_fix(name, before, after):
    shape_before, shape_after = before.partition('[')[2], after.partition('[')[2]
    if '[' in before and '[' in after and shape_before != shape_after:
        return (f"'{name}' cannot change shape: preallocate it with its final shape and "
                f"fill it with {name}.at[...].set(...)")
    if '[' in after and '[' in before:
        dtype = after.split('[')[0]
        return (f"initialise '{name}' before the loop as {dtype} "
                f"(for example jnp.{dtype}(0) or jnp.zeros(shape, jnp.{dtype}))")
    return (f"give '{name}' before the loop the same kind of value it has after an "
            f"iteration ({after})")



def list_hint(name, value):
    if isinstance(value, list):
        return (f"a staged loop without a fixed trip count (a while loop, a loop with break, "
                f"or a range with a traced bound) cannot collect values in a list: use a for "
                f"loop over an array or a static range, or write into a preallocated array "
                f"with {name} = {name}.at[i].set(value)")
    return ''


def never_ends(location):
    return ControlFlowError(
        f'the `while` loop{where(location)} never ends: its condition is true, and it reads '
        f'no variable that the loop changes, so it stays true and the compiled loop could '
        f'never stop. Make the body change what the condition reads, or `break` out of it.')
