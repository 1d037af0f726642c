"""Kind `branches-differ`: a variable, or the result, differs between the paths of a
staged `if`, `match` or conditional expression. Python runs one path, so any value goes;
a traced condition stages every path into one `lax.cond`, which must give each variable
one shape, dtype and structure (and a value on every path where it is read after)."""
from ..protocol import RETURN_VALUE
from .style import Kind, problem

BRANCHES_DIFFER = Kind(
    'branches-differ', 'a variable or the result differs between the paths of a staged '
    '`if`, `match` or conditional expression (shape, dtype, structure, or assigned)')

_SAME_KIND = ('Give the values one shape, dtype and structure (.astype, jnp.broadcast_to), '
              'or make the condition a Python value')
_GROWN_LIST = ('A list that grows on some paths only (an `append` under a traced `if`, or in '
               'a loop a traced `break` may stop) has a length known only when the program '
               'runs: write into an array made before (`out = jnp.zeros(n)`, then `out = '
               'out.at[i].set(v)`) and keep a count, or make the condition a Python value')


def _lists_of_two_lengths(true_value, false_value):
    return all(str(v).startswith('list of ') for v in (true_value, false_value)) \
        and true_value != false_value

TWO_WAY = ('true', 'false')
"""How errors name the two branches of an `if`."""


def branch_mismatch(name, true_value, false_value, location, what, labels=TWO_WAY):
    """The error for variable `name` differing between two branches of `what` (the
    statement's name in words), called by `labels` ('true'/'false', or '2nd'/'`else`' in
    a chain); `true_value`/`false_value` describe the values (state.describe), or are
    'undefined'."""
    a, b = labels
    every = 'both branches' if labels == TWO_WAY else 'every branch'
    if what == 'conditional expression' and location and location.fact('kind') == 'compound':
        name = RETURN_VALUE  # `if c: return a` + `return b` (see passes.returns)
    chosen = _object_choice(true_value, false_value)
    if chosen is not None:
        return _objects_chosen(name, chosen, location, what, every)
    if name == RETURN_VALUE:
        label, true_value, false_value = where_differs('the return value', true_value,
                                                        false_value)
        ends = (' (`return None`, or the end of the function)'
                if 'None' in (true_value, false_value) else '')
        return problem(
            BRANCHES_DIFFER,
            f'{label} is {true_value} on one path but {false_value} on another{ends}, where '
            f'the paths part', location, statement=True,
            why='a condition is traced there, so every path must return a value of the '
                'same shape, dtype and structure',
            fix='Return values of one shape, dtype and structure on every path, or make '
                'the condition a Python value')
    if what == 'conditional expression':
        name, true_value, false_value = where_differs('the value', true_value, false_value)
        when = (f'when its condition is true but {false_value} when it is false'
                if labels == TWO_WAY else f'in its {a} branch but {false_value} in its {b}')
        return problem(
            BRANCHES_DIFFER, 'the conditional expression', location, statement=True,
            happened=f'gives {name} {true_value} {when}',
            why=f'the condition is traced, so {"both" if labels == TWO_WAY else every} '
                f'must have the same shape, dtype and structure',
            fix=_SAME_KIND)
    if 'undefined' in (true_value, false_value):
        assigned, other = (a, b) if false_value == 'undefined' else (b, a)
        return problem(
            BRANCHES_DIFFER, f"'{name}' is assigned in the {assigned} branch of the {what}",
            location, happened=f'but not in the {other} branch, and it is used after the '
                               f'{what}',
            why=f"the condition is traced (its value is known only when the program runs), "
                f"so {every} must give '{name}' a value",
            fix=f'Assign it before the {what} or in {every}')
    label, true_value, false_value = where_differs(f"'{name}'", true_value, false_value)
    static = (' (its non-array parts differ: attributes or metadata that JAX keeps static, '
              'such as Python numbers stored in a pytree)' if true_value == false_value else '')
    return problem(
        BRANCHES_DIFFER, f'{label} is {true_value} in the {a} branch but {false_value} in '
                         f'the {b} branch of the {what}', location, happened=static.strip(),
        why=f"with a traced condition {every} must give '{name}' the same shape, dtype and "
            f"structure",
        fix=_GROWN_LIST if _lists_of_two_lengths(true_value, false_value) else _SAME_KIND)


def _objects_chosen(name, chosen, location, what, every):
    """The error for a traced condition choosing between two Python objects: `chosen` is
    (the path to them in the variable's value, their class's name)."""
    path, kind = chosen
    returned = name == RETURN_VALUE
    label = _with_path('the return value' if returned else f"'{name}'", path)
    return problem(
        BRANCHES_DIFFER, f'{label} is a {kind} object on every path, where the paths part'
        if returned else f'{label} is a {kind} object in {every} of the {what}',
        location, statement=returned,
        why='a traced condition chooses between arrays (and pytrees of arrays), not '
            'between Python objects, which the compiled program cannot hold',
        fix=f'Make {kind} a pytree (jax.tree_util.register_dataclass, '
            f'flax.struct.dataclass) so that its arrays are chosen, choose between their '
            f'arrays with jnp.where, or make the condition a Python value')


def no_value_after_branches(name, location, what):
    """A framework's `cond` (backends.framework): `name` has no value at the end of one
    of the branches of `what`."""
    subject = ('the function returns no value' if name == RETURN_VALUE
               else f"'{name}' has no value")
    return problem(
        BRANCHES_DIFFER, f'{subject} at the end of {what}', location,
        why='the condition is staged, so every branch must give it one',
        fix='Assign it before the `if` or in both branches')


def unset_on_a_path(name, location, what):
    """The error that reading `name` raises after `what` left it unset on some paths
    (bound to state.Unbound, read by a closure or a later statement)."""
    return problem(
        BRANCHES_DIFFER, f"'{name}' is assigned on only some paths of the {what}", location,
        happened='and it is read after it (by a closure or a later statement)',
        why='the condition is traced, so the path is known only when the program runs, '
            'and Python would raise NameError on the paths that leave it unset',
        fix=f"Assign '{name}' before the {what} or on every path")


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


def _object_choice(a, b):
    """(key path, class name) of a Python object in two values that are otherwise alike
    (`cur = trial` between two objects of one class), or None."""
    a_objects, b_objects = getattr(a, 'objects', {}), getattr(b, 'objects', {})
    if a != b or getattr(a, 'leaves', {}) != getattr(b, 'leaves', {}):
        return None
    for path, kind in a_objects.items():
        if b_objects.get(path) == kind:
            return path, kind
    return None


def _with_path(label, path):
    """`'d'` and `['a']['b']` -> `'d['a']['b']'`: the part named as the user writes it."""
    if len(label) > 1 and label[0] == label[-1] == "'":
        return f"'{label[1:-1]}{path}'"
    return f'{label}{path}'
