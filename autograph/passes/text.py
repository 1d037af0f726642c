"""Values formatted into text, which must not be traced (see runtime.values.text).

    f'layer{i}'       -> f'layer{ag.text(i)}'
    '%d items' % n    -> '%d items' % ag.text(n)

Text that is only shown or raised is formatted when the program runs instead: an f-string,
`%` or `str(x)` given to `print`, `warnings.warn` or a logging call, or assigned to a
variable that only such calls and `raise` read:

    msg = f'Tolerance of {p1 - p0}'   ->  msg = ag.message('Tolerance of {}', p1 - p0)
    msg += ' at %d' % i               ->  msg += ag.message_percent(' at %d', i)
    warnings.warn(msg, RuntimeWarning) -> ag.emit(warnings.warn, msg, RuntimeWarning)
    print(f'x={x}')                   ->  ag.emit(print, ag.message('x={}', x))
    logger.info('x=%s', x)            ->  ag.emit(logger.info, 'x=%s', x)

`print('x is', x)` stays: it prints JAX's placeholder for a traced value while tracing
(tf.function's meaning). Messages of `assert` and `raise` stay f-strings: the runtime's
checks format them from the run-time values (passes.raises).

`str`, `repr` and `format` go to `ag.str`, ... with the other builtins (passes.calls).
"""
import ast

from autograph.analysis.walk import nodes
from autograph.passes.base import ScopeTransformer

_LOG_LEVELS = frozenset({'debug', 'info', 'warning', 'error', 'critical', 'exception'})
_CONVERSIONS = {-1: '', ord('s'): '!s', ord('r'): '!r', ord('a'): '!a'}


def transform(function, ctx):
    """Rewrite the text of `function` (see the module docstring); one without text or
    calls that show it is left as it is, without a second walk (and without a walk
    where the census finds none of their names: see `_may_hold_text`)."""
    if not _may_hold_text(ctx.census):
        return function
    found = nodes(function)
    if any(_has_text(node, ctx.ag) for node in found if node.__class__ in _WITH_TEXT):
        _Text(function, ctx, _shown_names(found, ctx.ag)).visit(function)
    return function


def _may_hold_text(census):
    """Whether the tree the census (analysis.census) walked may hold what `_has_text`
    looks for: an f-string, a `%`, a call of `print`, `warn`, `str` or `repr` (which
    passes.calls makes `ag.str`, `ag.repr`), or of a method of a logging or warning
    name. (No pass before this one makes any of these.) True without a census."""
    return census is None or census.has_any(_TEXT_NAMES) or \
        census.has_attribute(_TEXT_ATTRIBUTES)


_TEXT_NAMES = (ast.JoinedStr, ast.Mod, 'print', 'warn', 'str', 'repr')
_TEXT_ATTRIBUTES = _LOG_LEVELS | {'warn', 'log', 'str', 'repr'}


_WITH_TEXT = frozenset({ast.JoinedStr, ast.BinOp, ast.Call})
"""The node classes `_has_text` may answer True for (the others are not asked)."""


def _has_text(node, ag):
    """Whether `node` is something `_Text` rewrites or reads: an f-string, `'...' % x`,
    `str(x)` / `repr(x)` (`ag.str`), or a call that shows text it is given (`_emit`
    rewrites it: a logging call's arguments may be formatted by it). (A variable
    holding text to show is assigned one of the others.)"""
    if isinstance(node, ast.JoinedStr):
        return True
    if isinstance(node, ast.BinOp):
        return _is_percent(node)
    if not isinstance(node, ast.Call):
        return False
    if _is_runtime(node, ag, ('str', 'repr')):
        return True
    shown = _shown_call(node, ag)
    return shown is not None and ((shown[2] == 'log' and len(shown[1]) > 1) or any(
        _is_text(a, ag) for a in shown[1] + [k.value for k in node.keywords]))


class _Text(ScopeTransformer):
    def __init__(self, root, ctx, shown):
        super().__init__(root, ctx)
        self.displayed = 0     # > 0 inside print(...), assert and raise messages
        self.shown = shown     # see _shown_names

    def _checked(self, value):
        return ast.copy_location(ast.Call(func=self.ctx.runtime('text'), args=[value],
                                          keywords=[]), value)

    def visit_FormattedValue(self, node):
        self.generic_visit(node)
        if not self.displayed:
            node.value = self._checked(node.value)
        return node

    def visit_BinOp(self, node):
        self.generic_visit(node)
        if (not self.displayed and isinstance(node.op, ast.Mod)
                and isinstance(node.left, ast.Constant) and isinstance(node.left.value, str)):
            node.right = self._checked(node.right)
        return node

    def _displayed(self, node):
        self.displayed += 1
        try:
            self.generic_visit(node)
        finally:
            self.displayed -= 1
        return node

    visit_Raise = visit_Assert = _displayed

    def visit_Assign(self, node):
        if len(node.targets) == 1 and _name(node.targets[0]) in self.shown:
            node.value = self._message(node.value)
        self.generic_visit(node)
        return node

    def visit_AugAssign(self, node):
        if isinstance(node.op, ast.Add) and _name(node.target) in self.shown:
            node.value = self._message(node.value)
        self.generic_visit(node)
        return node

    def visit_Call(self, node):
        shown = _shown_call(node, self.ctx.ag)
        if shown is not None:
            return self._emit(node, *shown)
        if _is_check(node.func, self.ctx.ag):
            return self._displayed(node)
        self.generic_visit(node)
        return node

    def _emit(self, node, fn, args, kind):
        """A call that shows text: `ag.emit(fn, *args)` when some of it is text to make
        when the program runs (a logging call's own `%` arguments may be)."""
        texts = [_is_text(a, self.ctx.ag) or _name(a) in self.shown
                 for a in args + [k.value for k in node.keywords]]
        args = [self._message(a) for a in args]
        for keyword in node.keywords:
            keyword.value = self._message(keyword.value)
        through_ag = node.func is not fn   # `ag.call(obj.info, x)`: may be a user method
        node.args = [fn] + args if through_ag else args
        self._displayed(node)
        if not any(texts) and not (kind == 'log' and len(args) > 1):
            return node
        emit = ast.Call(func=self.ctx.runtime('emit'), args=[fn] + args,
                        keywords=node.keywords)
        return ast.copy_location(emit, node)

    def _message(self, node):
        """`node`, text that is only shown or raised, made by `ag.message`."""
        ag = self.ctx.ag
        if isinstance(node, ast.JoinedStr):
            template, values = _template(node)
            return self._call('message', [ast.Constant(template)] + values, node)
        if isinstance(node, ast.BinOp) and _is_percent(node):
            return self._call('message_percent', [node.left, node.right], node)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add) and _is_text(node, ag):
            node.left, node.right = self._message(node.left), self._message(node.right)
            return node
        if _is_runtime(node, ag, ('str', 'repr')) and len(node.args) == 1 and not node.keywords:
            template = '{!s}' if node.func.attr == 'str' else '{!r}'
            return self._call('message', [ast.Constant(template), node.args[0]], node)
        return node

    def _call(self, op, args, node):
        return ast.copy_location(ast.Call(func=self.ctx.runtime(op), args=args, keywords=[]),
                                 node)


def _template(joined):
    """`f'a {x!r:>{w}}'` -> ('a {!r:>{}}', [x, w]): a `str.format` template and its values."""
    template, values = [], []
    for part in joined.values:
        if isinstance(part, ast.Constant):
            template.append(part.value.replace('{', '{{').replace('}', '}}'))
            continue
        values.append(part.value)
        spec = ''
        if part.format_spec is not None:
            spec, nested = _template(part.format_spec)
            values += nested
            spec = ':' + spec
        template.append('{' + _CONVERSIONS[part.conversion] + spec + '}')
    return ''.join(template), values


def _name(node):
    return node.id if isinstance(node, ast.Name) else None


def _is_percent(node):
    return (isinstance(node.op, ast.Mod) and isinstance(node.left, ast.Constant)
            and isinstance(node.left.value, str))


def _is_runtime(node, ag, attrs):
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name) and node.func.value.id == ag
            and node.func.attr in attrs)


def _is_text(node, ag):
    """An f-string, `'...' % x`, `str(x)`, or a `+` of text."""
    if isinstance(node, ast.JoinedStr) or (isinstance(node, ast.BinOp) and _is_percent(node)):
        return True
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _is_text(node.left, ag) or _is_text(node.right, ag)
    return _is_runtime(node, ag, ('str', 'repr'))


def _is_check(func, ag):
    """The runtime's checks that earlier passes made of `assert` and `raise` statements
    (`ag.assert_(...)`, ...): their messages are text to show."""
    return (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)
            and func.value.id == ag and ('assert' in func.attr or 'raise' in func.attr))


def _shown_call(call, ag):
    """(fn, args, kind) of a call that shows text: `print(...)`, `warnings.warn(...)`,
    a logging call (`logger.info(...)`, also as `ag.call(logger.info, ...)`); else None."""
    fn, args = call.func, list(call.args)
    if _is_runtime(call, ag, ('call',)) and args:
        fn, args = args[0], args[1:]
    if isinstance(fn, ast.Name) and fn.id in ('print', 'warn'):
        return fn, args, fn.id
    if not isinstance(fn, ast.Attribute) or not (fn.attr in _LOG_LEVELS
                                                 or fn.attr in ('warn', 'log')):
        return None
    receiver = ast.unparse(fn.value)   # (only for the names of showing calls: it is slow)
    if fn.attr == 'warn' and receiver == 'warnings':
        return fn, args, 'warn'
    if fn.attr in _LOG_LEVELS or (fn.attr in ('warn', 'log') and 'log' in receiver.lower()):
        return fn, args, 'log'
    return None


def _shown_names(found, ag):
    """The variables assigned text whose every read shows or raises it: an argument of a
    call that shows text, a read in a `raise` or a run-time check, or `msg = msg + ...`.
    (`found`: the nodes of the function.)"""
    assigned, shown = set(), set()
    for node in found:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and _is_text(node.value, ag):
            assigned.add(_name(node.targets[0]))
        elif isinstance(node, ast.AugAssign) and _is_text(node.value, ag):
            assigned.add(_name(node.target))
    assigned.discard(None)
    if not assigned:   # (most functions: no need to find the reads)
        return assigned
    for node in found:
        shown_call = _shown_call(node, ag) if isinstance(node, ast.Call) else None
        if shown_call is not None:
            _, args, _ = shown_call
            shown.update(id(a) for a in args + [k.value for k in node.keywords])
        elif isinstance(node, ast.Raise) or (isinstance(node, ast.Call)
                                             and _is_check(node.func, ag)):
            shown.update(id(n) for n in ast.walk(node) if isinstance(n, ast.Name))
        elif (isinstance(node, ast.Assign) and isinstance(node.value, ast.BinOp)
              and isinstance(node.value.op, ast.Add)
              and _name(node.value.left) == _name(node.targets[0])):
            shown.add(id(node.value.left))
    reads = [n for n in found if isinstance(n, ast.Name)
             and isinstance(n.ctx, ast.Load) and n.id in assigned]
    return assigned - {n.id for n in reads if id(n) not in shown}
