"""Dict keys that exist on some paths only (set or deleted by a staged loop or branch,
see runtime.checks.keys): what Python cannot be given while tracing, and what a
transformation around the function cannot be given after it."""
from .results import RESULT_LEAVES_TRACE
from .style import problem
from .values import KNOWN_AT_RUN_TIME, PYTHON_VALUE_NEEDED


def keys_unknown(operation, keys, location):
    """`operation` (`len()`, iterating, ...) needs the keys of a dict whose `keys` exist
    on some paths of staged code only."""
    shown = ', '.join(repr(k) for k in keys)
    return problem(
        PYTHON_VALUE_NEEDED, operation, location,
        happened=f'needs the keys of a dict whose key {shown} a staged loop or branch '
                 f'sets on some paths only',
        why=f'whether the dict has that key is {KNOWN_AT_RUN_TIME}',
        fix=f'Give the key a value before the loop or branch (a default), or test it '
            f'with `{keys[0]!r} in d` and read it with d[{keys[0]!r}] or d.get')


def default_read_elsewhere(key, location):
    """A defaultdict's key that it may lack (absent, or set on some paths only by a
    staged statement before), read (`d[key]`) inside a staged branch or loop body that
    does not change the dict itself."""
    return problem(
        PYTHON_VALUE_NEEDED, f'reading key {key!r} of a defaultdict', location,
        happened='inside a staged branch or loop body, where the dict may lack the key',
        why="Python's defaultdict adds a key it lacks on the path that reads it only, and "
            "the dict, made outside the branch or body, which does not change it, cannot "
            "be given a key on one path",
        fix=f'Read it with d.get({key!r}, default), or give the key a value before the '
            f'branch or loop (d[{key!r}] = d[{key!r}])')


def key_default_differs(key, location):
    """`d.get(key, default)` (or pop, setdefault) on a key that exists on some paths
    only, with a default that is not a value of the item's structure and type."""
    return problem(
        PYTHON_VALUE_NEEDED, f'the default for key {key!r}', location,
        happened='is not a value of the same structure as the item, which a staged loop '
                 'or branch sets on some paths only',
        why=f'whether the dict has that key is {KNOWN_AT_RUN_TIME}, so the result must '
            f'have one type either way',
        fix='Give a default of the same structure (arrays or numbers), or None')


def key_absent_in_result(function, location, label):
    """The run-time error of a result (inside a transformation around the Function) that
    lacks dict key `label` on this run (run-time check)."""
    return problem(
        RESULT_LEAVES_TRACE, f'{label} of {function}()', location,
        happened='is absent on this run (a staged loop or branch sets it on some paths '
                 'only)',
        why='inside a transformation around the function (jax.jit, jax.vmap, jax.grad) '
            'the dict it gives back must have the same keys on every run',
        fix='Give the key a value before the loop or branch (a default), or call the '
            'converted function outside the transformation')
