"""How deep a function the converter takes, and the stack it converts on.

Parsing, the passes, `copy.deepcopy`, `ast.unparse` and `compile` all recurse once or a
few times per level of the syntax tree. CPython itself compiles functions whose tree is
up to about 3,000 levels deep with its default recursion limit of 1,000 (an `elif` chain
of 2,900 branches, a sum of 2,900 terms), far more than 1,000 recursive Python calls
allow. So a conversion runs on a worker thread of its own, with a large stack and a
raised recursion limit, both fixed (it is first tried on the calling thread, with the
limit as it is: only a conversion that runs out of room there moves to the worker):

- a function nested deeper than `MAX_DEPTH` levels is a ConversionError naming the
  limit and the function's file:line, before any pass runs;
- within it, `RECURSION_LIMIT` frames cover every recursive walk (a few frames per
  level), and `STACK_SIZE` covers the C stack those walks use when they recurse through
  C (a generator, `any(...)`, `compile`): no RecursionError, no crash.

A RecursionError that happens anyway becomes the same ConversionError. The worker also
starts with an empty stack, so a function converted while deep in user code (inside a
trace) gets the same room as any other.

Python 3.12 caps recursion through C calls (a builtin calling back into Python: `any`
over a generator, calling an object, `compile` of an `ast` tree) at about 1,500 frames,
whatever the recursion limit: the conversion's recursive walks recurse through plain
Python calls only, and parsing.py compiles the function's text where 3.12 will not
compile its tree.
"""
import threading

from autograph.errors import ConversionError
from autograph.runtime import context

MAX_DEPTH = 3000
"""The deepest syntax tree converted, counted node by node from the `def` (about what
CPython compiles with its default recursion limit)."""

RECURSION_LIMIT = 60_000
STACK_SIZE = 512 * 1024 * 1024   # reserved address space; memory is used as it is touched

_start_lock = threading.Lock()   # threading.stack_size is process-wide too
_worker = threading.local()


def converting(work, where):
    """`work()` run on a conversion worker (or directly on one already). `where` is the
    function's `file:line`, for the error when it nests too deeply."""
    if getattr(_worker, 'active', False):
        return work()
    try:
        return _on_this_thread(work)
    except (RecursionError, _TooDeepHere):
        pass   # deeper than converting here allows: again, on a worker
    outcome = {}

    def run():
        _worker.active = True
        try:
            with context.recursion_limit(RECURSION_LIMIT):
                outcome['value'] = work()
        except RecursionError:
            outcome['error'] = too_deep(where)
        except BaseException as error:   # re-raised in the caller's thread
            outcome['error'] = error

    with _start_lock:
        previous = threading.stack_size(STACK_SIZE)
        try:
            worker = threading.Thread(target=run, name='autograph-conversion')
            worker.start()
        finally:
            threading.stack_size(previous)
    worker.join()
    if 'error' in outcome:
        raise outcome.pop('error')
    return outcome['value']


DIRECT_DEPTH = 100
"""Trees up to this deep convert on the calling thread (see `_on_this_thread`)."""


class _TooDeepHere(Exception):
    """The tree is deeper than DIRECT_DEPTH: convert it on a worker."""


def _on_this_thread(work):
    """`work()` on the calling thread: most functions are shallow, and handing them to a
    new thread costs more than converting them on a busy machine. `check_depth` stops a
    tree deeper than DIRECT_DEPTH before any pass recurses over it (so the few hundred
    frames a shallow tree takes fit this thread's stack whatever the recursion limit,
    which another conversion may have raised), and a RecursionError means the caller left
    too little room. Either way the conversion starts over on a worker (a conversion has
    no effect until it returns)."""
    _worker.active = _worker.direct = True
    try:
        return work()
    finally:
        _worker.active = _worker.direct = False


def check_depth(depth, where):
    """A ConversionError if a tree `depth` nodes deep (analysis.census) is deeper than
    MAX_DEPTH."""
    if depth > MAX_DEPTH:
        raise too_deep(where)
    if depth > DIRECT_DEPTH and getattr(_worker, 'direct', False):
        raise _TooDeepHere()


def too_deep(where):
    return ConversionError(
        f'the function at {where} is nested too deeply to convert: the converter takes '
        f'statements and expressions nested up to {MAX_DEPTH} levels (about what CPython '
        f'compiles with its default recursion limit). Split it into smaller functions.')
