"""The kinds of errors about staging itself: `in-place-change` (an object changed in
place on some paths of staged code: Python's caller sees the object, staged code passes
values), `staging-limit` (staging that would never end, or nests too deep), and
`framework-lowering` (a framework's registered lowering lacks a primitive)."""
from ..errors import StagedRecursion
from .style import Kind, problem

IN_PLACE_CHANGE = Kind(
    'in-place-change', 'an object is changed in place on some paths of a staged statement '
    'and replaced on others, or is a pytree that staged code passes by value')
STAGING_LIMIT = Kind(
    'staging-limit', 'staged code nests too deep, or a function calls itself from staged '
    'control flow on a traced condition')
FRAMEWORK_LOWERING = Kind(
    'framework-lowering', "a framework's lowering (autograph.register) gives no primitive "
    "for a statement on its values")


def changed_and_replaced(name, location):
    """`name` is changed in place on one path of a staged statement, replaced on another."""
    return problem(
        IN_PLACE_CHANGE, f"'{name}' is changed in place on one path of the staged statement",
        location, happened='but replaced by a new object on another',
        why='staged code cannot decide at run time which object the caller sees',
        fix='Change it in place on every path, or assign a copy on every path')


def aliased_on_some_paths(name, location):
    """`name` is bound to an existing list or dict on a path of a staged statement, but
    to another object (or one that path changed) on another."""
    return problem(
        IN_PLACE_CHANGE, f"'{name}' is bound to an existing list or dict on one path of the "
                         f"staged statement", location,
        happened='but to another object on another path (or that path changed it)',
        why='staged code cannot decide at run time which object the name refers to '
            'afterwards, so changes made through it could reach the wrong one',
        fix='Bind it to the same object on every path, or assign a copy on every path')


def pytree_changed_in_place(name, type_name, location):
    """`name`, a pytree of `type_name`, is changed in place in a staged statement."""
    return problem(
        IN_PLACE_CHANGE, f"'{name}' ({type_name}, a pytree) is changed in place on a path "
                         f"of the staged statement", location,
        why='staged code passes pytrees by value, so the change would reach a copy, not '
            'this object',
        fix=f"Build a new object and assign it to '{name}' instead, or stage the statement "
            f"with the framework's own control flow (autograph.Embedding)")


def opaque_container_changed(name, type_name, location):
    """`name`, a container of `type_name` that is no pytree (a dict subclass such as
    `Counter`, a `UserDict`), is changed in place in a staged statement."""
    return problem(
        IN_PLACE_CHANGE, f"'{name}' ({type_name}, a container that is not a pytree) is "
                         f"changed in place on a path of the staged statement", location,
        why='staged code carries dicts and lists as pytrees, with traced items; the items '
            'of this one stay what the traced path made them, whichever path runs',
        fix=f"Use a plain dict or list (`{name} = {{'pos': 0, 'neg': 0}}`, a defaultdict), "
            f"or register {type_name} as a pytree")


def item_copy_changed(kind, change, location):
    """A list or dict read from a Python list at a traced index changed in place."""
    return problem(
        IN_PLACE_CHANGE, f'a Python {kind} read from a list at a traced index is changed in '
                         f'place (`{change}`)', location, statement=True,
        why='the read builds a new object from the stacked items (which item it is, is '
            'known only when the program runs), so the change would not reach the list',
        fix='Build the new item and assign it at the index (`rows[i] = rows[i] + [v]`), or '
            'keep the items as one array')


def caller_array_unknown(value, saved, location):
    """A parameter rebound on some staged paths only, written, and reported to its caller:
    its value now (`value`) and the one it held when rebound (`saved`) differ in shape or
    structure."""
    return problem(
        IN_PLACE_CHANGE, 'a parameter whose items the function writes is rebound on some '
                         'paths of a staged statement only', location, statement=True,
        happened=f'(it holds {value} here, {saved} where it was rebound)',
        why='which of the two its caller holds now is known only when the program runs, '
            'and they cannot be one traced value',
        fix='Write into a copy (`a = a.copy()` first), or rebind the parameter on every path')


def view_base_unknown(value, saved, location):
    """A view changed in place (or read again) whose base was rebound on some staged
    paths only: the base now (`value`) and the array the view was taken from (`saved`)
    differ in shape or structure."""
    return problem(
        IN_PLACE_CHANGE, 'a NumPy view is used here, and the variable it was taken from is '
                         'rebound on some paths of a staged statement only', location,
        statement=True,
        happened=f'(it holds {value} here, {saved} where the view was taken)',
        why='which of the two arrays the view belongs to is known only when the program '
            'runs, and they cannot be one traced value',
        fix="Rebind the variable on every path, or make the view a copy (`v = a[i].copy()`)")


def view_on_some_paths(location):
    """A view taken on some paths of a staged statement only (another binding on the
    others), changed in place or read again: its place in its base differs by path."""
    return problem(
        IN_PLACE_CHANGE, 'a NumPy view is used here that a staged statement took on some '
                         'paths only', location, statement=True,
        why='whether the variable is a view, and of which part of its base, is known only '
            'when the program runs, and its in-place changes reach the base only where it '
            'is one',
        fix='Bind the variable the same way on every path, or make the view a copy '
            '(`v = a[i].copy()`)')


def view_not_followed(location):
    """A NumPy view bound on the user's line to a name that the converted code follows
    as a copy only (autograph.passes.view_guards: the name is bound otherwise on other
    paths, or its changes in place meet other views')."""
    return problem(
        IN_PLACE_CHANGE, 'a NumPy view is bound here to a name that is a view on some '
                         'paths only', location, statement=True,
        happened='(an item of the array it is read from that is not a single number, or '
                 'a slice)',
        why='the converted code follows this name only where NumPy gives a copy (a '
            'number, an index array, a JAX array): a view sees the changes made to its '
            'array, and the array the view\'s, which the copy would not',
        fix='Make the copy explicit (`v = a[i].copy()`), or bind the name the same way on '
            'every path')


def random_drawn_when_traced(location):
    """A random number generator drawn from on the user's line where converted code
    would fix its numbers (runtime.python.random_draws)."""
    return problem(
        IN_PLACE_CHANGE, 'a random number generator is drawn from here while the program '
                         'is traced', location, statement=True,
        happened='(in a staged branch or loop body, or, in a compiled function, from a '
                 'generator the call did not make: the `random` or `numpy.random` '
                 "module's, one given or held by an object)",
        why='its numbers are drawn once, when the code is traced, and the compiled '
            'program repeats them on every iteration and every call, where Python draws '
            'new ones each time',
        fix='Draw with jax.random from a key given to the function (`jax.random.split` '
            'per iteration), pass the numbers in as an array, or make a generator '
            'seeded in the function and loop over a Python range')


def helper_view_unknown(location):
    """A helper's array result that may be a NumPy view of its argument (it returns the
    parameter, or a slice of it, not as `return p[...]` alone), where the result or the
    argument is changed in place: the converted code does not follow which."""
    return problem(
        IN_PLACE_CHANGE, "a helper's result here may be a NumPy view of its argument, "
                         'and one of them is changed in place', location, statement=True,
        happened="(the helper returns its parameter, or an item or slice of it, other "
                 "than by a body that is `return p[...]` alone)",
        why="a NumPy view writes through to the array it shows, a copy does not: the "
            "converted code does not follow which the helper returns",
        fix='Take the view in the caller (`h = w[1:]`), or make the copy explicit '
            '(`h = helper(w).copy()`)')


def method_view_unknown(method, location):
    """An array's `method` result that may be a NumPy view of it that the converted code
    does not follow (`m.squeeze()`, `m.diagonal()`, `m.view(dtype)`, `m.astype(t,
    copy=False)`), where the result or the array is changed in place."""
    return problem(
        IN_PLACE_CHANGE, f'`.{method}(...)` here may give a NumPy view of its array, and '
                         'one of them is changed in place', location, statement=True,
        why='a NumPy view writes through to the array it shows, a copy does not: the '
            f'converted code follows the views of basic indexing, `reshape`, `ravel`, '
            f'`view()`, `transpose`, `swapaxes` and `.T`, not those of `.{method}`',
        fix=f'Make the copy explicit (`.{method}(...).copy()`), or write through the array '
            'itself (`m[0, k] = e` for `m.squeeze()[k] = e`)')


def view_layout_unknown(location):
    """A traced NumPy array reshaped (`reshape`, `ravel`) to a view that is changed in
    place, where the converter does not know the array's memory layout (a view of
    another array, a helper's result): NumPy's reshape is a view or a copy by it."""
    return problem(
        IN_PLACE_CHANGE, 'an array is reshaped here to a view that is changed in place, '
                         'and the converted code does not follow its memory layout',
        location, statement=True,
        happened='(it is a view of another array, or made by code whose layout is not '
                 'followed)',
        why="NumPy's `reshape`/`ravel` give a view of an array laid out in C order "
            "and a copy of others (a transpose, a strided slice): the results differ",
        fix='Reshape the array the function made or was given (`w.reshape(...)`), or '
            'take a copy first (`u = v.copy().ravel()`)')


def array_kind_unknown(location):
    """A traced array viewed (or changed in place by a helper) where the converter cannot
    tell a NumPy array (views write through, `x += e` changes it in place) from a JAX
    array (a copy, a rebinding): the call was given NumPy arrays, and this one is made
    where its kind is not followed (a function's result, arrays of both kinds joined)."""
    return problem(
        IN_PLACE_CHANGE, 'an array is viewed or changed in place here whose kind, a NumPy '
                         "array or a JAX array, the converted code cannot tell", location,
        statement=True,
        happened='(the call was given NumPy arrays, and this one is made of them by code '
                 'whose result kind is not followed, or is a NumPy array on some paths only)',
        why="a NumPy array's view writes through to it and its `x += e` changes it in "
            "place, a JAX array's are copies: the results differ",
        fix='Make it with NumPy arithmetic or `np.*` of the arguments on every path, or '
            'with `jnp.*` for a JAX array, or take a copy (`v = a[i].copy()`)')


def attribute_view_changed(location):
    """A view of an attribute's NumPy array (`v = self.w[0]`) changed in place, or read
    where the attribute's items are written: not followed by the converted code."""
    return problem(
        IN_PLACE_CHANGE, "a view of an attribute's NumPy array is taken here, and changed "
                         "in place, or the attribute's items are written", location,
        statement=True,
        why="NumPy's view writes through to the attribute's array and sees its writes; "
            "the converted code follows views of variables only, and would change a copy",
        fix='Write the items through the attribute (`self.w[0] += e`), or take a copy '
            '(`.copy()`)')


def nested_too_deep(limit, location):
    """Staged branches and loop bodies nested more than `limit` deep."""
    return problem(
        STAGING_LIMIT, f'staged branches and loop bodies are nested more than {limit} deep',
        location, why='each level is traced inside the one around it, on the Python stack',
        fix='Split the function, or make some conditions Python values')


def staged_recursion(name, defined, limit, location):
    """Function `name` (`defined`: ' (defined at file:line)' or '') calls itself `limit`
    levels deep from staged control flow."""
    return problem(
        STAGING_LIMIT, f'{name}{defined} calls itself from inside staged control flow {limit} '
                       f'levels deep', location,
        why='its recursion depends on a traced value, so tracing it would never end',
        fix='Make the condition that stops the recursion a Python value, or write the '
            'recursion as a loop (while/for), which is staged as lax.while_loop',
        error=StagedRecursion)


def missing_primitive(name, what, location):
    """A framework's lowering has no `name` primitive for `what` on its values."""
    return problem(
        FRAMEWORK_LOWERING, f'the {what}', location,
        happened=f'is on a value of a framework whose lowering gives no {name}',
        why=f'the framework must stage the {what} itself, with its own {name}',
        fix=f'Register one (autograph.register(..., {name}=...))')
