"""What a backend does for the operators: the statements, in terms of its primitives.

A framework's `Lowering` (framework.py) implements this protocol from the three
primitives the framework registers (`cond`, `while_loop`, `fori_loop`, with `jax.lax`'s
signatures); the JAX backend is runtime.staging (`branches.cond`/`switch` and
`loops.while_loop`/`scan_loop`/`range_loop`), which also stages what the protocol does
not cover (state in objects, lists grown by a loop, run-time checks); the Python backend
is the statement itself. runtime.backends.dispatch picks one per statement.

Branch and loop functions take the statement's state (`args`/`values`, one value per
name in `names`) and return one value per name (`runtime.values.split.pack`/`unpack`).
"""
import typing


class Backend(typing.Protocol):
    def claims(self, value: object) -> bool:
        """Whether a statement decided by `value` (a condition) is this backend's."""

    def claims_loop(self, iterable: object) -> bool:
        """Whether a `for` over `iterable` is this backend's."""

    def if_stmt(self, pred, if_true: typing.Callable, if_false: typing.Callable,
                args: tuple, names: tuple):
        """`if_true(*args) if pred else if_false(*args)`; elif chains nest it."""

    def choose(self, pred, if_true: typing.Callable, if_false: typing.Callable):
        """`if_true() if pred else if_false()`: conditional expressions, `and`, `or`,
        `not`."""

    def while_stmt(self, test: typing.Callable, body: typing.Callable, values: tuple,
                   names: tuple, maximum_iterations: int | None = None):
        """`while test(*values): values = body(*values)`, at most `maximum_iterations`
        times."""

    def for_stmt(self, iterable, body: typing.Callable, values: tuple, names: tuple,
                 extra_test: typing.Callable | None = None):
        """`for item in iterable: values = body(item, *values)`, until `extra_test`
        (a `break`) fails. `iterable` may be a staged iterable or a Python range's
        items, which give `indexing()` (runtime.loops.iterables)."""

    def guarded(self, go, step: typing.Callable, state: tuple) -> tuple:
        """`step(state) if go else state` (the steps of a loop after a `break` whose
        flag is this backend's value)."""
