"""The public entry points: `convert`, `transform`, `to_code`, `do_not_convert`, loop
options."""
import ast
import functools
import inspect

from autograph import conversion, parsing, prebuilt
from autograph.errors import ConversionError
from autograph.function import Function
from autograph.runtime.loops.iterables import StagedRange
from autograph.runtime.staging.loop_autodiff import check_mode


def convert(fn=None, *, input_signature=None, jit=True, unroll_loops=None,
            loop_autodiff=None, sequential_sums=None):
    """Convert `fn`'s Python control flow to JAX and compile it with `jax.jit`.

    Works as `@convert`, `convert(fn)` and `@convert(input_signature=..., jit=...)`.
    Returns a `Function` (see autograph.function); with `jit=False`, calls run the
    converted code directly, for use inside the caller's own `jax.jit` or framework.

    `unroll_loops` decides for the `for` loops over Python ranges traced while `fn` runs
    (and the functions it calls): True unrolls them (as Python runs them), False stages
    each as one loop where its body allows, None (the default) stages the long ones (see
    autograph.runtime.loop_policy). A loop's own `set_loop_options(unroll=...)` wins.
    `loop_autodiff` sets how the function's staged loops with a run-time exit can be
    differentiated: 'reverse' (the default: `jax.grad`) or 'forward' (`jax.jvp`); see
    `set_loop_options`. `sequential_sums=True` keeps Python's left-to-right order of the
    float sums and products that loops accumulate (`s += x[i]`), which are otherwise
    vectorised as one pairwise reduction (see `set_loop_options`).
    """
    if fn is None:
        return lambda f: convert(f, input_signature=input_signature, jit=jit,
                                 unroll_loops=unroll_loops, loop_autodiff=loop_autodiff,
                                 sequential_sums=sequential_sums)
    if isinstance(fn, Function):
        fn = fn.python_function
    if not callable(fn):
        raise TypeError(f'convert expects a function or callable, got {fn!r}')
    return Function(fn, input_signature=input_signature, jit=jit, unroll_loops=unroll_loops,
                    loop_autodiff=check_mode(loop_autodiff, 'loop_autodiff'),
                    sequential_sums=sequential_sums)


def transform(fn=None, *, embedding=None):
    """The converted Python function of `fn`: no tracing, no `jax.jit`, no cache of its own.

    For frameworks that run their own tracing (`nnx.jit`, their own tracer): calling the
    result runs the generated code, whose operators dispatch on the values they meet.
    With an `autograph.Embedding`, it is active while the result runs, so the framework's
    lowerings and options apply. Works on functions, methods, lambdas and callables;
    `fn` is converted at the first call. `@transform(embedding=e)` decorates.
    """
    if fn is None:
        return lambda f: transform(f, embedding=embedding)
    if isinstance(fn, Function):
        fn = fn.python_function
    if not callable(fn):
        raise TypeError(f'transform expects a function or callable, got {fn!r}')
    converted = []

    @functools.wraps(fn)
    def run(*args, **kwargs):
        if not converted:
            converted.append(conversion.converted_callable(fn, strict=True))
        if embedding is None:
            return converted[0](*args, **kwargs)
        with embedding:
            return converted[0](*args, **kwargs)
    run.__ag_python_function__ = fn
    return run


def to_code(fn, recursive=False):
    """The generated Python source of `fn` (a function, method, lambda or Function).

    With `recursive=True`, also the code of the user functions it calls that can be found
    statically (module-level functions named in its source), without tracing.
    """
    fn = _python_function(fn)
    sources = [conversion.generated_code(fn).function_source]
    if recursive:
        for callee in _static_callees(fn):
            sources.append(conversion.generated_code(callee).function_source)
    return '\n'.join(sources)


def _python_function(fn):
    fn = getattr(fn, '__ag_python_function__', fn)
    if prebuilt.wraps_user_code(fn):   # jax.jit(p), jax.vmap(p, ...): the code of p
        fn = prebuilt.wrapped_function(fn)
    if inspect.ismethod(fn):
        fn = fn.__func__
    if isinstance(fn, (staticmethod, classmethod)):
        fn = fn.__func__
    if not inspect.isfunction(fn):
        call = getattr(type(fn), '__call__', None)
        if inspect.isfunction(call):
            return call
        raise ConversionError(f'cannot convert {fn!r}: it has no Python source code '
                              f'(builtins and C functions cannot be converted)')
    return fn


def _static_callees(fn):
    """User functions reachable by name from `fn`'s source, each once, in call order."""
    from autograph.library import is_library
    seen, order, queue = {fn}, [], [fn]
    while queue:
        current = queue.pop(0)
        node = parsing.parse_function(current).node
        closure = dict(zip(current.__code__.co_freevars,
                           [c.cell_contents for c in current.__closure__ or ()]))
        for call in (n for n in ast.walk(node) if isinstance(n, ast.Call)):
            if not isinstance(call.func, ast.Name):
                continue
            target = closure.get(call.func.id, current.__globals__.get(call.func.id))
            target = getattr(target, '__ag_python_function__', target)
            if inspect.isfunction(target) and target not in seen and not is_library(target):
                seen.add(target)
                order.append(target)
                queue.append(target)
    return order


def do_not_convert(fn):
    """Call `fn` as is from converted code (never convert it)."""
    return conversion.do_not_convert(fn)


def set_loop_options(maximum_iterations=None, unroll=None, autodiff=None,
                     sequential_sums=None):
    """As the first statement of a loop: options for that loop.

    `maximum_iterations=N` bounds a staged `while` loop; it then becomes a `lax.scan` of N
    steps that stops doing work once the condition fails, which both forward- and
    reverse-mode differentiation support. `unroll=True` runs a `for` over a Python range
    as Python (unrolled into the compiled program); `unroll=False` stages it as one loop
    even when it is short (see `convert(unroll_loops=...)`).

    `autodiff` chooses how a staged loop whose trip count is known only when it runs
    (a `while`, a `for` over a traced range, a `break` on a traced value) and the loops
    nested in it can be differentiated: 'reverse' (the default) supports `jax.grad` by
    checkpointing, in memory that does not grow with the trip count, but not `jax.jvp`;
    'forward' is a plain `lax.while_loop`, which supports `jax.jvp`/`jax.jacfwd` but not
    `jax.grad`. Neither costs anything when the program is not differentiated.

    A `for` over a range whose iterations are independent but for accumulations
    (`s += e`, `s *= e`, `s = max(s, e)`, ... where the loop reads `s` nowhere else) is
    vectorised: its body runs for all iterations at once and one reduction
    (`jnp.sum`, ...) combines their contributions with `s`. Integer and max/min
    reductions give Python's values exactly; float sums and products add in another
    order (XLA's pairwise sums, at least as accurate as Python's left to right).
    `sequential_sums=True` keeps Python's order for this loop and those nested in it
    (they run as sequential loops); see `convert(sequential_sums=...)`.

    Outside converted code this does nothing.
    """


def range(*args):  # noqa: A001 - shadows the builtin on purpose, like tf.range
    """A range that a converted `for` always stages as one loop (`lax.scan`), even with
    Python bounds, instead of unrolling it while tracing."""
    return StagedRange(*args)
