"""Checks: Python's run-time errors (`raise`, `assert`, an unbound variable) as error
values computed inside the compiled program and raised at the Function's boundary.

- checks.py: the error state carried by staged code (as `jax.experimental.checkify`);
- check_outcomes.py: where it ends (raised after the call, or reported by a callback);
- raises.py, asserts.py, handlers.py: `ag.raise_if`/`raise_`, `ag.assert_`, `try`;
- absent.py: values that exist on some paths only (`Maybe`), checked where read;
- keys.py: dict keys that exist on some paths only (`Keyed`), checked where read.

May import values, messages and the foundation; used by staging, items, python, the
operators and the `ag` namespace.
"""
