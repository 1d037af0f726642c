"""Kind `python-value-needed`: Python must know a value that is traced (known only when
the compiled program runs): to pick a match pattern, count the items a filter keeps, make
text, size or address a Python list or dict, tell whether an array is true, convert to a
Python number, iterate a range, catch a raise in an `except`, or give it to NumPy."""
from .style import Kind, problem
from ..errors import UnorderedItems

PYTHON_VALUE_NEEDED = Kind(
    'python-value-needed', 'Python must know a value that is traced: a match subject, a '
    'filter test, text, a list index or dict key, a truth value, a conversion, a range')

KNOWN_AT_RUN_TIME = 'known only when the compiled program runs'
SEE_OR_BRANCH = ("To see the value, use jax.debug.print('{}', x); to branch on it, compare "
                 "it as an array")


def reused_iterator(iterator, location):
    """A `for` over iterator `iterator` (its name) may `break` on a traced condition, and
    the code after the loop reads the iterator again."""
    return problem(
        PYTHON_VALUE_NEEDED, 'the `for` loop', location,
        happened=f'may `break` on a traced condition, which would leave the iterator '
                 f'{iterator!r} at a position {KNOWN_AT_RUN_TIME}',
        why=f'the code after the loop reads {iterator!r} again, from where the loop left it',
        fix='Iterate over a list or an array instead, or do not reuse the iterator')


def traced_match_subject(location):
    """A `match` with structural patterns on a traced subject."""
    return problem(
        PYTHON_VALUE_NEEDED, 'the `match`', location,
        happened='has class, sequence or mapping patterns',
        why=f'they test the Python structure of its subject, but the subject is traced '
            f'({KNOWN_AT_RUN_TIME})',
        fix='Match a traced value only with literal or value patterns (case 0:, '
            'case 1 | 2:, case _:), or match on Python values')


def traced_filter(construct, location):
    """`construct` (a comprehension's `if`, `filter()`) tests a traced value."""
    return problem(
        PYTHON_VALUE_NEEDED, construct, location, happened='tests a traced value',
        why=f'the number of items kept would depend on values {KNOWN_AT_RUN_TIME}, and its '
            f'arrays have static shapes',
        fix='Reduce the comprehension at once (`sum(...)`, `len([...])`, `min`, `max`, '
            '`any` or `all` of it: converted code masks the items), keep every item and '
            'mask them (jnp.where(test, item, fill)), or select with a boolean mask outside '
            'jax.jit')


def no_text(construct, location):
    """`construct` (`str()`, an f-string, ...) of a traced value."""
    return problem(
        PYTHON_VALUE_NEEDED, f'{construct} of a traced value', location, statement=True,
        why=f'its value is {KNOWN_AT_RUN_TIME}, so it has no text while tracing',
        fix=SEE_OR_BRANCH)


def text_used_as_data(location):
    """Text made (at `location`) from a traced value is compared, indexed, ..."""
    return problem(
        PYTHON_VALUE_NEEDED, 'the text made', location, statement=True,
        happened='formats a traced value',
        why=f'its value is {KNOWN_AT_RUN_TIME}. It can be raised, printed, warned or logged '
            f'(formatted when the program runs), but not used as data while tracing',
        fix=SEE_OR_BRANCH)


def chosen_used(use, location):
    """`use` (`str()`, `.attr`, ...) of a value that staged branches chose among values
    of different kinds (runtime.values.choice)."""
    return problem(
        PYTHON_VALUE_NEEDED, f'{use} of a value chosen by a traced condition', location,
        statement=True,
        happened='uses a value that is a constant on some paths and another value on '
                 'others',
        why=f'which one it is is {KNOWN_AT_RUN_TIME}. It can be returned, stored, tested '
            f'or compared with a constant (==, !=) while tracing, but not used otherwise',
        fix='Use it after the converted function returned it, or give it one kind of '
            'value on every path')


def optional_truth(location):
    """Python's truth of a value that is None on some paths (runtime.checks.absent),
    asked by code that is not converted (a library's `if value:`)."""
    return problem(
        PYTHON_VALUE_NEEDED, 'the truth in Python of a value that is None on some paths',
        location, statement=True,
        happened='tests a variable that a traced condition left None on some paths',
        why=f'whether it is None or true is {KNOWN_AT_RUN_TIME}. Converted code tests it '
            f'(`if`, `while`, `and`, `or`, `not`, `bool()`), code that is not converted '
            f'cannot',
        fix='Test it in the converted function (`value is not None and ...`), or give it '
            'a value on every path')


def traced_repeat(kind, location):
    """A Python sequence of type `kind` repeated a traced number of times."""
    return problem(
        PYTHON_VALUE_NEEDED, f'a Python {kind} is repeated a traced number of times',
        location, statement=True,
        why=f'the length of a Python {kind} must be known while tracing',
        fix='Make the count a Python int (a static argument), or build an array '
            '(jnp.zeros/jnp.full) of a static size')


def traced_key(names, container, location):
    """Python `container` ('dict' or 'list'), called `names` on the user's line, is
    assigned at a traced key or index."""
    name = ' or '.join(repr(n) for n in names) or 'the container'
    if container == 'dict':
        return problem(
            PYTHON_VALUE_NEEDED, f'{name}: a Python dict is assigned at a traced key',
            location, statement=True,
            why='the keys of a Python dict must be known while tracing',
            fix='Make the key a Python value')
    array = names[0] if len(names) == 1 else 'x'
    return problem(
        PYTHON_VALUE_NEEDED, f'{name}: a Python list is assigned at a traced index',
        location, statement=True,
        why='where an item goes in a Python list must be known while tracing',
        fix=f'Make the index a Python int, or make {name} a JAX array before the staged '
            f'code (`{array} = jnp.array({array})`): then the assignment updates the array '
            f'as written')


def numpy_traced_write(names, location):
    """A NumPy array, called `names` on the user's line, is given a traced item, or is
    written at a traced index."""
    name = ' or '.join(repr(n) for n in names) or 'the array'
    array = names[0] if len(names) == 1 else 'x'
    return problem(
        PYTHON_VALUE_NEEDED, f'{name}: a NumPy array is written with a traced value',
        location, statement=True,
        why='a NumPy array holds numbers known now, and the traced value (or index) is '
            'known only when the compiled program runs (NumPy would need it now, as under '
            '`jax.jit`)',
        fix=f'Make {name} a JAX array (`jnp.zeros(...)` for `np.zeros(...)`, or `{array} = '
            f'jnp.asarray({array})` before the write): then the assignment updates the '
            f'array as written')


def numpy_held_write(names, location):
    """A traced NumPy array, called `names` on the user's line, that the function also
    stored into a container, an attribute or an item, is written in place."""
    name = ' or '.join(repr(n) for n in names)
    what = ('a NumPy array that a list, dict, attribute or item also holds is changed in '
            'place with traced values')
    return problem(
        PYTHON_VALUE_NEEDED, f'{name}: {what}' if name else what[0].upper() + what[1:],
        location, statement=True,
        why='the converted code makes a new (traced) array, which the other holder does '
            'not see: in Python it sees the change',
        fix=f'Store a copy (`.copy()`) where {name or "the array"} is kept, or keep it in '
            f'one place')


def numpy_argument_through_attribute(location):
    """A NumPy array given to the converted Function as an argument, held by an object's
    attribute, is changed in place through it on the user's line (`self.W -= e`)."""
    return problem(
        PYTHON_VALUE_NEEDED, 'a NumPy array given to the function as an argument is '
        'changed in place through an attribute that holds it', location, statement=True,
        why='while it is traced the converted code makes a new array, which the '
            "argument, and the caller's array, would not see: in Python they see the change",
        fix='Store a copy (`self.W = W.copy()`) where the object takes the array, give '
            'the function a JAX array, or convert it with jit=False')


def numpy_exchanged(names, location):
    """Traced NumPy arrays that other names or the caller also hold change places
    between `names` (`a, b = b, a`) on the user's line."""
    what = ('NumPy arrays that other names or the caller also hold, changed in place, '
            'change places')
    name = ' and '.join(repr(n) for n in names)
    return problem(
        PYTHON_VALUE_NEEDED, f'{name}: {what}' if name else what, location, statement=True,
        why='the converted code does not follow which array each name holds after the '
            'exchange, so later changes in place would not reach the other holders',
        fix='Exchange copies (`a, b = b.copy(), a.copy()`), or keep the arrays to these '
            'names alone')


def numpy_given_twice(callee, names, location):
    """One NumPy array (or arrays sharing memory) given to `callee` (a function's name)
    as the arguments `names` (parameter names or positions), the items of one of which
    `callee` writes; `location`: the call, or the function's `def` line."""
    return problem(
        PYTHON_VALUE_NEEDED, f'{callee}() is given one NumPy array as {" and ".join(names)}',
        location, happened='and writes the items of one of them',
        why="in NumPy the other sees each write at once; the converted code writes a new "
            "array, so reads through the other would give the values from before the writes",
        fix='Give a copy (`x.copy()`) for the argument that is only read')


def written_argument_lost(callee, parameter, location):
    """`callee` (a function's name) writes the items of `parameter`, given a traced array
    by a call that is not by the function's name with positional arguments in a `def` (a
    method, a `functools.partial`, a function taken from a table, a lambda's call): no
    caller's variable gets the written array."""
    return problem(
        PYTHON_VALUE_NEEDED, f'{callee}() writes the items of its parameter {parameter!r}',
        location, happened='called here as a method, a partial, a value or from a lambda',
        why="a traced array is written by making a new one, which the converted code gives "
            "back to the caller's variable only for a call of a function by its name with "
            "the array as a positional argument, in a `def`: here the write would be lost",
        fix='Call a function by its name with the array as a positional argument '
            '(`f(x, ...)`, a function of the module or one defined here) in a `def`, so that '
            'the write reaches `x`; or give a copy (`x.copy()`) where the caller does not '
            'read the write')


def numpy_unfollowed(name, location):
    """`name += e` on the user's line changes a traced NumPy array that a parameter held,
    got through names bound to other names (`t = a; a = b; b = t`)."""
    return problem(
        PYTHON_VALUE_NEEDED, repr(name), location, statement=True,
        happened='is changed in place here, and it may hold a NumPy array that a parameter '
                 'held (the caller\'s), bound to it through other names',
        why='the converted code does not follow which array each name holds once '
            'parameters are rebound to one another, so the change would not reach the '
            'caller\'s array nor the other names holding it',
        fix=f'Change a copy (`{name} = {name}.copy()` first), or return the new arrays '
            f'instead of changing the caller\'s')


def items_differ(what, error, location):
    """The traced items given to `what` (`max()`, `sorted()`) do not stack."""
    return problem(
        PYTHON_VALUE_NEEDED, what, location,
        happened='compares traced items that differ in structure or shape',
        why=f'they cannot be compared as one array ({error})',
        fix='Give the items one shape and structure')


def unordered_items(what, kinds, location):
    """`what` (`sorted()`, `max()`) of traced items among items of other kinds (str,
    None): Python's `<` between them is a TypeError, whatever the values."""
    return problem(
        PYTHON_VALUE_NEEDED, what, location,
        happened=f'compares items of kinds {", ".join(kinds)}',
        why="Python cannot order them (its `<` between them is a TypeError)",
        fix='Give it numbers or arrays only', error=UnorderedItems)


def heap_of_traced_items(name, location):
    """`heapq.<name>` of a heap whose items (or the item given) are traced: where each
    item goes depends on comparisons of their values."""
    return problem(
        PYTHON_VALUE_NEEDED, f'heapq.{name}()', location,
        happened='compares traced items of the heap',
        why='where each item goes in the list depends on their values, known only when '
            'the compiled program runs',
        fix='Keep the items in a JAX array (`jnp.argmin` of the priorities for the next '
            'one, a mask of those taken), or give the heap Python numbers')


def no_order(shape, location):
    """`sorted()` of traced items of `shape` (not scalars)."""
    return problem(
        PYTHON_VALUE_NEEDED, 'sorted()', location,
        happened=f'compares its items as traced arrays of shape {shape}',
        why='they have no single order (the truth value of an array with more than one '
            'element is ambiguous)',
        fix='Sort scalars, or use jnp.sort / jnp.argsort')


def ambiguous_truth(name, shape, location):
    """`name()` (any, all) of an item that is a traced array of `shape`."""
    return problem(
        PYTHON_VALUE_NEEDED, f'{name}()', location,
        happened=f'has an item that is a traced array of shape {shape}',
        why='Python cannot tell whether it is true (the truth value of an array with more '
            'than one element is ambiguous)',
        fix=f'Use jnp.{name}(...) on it')


def operands_differ(operator, left, right, location):
    """`left and right` (or `or`) with a traced `left` where the operands differ in
    shape: Python's result is one of them, as it is."""
    return problem(
        PYTHON_VALUE_NEEDED, f'`{operator}`', location,
        happened=f'has a traced left operand of shape {left} and a right one of shape '
                 f'{right}',
        why="its value is one of them, as it is, and which is known only when the program "
            "runs, so they must have one shape",
        fix='Give both operands one shape (jnp.broadcast_to), or use jnp.where(...)')


def ambiguous_in(shape, location, what='`in`',
                 fix='Compare scalars, or use jnp.any(x == value)'):
    """`x in items` (or `what`: `==` of two lists) compares with a traced array of
    `shape`."""
    return problem(
        PYTHON_VALUE_NEEDED, what, location,
        happened=f'compares with a traced array of shape {shape}',
        why='that has no single truth value', fix=fix)


def traced_conversion(name, what, location):
    """`name()` (int, float, ...) `what` ('with a base', 'of a traced array of shape s')."""
    return problem(
        PYTHON_VALUE_NEEDED, f'{name}() {what}', location,
        why='only a traced scalar converts, to an array of the matching dtype',
        fix='Call it on a Python value' if what == 'with a base' else
            'Index or reduce the array to a scalar first')


def value_for_python(error_name, location, shape=False):
    """JAX's `error_name` (its error for Python code that needs a traced array's value:
    `np.asarray(x)`, `x.tolist()`, `bool(x)`...) raised on the user's line `location`;
    `shape`: the value was given as an array's shape (`jnp.zeros(n)`)."""
    fix = ('Give the shape as a Python int (from a static argument or an array\'s '
           'shape), or keep a fixed size and mask the items that are not needed') if shape \
        else ('Use jnp for NumPy functions (jnp.asarray, not np.asarray), and `.item()`, '
              '`float()` or `int()` for a Python number: converted code stages them, and '
              'the `if` or `while` that tests the result')
    return problem(
        PYTHON_VALUE_NEEDED, 'a traced array', location, statement=True,
        happened=f'is given to Python code that needs its value ({error_name})',
        why=f'the value is {KNOWN_AT_RUN_TIME}', fix=fix)


def range_step(over):
    """A range `over` ('a staged range', 'a range over a symbolic dimension') with a
    step that is not a Python int other than 0."""
    return problem(PYTHON_VALUE_NEEDED, f'{over} needs a Python int step other than 0',
                   None, why='its length is computed while tracing, from the step',
                   fix='Make the step a Python int')


def traced_range(use):
    """A range with a traced bound `use`d in Python ('iterated', 'its length')."""
    if use == 'len':
        return problem(PYTHON_VALUE_NEEDED, 'the length of a range with a traced bound',
                       None, why=f'it is {KNOWN_AT_RUN_TIME}',
                       fix='Iterate the range in a `for` loop of converted code')
    return problem(
        PYTHON_VALUE_NEEDED, 'a range with a traced bound cannot be iterated in Python',
        None, why=f'its length is {KNOWN_AT_RUN_TIME}',
        fix='Iterate it in a `for` loop of converted code')


def scalar_iteration():
    """A `for` over a 0-d array."""
    return problem(PYTHON_VALUE_NEEDED, 'cannot iterate over a 0-d array (a scalar)', None,
                   why='it has no first axis to iterate along',
                   fix='Iterate over an array with at least one axis')


def caught_staged_raise(error_type, location, try_location, traced):
    """`raise error_type` at `location` would be caught by the `except` of the `try` at
    `try_location`, but is staged (`traced`: its own condition is traced)."""
    why = ('its condition is a traced value' if traced else
           'it is in a branch or loop body staged into lax (a traced condition)')
    return problem(
        PYTHON_VALUE_NEEDED, f'`raise {error_type.__name__}`', location, statement=True,
        happened=f'is inside the `try` at {try_location} whose `except` would catch it',
        why=f'{why}: the compiled program can only raise it when it runs, after tracing, '
            f'when no `except` can run',
        fix='Compute the fallback value without an exception (jnp.where, or an `if` on the '
            'traced value), test the condition on a Python value (a static argument), or '
            'move the `raise` out of the `try`')


def argsort_ties(location):
    """`np.argsort(x)` of a traced `x` (NumPy's default kind, not stable) met equal items
    when the program ran."""
    return problem(
        PYTHON_VALUE_NEEDED, '`np.argsort`', location,
        happened='met equal items when the program ran',
        why="NumPy's default sort is not stable: which of equal items comes first is "
            "its implementation's choice, which the compiled program cannot repeat",
        fix="Pass kind='stable' (NumPy's stable order, which JAX's argsort gives), or "
            "use jnp.argsort")
