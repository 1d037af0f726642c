"""Kind `list-in-staged-loop`: a Python list that a staged loop appends to. The body is
traced once, so the list can only collect arrays (stacked per iteration, see
runtime.state.lists), in a loop whose trip count is known, and the body cannot read the items
of earlier iterations."""
from ..errors import ControlFlowError
from .style import Kind, problem

LIST_IN_LOOP = Kind(
    'list-in-staged-loop', 'a staged loop appends to a Python list and reads it, collects '
    'non-array values in it, or has no fixed trip count')


class ListReadInLoop(ControlFlowError):
    """A staged loop body reads a list that it also appends to."""


def list_hint(name, value):
    """The fix for a loop that carries list `value` with no fixed trip count (see
    loops.carry_mismatch), or '' when `value` is not a list."""
    if isinstance(value, list):
        return (f"A staged loop without a fixed trip count (a while loop, a loop with break, "
                f"or a range with a traced bound) cannot collect values in a list: use a for "
                f"loop over an array or a static range, or write into a preallocated array "
                f"with {name} = {name}.at[i].set(value)")
    return ''


def collects_non_arrays(name, description, location):
    """List `name` collects values described by `description` that are not arrays."""
    return problem(
        LIST_IN_LOOP, f"'{name}' collects {description} values in the staged loop",
        location, why='a staged loop runs its body once, while tracing, so it can only '
                      'collect arrays in a list (stacked per iteration)',
        fix=f"Build '{name}' with a Python loop (over a list or a Python range) instead")


def read_while_appending(name, read_at, location):
    """List `name` is read (at `read_at`, the user's line, or '') in the body of a
    staged loop that appends to it."""
    read = f' (read at {read_at})' if read_at else ''
    return problem(
        LIST_IN_LOOP, f"'{name}' is read{read} in the body of the staged loop", location,
        happened='that appends to it', error=ListReadInLoop,
        why=f"the body is traced once, so there '{name}' holds only its items from before "
            f"the loop and this iteration's, not those of earlier iterations",
        fix="Keep what the body needs in variables of the loop (e.g. `last = ...`), write "
            "into a preallocated array (`jnp.zeros(n)`, updated by `.at[i].set(v)`), or "
            "loop over a Python range with autograph.set_loop_options(unroll=True) so that "
            "it runs as Python")


def container_changed_when_staged(kind, location):
    """A set, deque or Queue (`kind`) that a staged branch or loop body is given is
    changed while it is traced."""
    return problem(
        LIST_IN_LOOP, f'a {kind}', location,
        happened='is changed in place by a staged branch or loop body',
        why='the body is traced once, whatever the traced test decides or however many '
            'times the loop runs, so the change would be made once, on every path; '
            f'Python makes it only where the code runs (a {kind} cannot be carried as '
            'arrays)',
        fix='Keep such values in a JAX array (a mask of the vertices seen, a preallocated '
            'queue with a head and a tail index), or decide the test with Python values')
