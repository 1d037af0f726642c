"""The conversion pipeline: each pass removes one construct, in this order, from every
function scope (innermost first), so later passes see a smaller language."""
import ast

from autograph import limits
from autograph.analysis.activity import finished, scope_of
from autograph.analysis.definite import assigned_before_reads
from autograph.analysis.independence import independent_loops
from autograph.analysis.scopes import sharing
from autograph.passes import (
    asserts,
    attribute_dicts,
    attribute_reads,
    attribute_writes,
    calls,
    comprehensions,
    control_flow,
    default_reads,
    directives,
    division,
    exits,
    expressions,
    flat_items,
    fence,
    identity,
    item_assignments,
    live_iteration,
    loop_else,
    loop_exits,
    match,
    numpy_calls,
    outer_containers,
    raises,
    returns,
    sequences,
    short_circuits,
    static_values,
    super_calls,
    text,
    unaliased,
    unbound_reads,
    unreachable,
    views,
    written_arguments,
)
from autograph.analysis.census import IN_PLACE, ITEM_STORE, census
from autograph.analysis.own_arrays import own_arrays
from autograph.passes.base import walk_scope
from autograph.passes.called_functions import names_writing_function
from autograph.runtime.origin import short

PIPELINE = [
    fence,         # reject generators/async with a caret at the user's line
    exits,         # exit(code), sys.exit(code) -> raise SystemExit(code)
    outer_containers,  # G.append(v) in a loop, G read: `global G` (carried as state)
    unreachable,   # drop code after return/raise/break/continue and endless loops
    directives,    # autograph.set_loop_options(...) -> ctx.loop_options
    super_calls,   # super() -> super(__class__, self), for code moved into branch functions
    match,         # match -> if/elif chain (value patterns); others stay Python
    loop_else,     # loop `else` -> code after the loop, guarded by its break flag
    returns,       # return in loops -> flag + break; other returns to tail position
    loop_exits,    # break / continue -> flags and guards
    default_reads,  # d[k] of a defaultdict in a branch -> d[k] = d[k] first (Python adds k)
    unaliased,     # prev = cur of a new list nothing changes after -> ag.unaliased(cur)
    short_circuits,  # if a and f(): -> f() under `if` on a (effects where Python has them)
    asserts,       # assert -> ag.assert_
    raises,        # raise in if/loops -> ag.raise_if / ag.raise_ (run-time checks)
    division,      # a / b of Python numbers -> ag.divide(a, b, '/') (ZeroDivisionError)
    calls,         # user calls -> ag.call; builtins that see traced values -> ag.range...
    views,         # v = a[i] then v += e -> ag.view / ag.write_view (NumPy's views)
    written_arguments,  # f(a) where f writes items of `a` -> ag.call_writing rebinds `a`
    static_values,  # x[~jnp.eye(n, dtype=bool)]: masks from shapes alone -> ag.static
    sequences,     # seq[i], [0] * n -> ag.getitem, ag.repeat (lists and traced integers)
    text,          # f-strings / '%' of values -> ag.text (no text from traced values)
    expressions,   # and / or / not, ternaries, chained comparisons -> ag operators
    identity,      # flag is True / is False -> ag.is_ / ag.is_not (flags may be traced)
    comprehensions,  # [y for y in ys if t] -> ... if ag.comprehension_test(t) (traced: error)
    attribute_dicts,  # vars(o)[k] = v -> ag.attributes(o)[k] = v (an attribute set by name)
    attribute_writes,  # o.a -= e, o.a[i] = v -> ag.check_attribute_write(o.a) first
    item_assignments,  # x[i] = v -> x = ag.setitem(x, i, v) (JAX arrays get .at[].set)
    live_iteration,  # for e in v: v[k] = ... -> ag.for_stmt(..., live=...) reads v's items live
    unbound_reads,  # a read of a variable that may be unbound -> y = ag.check_defined(y) first
    attribute_reads,  # a read of o.x a staged statement may create -> ag.check_field(o, 'x')
    control_flow,  # if / while / for -> small functions + ag.if_stmt / while_stmt / for_stmt
]
# then, on the whole tree: np.exp(x) -> ag.numpy.exp(x) (passes.numpy_calls)

LAMBDA_PIPELINE = [calls, sequences, text, expressions, identity, comprehensions]


def run(root, ctx, pipeline=PIPELINE):
    """Convert `root` (a FunctionDef or a Lambda) and every function nested in it, with
    the passes of `pipeline` (a prefix of PIPELINE, for tests of the passes)."""
    found = ctx.census = census(root, limits.MAX_DEPTH)
    if found.has_attribute({'flat'}):   # (`a.flat[k] = e` -> an item write of `a`, first)
        flat_items.transform(root, ctx)
        found = ctx.census = census(root, limits.MAX_DEPTH)
    if found.depth > limits.DIRECT_DEPTH:   # (else within every limit: no message needed)
        limits.check_depth(found.depth, f'{short(ctx.file)}:{root.lineno}')
    if isinstance(root, ast.Lambda):
        numpy_names = numpy_calls.numpy_names(ctx, ())   # (read as written, see its doc)
        for step in LAMBDA_PIPELINE:
            step.transform(root, ctx)
        return numpy_calls.transform(root, ctx, numpy_names) if numpy_names else root
    scopes = _converted_scopes(root, found)
    names_of = {scope: scope_of(scope) for scope in scopes}   # (the functions as written)
    numpy_names = numpy_calls.numpy_names(ctx, names_of[root].locals)
    nested = len(found.scopes) > 1 or found.has_any(_DEFERRED_SCOPES)
    ctx.sharing.update((scope, sharing(scope, nested)) for scope in scopes)
    has_for = found.has_any((ast.For,))
    for scope in scopes:
        names = names_of[scope]
        ctx.assigned_before_reads[scope] = assigned_before_reads(
            scope, ctx.sharing[scope], names, found.present)
        if found.has_any((ITEM_STORE, IN_PLACE)) or len(found.scopes) > 1 or \
                names_writing_function(ctx):   # (the changes in place: item writes, `+=`,
            ctx.own_arrays[scope] = own_arrays(scope, ctx.resolver)   # helpers')
        if has_for:
            held = ctx.own_arrays[scope].held if scope in ctx.own_arrays else {}
            ctx.independent_loops.update(independent_loops(scope, ctx.resolver, names, held))
    for scope in scopes:
        for step in pipeline:
            if ctx.census.has_any(getattr(step, 'ONLY_WITH', ctx.census.present)):
                step.transform(scope, ctx)
        if scope is not root:
            finished(scope)   # (its free variables, for the passes of the scopes around it)
    return numpy_calls.transform(root, ctx, numpy_names) if numpy_names else root


_DEFERRED_SCOPES = (ast.AsyncFunctionDef, ast.Lambda, ast.GeneratorExp, ast.ClassDef)
"""With the nested FunctionDefs, what may share a function's variables (analysis.scopes)."""


def _converted_scopes(root, found):
    """The functions to convert, innermost first: `root` and those nested in it, except
    nested generators, which stay Python (a generator runs as Python while tracing)."""
    generators = found.has_any((ast.Yield, ast.YieldFrom))
    return [scope for scope in found.scopes
            if scope is root or not (generators and _is_generator(scope))]


def _is_generator(function):
    return any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in walk_scope(function))
