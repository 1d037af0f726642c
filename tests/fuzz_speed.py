"""Settings that make the differential fuzzer's programs cheaper to run, without changing
what it checks (the same programs, calls and comparisons).

A fuzzer program's time goes to tracing it (autograph's staging, in JAX's tracer) and to
XLA compiling each trace: a program of under a hundred lines can stage to a module of
~10,000 MLIR operations (a hundred conditionals, dozens of loops) run once on scalars, so the
optimisations XLA's CPU backend spends seconds on never pay. `fast_compiles` turns off
the costly ones: LLVM's optimisation of the generated code (`jax_disable_most_optimizations`)
and the MLIR fusion emitters (XLA's older emitters compile the same operations; results
are still compared with Python's within the fuzzer's tolerance). Measured on seed 5029's
largest module: 5.0 s of CPU per compile with the defaults, 2.4 s with these.

The settings apply to the process's JAX backend, so they must be made before it starts
(the fuzzer's workers are spawned with them in their environment).

`rare_collections` makes Python's cyclic garbage collector run less often in a worker
(tracing makes millions of short-lived objects, and the collector's passes over them
took 5-10 % of a program's time); memory is still reclaimed by reference counting and
by the collections that do run.
"""
import gc
import os

XLA_FLAGS = ('--xla_cpu_use_fusion_emitters=false',)


def fast_compiles():
    """Sets this process's environment (inherited by the workers it spawns) for cheap
    XLA compiles, and the setting of this process's JAX."""
    import jax
    flags = os.environ.get('XLA_FLAGS', '').split()
    os.environ['XLA_FLAGS'] = ' '.join(flags + [f for f in XLA_FLAGS if f not in flags])
    os.environ['JAX_DISABLE_MOST_OPTIMIZATIONS'] = '1'
    jax.config.update('jax_disable_most_optimizations', True)


def rare_collections():
    """Python's cyclic collector, in this process: the objects alive now (call it after
    the imports) left out of its passes, and a pass every 100,000 allocations, not 700."""
    gc.freeze()
    gc.set_threshold(100_000, 20, 10)
