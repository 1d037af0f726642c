"""NumPy's calls that write into an array they are given, as statements of their own:

    np.exp(v, out=d)        # `d`: the `out=` of NumPy's function or an array's method
    np.copyto(d, v)         # `d`: the first argument of np.copyto, put, putmask, place,
    np.add.at(d, i, v)      #      fill_diagonal, and of a ufunc's `at`

Python reference: NumPy writes the items of `d` in place, and returns nothing the
statement keeps. passes.in_place_calls rebinds `d` to what the call leaves
(runtime.python.in_place), so such a call changes `d` in place as an item assignment
does, and gives the array to no one (analysis.own_arrays).
"""
import ast

from autograph.runtime.python.in_place import FUNCTIONS, UFUNCS_AT


def writes_into(name, call, statement, module_of):
    """Whether `call` (the whole statement `statement`, an Expr, or None) writes into the
    array of the Name node `name` it is given; `module_of(node)`: the module a Name node
    names ('numpy'), or None."""
    func = call.func
    if statement.__class__ is not ast.Expr or func.__class__ is not ast.Attribute:
        return False
    if any(k.arg == 'out' and k.value is name for k in call.keywords):
        return True
    if not call.args or call.args[0] is not name:
        return False
    if func.attr == 'at' and func.value.__class__ is ast.Attribute:
        return func.value.attr in UFUNCS_AT and module_of(func.value.value) == 'numpy'
    return func.attr in FUNCTIONS and module_of(func.value) == 'numpy'
