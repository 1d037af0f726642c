"""One NumPy array given to a function as two arguments, the items of one of which it
writes.

Python reference: `smooth(x, x)` (an "out" argument that is the input), `relax(d, d)`,
`add_row(M, M[0])` (an array and a view of it), `smooth(x[:3], x[1:])` (slices that
share items): NumPy's writes through one parameter are seen at once through the other,
the very array (or memory the two share). Converted code writes a new array where a traced value stands
for a NumPy array (runtime.python.calls.call_writing, and a Function given NumPy arrays),
so reads through the other parameter would give the values from before the writes: that
is a named error instead. Python's own NumPy arrays, given to a helper while the caller
runs as Python, are changed by NumPy itself, and pass.
"""
import numpy as np

from ..context import numpy_meaning
from ..errors import here
from ..messages import numpy_given_twice
from ..values.split import is_traced


def check_given_once(callee, written, args, kwargs, names):
    """Before `callee(*args, **kwargs)` (a name) writes the items of the arguments at
    the positions `written` ({position: whether it is a NumPy array, or None where its
    mark decides}): a named error where such an argument, a traced value standing for a
    NumPy array, is another argument too. `names`: the callee's parameter names."""
    for p, numpy in written.items():
        value = args[p] if p < len(args) else None
        if not is_traced(value) or not (numpy_meaning(value) if numpy is None else numpy):
            continue
        others = [q for q, arg in enumerate(args) if q != p and arg is value]
        others += [key for key, arg in kwargs.items() if arg is value]
        if others:
            pair = sorted([p, others[0]], key=lambda q: (type(q) is str, q))
            raise numpy_given_twice(callee, [_name(names, q) for q in pair], here())


def check_apart(array, callee, *texts):
    """Before `callee` (a name) is given the variable `array` and a view of it (`texts`:
    the two arguments as written), the items of one of which it writes
    (autograph.passes.written_arguments): a named error where `array` is a traced value
    standing for a NumPy array."""
    if is_traced(array) and numpy_meaning(array):
        raise numpy_given_twice(callee, [repr(text) for text in texts], here())


def check_arrays_apart(callee, written, arrays, location):
    """After a Function's call wrote the items of its NumPy arguments `written` (labels
    of `arrays`, {label: (parameter name, the caller's array)}), before they are given
    the values: a named error where one shares memory with another argument."""
    for label in written:
        name, array = arrays.get(label, (None, None))
        for other_label, (other_name, other) in arrays.items():
            if array is not None and other_label != label and _overlap(array, other):
                raise numpy_given_twice(callee, [name, other_name], location)


def _overlap(a, b):
    if a is b:
        return True
    if not np.may_share_memory(a, b):
        return False
    try:
        return np.shares_memory(a, b, max_work=10_000)
    except getattr(np, 'exceptions', np).TooHardError:   # (NumPy < 1.25: np's own)
        return True


def _name(names, position):
    if type(position) is str:   # (a keyword argument)
        return repr(position)
    return repr(names[position]) if position < len(names) else f'argument {position}'
