"""Text made from traced values: `str(x)`, `repr(x)`, `format(x)`, `f'{x}'`, `'%s' % x`.

While tracing, a traced value has no value yet: its text would be JAX's placeholder
(`JitTracer(~float32[])`), which code would then use as data (a dict key, a file name)
without notice. So each of these is an error that names the line and points to
`jax.debug.print`, which formats the value when the program runs.

Except text that is only shown or raised: an f-string or `%` whose text only reaches a
`raise`, `print`, `warnings.warn` or a logging call (the converter finds those, see
autograph.passes.text) becomes a `Message`, formatted when the program runs, with the
run-time values, on the path that reaches it (runtime.python.display, runtime.checks). A
`Message` used for anything else (a dict key, a comparison, `len`) is the same error.

`print(x)` itself is left alone: it prints JAX's placeholder, once per trace, as
tf.function prints a symbolic tensor.
"""
import builtins

import jax

from ..errors import here
from ..messages import no_text, text_used_as_data
from .split import any_traced, is_traced


def _check(construct, value, depth=2):
    if any_traced(value):
        raise no_text(construct, here(depth))
    return value


def text(value):
    """Python reference: `value` (a value formatted into an f-string or by `%`)."""
    return _check('formatting (f-string or %)', value)


def str_(*args, **kwargs):
    """Python reference: `str(*args, **kwargs)`."""
    _check('str()', args[:1])
    return builtins.str(*args, **kwargs)


def repr_(value):
    """Python reference: `repr(value)`."""
    _check('repr()', value)
    return builtins.repr(value)


def format_(value, spec=''):
    """Python reference: `format(value, spec)`."""
    _check('format()', value)
    return builtins.format(value, spec)


# --- text shown or raised when the program runs -----------------------------------------

def message(template, *values):
    """Python reference: `template.format(*values)` (an f-string: `f'a {x!r:.3}'` is
    `message('a {!r:.3}', x)`), for text that is only shown or raised."""
    if not any_traced(values):
        return template.format(*values)
    return Message((('{}', template),), (values,), here())


def message_percent(template, values):
    """Python reference: `template % values`, for text that is only shown or raised."""
    if not any_traced(values):
        return template % values
    return Message((('%', template),), (values,), here())


@jax.tree_util.register_pytree_node_class
class Message:
    """Text whose values are known when the program runs: pieces (`('{}', template)`
    formatted by `str.format`, `('%', template)` by `%`, `('', text)` as is) and their
    values (the pytree children)."""

    def __init__(self, pieces, values, location):
        self.pieces, self.values, self.location = tuple(pieces), tuple(values), location

    def tree_flatten(self):
        return self.values, (self.pieces, self.location)

    @classmethod
    def tree_unflatten(cls, aux, values):
        return cls(aux[0], values, aux[1])

    def render(self, shown=lambda v: v):
        """The text, from the values as they are (run-time values), each passed through
        `shown` first."""
        out = []
        for (kind, template), values in zip(self.pieces, self.values):
            values = jax.tree_util.tree_map(shown, values)
            try:
                out.append(template.format(*values) if kind == '{}' else
                           template % values if kind == '%' else template)
            except (TypeError, ValueError):   # '%d' of a placeholder, while tracing
                out.append(f'{template} % {values!r}' if kind == '%' else template)
        return ''.join(out)

    def __add__(self, other):
        if isinstance(other, str):
            return Message(self.pieces + (('', other),), self.values + ((),), self.location)
        if isinstance(other, Message):
            return Message(self.pieces + other.pieces, self.values + other.values,
                           self.location)
        return NotImplemented

    def __radd__(self, other):
        if isinstance(other, str):
            return Message((('', other),) + self.pieces, ((),) + self.values, self.location)
        return NotImplemented

    def __str__(self):
        """The text while tracing, traced values shown as `<traced float32[]>` (in the
        message of an exception raised while tracing)."""
        return self.render(lambda v: Placeholder(v) if is_traced(v) else v)

    __repr__ = __format__ = lambda self, *spec: str(self)

    def misused(self, *args, **kwargs):
        raise text_used_as_data(self.location)

    __eq__ = __ne__ = __lt__ = __le__ = __gt__ = __ge__ = __hash__ = misused
    __len__ = __iter__ = __getitem__ = __contains__ = __bool__ = __mul__ = misused

    def __getattr__(self, name):
        if name in _STR_METHODS:   # msg.upper(), msg.split(): text needed while tracing
            self.misused()
        raise AttributeError(name)


_STR_METHODS = frozenset(name for name in dir(str) if not name.startswith('_'))


class Placeholder:
    """A traced value in text made while tracing."""

    def __init__(self, value):
        self.text = f'<traced {jax.typeof(value).str_short(short_dtypes=False)}>'

    def __repr__(self):
        return self.text

    def __format__(self, spec):
        return self.text


def rendered(tree):
    """`tree` with its Messages made text (their values being the run-time ones)."""
    return jax.tree_util.tree_map(
        lambda leaf: leaf.render() if isinstance(leaf, Message) else leaf, tree,
        is_leaf=lambda leaf: isinstance(leaf, Message))
