"""autograph: convert Python control flow on JAX arrays into lax control flow.

    @autograph.convert
    def f(x):
        if x.sum() > 0:        # traced condition -> lax.cond
            x = x * 2
        while x.max() < 100:   # traced condition -> lax.while_loop
            x = x * 3
        return x

`to_code(f)` shows the generated source; `autograph-show file.py:f` does it from the shell.
"""
from autograph.api import (
                           convert,
                           do_not_convert,
                           range,
                           set_loop_options,
                           to_code,
                           transform,
)
from autograph.errors import ConversionError
from autograph.function import (
                                ConcreteFunction,
                                Function,
                                functions_run_eagerly,
                                run_functions_eagerly,
)
from autograph.library import convert_modules, do_not_convert_modules
from autograph.runtime.errors import ControlFlowError
from autograph.runtime.backends.framework import Embedding, Lowering, register, unregister

__all__ = [
    'ConcreteFunction', 'ControlFlowError', 'ConversionError', 'Embedding', 'Function',
    'Lowering', 'convert', 'convert_modules', 'do_not_convert', 'do_not_convert_modules',
    'functions_run_eagerly', 'range', 'register', 'run_functions_eagerly',
    'set_loop_options', 'to_code', 'transform', 'unregister',
]
