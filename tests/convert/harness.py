"""Run the pipeline up to one pass on a test function, then call the result with Python
values. With Python values every runtime operator takes its plain Python path, so the
converted function must behave exactly as the original: a per-pass check needing no JAX
tracing (TensorFlow's converters/*_test.py with core/converter_testing.py).

    converted = up_to(loop_exits, f)     # fence ... loop_exits applied, later passes not
    assert converted(3) == f(3)
    assert not has(converted.tree, ast.Break)

Some passes leave part of their job to a later one through the context, and the code
between is not yet runnable Python: the flags that passes.loop_else and passes.returns
read are set by passes.loop_exits, and a `for` stops on its break flag only once
passes.control_flow passes it as the loop's extra test. `runnable` finishes both in
plain Python: it runs on to loop_exits, and, before control_flow, gives each such `for`
an `if flag: break` at the top of its body (where control_flow's test would stop it).
`up_to` alone returns the tree as the pass left it, for checks on its shape.
"""
import ast

from autograph import codegen, parsing, passes, runtime, site_facts
from autograph.naming import Namer
from autograph.passes import control_flow, loop_else, loop_exits, returns
from autograph.passes.base import Context
from autograph.passes.calls import LiveResolver


_FLAGS_SET_BY = {loop_else: loop_exits, returns: loop_exits}


def runnable(last, fn):
    """`fn` converted up to `last`, or a little further, as plain Python (see above)."""
    return up_to(_FLAGS_SET_BY.get(last, last), fn, stop_for_loops=True)


def up_to(last, fn, stop_for_loops=False):
    """`fn` converted by the pipeline's passes up to and including `last` (a pass module
    of autograph.passes.PIPELINE). The result carries the converted `tree` and its `code`
    (the generated source)."""
    assert last in passes.PIPELINE, last
    steps = passes.PIPELINE[:passes.PIPELINE.index(last) + 1]
    source = parsing.parse_function(fn)
    namer = Namer.for_code(fn.__code__)
    ctx = Context(file=source.file, namer=namer, ag=namer.new('ag'),
                  resolver=LiveResolver(fn))
    facts = site_facts.line_facts(source.node)
    passes.run(source.node, ctx, steps)
    if stop_for_loops and control_flow not in steps:
        for loop, flag in ctx.break_flags.items():
            stop = ast.If(test=ast.Name(id=flag, ctx=ast.Load()), body=[ast.Break()],
                          orelse=[])
            loop.body.insert(0, ast.copy_location(stop, loop.body[0]))
    generated = codegen.generate(source.node, source.file, ctx.ag,
                                 fn.__code__.co_freevars, facts=lambda: facts)
    converted = generated.bind(fn, runtime)
    converted.tree = source.node
    converted.code = generated.function_source
    return converted


def has(tree, *kinds):
    """Whether `tree` holds a node of one of `kinds` in its own scope or nested ones."""
    return any(isinstance(node, kinds) for node in ast.walk(tree))


def check(last, fn, *args):
    """`fn` converted up to `last` (and made runnable) returns what `fn` returns on
    `args`, or raises the same type of exception; returns the converted function, for
    checks on its shape."""
    converted = runnable(last, fn)
    try:
        expected = fn(*args)
    except Exception as error:   # noqa: BLE001 - the converted one must raise it too
        try:
            converted(*args)
        except type(error):
            return converted
        raise AssertionError(f'{fn.__name__}{args}: expected {type(error).__name__}')
    actual = converted(*args)
    assert actual == expected, f'{fn.__name__}{args}: {actual!r} != {expected!r}\n' \
                               f'{converted.code}'
    return converted
