"""Passes with nothing to do in a function leave it without analysing it (the conversion
time of issue 30): passes.written_arguments where no parameter is written and no callee
writes its arguments, passes.views where no view or base of one changes in place,
passes.static_values where no library call decides a shape, passes.control_flow's
`fields=` where no attribute is assigned. Each case checks that the costly analysis is
skipped, that it still runs where it has work, and the converted function against the
same function run as plain Python."""
import itertools
from unittest import mock

import numpy as np

import autograph
from autograph.passes import static_values, view_guards, written_arguments
from benchmarks import conversion_time
from tests.helpers import check, i32

_files = itertools.count()


def fresh(source):
    """The function `f` of `source`, from a new file: no cached conversion answers."""
    fn, _ = conversion_time.fresh_function(source, 'f', f'pass gates {next(_files)}')
    return fn


def counted(module, name):
    """Patch `module.name` with a wrapper counting its calls (`.calls`)."""
    original = getattr(module, name)

    def wrapper(*args, **kwargs):
        wrapper.calls += 1
        return original(*args, **kwargs)
    wrapper.calls = 0
    return mock.patch.object(module, name, wrapper), wrapper


LOCAL_WRITES = '''
import numpy as np

def f(x, n):
    out = np.zeros(3)
    count = 0
    for i in range(n):
        out[i % 3] = x * i
        count += 1
    return out, count
'''

PARAMETER_WRITE = '''
def f(a, i):
    a[i] = 0.0
    return a
'''


def test_written_arguments_skip_functions_that_write_no_parameter():
    patch, entry = counted(written_arguments, 'entry_of_tree')
    with patch:
        local = fresh(LOCAL_WRITES)
        code = autograph.to_code(local)
        assert entry.calls == 0 and 'ag.written' not in code, code
        writer = fresh(PARAMETER_WRITE)
        assert 'ag.written' in autograph.to_code(writer)
        assert entry.calls == 1
    check(local, 2.0, i32(5))
    plain = np.arange(3.0)
    writer(plain, 1)
    assert autograph.convert(writer)(np.arange(3.0), 1).tolist() == plain.tolist()


VIEW_READ_ONLY = '''
def f(x, n):
    total = 0.0
    for i in range(n):
        row = x[i]
        total += row[0]
    return total
'''

VIEW_CHANGED = '''
def f(x):
    row = x[1]
    row *= 2.0
    return x
'''


def test_views_skip_functions_whose_views_do_not_change():
    patch, analysis = counted(view_guards, 'Views')
    with patch:
        reader = fresh(VIEW_READ_ONLY)
        assert 'ag.view' not in autograph.to_code(reader) and analysis.calls == 0
        changed = fresh(VIEW_CHANGED)
        assert 'ag.view' in autograph.to_code(changed) and analysis.calls == 1
    import jax.numpy as jnp
    check(reader, jnp.arange(6.0).reshape(3, 2), i32(3))
    plain, given = np.arange(6.0).reshape(3, 2), np.arange(6.0).reshape(3, 2)
    changed(plain)   # (a NumPy array: the row is a view, the caller's array changes)
    assert np.asarray(autograph.convert(changed)(given)).tolist() == plain.tolist()
    assert given.tolist() == plain.tolist()
    jax_plain = changed(jnp.arange(6.0).reshape(3, 2))   # (a JAX array: a copy)
    assert np.asarray(autograph.convert(changed)(jnp.arange(6.0).reshape(3, 2))).tolist() \
        == np.asarray(jax_plain).tolist()


PLAIN_INDEX = '''
def f(x, n):
    k = n - 1
    return x[k] + jnp.sum(x[:2])
'''

STATIC_MASK = '''
def f(x):
    mask = ~jnp.eye(x.shape[0], dtype=bool)
    return x[mask]
'''


def test_static_values_skip_functions_without_a_library_call_deciding_a_shape():
    patch, static_names = counted(static_values, '_static_names')
    with patch:
        plain = fresh(PLAIN_INDEX)
        assert 'ag.static' not in autograph.to_code(plain) and static_names.calls == 0
        masked = fresh(STATIC_MASK)
        assert 'ag.static' in autograph.to_code(masked) and static_names.calls == 1
    import jax.numpy as jnp
    check(plain, jnp.arange(4.0), i32(3))
    check(masked, jnp.arange(9.0).reshape(3, 3))


NO_ATTRIBUTES = '''
def f(x, n):
    total = x * 0
    for i in range(n):
        if x > i:
            total = total + i
    return total
'''

ATTRIBUTE_IN_A_HELPER = '''
class Counter:
    def __init__(self):
        self.count = 0

    def f(self, x, n):
        for i in range(n):
            def bump(v):
                self.count = self.count + v
            if x > i:
                bump(i)
        return x * 2
'''


def test_statements_look_for_fields_only_in_functions_that_assign_some():
    """passes.control_flow asks which attributes a statement assigns (its `fields=`) only
    where the function assigns some anywhere, a nested `def` in it included."""
    from autograph.analysis import mutation
    patch, assigned = counted(mutation.Mutation, 'assigned_attributes')
    with patch:
        plain = fresh(NO_ATTRIBUTES)
        assert 'fields=' not in autograph.to_code(plain) and assigned.calls == 0
        cls, _ = conversion_time.fresh_function(ATTRIBUTE_IN_A_HELPER, 'Counter',
                                                f'pass gates {next(_files)}')
        assert 'fields=' in autograph.to_code(cls.f) and assigned.calls > 0
    check(plain, 2.5, i32(4))
    expected, converted = cls(), cls()
    assert autograph.convert(converted.f, jit=False)(2.5, 4) == expected.f(2.5, 4)
    assert converted.count == expected.count == 3


ITEM_WRITES = '''
import numpy as np

def f(x, n):
    out = np.zeros(4)
    for i in range(n):
        out[i] = x * i
    return out
'''

ATTRIBUTE_BY_DICT = '''
class Box:
    pass

def f(x):
    box = Box()
    box.__dict__['y'] = x
    if x > 0:
        vars(box)['y'] = x * 2
    return box.y
'''

ATTRIBUTE_ON_ONE_PATH = '''
class Box:
    pass

def f(x):
    box = Box()
    if x > 0:
        vars(box)['y'] = x * 2
    return box.y
'''


def test_attribute_passes_skip_item_writes_into_other_objects():
    """passes.attribute_dicts and passes.attribute_reads run only where the function
    assigns or deletes an item of `o.__dict__` or `vars(o)` (analysis.census's
    ATTRIBUTE_DICT), not for every item write. (attribute_reads also looks for calls of
    functions that create attributes: it walks the function only where there are.)"""
    from autograph.passes import attribute_dicts, attribute_reads
    dicts_patch, dicts = counted(attribute_dicts, 'transform')
    reads_patch, reads = counted(attribute_reads, '_checked')
    with dicts_patch, reads_patch:
        items = fresh(ITEM_WRITES)
        assert 'ag.attributes' not in autograph.to_code(items)
        assert dicts.calls == reads.calls == 0
        both = fresh(ATTRIBUTE_BY_DICT)
        assert 'ag.attributes' in autograph.to_code(both) and dicts.calls == 1
        walked = reads.calls
        one_path = fresh(ATTRIBUTE_ON_ONE_PATH)
        assert 'ag.check_field' in autograph.to_code(one_path) and reads.calls > walked > 0
    check(items, 1.5, i32(3))
    check(both, 1.5)
    check(both, -1.5)
    check(one_path, 1.5)


NO_COUNTER = '''
def f(x, n):
    total = x * 0
    for i in range(n):
        total = total * 0.5 + x
    return total
'''

COUNTER = '''
def f(x, n):
    total = x * 0
    count = 0
    for i in range(n):
        total = total * 0.5 + x
        count += 2
    return total, count
'''


def test_loops_look_for_counters_only_where_the_body_steps_one():
    """passes.loops walks a `for` body for the other bindings of its counters (`n += 1`
    at its top level: `counters=`) only where it has such a statement."""
    from autograph.passes import loops
    patch, walked = counted(loops, '_bound_names')   # (asked of each node walked)
    with patch:
        plain = fresh(NO_COUNTER)
        assert 'counters=' not in autograph.to_code(plain) and walked.calls == 0
        stepped = fresh(COUNTER)
        assert 'counters=' in autograph.to_code(stepped) and walked.calls > 0
    check(plain, 1.5, i32(4))
    check(stepped, 1.5, i32(4))


WHILE_WITHOUT_CONDITIONS = '''
def f(x, n):
    j = 0
    while j < n:
        x = x * 2 + j
        j += 1
    return x
'''

TICKED_IN_AND = '''
class Counter:
    def __init__(self):
        self.n = 0

    def tick(self):
        self.n += 1
        return self.n

def f(x, c):
    y = 0.0
    if x > 0 and c.tick() > 1:
        y = 1.0
    return y, c.n
'''


def test_short_circuits_walk_only_statements_with_and_or_or_a_conditional():
    """passes.short_circuits looks for operands with effects (its walk of every part
    Python evaluates) only in statements that hold an `and`/`or`, `x if c else y` or a
    generator."""
    from autograph.passes import short_circuits
    patch, walked = counted(short_circuits._ShortCircuits, '_reaches_effect')
    with patch:
        plain = fresh(WHILE_WITHOUT_CONDITIONS)
        autograph.to_code(plain)
        assert walked.calls == 0
        ticked, _ = conversion_time.fresh_function(TICKED_IN_AND, 'f',
                                                   f'pass gates {next(_files)}')
        autograph.to_code(ticked)
        assert walked.calls > 0
    check(plain, 1.5, i32(4))
    counter_cls = ticked.__globals__['Counter']
    for x in (-1.0, 2.0):
        expected, converted = counter_cls(), counter_cls()
        converted.tick()
        expected.tick()
        assert autograph.convert(ticked, jit=False)(x, converted) == ticked(x, expected)
        assert converted.n == expected.n


WITHOUT_TEXT = '''
def f(x, n):
    total = x
    for i in range(n):
        if total > 10.0:
            total = total / 2
        total = total + i
    return total
'''

LOGGED_TEXT = '''
import logging
log = logging.getLogger('pass gates')

def f(x, n):
    total = x
    for i in range(n):
        total = total + i
    log.debug('total %s', n)
    return total
'''

FORMATTED_TEXT = '''
def f(x, n):
    total = x
    for i in range(n):
        total = total + i
    label = f'{n} steps'
    return total, label
'''


def test_text_skips_functions_whose_census_finds_no_text():
    """passes.text walks a function only where the census (analysis.census) finds
    something it looks for: an f-string, a `%`, `print`, `str`, `repr`, or a method named
    like a logging or warning call; each found form is still converted."""
    from autograph.passes import text
    patch, walked = counted(text, 'nodes')
    with patch:
        plain = fresh(WITHOUT_TEXT)
        autograph.to_code(plain)
        assert walked.calls == 0
        logged, formatted = fresh(LOGGED_TEXT), fresh(FORMATTED_TEXT)
        assert 'ag.emit(' in autograph.to_code(logged) and walked.calls == 1
        assert 'ag.text(' in autograph.to_code(formatted) and walked.calls == 2
    check(plain, 1.5, i32(4))
    check(logged, 1.5, i32(4))
    assert autograph.convert(formatted, jit=False)(1.5, 3) == formatted(1.5, 3)


GLOBAL_APPENDED = '''
import jax.numpy as jnp
SEEN = []

def f(x, n):
    for i in range(n):
        SEEN.append(x + i)
    return jnp.stack(SEEN)
'''


def test_outer_containers_skip_functions_calling_no_changing_method():
    """passes.outer_containers walks a function only where the census finds a method
    that changes a list, dict or set in place (`append`, `update`, ...)."""
    from autograph.passes import outer_containers
    patch, walked = counted(outer_containers, 'children')
    with patch:
        plain = fresh(WITHOUT_TEXT)
        autograph.to_code(plain)
        assert walked.calls == 0
        appending = fresh(GLOBAL_APPENDED)
        assert 'global SEEN' in autograph.to_code(appending) and walked.calls == 1
    check(plain, 1.5, i32(4))
    expected = appending(1.5, 3)
    appending.__globals__['SEEN'].clear()
    assert autograph.convert(appending, jit=False)(1.5, 3).tolist() == expected.tolist()
