"""Kinds `loop-state` and `condition`: what a staged loop cannot carry, and conditions
that cannot be staged. Python rebinds a loop's variables freely; `lax.while_loop` and
`lax.scan` carry each one with a fixed shape, dtype and structure from before the loop,
and test a scalar condition."""
from ..protocol import RETURN_VALUE
from .branches import where_differs
from .style import Kind, problem

LOOP_STATE = Kind(
    'loop-state', 'a staged loop cannot carry a variable: it has no value before the loop, '
    'changes type, or holds a value made anew in each iteration')
CONDITION = Kind(
    'condition', 'the condition of a staged statement is not a scalar value, a staged '
    '`while` loop would never end, or a condition that differs between devices '
    '(jax.shard_map) guards a collective')


def carry_mismatch(name, before, after, location, hint=''):
    """Variable `name` is `before` as the loop starts but `after` after one iteration
    (state.describe), or is 'undefined' before the loop and needed after it; `hint`
    replaces the fix (see lists.list_hint)."""
    if before == 'undefined':
        return problem(
            LOOP_STATE, f"'{name}' has no value before the staged loop", location,
            happened='but is assigned in it and used after it or by the next iteration',
            why=f"the loop is staged (its condition or iterable is traced), so '{name}' "
                f"needs a value of its final shape and dtype before the loop starts",
            fix='Initialise it before the loop')
    quoted = 'the return value' if name == RETURN_VALUE else f"'{name}'"
    label, before, after = where_differs(quoted, before, after)
    return problem(
        LOOP_STATE, f'{label} is {before} before the staged loop', location,
        happened=f'but {after} after one iteration',
        why='a staged loop carries each variable with a fixed shape, dtype and structure',
        fix=hint or _carry_fix(name, before, after))


def _carry_fix(name, before, after):
    shape_before, shape_after = before.partition('[')[2], after.partition('[')[2]
    if '[' in before and '[' in after and shape_before != shape_after:
        return (f"'{name}' cannot change shape: preallocate it with its final shape and "
                f"fill it with {name}.at[...].set(...)")
    if '[' in after and '[' in before:
        dtype = after.split('[')[0]
        return (f"Give '{name}' its final dtype from the start: initialise it before the "
                f"loop as {dtype} (for example jnp.{dtype}(0) or jnp.zeros(shape, "
                f"jnp.{dtype}))")
    return (f"Give '{name}' before the loop the same kind of value it has after an "
            f"iteration ({after})")


def carry_unsettled(location):
    """The types a loop carries still change after several traces of its body."""
    return problem(
        LOOP_STATE, 'the types carried by the loop', location, happened='do not settle',
        why='its body was traced 6 times and still changed the shape, dtype or structure '
            'of what it carries',
        fix="Give the loop's variables their final shape and dtype before the loop")


def created_in_loop(name, value, location):
    """The error that reading `name` raises after a staged loop that creates it with a
    value that cannot be carried (a function or object made in each iteration)."""
    return problem(
        LOOP_STATE, f"'{name}' is first assigned inside the staged loop", location,
        happened='and read after it (by a closure or a later statement)',
        why=f'its value ({type(value).__name__}) is made anew by each iteration and '
            f'cannot be carried out of a staged loop',
        fix=f"Assign '{name}' before the loop, or use it only inside the loop body")


def not_initialised(name, what, location):
    """A framework's loop (backends.framework) carries `name`, which has no value yet."""
    return problem(
        LOOP_STATE, f"'{name}' has no value before the staged {what}", location,
        why="a framework's loop carries only values it had before the loop",
        fix=f"Assign '{name}' before the loop")


def condition_shape(what, shape, location):
    """The condition of `what` (the statement in words) is an array of `shape`."""
    return problem(
        CONDITION, f'the condition of the {what}', location,
        happened=f'is an array of shape {shape}', why='a condition must be a scalar',
        fix='Reduce it with jnp.any(...) or jnp.all(...)')


def condition_no_value(what, location):
    """The condition of `what` gives no value when traced."""
    return problem(CONDITION, f'the condition of the {what}', location,
                   happened='is not a value',
                   why='it gives no array or number, so there is nothing to stage a test on',
                   fix='Make the condition give a boolean')


def never_ends(location, set_by_body=False):
    """A staged `while` whose true condition reads nothing the loop changes, or (with
    `set_by_body`) is made true again by every iteration whatever the state."""
    why = ('its condition is true, and every iteration sets what it reads to values that '
           'keep it true' if set_by_body else
           'its condition is true, and it reads no variable that the loop changes')
    return problem(
        CONDITION, 'the `while` loop', location, happened='never ends',
        why=why + ', so it stays true and the compiled loop could never stop',
        fix='Make the body change what the condition reads, or `break` out of it')


def collective_under_varying(what, primitive, axes, location):
    """A collective (`primitive`, over mesh `axes`) inside `what`, a staged statement
    whose condition varies over those axes (inside jax.shard_map)."""
    named = ', '.join(repr(a) for a in axes)
    return problem(
        CONDITION, f'the {what}', location, statement=True,
        happened=f'calls lax.{primitive} over {named} where its condition allows',
        why=f'the condition differs between the devices along {named} (jax.shard_map), '
            f'and a collective waits for every one of them: the devices that skip it '
            f'would leave the others waiting forever',
        fix=f'Call lax.{primitive} before the statement, on every device, or make the '
            f'condition the same on every device (a lax.psum or lax.pmax of it)')


def live_iterable_rebound(name, location):
    """A loop iterates NumPy array `name`, which its body both changes in place and
    rebinds: Python's iterator keeps the first object, and the writes made after the
    rebinding go to another one."""
    return problem(
        LOOP_STATE, f"the loop iterates the NumPy array '{name}', which its body changes "
                    f"in place and also rebinds", location, statement=True,
        why="Python's iterator keeps reading the array the loop started with, and "
            "follows only the writes made to it before the rebinding: the converted loop "
            "cannot tell which writes the next items see",
        fix=f"Iterate over a copy (`{name}.copy()`), or change '{name}' only in place "
            f"(`{name}[k] = e`) in the loop")


def live_iterable_unfollowed(what, location, how='changes in place'):
    """A loop's body changes in place an iterable (`what`) that a staged loop iterates,
    and the converted loop cannot follow it (a list zipped with an array that grows or
    shrinks, an object that is neither an array nor a list)."""
    return problem(
        LOOP_STATE, f'the loop iterates {what}, which its body {how}', location,
        statement=True,
        why="Python's iterator reads each item (and the length) when its step begins, "
            "so it sees what earlier steps wrote; the converted loop cannot follow this "
            "one",
        fix='Iterate by index (`for k in range(len(v)):` and read `v[k]`), or over a copy')


def held_list_staged(name, holder, location):
    """A staged loop carries list `name`, which `holder` also holds (another name, or the
    list itself where it holds one row object twice)."""
    return problem(
        LOOP_STATE, f"the staged loop changes the list '{name}', which is also held by "
                    f"{holder}", location, statement=True,
        why='a staged loop passes the items of a list to its body as a new list, so a '
            'write through one name would not be seen through the other, as Python shows '
            'it',
        fix=f"Read and write '{name}' through one name in the loop (and build rows as "
            f"`[[0.0] * k for _ in range(n)]`), or run the loop as Python (a Python "
            f"bound)")
