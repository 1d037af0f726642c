"""A tiny tracing framework that is not JAX, and how it builds on autograph.

Its tracer, `Node`, records the arithmetic done on it into a graph; `trace` turns a Python
function into a `Graph` that `run` evaluates with Python numbers. Like a JAX tracer, a
Node has no truth value, so Python control flow on one fails; the framework offers
`cond`, `while_loop` and `fori_loop` (with `jax.lax`'s signatures) that record sub-graphs
instead. The last section embeds autograph: `compile(fn)` traces the converted `fn`, so
users write plain `if`/`while`/`for` and get staged sub-graphs.

    graph = compile(collatz_steps, 'n')
    print(graph)            # the recorded program: one `while` holding one `cond`
    graph.run(n=27)         # 111
"""
import itertools
import operator

import autograph


class TracingError(TypeError):
    """What the framework raises for programs it cannot trace."""


_ids = itertools.count()


class Node:
    """A traced value: an operation on other nodes (or on constants)."""
    __slots__ = ('op', 'inputs', 'attrs', 'id')

    def __init__(self, op, inputs=(), **attrs):
        self.op, self.inputs, self.attrs, self.id = op, tuple(inputs), attrs, next(_ids)

    def __bool__(self):
        raise TracingError('a traced value has no truth value: use tinygraph.cond / '
                           'while_loop, or convert the function with autograph')

    def __index__(self):
        raise TracingError('a traced value is not a Python int while tracing')

    __hash__ = object.__hash__

    def __repr__(self):
        return f'%{self.id}'


_BINARY = {'add': operator.add, 'sub': operator.sub, 'mul': operator.mul,
           'truediv': operator.truediv, 'floordiv': operator.floordiv, 'mod': operator.mod,
           'pow': operator.pow, 'lt': operator.lt, 'le': operator.le, 'gt': operator.gt,
           'ge': operator.ge, 'eq': operator.eq, 'ne': operator.ne}
_UNARY = {'neg': operator.neg, 'abs': operator.abs}
_REFLECTED = {'add', 'sub', 'mul', 'truediv', 'floordiv', 'mod', 'pow'}


def _binary_method(op, reflected=False):
    def method(self, other):
        a, b = (other, self) if reflected else (self, other)
        return Node(op, (as_node(a), as_node(b)))
    return method


for _op in _BINARY:
    setattr(Node, f'__{_op}__', _binary_method(_op))
    if _op in _REFLECTED:
        setattr(Node, f'__r{_op}__', _binary_method(_op, reflected=True))
for _op in _UNARY:
    setattr(Node, f'__{_op}__', lambda self, op=_op: Node(op, (self,)))


def as_node(value):
    if isinstance(value, Node):
        return value
    if isinstance(value, (bool, int, float)):
        return Node('const', value=value)
    raise TracingError(f'cannot trace a value of type {type(value).__name__}')


class Graph:
    """A traced function: parameter nodes and output nodes."""

    def __init__(self, params, outputs):
        self.params, self.outputs = tuple(params), tuple(outputs)

    def __call__(self, *args, env=None):
        scope = dict(env or {})
        scope.update(zip(self.params, args))
        return tuple(_evaluate(node, scope) for node in self.outputs)

    def run(self, **inputs):
        """Evaluate with Python values for the named inputs; one output comes back bare."""
        outputs = self(*(inputs[p.attrs['name']] for p in self.params))
        return outputs[0] if len(outputs) == 1 else outputs

    def ops(self):
        """The names of every operation recorded, nested graphs included."""
        found, seen, stack = set(), set(), list(self.outputs)
        while stack:
            node = stack.pop()
            if node.id in seen:
                continue
            seen.add(node.id)
            found.add(node.op)
            stack += node.inputs
            for sub in node.attrs.values():
                if isinstance(sub, Graph):
                    stack += sub.outputs
        return found

    def __str__(self):
        return '\n'.join(_listing(self, ''))


def _params(count):
    return [Node('param', index=i) for i in range(count)]


def _subgraph(fn, params):
    """Trace `fn(*params)`; also whether it returned a tuple (else one value)."""
    out = fn(*params)
    many = isinstance(out, tuple)
    return Graph(params, [as_node(v) for v in (out if many else (out,))]), many


def _items(node, count):
    return tuple(Node('item', (node,), index=i) for i in range(count))


def cond(pred, true_fun, false_fun, *operands):
    """`true_fun(*operands) if pred else false_fun(*operands)`, recorded."""
    if not isinstance(pred, Node):
        return true_fun(*operands) if pred else false_fun(*operands)
    (true, many), (false, _) = (_subgraph(f, _params(len(operands)))
                                for f in (true_fun, false_fun))
    if len(true.outputs) != len(false.outputs):
        raise TracingError('the branches of a cond return different numbers of values')
    outputs = _items(Node('cond', (pred, *map(as_node, operands)), true=true, false=false),
                     len(true.outputs))
    return outputs if many else outputs[0]


def while_loop(cond_fun, body_fun, init_val):
    """`while cond_fun(val): val = body_fun(val)` over a tuple `init_val`, recorded."""
    init = tuple(init_val)
    test, _ = _subgraph(lambda *state: cond_fun(state), _params(len(init)))
    body, _ = _subgraph(lambda *state: body_fun(state), _params(len(init)))
    return _items(Node('while', map(as_node, init), test=test, body=body), len(init))


def fori_loop(lower, upper, body_fun, init_val):
    """`for i in range(lower, upper): val = body_fun(i, val)` over a tuple, recorded."""
    init = tuple(init_val)
    body, _ = _subgraph(lambda i, *state: body_fun(i, state), _params(1 + len(init)))
    node = Node('fori', (as_node(lower), as_node(upper), *map(as_node, init)), body=body)
    return _items(node, len(init))


def trace(fn, *names):
    """The Graph of `fn` called with one input node per name."""
    graph, _ = _subgraph(fn, [Node('input', name=name) for name in names])
    return graph


# --- evaluation ----------------------------------------------------------------------------

def _evaluate(node, scope):
    if node in scope:
        return scope[node]
    op, attrs = node.op, node.attrs
    args = [_evaluate(i, scope) for i in node.inputs]
    if op == 'const':
        value = attrs['value']
    elif op in _BINARY:
        value = _BINARY[op](*args)
    elif op in _UNARY:
        value = _UNARY[op](*args)
    elif op == 'item':
        value = args[0][attrs['index']]
    elif op == 'cond':
        value = (attrs['true'] if args[0] else attrs['false'])(*args[1:], env=scope)
    elif op == 'while':
        state = tuple(args)
        while attrs['test'](*state, env=scope)[0]:
            state = attrs['body'](*state, env=scope)
        value = state
    elif op == 'fori':
        state = tuple(args[2:])
        for i in range(args[0], args[1]):
            state = attrs['body'](i, *state, env=scope)
        value = state
    else:
        raise TracingError(f'unbound {op} node {node!r}')
    scope[node] = value
    return value


def _listing(graph, indent):
    params = ', '.join(map(repr, graph.params))
    yield f'{indent}graph({params}):'
    seen = set(graph.params)
    for node in _topological(graph.outputs, seen):
        words = [node.op, *map(repr, node.inputs)] + [
            f'{k}={v!r}' for k, v in node.attrs.items() if not isinstance(v, Graph)]
        yield f'{indent}  {node!r} = {" ".join(words)}'
        for key, value in node.attrs.items():
            if isinstance(value, Graph):
                yield f'{indent}    {key}:'
                yield from _listing(value, indent + '      ')
    yield f'{indent}  return {", ".join(map(repr, graph.outputs))}'


def _topological(outputs, seen):
    order = []

    def visit(node):
        if node in seen:
            return
        seen.add(node)
        for i in node.inputs:
            visit(i)
        if node.op not in ('param', 'input'):
            order.append(node)
    for out in outputs:
        visit(out)
    return order


# --- the framework builds on autograph ----------------------------------------------------

embedding = autograph.Embedding(error=TracingError, do_not_convert_modules=(__name__,))
embedding.register(lambda value: isinstance(value, Node),
                   cond=cond, while_loop=while_loop, fori_loop=fori_loop)


def compile(fn, *names):  # noqa: A001 - the framework's entry point
    """Trace `fn` after converting its Python control flow into this framework's."""
    return trace(autograph.transform(fn, embedding=embedding), *names)


def collatz_steps(n):
    steps = 0
    while n > 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


if __name__ == '__main__':
    graph = compile(collatz_steps, 'n')
    print(graph)
    print('collatz_steps(27) =', graph.run(n=27))
