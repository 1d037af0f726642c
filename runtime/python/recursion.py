"""Runaway recursion: a function that calls itself from inside staged control flow on a
traced condition would be traced forever (each staged branch or body traces the call
again, whatever the condition holds). `ag.call` counts the staged levels between the
calls of each function (runtime.python.calls) and stops at STAGED_RECURSION_LIMIT with a
StagedRecursion naming the function, which nothing retries (runtime.operators.loops)."""
from .. import origin
from ..messages import staged_recursion

STAGED_RECURSION_LIMIT = 16


def converted_inside(fn, converter):
    """`fn` if converted, or the converted function a decorator applied in converted code
    wraps (`@functools.lru_cache` of a nested `def`: the wrapper calls it directly, so
    its calls are counted where the wrapper is called); else None."""
    for candidate in (fn, getattr(fn, '__wrapped__', None)):
        if candidate is not None and converter.is_converted(candidate):
            return candidate
    return None


def recursion_error(fn, code, location):
    """The StagedRecursion of `fn` (whose code is `code`) calling itself at `location`,
    naming the user's line of its `def` (of a function nested in converted code too)."""
    name = origin.name_of(fn)
    fn = getattr(fn, '__ag_python_function__', fn)   # (an autograph.Function: its function)
    code = getattr(getattr(fn, '__func__', fn), '__code__', code)   # the user's, not ours
    defined = ''
    if code is not None:
        found = origin.lookup(code.co_filename, code.co_firstlineno)
        defined = f' (defined at {found or f"{code.co_filename}:{code.co_firstlineno}"})'
    return staged_recursion(name, defined, STAGED_RECURSION_LIMIT, location)
