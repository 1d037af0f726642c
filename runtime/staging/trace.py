"""Tracing user functions once into jaxprs, over a state of named variables.

Each user function (branch, loop body, loop test) is traced exactly once into a jaxpr with
`jax.make_jaxpr`, so a `print` in it runs once per trace, as with `tf.function`. The
jaxprs are then compared with the user's variable names at hand (for errors that name
them), their types unified the way JAX promotes weak types (runtime.values.types), and
finally evaluated inside the `lax` primitive, which re-traces the jaxpr and never the
user's code (runtime.staging.branches and .loops).
"""
import contextlib
import dataclasses

import jax
from jax.extend.core import Var

from ..checks import checks
from .. import context
from ..state import lists
from ..errors import here
from ..messages import nested_too_deep
from ..values.split import describe, merge, pack, split
from ..values.varying import axes_of, typed

STAGED_HEADROOM = 1000
"""Python frames kept free for tracing one more staged branch or loop body: each staged
level takes about 15 frames of JAX tracing, so 98 nested `if`s on traced values (as deep
as Python nests them) need more than the default recursion limit of 1,000 allows."""

MAX_STAGED_DEPTH = 500
"""The deepest staged branches/bodies nest (the recursion limit grows with them)."""


@contextlib.contextmanager
def staging():
    state = context.current()
    if state.depth >= MAX_STAGED_DEPTH:
        raise nested_too_deep(MAX_STAGED_DEPTH, here(3))
    with context.recursion_room(STAGED_HEADROOM), context.setting(depth=state.depth + 1):
        yield


TRACED = object()
"""What `probe` returns for a function whose result is traced."""


def probe(fn, args):
    """`fn(*args)` if its result is a Python value; else TRACED, leaving no equations
    behind (the staged loop evaluates the test again, in its own trace)."""
    record = []

    def sandboxed():
        with checks.threaded(None):   # (its checks are traced again by the staged loop)
            result = fn(*args)
        record.append(TRACED if isinstance(result, jax.core.Tracer) else result)
        return []
    jax.make_jaxpr(sandboxed)()
    return record[0]


# --- state: a tuple of per-variable values, flattened to leaves -------------------------

@dataclasses.dataclass
class State:
    """Per-variable specs of a flattened state, to map leaves back to variable names.
    The Python bools of the `pinned` names are static (see runtime.staging.carry).
    `numpy`: the leaves that stand for NumPy arrays, as (variable, leaf of it) positions
    (see runtime.context's `numpy`): the leaves made of them by `unflatten` (a body's
    inputs, a statement's outputs) stand for NumPy arrays too. `arguments`: likewise,
    the leaves that are the very arrays the Function was given (runtime.context's
    `arguments`)."""
    names: tuple
    specs: list
    pinned: frozenset = frozenset()
    numpy: frozenset = frozenset()
    arguments: frozenset = frozenset()

    @classmethod
    def flatten(cls, names, values, pinned=frozenset(), lost=frozenset()):
        """(leaves, State) of `values`; `lost`: positions not to note as NumPy's (see
        runtime.staging.carry)."""
        leaves, specs, names, numpy, given = [], [], tuple(names), set(), set()
        arguments = context.current().arguments
        for i, value in enumerate(values):
            dynamic, spec = split(value, bool(pinned) and names[i] in pinned)
            numpy.update((i, j) for j, leaf in enumerate(dynamic) if context.numpy_meaning(leaf))
            if arguments:
                given.update((i, j) for j, leaf in enumerate(dynamic)
                             if arguments.get(id(leaf)) is leaf)
            leaves += dynamic
            specs.append(spec)
        return leaves, cls(names, specs, frozenset(pinned), frozenset(numpy) - lost,
                           frozenset(given))

    def unflatten(self, leaves):
        values, start = [], 0
        for i, spec in enumerate(self.specs):
            count = spec.dynamic_count
            mine = leaves[start:start + count]
            if self.numpy:
                for j, leaf in enumerate(mine):
                    if (i, j) in self.numpy and isinstance(leaf, jax.core.Tracer):
                        context.mark_numpy(leaf)
                        if (i, j) in self.arguments:
                            context.mark_argument(leaf)
            values.append(merge(spec, mine))
            start += count
        return tuple(values)

    def leaf_owner(self, index):
        """The variable name that owns flattened leaf number `index`."""
        for name, spec in zip(self.names, self.specs):
            count = spec.dynamic_count
            if index < count:
                return name
            index -= count
        raise IndexError(index)


@dataclasses.dataclass
class Traced:
    jaxpr: object          # ClosedJaxpr
    state: State           # specs of the outputs, per name
    values: tuple          # descriptions of the outputs, per name (for messages)
    appended: dict         # path -> number of items appended to that list per call
    errors_in: object = None    # the error state's Layout it takes after the state leaves
    errors_out: object = None   # the Layout it returns after all other outputs

    @property
    def error_count(self):
        return 0 if self.errors_out is None else self.errors_out.count

    def split_errors(self, outs):
        """(the outputs but the error state, the error state's leaves)."""
        cut = len(outs) - self.error_count
        return list(outs[:cut]), list(outs[cut:])

    def out_avals(self):
        return [typed(a.shape, a.dtype, a.weak_type, axes_of(a))
                for a in self.jaxpr.out_avals]

    def __call__(self, *leaves):
        return jax.core.eval_jaxpr(self.jaxpr.jaxpr, self.jaxpr.consts, *leaves)

    def unread_leaves(self, n_extra=0):
        """The positions (after the `n_extra` leading inputs) of the input leaves that no
        output depends on: a loop body that assigns such a variable before any read."""
        jaxpr = self.jaxpr.jaxpr
        needed = {v for v in jaxpr.outvars if isinstance(v, Var)}
        for eqn in reversed(jaxpr.eqns):
            if any(isinstance(v, Var) and v in needed for v in eqn.outvars) \
                    or eqn.effects:
                needed.update(v for v in eqn.invars if isinstance(v, Var))
        return {i for i, v in enumerate(jaxpr.invars[n_extra:]) if v not in needed}

    def reads_inputs(self):
        """Whether any output depends on the inputs (not only on values closed over)."""
        return any(dependent_outputs(self.jaxpr.jaxpr))


def dependent_outputs(jaxpr):
    """Per output of `jaxpr`: whether it depends on the jaxpr's inputs."""
    dependent = set(jaxpr.invars)
    for eqn in jaxpr.eqns:
        if any(isinstance(v, Var) and v in dependent for v in eqn.invars):
            dependent.update(eqn.outvars)
    return [isinstance(v, Var) and v in dependent for v in jaxpr.outvars]


KEEP = object()
"""`trace`'s default `errors`: the layout of the error state of the path (if any)."""


def trace(fn, in_state, in_avals, out_names, n_extra=0, appending=None, errors=KEEP):
    """Trace `fn(*extra, *state values)` once; it returns one value per name in `out_names`.

    `in_avals` are the avals of the `n_extra` leading arguments (loop items) followed by
    the state leaves. With `appending` (the state's values as they came into the loop),
    lists in the state may grow by `append`: the appended items are returned after the
    carried leaves, as per-iteration outputs (see runtime.state.lists).

    Where the path has an error state (runtime.checks), the traced function takes it
    after the state leaves, laid out as `errors` (by default, as it is now), and returns
    the state its checks leave after all other outputs (`Traced.errors_in`/`errors_out`).
    `errors=None`: the checks in `fn` report themselves.
    """
    record = {}
    outer = checks.current()
    layout = None if outer is None else outer.layout if errors is KEEP else errors
    table = None if layout is None else outer.table
    n_errors = 0 if layout is None else layout.count
    if layout is not None:
        in_avals = list(in_avals) + layout.avals()

    def flat(*leaves):
        cut = len(leaves) - n_errors
        leaves, error_leaves = leaves[:cut], leaves[cut:]
        with checks.threaded(table, layout, error_leaves) as box:
            out = _flat(*leaves)
        errors_out = box.errors
        if errors_out is None:
            return out
        record['errors'] = errors_out.layout
        return out + errors_out.leaves()

    def _flat(*leaves):
        args = in_state.unflatten(list(leaves[n_extra:]))
        if appending is not None:
            args = lists.mark(out_names, args, appending)
        out = pack(out_names, fn(*leaves[:n_extra], *args))
        appended, extra = {}, []
        if appending is not None:
            out, appended, extra = lists.split(out_names, args, out)
        out_leaves, out_state = State.flatten(out_names, out, in_state.pinned)
        record['traced'] = (out_state, tuple(describe(v) for v in out), appended)
        return out_leaves + extra

    with staging():
        jaxpr = jax.make_jaxpr(flat)(*in_avals)
    return Traced(jaxpr, *record['traced'], layout, record.get('errors'))
