"""Boolean operators, conditional expressions and chained comparisons.

    a and b          -> ag.and_(a, lambda: b)
    a or b or c      -> ag.or_(a, lambda: b, lambda: c)
    not a            -> ag.not_(a)
    a if c else b    -> ag.if_exp(lambda: c, lambda: a, lambda: b)
    s + 1 if s is not None else 0
                     -> ag.if_exp(lambda: s is not None, lambda s: s + 1, lambda s: 0, (s,))
                        (the values take the variables the test tests for None: the
                        value where one is surely not None gets its value)
    a if c else b if d else e
                     -> ag.if_exp_chain((lambda: c, lambda: d),
                                        (lambda: a, lambda: b, lambda: e))
    a < b < c < d    -> ag.and_(a < b, lambda: b < c, lambda: c < d)
    a < f(x) < c     -> ag.compare(a, '<', lambda: f(x), '<', lambda: c)
                        (a middle operand that is not a name or constant: evaluated once)
    a in (b, c)      -> ag.in_(a, (b, c))      (traced items: (a == b) | (a == c))
    a not in xs      -> ag.not_(ag.in_(a, xs))
    state == START   -> ag.eq(state, START)    (an operand that may be a list or tuple:
    a != [0, 0]      -> ag.ne(a, [0, 0])        a display, a global holding one, a local
                                                some binding of which is a display; or
    pos == self.goal -> ag.eq(pos, self.goal)   two parameters or attributes)

    (d, i) < best    -> ag.lt((d, i), best)     (and `<=`, `>`, `>=`, where an operand
                                                 may be a list or tuple as above)
    v < V(x)         -> ag.lt(v, ag.call(V, x)) (an operand a global user class made:
                                                 its `__lt__` runs converted)

`ag.eq`/`ag.ne` compare two lists (tuples) of traced items as Python does, item by item
(a traced bool: the `and` of the items'), `ag.lt`... order them as Python does (the first
unequal pair decides); other comparisons stay as written.

The right operands stay lazy, so Python values keep Python's short-circuit semantics;
traced values become `jnp.logical_*` and `lax.cond`.
"""
import ast

from autograph import templates
from autograph.analysis import walk
from autograph.passes.base import ScopeTransformer, may_hold, scope_statements
from autograph.passes.conditionals import tested_for_none

_SEQUENCES = (ast.List, ast.Tuple, ast.ListComp)


class _Expressions(ScopeTransformer):
    def __init__(self, root, ctx):
        super().__init__(root, ctx)
        self.sequences = None   # the local names some binding of which is a display
        self.class_objects = None   # the local names bound only to user classes' objects

    def _may_be_sequence(self, node):
        """Whether operand `node` may be a list or tuple (see the module docstring)."""
        if isinstance(node, _SEQUENCES):
            return True
        if not isinstance(node, ast.Name):
            return False
        if self.sequences is None:
            self.sequences = _sequence_names(self.root, may_hold(self.ctx, ast.NamedExpr))
        return node.id in self.sequences or self.ctx.resolver.holds_sequence(node.id)

    def _user_object(self, node):
        """Whether operand `node` is an object of a user's class (`ag.call(V, x)` of a
        global user class `V`, a local name bound only to such calls, a method's
        `self`), whose class may define the comparison: `ag.lt` runs it converted."""
        if node.__class__ is not ast.Name:
            return self._class_call(node)
        if node.id == 'self' and self._given(node):
            return True
        if self.class_objects is None and self.root.__class__ is ast.Lambda:
            self.class_objects = set()   # (a lambda binds no name but its parameters)
        elif self.class_objects is None:
            made = self.ctx.user_objects.get(self.root, ())   # (bound only to user calls)
            self.class_objects = {
                stmt.targets[0].id for stmt in scope_statements(self.root)
                if stmt.__class__ is ast.Assign and len(stmt.targets) == 1
                and stmt.targets[0].__class__ is ast.Name and stmt.targets[0].id in made
                and self._class_call(stmt.value)}
        return node.id in self.class_objects

    def _class_call(self, node):
        """Whether `node` is `ag.call(V, ...)` of a global user class `V`."""
        func = node.func if node.__class__ is ast.Call else None
        if not (func.__class__ is ast.Attribute and func.attr == 'call' and node.args
                and func.value.__class__ is ast.Name and func.value.id == self.ctx.ag):
            return False
        callee, is_class = node.args[0], getattr(self.ctx.resolver, 'is_user_class', None)
        return callee.__class__ is ast.Name and is_class is not None and is_class(callee.id)

    def _given(self, node):
        """Whether operand `node` holds a value of a kind the function does not make: an
        attribute (`self.pos`) or a parameter (either may be a tuple: `pos == goal`)."""
        if node.__class__ is ast.Attribute:
            return True
        if node.__class__ is not ast.Name or self.root.__class__ is ast.Lambda:
            return False
        args = self.root.args
        return node.id in {a.arg for a in args.posonlyargs + args.args + args.kwonlyargs}

    def _call(self, op, args, origin):
        return ast.copy_location(
            ast.Call(func=self.ctx.runtime(op), args=args, keywords=[]), origin)

    def visit_BoolOp(self, node):
        self.generic_visit(node)
        op = 'and_' if isinstance(node.op, ast.And) else 'or_'
        return self._call(op, node.values[:1] + [templates.thunk(v) for v in node.values[1:]],
                          node)

    def visit_UnaryOp(self, node):
        self.generic_visit(node)
        if isinstance(node.op, ast.Not):
            return self._call('not_', [node.operand], node)
        return node

    def visit_Return(self, node):
        """`return a if c else b`: the chosen value is the function's result, which no
        code of it changes afterwards (`returned=True`: the runtime chooses an existing
        list or dict on one path as a value, see runtime.state.mutation)."""
        returned = node.value.__class__ is ast.IfExp
        self.generic_visit(node)
        if returned and node.value.__class__ is ast.Call:
            node.value.keywords.append(ast.keyword(arg='returned', value=ast.Constant(True)))
        return node

    def visit_IfExp(self, node):
        walrus = may_hold(self.ctx, ast.NamedExpr)   # (else no test assigns)
        links = [node]   # `a if c1 else b if c2 else d`: one chain, not nested calls
        while isinstance(links[-1].orelse, ast.IfExp) and not (
                walrus and _assigns(links[-1].orelse.test)):
            links.append(links[-1].orelse)
        if walrus and _assigns(node.test):
            links = links[:1]
        tests = [self.visit(link.test) for link in links]
        values = [templates.thunk(self.visit(link.body)) for link in links]
        values.append(templates.thunk(self.visit(links[-1].orelse)))
        if len(links) == 1:
            narrowed = self._narrowed(tests[0], node, walrus)
            if narrowed:   # (the branches take them: the runtime narrows an optional)
                for value in values:
                    value.args = templates.arguments(narrowed)
                values.append(ast.Tuple(elts=[ast.Name(id=n, ctx=ast.Load())
                                              for n in narrowed], ctx=ast.Load()))
            return self._call('if_exp', [templates.test(tests[0], walrus)] + values, node)
        return self._call('if_exp_chain', [
            ast.Tuple(elts=[templates.thunk(test) for test in tests], ctx=ast.Load()),
            ast.Tuple(elts=values, ctx=ast.Load())], node)

    def _narrowed(self, test, node, walrus):
        """The variables `x if test else y` tests for None (or for their truth) and its
        values read (`s + 1 if s is not None else 0`): the value on which such a
        variable is surely not None reads its value, not the optional (as `if` does,
        see passes.conditionals). None where the expression assigns with `:=`."""
        if walrus and _assigns(node):
            return ()
        tested = tested_for_none(test, self.ctx.ag)
        if not tested:
            return ()
        read = {n.id for part in (node.body, node.orelse) for n in ast.walk(part)
                if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
        return tuple(sorted(tested & read))

    def visit_Compare(self, node):
        self.generic_visit(node)
        if len(node.ops) == 1 and not isinstance(node.ops[0], (ast.In, ast.NotIn)):
            return self._compare(node.left, node.ops[0], node.comparators[0], node)
        operands = [node.left] + node.comparators
        if not all(isinstance(o, (ast.Name, ast.Constant)) for o in operands[1:-1]):
            return self._compare_once(node)
        parts = [self._compare(operands[i], op, operands[i + 1], node)
                 for i, op in enumerate(node.ops)]
        if len(parts) == 1:
            return parts[0]
        return self._call('and_', parts[:1] + [templates.thunk(p) for p in parts[1:]], node)

    def _compare_once(self, node):
        args = [node.left]
        for op, operand in zip(node.ops, node.comparators):
            args += [ast.Constant(_OPERATOR_TEXT[type(op)]), templates.thunk(operand)]
        return self._call('compare', args, node)

    def _compare(self, left, op, right, origin):
        if isinstance(op, ast.In):
            return self._call('in_', [left, right], origin)
        if isinstance(op, ast.NotIn):
            return self._call('not_', [self._call('in_', [left, right], origin)], origin)
        if type(op) in _SEQUENCE_OPERATORS and (
                self._may_be_sequence(left) or self._may_be_sequence(right) or
                self._user_object(left) or self._user_object(right) or
                (isinstance(op, (ast.Eq, ast.NotEq))   # (`x < y` of two parameters: as
                 and self._given(left) and self._given(right))):   # written, numbers)
            return self._call(_SEQUENCE_OPERATORS[type(op)], [left, right], origin)
        return ast.copy_location(ast.Compare(left=left, ops=[op], comparators=[right]), origin)


_SEQUENCE_OPERATORS = {ast.Eq: 'eq', ast.NotEq: 'ne', ast.Lt: 'lt', ast.LtE: 'le',
                       ast.Gt: 'gt', ast.GtE: 'ge'}

_OPERATOR_TEXT = {ast.Lt: '<', ast.LtE: '<=', ast.Gt: '>', ast.GtE: '>=', ast.Eq: '==',
                  ast.NotEq: '!=', ast.Is: 'is', ast.IsNot: 'is not', ast.In: 'in',
                  ast.NotIn: 'not in'}


def _sequence_names(function, walrus=True):
    """The names that `function`'s own code binds to a list or tuple display somewhere
    (`state = [i, j]`, `state = START = (0, 0)`): nested functions are their own scopes.
    (`walrus` false: the function has no `:=`, so only its statements can bind them.)"""
    names = set()
    if not walrus and isinstance(function, ast.Lambda):
        return names   # (a lambda binds nothing but its parameters and by `:=`)
    if not walrus:
        for node in scope_statements(function):
            _add_display_binding(node, names)
        return names
    stack = [function]
    while stack:
        node = stack.pop()
        _add_display_binding(node, names)
        stack += [child for child in walk.children(node)
                  if not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef,
                                            ast.Lambda, ast.ClassDef))]
    return names


def _add_display_binding(node, names):
    """Add to `names` the names `node` binds to a list or tuple display."""
    if isinstance(node, ast.Assign) and isinstance(node.value, _SEQUENCES):
        names.update(t.id for t in node.targets if isinstance(t, ast.Name))
    elif isinstance(node, (ast.AnnAssign, ast.NamedExpr)) and isinstance(
            node.value, _SEQUENCES) and isinstance(node.target, ast.Name):
        names.add(node.target.id)


def _assigns(test):
    """Whether `test` has an assignment expression (`:=`), which a test evaluated as a
    function of no arguments would assign in that function instead."""
    return any(isinstance(n, ast.NamedExpr) for n in ast.walk(test))


transform = _Expressions.transform
