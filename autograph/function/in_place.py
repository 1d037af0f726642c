"""Which NumPy arrays of a Function's state its call changed in place.

Python reference: `G[i] = v` writes into the array `G` holds, so every other name for
that array sees the write (`before = G; f(x); before is G` and `before[i] == v`), while
`global G; G = G * 2` makes `G` a new array and leaves the old one as it was. A compiled
call gives back a new value for each place it changed (runtime.state.installed); for a
NumPy array it changed only through its items (no code the call ran rebinds the name or
the attribute), that value is written into the array itself, so its identity and its
other names stay Python's.

What is followed: the code of the Python functions the trace ran (the Function's own and
each function it called, nested code included), read for the instructions that rebind a
global, a closure cell or an attribute by name. An augmented assignment (`G -= e`,
`self.W -= e`) is not a rebinding: NumPy's `-=` changes the array, and the name or the
attribute gets the same array back. Code that rebinds dynamically (`setattr`,
`globals()`, `vars()`, `exec`) counts as rebinding everything. Library code that is not
converted is not read: an unconverted function of the user's that rebinds the array is
not seen (the array is then written in place where Python would have rebound it).
"""
import dis
import types
import weakref

import numpy as np

_REBINDS = {'STORE_GLOBAL': 'global', 'DELETE_GLOBAL': 'global',
            'STORE_DEREF': 'cell', 'DELETE_DEREF': 'cell',
            'STORE_ATTR': 'attribute', 'DELETE_ATTR': 'attribute'}
_DYNAMIC = {'setattr', 'delattr', 'globals', 'vars', 'exec', 'eval', '__dict__'}
_ANY = None   # (rebinds everything)
_scanned = weakref.WeakKeyDictionary()   # code -> its rebinds


def rebinds(code):
    """The (kind, name) pairs `code` and the code nested in it rebind ('global',
    'cell' or 'attribute'), or None where it may rebind anything."""
    found = _scanned.get(code, False)
    if found is False:
        found = _scan(code)
        _scanned[code] = found
    return found


def _scan(code):
    found = set()
    before = [None, None]   # the two instructions before this one
    for instruction in dis.get_instructions(code):
        if instruction.argval in _DYNAMIC and isinstance(instruction.argval, str):
            return _ANY
        kind = _REBINDS.get(instruction.opname)
        if kind is not None and not _augmented(kind, *before):
            found.add((kind, instruction.argval))
        before = [before[1], instruction]
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            nested = rebinds(const)
            if nested is _ANY:
                return _ANY
            found |= nested
    return frozenset(found)


def _augmented(kind, operation, exchange):
    """Whether a store of `kind` after these two instructions ends an augmented
    assignment (`G -= e`; `self.W -= e`: the operation, then the object back on top): a
    NumPy array's `-=` changes the array itself, and the name gets the same array back."""
    if kind != 'attribute':
        operation = exchange
    elif exchange is None or not (exchange.opname == 'ROT_TWO' or
                                  (exchange.opname == 'SWAP' and exchange.arg == 2)):
        return False
    return operation is not None and (operation.opname.startswith('INPLACE_') or (
        operation.opname == 'BINARY_OP' and operation.argrepr.endswith('=')))


def source_code(fn):
    """The user's code of `fn`: a converted function's is kept as `__ag_source_code__`
    (autograph.codegen), a method's is its function's."""
    fn = getattr(fn, '__func__', fn)
    return getattr(fn, '__ag_source_code__', None) or getattr(fn, '__code__', None)


def changed_in_place(installed, changed, functions):
    """The labels of `changed` ({label: value}, runtime.state.installed) that held a
    NumPy array before the call and that none of `functions` (the Python functions the
    trace ran) rebinds by name."""
    rebound = set()
    for fn in functions:
        code = source_code(fn)
        found = rebinds(code) if code is not None else _ANY
        if found is _ANY:
            return set()
        rebound |= found
    return {place.label for place, before in zip(installed.places, installed.original)
            if place.label in changed and type(before) is np.ndarray
            and _name(place) not in rebound}


def _name(place):
    """(kind, name) of a global, a cell or an attribute place, as `rebinds` gives it."""
    kind = place.key[0]
    if kind == 'cell':
        return kind, place.label.rpartition('.')[2]
    return kind, place.key[-1]

