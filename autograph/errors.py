"""The converter's errors, and what a converted function's caller sees when a call fails.

Conversion: `ConversionError` (a function cannot be converted) and `UnsupportedSyntax`
(a construct that cannot be, at the user's file, line and column).

Calls: `user_facing` is the one translation at the API boundary (`Function` and
`ConcreteFunction` calls). A failed run-time check (`assert`, `raise`) becomes the user's
own exception; any other error keeps its type and gains notes naming the user's lines;
JAX's UnexpectedTracerError becomes an `EscapedTracer` that says how a traced value escapes
in converted code; JAX's errors for a traced array given to Python code that needs its
value (`np.asarray(x)`, `x.tolist()`, `jnp.zeros(n)` with a traced `n`), raised on a
converted line of the user's, become a `TracedValueNeeded` naming that line and the fix;
an error JAX or NumPy raise inside a user function that could not be converted, and so ran
as plain Python on JAX values, becomes a ConversionError naming it and why it could not be
converted (`_failed_unconverted`); JAX's error for `jax.jvp` through a
reverse-differentiable staged loop gains a note with the fix. The caller re-raises the
result (`raise_user_facing`): the user's own exception as Python chains it, any other
`from` its cause, so a user's `raise ... from` keeps its cause.
"""
import linecache
import os
import re

import jax
import numpy

from autograph.runtime.staging import loop_autodiff
from autograph.runtime import context, messages, origin
from autograph.runtime.errors import AutographError, ControlFlowError, IntegerRange
from autograph.runtime.checks.checks import user_exception


class ConversionError(AutographError):
    """A function cannot be converted (no source, unsupported construct, ...)."""


class UnsupportedSyntax(ConversionError, SyntaxError):
    """A construct that cannot be converted, at the user's file, line and column. It is a
    SyntaxError too, so Python's traceback draws a caret under the user's code."""

    def __str__(self):
        return f'{self.msg} ({origin.short(self.filename)}:{self.lineno})'


def unsupported(message, ctx, node):
    """An UnsupportedSyntax error at `node`'s place in the user's file."""
    line = getattr(node, 'lineno', None)
    column = getattr(node, 'col_offset', 0) + 1
    text = linecache.getline(ctx.file, line) if line is not None else None
    return UnsupportedSyntax(message, (ctx.file, line, column, text or None))


def user_facing(error):
    """The error to show: the user's exception for a failed run-time check (`assert`,
    `raise`), user lines noted."""
    user = user_exception(error)
    if user is not None:
        return user
    origin.add_user_notes(error)
    unconverted = _failed_unconverted(error)
    if unconverted is not None:
        return unconverted
    if isinstance(error, jax.errors.UnexpectedTracerError):
        return _escaped(error)
    if isinstance(error, _VALUE_NEEDED) or _traced_shape(error) or \
            _tracer_for_a_number(error):
        location = _raised_at(error)
        if location is None and _traced_shape(error):   # (the runtime's slice: `ag.view`)
            found = origin.user_frames(error.__traceback__)
            location = found[-1] if found else None
        if location is not None:
            return _value_needed(error, location)
    if isinstance(error, jax.errors.NonConcreteBooleanIndexError):
        location = _raised_at(error)   # (`x[i, mask]`: JAX's own indexing raised it)
        if location is not None:
            return _boolean_mask(error, location)
    if type(error) is TypeError and _CHOICE_GIVEN.search(str(error)):
        location = _raised_at(error)   # (`''.join([s, s])`: str's own type check)
        if location is not None:
            return _noted(messages.chosen_used('a str operation', location), error)
    if type(error) is OverflowError and _INT_RANGE.search(str(error)):
        location = _raised_at(error)
        if location is not None:
            return _int_range(error, location)
    return loop_autodiff.explain(error)


def raise_user_facing(error):
    """Raise `user_facing(error)` from the handler of `error`. An exception the user's code
    raised itself keeps Python's chaining (`__cause__`, `__context__`,
    `__suppress_context__`: `raise E` in an `except` shows the handled exception as its
    context, `raise E from C` shows C); one made in place of `error` keeps the user's
    `raise ... from` cause and hides the internal `error`."""
    user = user_facing(error)
    if user is error and not isinstance(error, AutographError):
        raise user
    raise user from user.__cause__


def _noted(named, error):
    """`named`, the project's error standing for JAX's `error`, with `error`'s notes (the
    user's lines, see runtime.origin)."""
    for note in getattr(error, '__notes__', ()):
        named.add_note(note)
    return named


def _escaped(error):
    """JAX's UnexpectedTracerError, also a ControlFlowError that says how it happens in
    converted code (JAX's own text names our tracing functions, not the user's)."""
    escaped = EscapedTracer(
        'a traced value was kept outside the code that computed it, and used later: a '
        'converted function, staged branch or loop body changed something that is not '
        'part of its results, such as an attribute that a method called in a staged '
        'statement sets (`self.total = ...`) or a global list it appends to. Have the '
        'method return the new value and assign it in the converted function '
        '(`acc.total = acc.added(x)`), or assign the attribute directly there: converted '
        'code carries the attributes it assigns through staged branches and loops.\n'
        'JAX: ' + '\n'.join(str(error).splitlines()[:2]))
    return _noted(escaped, error)


class EscapedTracer(ControlFlowError, jax.errors.UnexpectedTracerError):
    """A traced value used outside the trace that made it (see `_escaped`)."""


_VALUE_NEEDED = (jax.errors.ConcretizationTypeError, jax.errors.TracerArrayConversionError,
                 jax.errors.TracerIntegerConversionError)
"""JAX's errors for Python code that needs a traced array's value (TracerBoolConversionError
is a ConcretizationTypeError)."""



def _tracer_for_a_number(error):
    """Python's TypeError for a traced value given where Python needs a number's method
    (`math.trunc(x)`: "type DynamicJaxprTracer doesn't define __trunc__ method") or its
    hash (an item of a set, a dict's key: "unhashable type"): a number would have them,
    so the value is what is needed."""
    return type(error) is TypeError and _NUMBER_METHOD.match(str(error)) is not None


_NUMBER_METHOD = re.compile(r"(type \w*Tracer doesn't define __\w+__ method"
                            r"|must be real number, not \w*Tracer"
                            r"|unhashable type: '\w*Tracer')")


_CHOICE_GIVEN = re.compile(r"expected str instance, Choice found|, not 'Choice'|"
                           r"not Choice\b")
"""Python's TypeError for a runtime.values.choice Choice where a str operation needs a str."""
_INT_RANGE = re.compile(r"overflow was encountered while parsing an argument.*Got <class "
                        r"'int'> with value (-?\d+)|Python int (-?\d+) too large")


def _int_range(error, location):
    """JAX's OverflowError for a Python int beyond its integer type, met by a traced value
    (a Python int that staged code carries, `seed = (a * seed + c) % 2 ** 31`)."""
    found = _INT_RANGE.search(str(error))
    value = found.group(1) or found.group(2)
    named = IntegerRange(
        f'the Python int {value} at {location} meets a traced integer, which holds JAX\'s '
        f'int32 (up to 2**31 - 1; Python\'s ints have no limit): a Python int that staged '
        f'code changes (a loop\'s state, `int()` of a traced value) is carried as one. '
        f'Enable 64-bit values (`jax.config.update("jax_enable_x64", True)`), or keep the '
        f'numbers within int32.')
    return _noted(named, error)


def _traced_shape(error):
    """JAX's TypeError for a traced value given as an array's shape (`jnp.zeros(n)`; as
    NumPy's twin passes on `np.zeros(n)`: "expected a sequence of integers or a single
    integer, got 'JitTracer(int32[])'"), and its IndexError for a slice with a traced
    bound (`x[i:]`: a shape known only when the program runs)."""
    text = str(error)
    return (type(error) is TypeError and (
        text.startswith('Shapes must be 1D sequences of concrete values') or (
            text.startswith('expected a sequence of integers or a single integer')
            and 'Tracer(' in text))) or (
        type(error) is IndexError and text.startswith('Slice entries must be static integers'))


_LIBRARIES = tuple(os.path.dirname(module.__file__) + os.sep for module in (jax, numpy))


def _failed_unconverted(error):
    """A ConversionError for `error`, raised by JAX or NumPy inside a user function that
    could not be converted and so ran as plain Python on JAX values (a traced value where
    Python needs a concrete one, an item written on a JAX array), naming the function,
    why it could not be converted and where it failed; None for any other error."""
    tb, refused, last = error.__traceback__, None, None
    while tb is not None:
        reason = context.converter.refusal(tb.tb_frame.f_code)
        if reason is not None:
            refused = (tb.tb_frame.f_code, reason)
        last = tb
        tb = tb.tb_next
    if refused is None or not (isinstance(error, _JAX_ERRORS) or  # (frames JAX hides)
                               last.tb_frame.f_code.co_filename.startswith(_LIBRARIES)):
        return None
    code, reason = refused
    failed = ConversionError(
        f'{getattr(code, "co_qualname", code.co_name)} '
        f'({origin.short(code.co_filename)}:{code.co_firstlineno}) is called unconverted, '
        f'since it cannot be converted: {reason}. Run as plain Python on the JAX values it '
        f'was given, it failed: {type(error).__name__}: {_first_line(error).rstrip(".")}. '
        f'Change it as that says, so that it converts.')
    return _noted(failed, error)


_JAX_ERRORS = _VALUE_NEEDED + (jax.errors.NonConcreteBooleanIndexError,)


def _first_line(error):
    lines = str(error).splitlines()
    return lines[0] if lines else ''


def _raised_at(error):
    """The user's Location of the converted line that raised `error` (JAX's and NumPy's
    own frames aside, and `ag.call`'s, which only forwards the line's call), or None
    where other code raised it (a function left unconverted, the runtime)."""
    tb, last = error.__traceback__, None
    while tb is not None:
        code = tb.tb_frame.f_code
        if not (code.co_filename.startswith(_LIBRARIES) or origin.is_forwarding(code)):
            last = tb
        tb = tb.tb_next
    return origin.traceback_location(last) if last else None


def _value_needed(error, location):
    """JAX's `error`, as the project's named error at the user's `location` (also of
    JAX's class, so that code catching that still catches it)."""
    shape = _traced_shape(error)
    named = messages.value_for_python('as a shape' if shape else type(error).__name__,
                                      location, shape)
    needed = TracedValueNeeded(str(named))
    needed.kind = named.kind
    return _noted(needed, error)


class BooleanMaskIndex(ControlFlowError, jax.errors.NonConcreteBooleanIndexError):
    """An array indexed by a traced boolean mask in JAX's own indexing (see
    `_boolean_mask`; `x[mask]` alone is named by the runtime before JAX sees it)."""

    def __init__(self, message):
        Exception.__init__(self, message)


def _boolean_mask(error, location):
    named = messages.boolean_mask(location)
    mask = BooleanMaskIndex(str(named))
    mask.kind = named.kind
    return _noted(mask, error)


class TracedValueNeeded(ControlFlowError, jax.errors.ConcretizationTypeError):
    """A traced array given to Python code that needs its value (see `_value_needed`)."""

    def __init__(self, message):
        Exception.__init__(self, message)
