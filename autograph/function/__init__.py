"""`tf.function`'s semantics on `jax.jit`: what `autograph.convert` returns.

    keys.py      which calls share a trace: ArrayKey / ValueKey / ObjectKey, call_key
    function.py  Function (trace per key, retrace warning), BoundFunction, the eager switch
    concrete.py  ConcreteFunction (one trace), input_signature checks
    results.py   results returned as the function returned them (Result)

Errors raised by a call are translated for the user in one place, `autograph.errors`.
"""
from autograph.errors import EscapedTracer
from autograph.function.concrete import ConcreteFunction, check_signature
from autograph.function.function import (BoundFunction, Function, functions_run_eagerly,
                                         run_functions_eagerly)
from autograph.function.keys import (RETRACE_WINDOW, ArrayKey, ObjectKey, ValueKey, call_key,
                                     leaf_key, retrace_message)

__all__ = [
    'ArrayKey', 'BoundFunction', 'ConcreteFunction', 'EscapedTracer', 'Function',
    'ObjectKey', 'RETRACE_WINDOW', 'ValueKey', 'call_key', 'check_signature',
    'functions_run_eagerly', 'leaf_key', 'retrace_message', 'run_functions_eagerly',
]
