"""Where generated code came from: a map from generated lines back to the user's lines.

Generated modules are registered in `linecache` under their own file name, so tracebacks
and pdb show the generated source; this module maps those lines back to the user's file
and line, for error messages and traceback notes. A registration lasts until
`unregister` (autograph.conversion calls it when the generated code is freed).
"""
import dataclasses
import functools
import itertools
import linecache
import os
import sys
import threading


@dataclasses.dataclass(frozen=True)
class Location:
    """A line of the user's file. `facts` are what the converter knew about the line
    (see autograph.site_facts): the names and expressions messages quote. `parts` are
    the (first column, end column, Location) of the lambdas on the generated line that
    hold code of other user lines (the `elif` tests of one `ag.if_exp_chain(...)`), in
    the order they start; columns count UTF-8 bytes, as code positions do."""
    file: str
    line: int
    function: str = ''
    facts: dict = dataclasses.field(default=None, compare=False, hash=False, repr=False)
    parts: tuple = dataclasses.field(default=(), compare=False, hash=False, repr=False)

    def at(self, column):
        """The Location of the code at `column` of the generated line: the innermost
        part holding it, else this one."""
        found = self
        if column is not None:
            for first, end, location in self.parts:
                if first <= column < end:
                    found = location
        return found

    def __str__(self):
        return f'{short(self.file)}:{self.line}'

    def source_line(self):
        return linecache.getline(self.file, self.line).strip()

    def fact(self, name, default=()):
        """A static fact about the line (site_facts.line_facts), or `default`."""
        return (self.facts or {}).get(name, default)


_maps = {}  # generated file name -> {generated line: Location}
_lock = threading.RLock()   # re-entrant: `unregister` runs from GC callbacks


def register(generated_file, source, line_map):
    """Make `generated_file` readable by linecache and map its lines to user locations.
    `line_map` may be a function that computes the map when it is first needed."""
    lines = source.splitlines(keepends=True)
    with _lock:
        linecache.cache[generated_file] = (len(source), None, lines, generated_file)
        _maps[generated_file] = line_map


def unregister(generated_file):
    """Forget a generated module's source and line map."""
    with _lock:
        linecache.cache.pop(generated_file, None)
        _maps.pop(generated_file, None)


def lookup(file, line):
    """The user's Location of `line` of the generated `file`, or None for a file not
    generated. (For a line holding other user lines, `frame_location` finds the one
    of the code that ran.)"""
    line_map = _maps.get(file)
    if callable(line_map):
        line_map = line_map()
        with _lock:
            if file in _maps:   # (not unregistered meanwhile)
                _maps[file] = line_map
    return line_map.get(line) if line_map else None


def frame_location(frame):
    """The user's Location of the code `frame` runs, or None outside generated code."""
    return _located(frame.f_code, frame.f_lineno, frame.f_lasti)


def traceback_location(tb):
    """The user's Location of the code traceback entry `tb` ran, or None."""
    return _located(tb.tb_frame.f_code, tb.tb_lineno, tb.tb_lasti)


def _located(code, line, lasti):
    location = lookup(code.co_filename, line)
    if location is None or not location.parts:
        return location
    return location.at(_column(code, lasti))


def _column(code, lasti):
    """The column of the instruction at byte offset `lasti` of `code` (None before
    Python 3.11, which keeps no columns)."""
    positions = getattr(code, 'co_positions', None)
    if positions is None or lasti < 0:
        return None
    position = next(itertools.islice(positions(), lasti // 2, None), None)
    return position[2] if position is not None else None


_forwarding = set()   # code objects of runtime functions that only forward a call


def forwards(*functions):
    """Mark runtime `functions` as ones that only call what converted code gives them
    (`ag.call`): an error raised in library code they call is the calling line's."""
    _forwarding.update(f.__code__ for f in functions)


def is_forwarding(code):
    return code in _forwarding


_operating = set()   # code objects of runtime functions that apply the user's operator


def operates(*functions):
    """Mark runtime `functions` as ones that apply the user's own operator to the values
    of the user's line (`ag.lt(a, b)` computes `a < b`): Python's TypeError raised there
    (`'<' not supported between 'str' and 'int'`) is the line's own."""
    _operating.update(f.__code__ for f in functions)


def is_operating(code):
    return code in _operating


def caller_location(depth=1):
    """The user location of the nearest generated-code frame above the caller."""
    frame = sys._getframe(depth + 1)
    while frame is not None:
        location = frame_location(frame)
        if location is not None:
            return location
        frame = frame.f_back
    return None


def user_frames(tb):
    """User locations of the generated-code frames of a traceback, outermost first."""
    found = []
    while tb is not None:
        location = traceback_location(tb)
        if location is not None:
            found.append(location)
        tb = tb.tb_next
    return found


def add_user_notes(error):
    """Add to `error` a note naming the user's lines it passed through (once per error)."""
    if getattr(error, '_autograph_noted', False):
        return
    locations = user_frames(error.__traceback__)
    if not locations:
        return
    try:
        error._autograph_noted = True
    except AttributeError:  # some builtin exceptions take no attributes
        return
    lines = ['In converted code (innermost last):']
    for location in locations:
        where = f'  File "{location.file}", line {location.line}'
        if location.function:
            where += f', in {location.function}'
        lines.append(where)
        text = location.source_line()
        if text:
            lines.append(f'    {text}')
    error.add_note('\n'.join(lines))


def short(file):
    """A file name as users want to read it in a message: relative when under the cwd.
    (Asked twice per conversion: remembered per working directory and file.)"""
    return _short(os.getcwd(), file)


@functools.lru_cache(maxsize=1024)
def _short(cwd, file):
    try:
        relative = os.path.relpath(file, cwd)
    except ValueError:
        return file
    return file if relative.startswith('..') else relative


def name_of(fn):
    """The qualified name of the function or callable object `fn`, for messages, read
    without running its code: not `repr(fn)`, which a class may define to read fields
    its `__init__` has not set yet (a bound `__init__` is called while tracing)."""
    name = getattr(fn, '__qualname__', None)
    return name if isinstance(name, str) else type(fn).__qualname__
