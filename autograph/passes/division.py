"""Division of Python numbers -> `ag.divide(a, b, '/')`, which keeps Python's
ZeroDivisionError (runtime.python.division).

    k = int(n[0])                  k = ag.int(n[0])
    step = 100 // k        ->      step = ag.divide(100, k, '//')
    for i in range(n):             for i in ag.range(n):
        s += x[i] / (i - 2)            s += x[i] / (i - 2)          (an array: JAX's)
        t += 1.0 / (i - 2)             t += ag.divide(1.0, i - 2, '/')

Plain Python raises ZeroDivisionError where an `int` or a `float` is divided by zero;
NumPy's and JAX's arrays give inf, nan or some integer instead. Values that plain Python
holds as numbers become traced scalars in converted code (`int()` or `float()` of a
traced value, the counter of a staged `range` loop), so a division of two of them is
rewritten where both operands are numbers in the function as written: literals;
`int(...)`, `float(...)`, `len(...)`, `x.item()`, `math.*(...)`; `abs`, `min`, `max` of
numbers; arithmetic and conditional expressions of numbers; local variables every
binding of which is a number (a `for` target over `range(...)` and `enumerate`'s counter
too, `n += 1` keeps one). Any other operand (an array, a parameter, an attribute, an item)
keeps the operator as written, and so does a literal divisor other than zero (`i % 15`).

Runs before passes.calls, which rewrites `int(...)` to `ag.int(...)`: it reads the
builtins as the user wrote them.
"""
import ast

from autograph.analysis.walk import SCOPES
from autograph.passes.base import ScopeTransformer, walk_scope

ONLY_WITH = (ast.Div, ast.FloorDiv, ast.Mod)   # see analysis.census

_DIVISIONS = {ast.Div: '/', ast.FloorDiv: '//', ast.Mod: '%'}
_ARITHMETIC = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow)
_NUMBER_MAKERS = frozenset({'int', 'float', 'len'})
_OF_NUMBERS = frozenset({'abs', 'min', 'max'})


class _Division(ScopeTransformer):
    def __init__(self, root, ctx):
        super().__init__(root, ctx)
        self.numbers = frozenset()

    @classmethod
    def transform(cls, function, ctx):
        found = walk_scope(function)
        if not any(node.__class__ in (ast.BinOp, ast.AugAssign)
                   and node.op.__class__ in _DIVISIONS
                   and not _nonzero(node.right if node.__class__ is ast.BinOp else node.value)
                   for node in found):
            return function   # (most functions: no division, or by a literal: `n // 2`)
        converter = cls(function, ctx)
        converter.numbers = converter.number_names(found)
        if any(converter.rewritten(node) for node in found):   # (else numbers' divisions
            converter.visit(function)                        # by literals alone)
        return function

    # --- which values are Python numbers -----------------------------------------------

    def number_names(self, found):
        """The local names every binding of which is a number (the largest such set)."""
        bindings, other, seen = {}, set(), set()
        args = self.root.args
        other |= {a.arg for a in args.posonlyargs + args.args + args.kwonlyargs}
        other |= {a.arg for a in (args.vararg, args.kwarg) if a is not None}
        for node in found:
            cls = node.__class__
            if cls is ast.Assign and len(node.targets) == 1 and \
                    node.targets[0].__class__ is ast.Name:
                bindings.setdefault(node.targets[0].id, []).append(node.value)
                seen.add(id(node.targets[0]))
            elif cls is ast.AugAssign and node.target.__class__ is ast.Name:
                bindings.setdefault(node.target.id, []).append(
                    ast.BinOp(left=node.target, op=node.op, right=node.value))
                seen.add(id(node.target))
            elif cls is ast.For:
                for name, value in self._loop_targets(node):
                    bindings.setdefault(name.id, []).append(value)
                    seen.add(id(name))
            elif cls is ast.Global or cls is ast.Nonlocal:
                other.update(node.names)
            elif cls in SCOPES and node is not self.root and hasattr(node, 'name'):
                other.add(node.name)
        other |= {node.id for node in found   # (every other binding: a tuple's item, ...)
                  if node.__class__ is ast.Name and node.ctx.__class__ is not ast.Load
                  and id(node) not in seen}
        numbers = set(bindings) - other
        changed = True
        while changed:
            changed = False
            for name in sorted(numbers):
                if not all(self.is_number(v, numbers) for v in bindings[name]):
                    numbers.discard(name)
                    changed = True
        return frozenset(numbers)

    def _loop_targets(self, loop):
        """(name node, a value standing for what it is bound to) of `for i in range(...)`
        and `for i, v in enumerate(...)` (the counter), a number."""
        iterable, target, number = loop.iter, loop.target, ast.Constant(0)
        if self._builtin_call(iterable, 'range') and target.__class__ is ast.Name:
            return [(target, number)]
        if self._builtin_call(iterable, 'enumerate') and target.__class__ is ast.Tuple \
                and len(target.elts) == 2 and target.elts[0].__class__ is ast.Name:
            return [(target.elts[0], number)]
        return []

    def is_number(self, node, numbers=None):
        """Whether plain Python holds expression `node`'s value as an int or a float."""
        numbers = self.numbers if numbers is None else numbers
        cls = node.__class__
        if cls is ast.Constant:
            return type(node.value) in (int, float, bool)
        if cls is ast.Name:
            return node.id in numbers
        if cls is ast.UnaryOp:
            return self.is_number(node.operand, numbers)
        if cls is ast.BinOp:
            return isinstance(node.op, _ARITHMETIC) and self.is_number(node.left, numbers) \
                and self.is_number(node.right, numbers)
        if cls is ast.IfExp:
            return self.is_number(node.body, numbers) and self.is_number(node.orelse,
                                                                         numbers)
        if cls is ast.Call:
            return self._makes_number(node, numbers)
        return False

    def _makes_number(self, call, numbers):
        func = call.func
        if func.__class__ is ast.Name and self._is_builtin(func.id):
            if func.id in _NUMBER_MAKERS:
                return True
            return func.id in _OF_NUMBERS and bool(call.args) and not call.keywords and \
                all(self.is_number(a, numbers) for a in call.args)
        if func.__class__ is ast.Attribute:
            if func.attr == 'item' and not call.args and not call.keywords:
                return True
            return func.value.__class__ is ast.Name and \
                self.ctx.resolver.module_name(func.value.id) == 'math'
        return False

    def _builtin_call(self, node, name):
        return node.__class__ is ast.Call and node.func.__class__ is ast.Name and \
            node.func.id == name and self._is_builtin(name)

    def _is_builtin(self, name):
        return self.ctx.resolver.is_builtin(name)

    # --- the rewrite ---------------------------------------------------------------------

    def rewritten(self, node):
        """Whether `node` is a division of two numbers that may divide by zero (a BinOp
        or an AugAssign of a name, as the function is written)."""
        cls = node.__class__
        if (cls is not ast.BinOp and cls is not ast.AugAssign) or \
                node.op.__class__ not in _DIVISIONS:
            return False
        if cls is ast.BinOp:
            return not _nonzero(node.right) and self.is_number(node.left) and \
                self.is_number(node.right)
        return node.target.__class__ is ast.Name and not _nonzero(node.value) and \
            node.target.id in self.numbers and self.is_number(node.value)

    def visit_BinOp(self, node):
        self.generic_visit(node)
        if not self.rewritten(node):
            return node
        op = _DIVISIONS[node.op.__class__]
        return ast.copy_location(self._divide(node.left, node.right, op), node)

    def visit_AugAssign(self, node):
        self.generic_visit(node)
        if not self.rewritten(node):
            return node
        op = _DIVISIONS[node.op.__class__]
        value = self._divide(ast.Name(id=node.target.id, ctx=ast.Load()), node.value, op)
        return ast.copy_location(ast.Assign(targets=[node.target], value=value), node)

    def _divide(self, left, right, op):
        return ast.Call(func=self.ctx.runtime('divide'), args=[left, right, ast.Constant(op)],
                        keywords=[])


def _nonzero(node):
    """Whether `node` is a number other than zero made of literals alone (`i % 15`,
    `seed % 2 ** 31`: no check needed)."""
    value = _constant(node)
    return value is not None and value != 0


_FOLDED = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b,
           ast.Mult: lambda a, b: a * b}


def _constant(node):
    """The int or float of literals `node` computes (`+`, `-`, `*`, small powers), or
    None."""
    cls = node.__class__
    if cls is ast.Constant:
        return node.value if type(node.value) in (int, float) else None
    if cls is ast.UnaryOp and node.op.__class__ in (ast.USub, ast.UAdd):
        value = _constant(node.operand)
        return None if value is None else (-value if node.op.__class__ is ast.USub else value)
    if cls is not ast.BinOp:
        return None
    left, right = _constant(node.left), _constant(node.right)
    if left is None or right is None:
        return None
    if node.op.__class__ is ast.Pow:
        return left ** right if type(right) is int and 0 <= right <= 64 and \
            abs(left) <= 1 << 16 else None
    fold = _FOLDED.get(node.op.__class__)
    return None if fold is None else fold(left, right)


transform = _Division.transform
