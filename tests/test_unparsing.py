"""The line map recorded while unparsing (autograph.unparsing.unparse_lines) is the one
parsing the generated text again gives (codegen._line_map), and the text is
`ast.unparse`'s: checked on converted trees of the examples and of shapes that bend the
line count (docstrings, decorators, f-strings, handlers, nested classes), and on a string
written across lines, which is refused (the text is parsed again for it)."""
import ast
import inspect

import pytest

from autograph import codegen, parsing, passes, unparsing
from autograph.naming import Namer
from autograph.passes.base import Context
from autograph.passes import match
from autograph.passes.calls import LiveResolver
from examples import seeds
from tests.helpers import jnp


def _converted_tree(fn, pipeline=passes.PIPELINE):
    source = parsing.parse_function(fn)
    namer = Namer.for_code(fn.__code__)
    ctx = Context(file=source.file, namer=namer, ag=namer.new('ag'),
                  resolver=LiveResolver(fn))
    return passes.run(source.node, ctx, pipeline)


def _maps(fn, first_line, pipeline=passes.PIPELINE):
    """(recorded line map, the map of the text parsed again, text, ast.unparse's)."""
    node = _converted_tree(fn, pipeline)
    text, old_lines, parts = unparsing.unparse_lines(node, first_line)
    recorded = codegen._recorded_line_map(old_lines, parts, 'user.py', fn.__name__, {})
    padded = '\n' * (first_line - 1) + text   # (the text where the factory puts it)
    reference = codegen._line_map(None, padded, ast.Module(body=[node], type_ignores=[]),
                                  'user.py', fn.__name__, node.lineno, {})
    return recorded, reference, text, unparsing.compact(ast.unparse(node))


def documented(x, n):
    """One line of documentation."""
    for i in range(n):
        if x > i:
            x = x + 1
    return x


def decorated_helper(x):
    def twice(f):
        return lambda v: f(f(v))

    @twice
    @twice
    def step(v):
        return v * 2
    return step(x)


def formatted(x, n):
    name = f'x{n}' if n > 1 else 'x'
    if x > 0:
        name = f'{name}:{n:>3}'
    return x, name


def chained(k, x):
    """An if/elif chain (which passes.control_flow stages: see the test of `elif`)."""
    if k == 0:
        y = x
    elif k == 1:
        if k > 0:
            y = -x
        elif k < -5:
            y = x
        else:
            y = 2 * x
    elif k == 2:
        y = x + 1
    else:
        y = x - 1
    return y


def handled(x, n):
    try:
        y = x / n
    except ZeroDivisionError as error:
        y = 0.0
        del error
    finally:
        n = n + 1
    while n > 0:
        if y > 10:
            break
        y = y + n
        n -= 1
    else:
        y = -y
    return y


def with_class(x):
    class Box:
        """A box."""
        scale = 2

        def get(self, v):
            return v * self.scale
    return Box().get(x)


def matched(x, n):
    match n:
        case 0:
            y = x
        case 1 | 2:
            y = x + 1
        case _:
            y = x * n
    match (x, n):   # (patterns that stay Python's `match`)
        case [a, b] if b > 3:
            y = y + a
        case [a, *rest]:
            y = y - a
    return y


SHAPES = [documented, decorated_helper, formatted, chained, handled, with_class, matched] + [
    f for _, f in inspect.getmembers(seeds, inspect.isfunction)
    if f.__module__ == seeds.__name__]


@pytest.mark.parametrize('first_line', [1, 3])
@pytest.mark.parametrize('fn', SHAPES, ids=[f.__name__ for f in SHAPES])
def test_recorded_line_map_is_the_reparsed_one(fn, first_line):
    recorded, reference, text, unparsed = _maps(fn, first_line)
    assert text == unparsed
    assert recorded == reference
    assert len(recorded) >= len(inspect.getsource(fn).splitlines()) // 2


@pytest.mark.parametrize('fn', [chained, matched], ids=['chained', 'matched'])
def test_elif_lines_are_recorded(fn):
    # (the pipeline up to passes.match: `elif`s as the user wrote them, and as the
    # match pass writes a `match` of values)
    pipeline = passes.PIPELINE[:passes.PIPELINE.index(match) + 1]
    recorded, reference, text, unparsed = _maps(fn, 2, pipeline)
    assert text == unparsed and 'elif ' in text
    assert recorded == reference


def test_a_docstring_across_lines_is_not_recorded_but_parsed_again():
    def spread(x):
        """Two
        lines (a docstring is the one string `ast.unparse` writes across lines)."""
        label = 'one\nline'
        if x > 0:
            x = x + len(label)
        return x

    assert unparsing.unparse_lines(_converted_tree(spread), 1) is None
    generated = codegen.generate(_converted_tree(spread), __file__, 'ag', ())
    assert generated.function_source == unparsing.compact(
        ast.unparse(_converted_tree(spread))) + '\n'
    assert generated.code.co_consts[0].startswith('Two\n')


def test_messages_name_the_users_line_through_the_recorded_map():
    import autograph

    def late_read(x):
        if x > 0:
            y = x
        return y * jnp.ones(2)   # the line the error must name

    line = inspect.getsourcelines(late_read)[1] + 3
    with pytest.raises(UnboundLocalError, match=rf'test_unparsing.py:{line}'):
        autograph.convert(late_read)(jnp.asarray(-1.0))
