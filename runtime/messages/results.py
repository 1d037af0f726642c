"""Kind `result-leaves-trace`: a converted function's result (or the state it leaves)
that Python cannot be given after the compiled program ran: a traced array hidden in an
object that is not a pytree, or a value that is None on some paths, decided inside a
trace that is not the function's own. The location is the `return` that gives None
(else the function's `def` line)."""
from .style import Kind, problem

RESULT_LEAVES_TRACE = Kind(
    'result-leaves-trace', "a function's result holds a traced array inside an object that "
    "is not a pytree, or is None (or another constant) on some paths inside a trace that "
    "is not its own")


def traced_in_object(function, location, label, type_name):
    """`label` (a path into the result of `function`, its name) is a traced array
    inside a `type_name` object."""
    return problem(
        RESULT_LEAVES_TRACE, f'{label} of {function}()', location,
        happened=f'is a traced array inside {type_name}, which is not a pytree',
        why='a compiled function can only return arrays from its trace',
        fix=f'Register {type_name} as a pytree (jax.tree_util.register_dataclass or '
            f'register_pytree_node), or return the arrays themselves')


def optional_in_foreign_trace(function, location, found=None, label=None, chosen=False):
    """A result that is None on some paths (`chosen`: a constant on some paths and
    another value on others, runtime.values.choice), decided by a traced condition,
    inside someone else's trace (`jax.jit` around `convert(..., jit=False)`, `jax.vmap`).
    `found`: 'return' where `location` is the `return` that gives None, 'end' where it
    is the last line of a body Python may fall off (else it is the function's `def`);
    `label`: the variable (of the state the function leaves) that is None."""
    kinds = 'a constant on some paths and another value' if chosen \
        else 'None on some paths and a value'
    subject = (f"{function}() leaves '{label}' None" if label is not None and not chosen
               else f'{function}()' if chosen else
               f'{function}() returns None' + (' by falling off its end' if found == 'end'
                                               else ''))
    happened = (f'returns {kinds} on others, decided by a traced condition' if chosen else
                'on some paths and a value on others, decided by a traced condition')
    return problem(
        RESULT_LEAVES_TRACE, subject, location, statement=found == 'return',
        happened=happened,
        why="inside a transformation around it (jax.jit of convert(..., jit=False), "
            "jax.vmap, jax.grad) the caller cannot be given the one this run gives before "
            "the program runs",
        fix='Return one kind of value on every path (and a flag that says whether it is '
            'valid), or call the converted function outside the transformation')


def log_in_foreign_trace(function, location):
    """A list `function` only appends to (a log) got items under a traced condition,
    inside someone else's trace (jax.jit around the Function)."""
    return problem(
        RESULT_LEAVES_TRACE, f'{function}()', location,
        happened='appends to a list it only appends to (a log) in a staged branch, '
                 'decided by a traced condition',
        why="inside a transformation around it (jax.jit, jax.vmap, jax.grad) the list "
            "cannot be given the items the program takes before the program runs",
        fix='Call the function outside the transformation, or append on every path (a '
            'value and a flag that says whether it is valid)')


def traced_in_container(kind, function):
    """A set, deque, Queue or Counter (`kind`) that the Function `function` (its name) is
    given or holds was given a traced value while the Function was traced."""
    return problem(
        RESULT_LEAVES_TRACE, f'a {kind} that {function}() is given or holds (a closure '
        f'variable, a global it names)', None,
        happened='was given a traced value while the Function was traced',
        why=f'a {kind} is a Python object, not a pytree, that the compiled program cannot '
            f'change: it would keep the trace\'s placeholder, not the value of a call',
        fix=f'Return the value instead, or collect it in a list (a list given to a Function '
            f'gets the values of each call), then fill the {kind} after the call')
