"""The expressions that make a NumPy view of a variable in more than one step (for
analysis.view_bindings and passes.views; runtime.items.view_chains follows them):

    b[1:][::-1]          a basic index of a basic index
    b.reshape(2, 2)      NumPy's view where the array's memory allows (a reshape)
    b.ravel()            likewise (a reshape to one axis)
    b.view()             all of `b` (a new array object, the same memory)
    b.T                  a transpose (also `b.transpose()`, `b.transpose(1, 0)`,
                         `b.swapaxes(0, 1)`)
    np.reshape(b, s)     the function forms of those (`np.ravel(b)`, `np.transpose(b,
                         axes)`, `np.swapaxes`, `np.moveaxis`), and `np.asarray(b)`,
                         `np.asanyarray(b)`: `b` itself where it is a NumPy array
    head(b)              a helper whose body is `return p[:2]` (any chain of its
                         parameter `p`, `p` itself too, with keys that name no
                         variable but its parameters given as names or constants)

A reshape's `order` (`'C'`, `'F'`, `'A'`; ravel's `'K'` too) is part of its step.

`chain_of(value)` gives (the variable, [the steps]) of such an expression, each step
('item', key node), ('reshape', [shape nodes, `order` keyword]), ('ravel', [`order`
keyword]), ('transpose', [axes nodes]), ('swapaxes', [two axis nodes]), ('moveaxis',
[source, destination nodes]) or ('asarray', []); (the variable, None) for a call of a
helper that returns a view of its parameter otherwise, and for a method that may give a
view no step follows (`b.squeeze()`, see `unfollowed_method`): not followed; None for
any other expression (and for `b[key]` alone, a view binding of one step, and for `b`
alone).
"""
import ast
import copy
import inspect
import weakref

from autograph.analysis.written_parameters import own_nodes, split_call

_METHODS = {'reshape', 'ravel', 'view', 'transpose', 'swapaxes'}
_FUNCTIONS = {'reshape', 'ravel', 'transpose', 'swapaxes', 'moveaxis', 'asarray',
              'asanyarray'}


def chain_of(value, ag=None, resolve=None):
    """(name, steps) of the view `value` makes of a variable (see the module docstring),
    or None. `ag`, `resolve`: the runtime's name and the resolver of called functions
    (for helpers that return a view of their parameter; its `module(name)`, where it
    has one, the module a name refers to)."""
    is_numpy = _module_test(resolve)
    found = _steps(value, is_numpy, ag)
    if found is None and isinstance(value, ast.Call) and resolve is not None:
        found = _returned(value, ag, resolve)
    if found is None:
        found = _unfollowed_method(value, is_numpy)
    if found is None:
        return None
    name, steps = found
    if steps is None:
        return name, None   # (a helper's view not followed: see `_returned`)
    if len(steps) == 1 and steps[0][0] == 'item' and not isinstance(value, ast.Call):
        return None   # (`b[key]`: a view binding of its own)
    return (name, steps) if steps or isinstance(value, ast.Call) else None


_UNFOLLOWED_METHODS = frozenset({'squeeze', 'diagonal', 'newbyteorder'})
"""Methods of a NumPy array that give a view of it no step here follows (`diagonal`'s
is read-only: NumPy raises where it is written)."""


def unfollowed_method(value):
    """The method's name where `value` calls one of a NumPy array that may give a view of
    it no step here follows: `m.squeeze()`, `m.diagonal()`, `m.view(dtype)` (the same
    memory read as another type), `m.astype(t, copy=False)` (`m` itself where it has
    type `t`); else None."""
    if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute)):
        return None
    method = value.func.attr
    if method in _UNFOLLOWED_METHODS or method == 'view' and (value.args or value.keywords):
        return method
    if method == 'astype' and any(
            k.arg == 'copy' and not (isinstance(k.value, ast.Constant) and k.value.value)
            for k in value.keywords):
        return method
    return None


def _unfollowed_method(value, is_numpy):
    """(the variable, None) where `value` calls an `unfollowed_method` of a chain of views
    of a variable (`m.squeeze()`, `m[0].diagonal()`), else None (also for a module's
    function, `np.squeeze(m)`: NumPy's functions ask a traced array for its value)."""
    if unfollowed_method(value) is None:
        return None
    found = _steps(value.func.value, is_numpy)
    if found is None or is_numpy(found[0]) is not None:
        return None
    return found[0], None


def has_function_form(value, resolve=None):
    """Whether chain of views `value` takes a step by one of NumPy's functions
    (`np.ravel(b)[1:]`) or a reshape in an order JAX does not take (`order='A'`, a
    ravel's `'K'`, or one not known by the converter): the converted code reads it by
    the chain's steps only (NumPy's function would ask a traced array for its value)."""
    is_numpy = _module_test(resolve)
    for node in ast.walk(value):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        if node.func.attr in _FUNCTIONS and _is_numpy(node.func.value, is_numpy):
            return True
        if node.func.attr in ('reshape', 'ravel') and any(
                not (isinstance(order, ast.Constant) and order.value in ('C', 'F'))
                for order in [k.value for k in node.keywords if k.arg == 'order']
                + node.args[:1 if node.func.attr == 'ravel' else 0]):
            return True
    return False


def _module_test(resolve):
    """`module(name)`: 'numpy' where a name refers to NumPy, 'other' where to another
    module, else None (by `resolve.module` where the resolver has one, else by the names
    `np`, `numpy` and `jnp`, `jax`). The resolver is asked only when a name is tested
    (passes.called_functions' LazyResolver is built then, not for every call)."""
    if resolve is None:
        return _module_by_name
    import numpy

    def test(name):
        module = getattr(resolve, 'module', None)
        if module is None:
            return _module_by_name(name)
        found = module(name)
        return None if found is None else 'numpy' if found is numpy else 'other'
    return test


def _module_by_name(name):
    return 'numpy' if name in ('np', 'numpy') else 'other' if name in ('jnp', 'jax') else None


def _is_numpy(node, module):
    return isinstance(node, ast.Name) and module(node.id) == 'numpy'


def _steps(node, is_numpy=None, ag=None):
    """(name, steps) of `name` followed by basic keys and view methods or NumPy's view
    functions, or None. (`ag`: the runtime's name, where a method call of a receiver
    passes.calls could not type went through `ag.call(y.reshape, 2, 3)`.)"""
    is_numpy = is_numpy or _module_test(None)
    steps = []
    while True:
        node = unrouted(node, ag)
        if isinstance(node, ast.Subscript) and may_be_basic(node.slice):
            steps.append(('item', node.slice))
            node = node.value
        elif isinstance(node, ast.Attribute) and node.attr == 'T':
            steps.append(('transpose', []))
            node = node.value
        elif not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute) \
                or any(isinstance(a, ast.Starred) for a in node.args) \
                or any(k.arg is None for k in node.keywords) \
                or (node.func.attr not in _FUNCTIONS and node.func.attr not in _METHODS):
            break   # (no view step: no module need be asked about the name)
        elif isinstance(node.func.value, ast.Name) and is_numpy(node.func.value.id) \
                and not _is_numpy(node.func.value, is_numpy):
            return None   # (another module's function: `jnp.reshape(b, s)`, a new array)
        elif _is_numpy(node.func.value, is_numpy):
            found = _function_step(node)
            if found is None:
                return None
            if found[0] is not None:
                steps.append(found[0])
            node = found[1]
        elif node.func.attr in _METHODS:
            step = _method_step(node.func.attr, node.args, node.keywords)
            if step is False:
                break
            if step is not None:
                steps.append(step)
            node = node.func.value
        else:
            break
    if not isinstance(node, ast.Name):
        return None
    return node.id, steps[::-1]


def unrouted(node, ag):
    """The method call `receiver.method(...)` that `node` stands for where it is
    `ag.call(receiver.method, ...)` (passes.calls' form, see `split_call`), else `node`."""
    if ag is None or not isinstance(node, ast.Call):
        return node
    func, args = split_call(node, ag)
    return node if func is node.func or not isinstance(func, ast.Attribute) else ast.Call(
        func=func, args=args, keywords=node.keywords)


def _method_step(method, args, keywords):
    """The step of `b.<method>(*args, **keywords)`, None for `b.view()` (all of `b`),
    False where it makes no view this module follows."""
    if method == 'reshape':
        order = _order([], keywords)
        return ('reshape', list(args) + order) if args and order is not None else False
    if method == 'ravel':
        order = _order(args, keywords)
        return ('ravel', order) if order is not None and len(args) <= 1 else False
    if keywords:
        return False
    if method == 'view':
        return None if not args else False
    if method == 'swapaxes':
        return ('swapaxes', list(args)) if len(args) == 2 else False
    return ('transpose', list(args))


def _order(args, keywords):
    """[the `order` keyword] of a reshape or ravel given `args` after its shape (at
    most the order) and `keywords` (no other), [] for the default, None for others."""
    if any(k.arg != 'order' for k in keywords) or len(args) > 1:
        return None
    given = [k.value for k in keywords] + list(args)
    return [ast.keyword(arg='order', value=given[0])] if given else []


_FUNCTION_PARAMETERS = {'reshape': ('a', 'shape', 'order'), 'ravel': ('a', 'order'),
                        'transpose': ('a', 'axes'), 'swapaxes': ('a', 'axis1', 'axis2'),
                        'moveaxis': ('a', 'source', 'destination'),
                        'asarray': ('a',), 'asanyarray': ('a',)}


def _function_step(call):
    """(the step, the array node) of NumPy's view function `call` (`np.reshape(b, s)`:
    (('reshape', [s]), b); `np.asarray(b)`: (('asarray', []), b)), or None."""
    name = call.func.attr
    if name not in _FUNCTIONS:
        return None
    params = _FUNCTION_PARAMETERS[name]
    given = dict(zip(params, call.args))
    for keyword in call.keywords:
        arg = 'shape' if keyword.arg == 'newshape' and name == 'reshape' else keyword.arg
        if arg not in params or arg in given:
            return None
        given[arg] = keyword.value
    if len(call.args) > len(params) or 'a' not in given:
        return None
    order = [ast.keyword(arg='order', value=given['order'])] if 'order' in given else []
    if name in ('asarray', 'asanyarray'):
        return ('asarray', []), given['a']
    if name == 'reshape':
        return (('reshape', [given['shape']] + order), given['a']) if 'shape' in given \
            else None
    if name == 'ravel':
        return ('ravel', order), given['a']
    if name == 'transpose':
        return ('transpose', [given['axes']] if 'axes' in given else []), given['a']
    rest = [given.get(p) for p in params[1:]]
    return ((name, rest), given['a']) if None not in rest else None


def may_be_basic(key):
    """Whether `key` (a subscript's) may be a basic index (NumPy's view): no list,
    tuple, comparison or other constant than an int, None or `...` in it."""
    parts = key.elts if isinstance(key, ast.Tuple) else [key]
    for part in parts:
        if isinstance(part, (ast.List, ast.ListComp, ast.Compare, ast.BoolOp, ast.Tuple,
                             ast.Set, ast.Dict)):
            return False
        if isinstance(part, ast.Constant) and not (
                part.value is None or part.value is Ellipsis
                or (type(part.value) is int)):
            return False
    return True


def _returned(call, ag, resolve):
    """(the argument's name, steps) where `call` calls a live function whose body is
    `return <chain of a parameter>` (its keys' names the parameters, given as names or
    constants: the caller's), (the argument's name, None) where a `return` of the
    function gives a view of a parameter that is not followed so, else None."""
    func, args = split_call(call, ag)
    if func is call.func or not isinstance(func, ast.Name):
        return None
    callee = resolve(func.id)
    found = _returned_chain(callee) if inspect.isfunction(callee) else None
    if found is None:
        return None
    param, steps, params = found
    given = dict(zip(params, args))
    given.update({k.arg: k.value for k in call.keywords if k.arg in params})
    argument = given.get(param)
    if not isinstance(argument, ast.Name):
        return None   # (a view of a value of the call's own)
    if steps is None or len(args) + len(call.keywords) != len(params) or any(
            isinstance(a, ast.Starred) for a in args):
        return argument.id, None
    try:
        return argument.id, [(kind, _given(part, given)) for kind, part in steps]
    except LookupError:   # (a key naming a variable the caller does not give)
        return argument.id, None


def _given(part, given):
    """A copy of the key (or reshape's arguments) `part` with the callee's parameters
    replaced by the caller's arguments (names or constants), else a LookupError."""
    class Given(ast.NodeTransformer):
        def visit_Name(self, node):
            value = given.get(node.id)
            if not isinstance(value, (ast.Name, ast.Constant)):
                raise LookupError(node.id)
            return copy.deepcopy(value)
    if isinstance(part, list):
        return [Given().visit(copy.deepcopy(p)) for p in part]
    return Given().visit(copy.deepcopy(part))


_returns = weakref.WeakKeyDictionary()   # code -> (parameter, steps, parameters) or None


def _returned_chain(fn):
    code = fn.__code__
    if code not in _returns:
        _returns[code] = _read_returned(fn)
    return _returns[code]


def _views_of(params, nodes):
    """{name: its parameter} of `params` and the names that `nodes` bind (`b = p[1:]`,
    `c = b`) to a chain of one of them (a view of a parameter, or the parameter)."""
    names, grew = {p: p for p in params}, True
    while grew:
        grew = False
        for n in nodes:
            if isinstance(n, ast.Assign) and len(n.targets) == 1 and \
                    isinstance(n.targets[0], ast.Name) and n.targets[0].id not in names:
                found = _steps(n.value)
                if found is not None and found[0] in names:
                    names[n.targets[0].id] = names[found[0]]
                    grew = True
    return names


def _read_returned(fn):
    """(parameter, steps, parameters) of `fn` whose body is `return <chain of a
    parameter>`, (parameter, None, parameters) where some `return` gives a chain of a
    parameter otherwise, else None (also for library code and code without source)."""
    from autograph import parsing
    from autograph.library import is_library
    if is_library(fn):
        return None
    try:
        node = parsing.parse_function(fn).node
    except Exception:   # (no source: nothing known)
        return None
    if not isinstance(node, ast.FunctionDef):
        return None
    arguments = node.args
    params = [a.arg for a in arguments.posonlyargs + arguments.args]
    nodes = list(own_nodes(node))
    returned = [_steps(n.value) for n in nodes if isinstance(n, ast.Return) and n.value]
    roots = _views_of(params, nodes)
    views = [found for found in returned if found is not None and found[0] in roots]
    if not views:
        return None
    body = node.body[1:] if ast.get_docstring(node, clean=False) is not None else node.body
    simple = not (arguments.vararg or arguments.kwarg or arguments.kwonlyargs
                  or arguments.defaults or node.decorator_list)
    if simple and len(body) == 1 and isinstance(body[0], ast.Return):
        return views[0][0], views[0][1], params
    return roots[views[0][0]], None, params
