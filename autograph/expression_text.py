"""Expressions as text: the text `ast.unparse` writes for an expression, built as one
string by a function per node class instead of written piece by piece through
`ast._Unparser`'s context managers and precedence table (most of the generated code's
nodes are expressions: names, calls, lambdas, tuples).

`text(node, precedence, precedences)` is that text, or None for an expression holding a
node it does not write (f-strings, comprehensions, lambdas with defaults, ...), which
the unparser then writes itself. `precedence` is the one the unparser gives the node
(a parenthesis is written where the node binds less tightly); `precedences` is the
unparser's table of those set on nodes, read where `ast._Unparser` reads it (for the
items of a call, a tuple, a list, ...: a node it met before may have one).

The rules are `ast._Unparser`'s, rule for rule; `AGREES` says whether this Python's
`ast.unparse` gives the same text for a sample of every construct written here (where
it does not, the unparser writes everything itself).
"""
import ast

_P = getattr(ast, '_Precedence', None)


ANY_LINE = object()   # (`text` writes a lambda whatever line its body has)


class _Unwritten(Exception):
    """A node `text` leaves to the unparser."""


def text(node, precedence, precedences, lambda_line=ANY_LINE):
    """The text of expression `node` (see the module doc), or None. `lambda_line`: where
    given, a lambda whose body has a line other than it is left to the unparser (it
    records the lambda's columns, see autograph.unparsing)."""
    try:
        return _Writer(precedences, lambda_line).write(node, precedence)
    except _Unwritten:
        return None


class _Writer:
    __slots__ = ('precedences', 'lambda_line')

    def __init__(self, precedences, lambda_line):
        self.precedences = precedences
        self.lambda_line = lambda_line

    def write(self, node, precedence):
        method = _METHODS.get(node.__class__)
        if method is None:
            raise _Unwritten
        return method(self, node, precedence)

    def item(self, node):
        """A node written at the precedence the unparser's table gives it (TEST, unless
        it was set before)."""
        return self.write(node, self.precedences.get(node, _TEST))

    def items(self, nodes):
        """`ast._Unparser.items_view`: one item with a trailing comma."""
        if len(nodes) == 1:
            return self.item(nodes[0]) + ','
        return ', '.join([self.item(n) for n in nodes])

    def name(self, node, precedence):
        return node.id

    def constant(self, node, precedence):
        value = node.value
        if value.__class__ in _REPR and getattr(node, 'kind', None) is None:
            return repr(value)
        if value.__class__ in (float, complex):
            return repr(value).replace('inf', _INF).replace('nan', f'({_INF}-{_INF})')
        raise _Unwritten   # (tuples, `...`, u'' strings: the unparser's own rules)

    def attribute(self, node, precedence):
        value = node.value
        space = ' ' if value.__class__ is ast.Constant and isinstance(value.value, int) \
            else ''
        return f'{self.write(value, _ATOM)}{space}.{node.attr}'

    def call(self, node, precedence):
        parts = [self.item(a) for a in node.args]
        for keyword in node.keywords:
            value = self.item(keyword.value)
            parts.append(f'{keyword.arg}={value}' if keyword.arg is not None
                         else f'**{value}')
        return f'{self.write(node.func, _ATOM)}({", ".join(parts)})'

    def starred(self, node, precedence):
        return '*' + self.write(node.value, _EXPR)

    def tuple(self, node, precedence):
        inner = self.items(node.elts)
        return f'({inner})' if not node.elts or precedence > _TUPLE else inner

    def list(self, node, precedence):
        return f'[{", ".join([self.item(n) for n in node.elts])}]'

    def dict(self, node, precedence):
        parts = [f'{self.item(k)}: {self.item(v)}' if k is not None
                 else '**' + self.write(v, _EXPR) for k, v in zip(node.keys, node.values)]
        return '{' + ', '.join(parts) + '}'

    def subscript(self, node, precedence):
        key = node.slice
        inner = self.items(key.elts) if key.__class__ is ast.Tuple and key.elts \
            else self.item(key)
        return f'{self.write(node.value, _ATOM)}[{inner}]'

    def slice(self, node, precedence):
        out = self.item(node.lower) if node.lower else ''
        out += ':' + (self.item(node.upper) if node.upper else '')
        return out + (':' + self.item(node.step) if node.step else '')

    def binary(self, node, precedence):
        operator, own = _BINARY[node.op.__class__]
        if operator == '**':
            left, right = _next(own), own
        else:
            left, right = own, _next(own)
        out = f'{self.write(node.left, left)} {operator} {self.write(node.right, right)}'
        return f'({out})' if precedence > own else out

    def unary(self, node, precedence):
        operator, own = _UNARY[node.op.__class__]
        space = '' if own == _FACTOR else ' '
        out = f'{operator}{space}{self.write(node.operand, own)}'
        return f'({out})' if precedence > own else out

    def boolean(self, node, precedence):
        operator, own = _BOOLEAN[node.op.__class__]
        parts, level = [], own
        for value in node.values:   # (each operand binds one level tighter: as ast's)
            level = _next(level)
            parts.append(self.write(value, level))
        out = f' {operator} '.join(parts)
        return f'({out})' if precedence > own else out

    def compare(self, node, precedence):
        parts = [self.write(node.left, _EXPR)]
        for op, right in zip(node.ops, node.comparators):
            parts += [_COMPARISONS[op.__class__], self.write(right, _EXPR)]
        out = ' '.join(parts)
        return f'({out})' if precedence > _CMP else out

    def if_expression(self, node, precedence):
        out = (f'{self.write(node.body, _OR)} if {self.write(node.test, _OR)} else '
               f'{self.write(node.orelse, _TEST)}')
        return f'({out})' if precedence > _TEST else out

    def lambda_(self, node, precedence):
        args = node.args
        if (args.posonlyargs or args.vararg or args.kwonlyargs or args.kwarg
                or args.defaults or any(a.annotation for a in args.args)):
            raise _Unwritten
        line = getattr(node.body, 'lineno', None)
        if self.lambda_line is not ANY_LINE and line is not None and \
                line != self.lambda_line:
            raise _Unwritten
        names = ', '.join([a.arg for a in args.args])
        out = f'lambda {names}: ' if names else 'lambda: '
        out += self.write(node.body, _TEST)
        return f'({out})' if precedence > _TEST else out

    def named(self, node, precedence):
        out = f'{self.write(node.target, _ATOM)} := {self.write(node.value, _ATOM)}'
        return f'({out})' if precedence > _NAMED else out


def _next(precedence):
    return precedence + 1 if precedence < _ATOM else precedence


_REPR = frozenset({int, bool, str, bytes, type(None)})
_INF = '1e' + repr(__import__('sys').float_info.max_10_exp + 1)   # (as ast's _INFSTR)

try:   # (the private names `ast._Unparser` reads its rules from, as in Python 3.11-3.13)
    _TEST, _TUPLE, _ATOM, _EXPR = int(_P.TEST), int(_P.TUPLE), int(_P.ATOM), int(_P.EXPR)
    _OR, _CMP, _FACTOR, _NAMED = int(_P.OR), int(_P.CMP), int(_P.FACTOR), int(_P.NAMED_EXPR)
    _U = ast._Unparser
    _BINARY = {getattr(ast, name): (op, int(_U.binop_precedence[op]))
               for name, op in _U.binop.items()}
    _UNARY = {getattr(ast, name): (op, int(_U.unop_precedence[op]))
              for name, op in _U.unop.items()}
    _BOOLEAN = {getattr(ast, name): (op, int(_U.boolop_precedence[op]))
                for name, op in _U.boolops.items()}
    _COMPARISONS = {getattr(ast, name): op for name, op in _U.cmpops.items()}
except AttributeError:   # pragma: no cover (Python 3.10: no NAMED_EXPR)
    _P = None

_METHODS = {ast.Name: _Writer.name, ast.Constant: _Writer.constant,
            ast.Attribute: _Writer.attribute, ast.Call: _Writer.call,
            ast.Starred: _Writer.starred, ast.Tuple: _Writer.tuple, ast.List: _Writer.list,
            ast.Dict: _Writer.dict, ast.Subscript: _Writer.subscript,
            ast.Slice: _Writer.slice, ast.BinOp: _Writer.binary,
            ast.UnaryOp: _Writer.unary, ast.BoolOp: _Writer.boolean,
            ast.Compare: _Writer.compare, ast.IfExp: _Writer.if_expression,
            ast.Lambda: _Writer.lambda_, ast.NamedExpr: _Writer.named}
WRITTEN = frozenset(_METHODS)
"""The expression classes `text` writes (where their parts are ones it writes too)."""

SAMPLE = r'''
f(a, *b, c=1, **d)[1:2, ::3, x:] .a
(lambda: x + y)(), lambda a, b: (a, b), (1,), (), [1, 'a', b"b", None, True, 1.5]
-x ** -y, (-x) ** y, not a and b or c and not (d or e), a < b <= c is not d not in e
x if y else (z if w else v), (a := 1), {1: 2, **d}, {}, 1 .real, 1e400, -(1 - 2) - 3
a - (b - c), a ** b ** c, (a ** b) ** c, ~a & b | c ^ d << e >> f % g // h @ i / j
x[()], x[(a, b)], x[a:b, c], x[(*a, b)], f(x for x in y), f(*(a or b)), (yield)
'''
"""Code holding each construct `text` writes (and some it leaves to the unparser)."""


def _agrees():
    """Whether `text` writes `SAMPLE`'s expressions as this Python's `ast.unparse` does
    (its rules differ between versions: 3.10 puts every tuple in parentheses)."""
    if _P is None:
        return False
    try:
        tree = ast.parse('def f():\n' + ''.join(
            f'    {line}\n' for line in SAMPLE.strip().splitlines()))
    except SyntaxError:
        return False
    for node in ast.walk(tree):
        if isinstance(node, ast.expr):
            ours = text(node, _TEST, {})
            if ours is not None and ours != ast.unparse(node):
                return False
    return True


AGREES = _agrees()
