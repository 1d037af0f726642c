"""One NumPy array given to a function as two arguments, the items of one of which it
writes.

Python reference: `smooth(x, x)` (an "out" argument that is the input), `relax(d, d)`,
`add_row(M, M[0])` (an array and a view of it), `smooth(x[:3], x[1:])` (slices that
share items): NumPy's writes through one parameter are seen at once through the other,
the very array (or memory the two share), where the function reads the other after
writing items (one `x += 2.0 * y` reads all of `y` first: a parameter the function
changes only by `p += e` is not checked). Converted code writes a new array where a traced value stands
for a NumPy array (runtime.python.calls.call_writing, and a Function given NumPy arrays),
so reads through the other parameter would give the values from before the writes: that
is a named error instead. Python's own NumPy arrays, given to a helper while the caller
runs as Python, are changed by NumPy itself, and pass.
"""
import functools
import inspect
import sys

import jax
import numpy as np

from .. import context, origin
from ..context import numpy_meaning
from ..errors import here
from ..messages import numpy_given_twice, written_argument_lost
from ..values.split import is_traced


def check_given_once(callee, written, args, kwargs, names):
    """Before the function `callee(*args, **kwargs)` writes the items of the arguments
    at the positions `written` ({position: whether it is a NumPy array, or None where
    its mark decides}): a named error where such an argument, a traced value standing
    for a NumPy array, is another argument too. `names`: its parameter names."""
    for p, numpy in written.items():
        value = args[p] if p < len(args) else None
        if not is_traced(value) or not (numpy_meaning(value) if numpy is None else numpy):
            continue
        others = [q for q, arg in enumerate(args) if q != p and arg is value]
        others += [key for key, arg in kwargs.items() if arg is value]
        if others and _writes_items(callee, _name(names, p, quoted=False)):
            pair = sorted([p, others[0]], key=lambda q: (type(q) is str, q))
            raise numpy_given_twice(_called(callee), [_name(names, q) for q in pair], here())


def check_apart(array, callee, position, *texts, items=None):
    """Before the function `callee` is given the variable `array` and a view of it
    (`texts`: the two arguments as written), and writes the items of the one at
    `position` (autograph.passes.written_arguments): a named error where `array` is a
    traced value standing for a NumPy array. `items`: the view is `array[i]` with that
    many plain indices, a number (a copy, nothing shared) where `array` has no more
    dimensions."""
    if items is not None and np.ndim(array) <= items:
        return
    if is_traced(array) and numpy_meaning(array):
        if _writes_items(callee, _name(parameter_names(callee), position, quoted=False)):
            raise numpy_given_twice(_called(callee), [repr(t) for t in texts], here())


def check_arrays_apart(fn, written, arrays, location):
    """After the call of a Function of `fn` wrote the items of its NumPy arguments
    `written` (labels of `arrays`, {label: (parameter name, the caller's array)}), before
    they are given the values: a named error where one shares memory with another."""
    for label in written:
        name, array = arrays.get(label, (None, None))
        for other_label, (other_name, other) in arrays.items():
            if array is not None and other_label != label and _overlap(array, other) \
                    and _writes_items(fn, name):
                raise numpy_given_twice(_called(fn), [repr(name), repr(other_name)],
                                        location)


def check_written_back(fn, args, kwargs, written, result):
    """After `ag.call(fn, *args, **kwargs)` (a call that rebinds no variable of the
    caller's: a method, a partial, a function taken from a table) whose function wrote
    the items of parameters (`written`: name -> final value) and gave `result`: a named
    error where a variable of the caller's holds a NumPy array given (or a traced one
    standing for it) that the write did not change in place (the function rebound its
    parameter to a new array: the variable would keep the old), and the result does not
    bring the written array back to one of those variables (`x = f(x)`, not `y =
    f(x)`). An expression given (`f(a + 1)`), which no one holds, loses the write in
    Python too; a JAX array's write is Python's TypeError."""
    while isinstance(fn, functools.partial):   # (its own arguments first)
        args, kwargs = (*fn.args, *args), {**fn.keywords, **kwargs}
        fn = fn.func
    try:
        given = inspect.signature(fn).bind(*args, **kwargs).arguments
    except (TypeError, ValueError):
        given = {}
    returned = result if isinstance(result, (tuple, list)) else (result,)
    for name, value in written.items():
        argument = given.get(name)   # (absent: a partial's own argument, a default)
        if value is not argument and isinstance(value, jax.Array) and \
                numpy_meaning(argument) and np.ndim(argument) > 0:
            holders = _caller_names(argument)
            if holders and not (any(v is value for v in returned) and _rebinds(holders)):
                raise written_argument_lost(_called(fn), name, here())


RETURNED = '<return>'
"""Among the names a user's line binds (autograph.site_facts' 'bound'): the line gives its
value back (a `return`, a lambda's body)."""


def _caller_names(argument):
    """The variables of the nearest frame of converted code that hold `argument`."""
    frame = sys._getframe(2)
    while frame is not None and origin.frame_location(frame) is None:
        frame = frame.f_back
    return set() if frame is None else {
        name for name, v in frame.f_locals.items() if v is argument}


def _rebinds(names):
    """Whether the user's statement running now binds one of the variables `names` (`x
    = f(x)`: the result brings the written array back to `x`; not `y = f(x)`, after
    which `x` would hold the old array) or returns (`return f(x)`, a lambda's body: no
    variable of the function is read after)."""
    location = here()
    bound = set(location.fact('bound')) if location is not None else set()
    return bool(names & bound) or RETURNED in bound


def parameter_names(fn):
    """The names of the parameters a call of `fn` fills (a bound method's after its
    instance's)."""
    code = getattr(getattr(fn, '__func__', fn), '__code__', None)
    return code.co_varnames[inspect.ismethod(fn):code.co_argcount] if code else ()


def _writes_items(fn, name):
    """Whether function `fn` changes parameter `name` otherwise than by `name += e`
    only (see the module doc)."""
    return name not in context.converter.updated_only(getattr(fn, '__func__', fn))


def _called(fn):
    return getattr(fn, '__name__', 'the function')


def _overlap(a, b):
    if a is b:
        return True
    if not np.may_share_memory(a, b):
        return False
    try:
        return np.shares_memory(a, b, max_work=10_000)
    except getattr(np, 'exceptions', np).TooHardError:   # (NumPy < 1.25: np's own)
        return True


def _name(names, position, quoted=True):
    name = position if type(position) is str else (   # (a keyword argument's)
        names[position] if position < len(names) else f'argument {position}')
    return repr(name) if quoted else name
