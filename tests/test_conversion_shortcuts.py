"""The converter's shortcuts give the code the full pipeline gives: passes skipped where the
census says their construct is absent (a loop `else`, `break`/`continue`), the free
variables of a converted nested function kept on it (analysis.activity.finished), and
nothing shared found without a walk (analysis.scopes). Each case is checked against the
same function run as plain Python, and against what the analyses find without the
shortcut."""
import ast
import inspect

import pytest

import autograph
from autograph import parsing, passes
from autograph.analysis import activity
from autograph.analysis.census import ATTRIBUTE_STORE, census
from autograph.analysis.scopes import sharing
from autograph.naming import Namer
from autograph.passes.base import Context
from autograph.passes.calls import LiveResolver
from benchmarks import conversion_time
from tests.helpers import check, i32


# --- `match` into an `if` chain that always exits: what follows is unreachable ----------

def match_exits_in_loop(x, k, n):
    for i in range(n):
        match k:
            case 1:
                break
            case _:
                continue
        x = x + 1   # never runs: every case leaves the iteration
    return x


@pytest.mark.parametrize('k', [1, 2])
def test_match_whose_cases_all_exit_drops_what_follows(k):
    check(match_exits_in_loop, 1.0, k, i32(3))
    code = autograph.to_code(match_exits_in_loop)
    assert 'x + 1' not in code, code


# --- loop_exits runs for the breaks that returns in loops become --------------------------

def returns_in_loops(xs, n):
    i = 0
    while i < n:
        if xs[i] > 2.0:
            return i, xs[i]
        i += 1
    for j in range(n):
        if xs[j] < -1.0:
            return j, -xs[j]
    return -1, 0.0


def test_returns_in_loops_without_break_or_continue():
    import jax.numpy as jnp
    for values in ([0.0, 1.0, 3.0, 4.0], [0.0, -2.0, 1.0, 1.0], [0.0, 0.0, 0.0, 0.0]):
        check(returns_in_loops, jnp.array(values), i32(4))


# --- free variables of converted nested functions ---------------------------------------

def _converted_tree(fn):
    """The tree of `fn` after the whole pipeline (as conversion._generate runs it)."""
    source = parsing.parse_function(fn)
    namer = Namer.for_code(fn.__code__)
    ctx = Context(file=source.file, namer=namer, ag=namer.new('ag'),
                  resolver=LiveResolver(fn))
    return passes.run(source.node, ctx)


def outer(xs, scale, n):
    offset = xs[0]

    def centred(v):
        return (v - offset) * scale

    def clipped(v, bound):
        def inner(w):
            return w + offset
        if v > bound:
            return inner(bound)
        return v
    total = 0.0
    for i in range(n):
        total = total + clipped(centred(xs[i]), 1.0)
    return total


def test_finished_nested_functions_keep_their_free_variables():
    """What is kept on each converted nested function is what a fresh walk of it finds
    after its enclosing function is converted too (no pass changed it since)."""
    root = _converted_tree(outer)
    nested = [n for n in ast.walk(root) if isinstance(n, ast.FunctionDef)
              and n.name in ('centred', 'clipped', 'inner')]
    assert len(nested) == 3
    for function in nested:
        kept = getattr(function, activity._FREE_VARIABLES)
        assert kept == frozenset(activity._scope_reads(function)), function.name
    assert {'offset', 'scale'} <= getattr(nested[0], activity._FREE_VARIABLES) | \
        getattr(nested[1], activity._FREE_VARIABLES)


def nested_helpers(xs, scale, n):
    offset = xs[0]

    def centred(v):
        return (v - offset) * scale

    def clipped(v, bound):
        if v > bound:
            return bound
        return v
    total = 0.0
    for i in range(n):
        total = total + clipped(centred(xs[i]), 1.0)
        offset = offset + 0.5   # the helpers see the new value (late binding)
    return total


def test_nested_helpers_against_python():
    import jax.numpy as jnp
    check(nested_helpers, jnp.array([0.5, 1.5, -2.0, 3.0]), 2.0, i32(4))


def test_sharing_without_nested_scopes_is_empty():
    tree = ast.parse('def f(x):\n    y = [x]\n    y.append(1)\n    return y').body[0]
    assert sharing(tree, nested=False) == sharing(tree)


# --- attribute checks only where an attribute is assigned ------------------------------

class Box:
    pass


def attribute_set_in_loop(n):
    box = Box()
    while n > 0:
        box.last = n
        n -= 1
    return box.last


def attributes_only_read(x, n):
    total = x.real
    while n > 0:
        total = total + x.imag
        n -= 1
    return total


def test_attribute_checks_run_only_where_an_attribute_is_assigned():
    assert census(ast.parse(inspect.getsource(attribute_set_in_loop)), 99).has_any(
        [ATTRIBUTE_STORE])
    assert not census(ast.parse(inspect.getsource(attributes_only_read)), 99).has_any(
        [ATTRIBUTE_STORE])
    assert 'check_field' in autograph.to_code(attribute_set_in_loop)
    assert 'check_field' not in autograph.to_code(attributes_only_read)
    check(attribute_set_in_loop, i32(3))
    with pytest.raises(AttributeError):
        autograph.convert(attribute_set_in_loop)(i32(0))


# --- the benchmark's shapes convert --------------------------------------------------------

@pytest.mark.parametrize('shape', list(conversion_time.SHAPES))
def test_benchmark_shapes_convert(shape):
    fn, _ = conversion_time.fresh_function(*conversion_time.SHAPES[shape], f'test {shape}')
    assert 'ag.' in autograph.to_code(fn)
