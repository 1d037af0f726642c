"""Varying manual axes (`jax.shard_map`): the mesh axes over which a value may differ.

Inside `jax.shard_map` with JAX's default `check_vma=True`, the type of each value names
the manual mesh axes over which it may differ from device to device (`jax.typeof(x).vma`,
`.mat.varying` in later JAX versions);
a value with none (a constant, a `lax.psum`) is the same on every device. Operands of one
primitive, the carry of a loop before and after an iteration, and the outputs of the
branches of a `lax.cond` must agree on them, and a value is made to vary over more axes
with `lax.pvary` (named `lax.pcast(..., to='varying')` in later JAX versions). So the
values the runtime makes (a flag, zeros, a counter) are cast, where they meet the user's,
to vary as those do (`vary`), and the types it traces with keep the axes (`typed`).

This module is the one place that knows how each JAX version the project supports spells
these; outside `jax.shard_map` every value varies over no axis and nothing changes.
"""
import jax
from jax import lax

try:   # (how later JAX versions name a type's manual axes; JAX 0.7 has `vma=`)
    from jax._src.core import ManualAxisType as _ManualAxisType
except ImportError:
    _ManualAxisType = None

NONE = frozenset()


def axes_of(t):
    """The varying manual axes of a type (a ShapedArray or a jax.ShapeDtypeStruct)."""
    axes = getattr(t, 'vma', None)
    if axes is None:
        manual = getattr(t, 'manual_axis_type', None)
        axes = None if manual is None else manual.varying
    return frozenset(axes) if axes else NONE


def varying(value):
    """The varying manual axes of a value (an array, a tracer or a Python number)."""
    return axes_of(jax.typeof(value))


def vary(value, axes):
    """`value` varying over `axes` too (as `lax.pvary`); the value itself when it does."""
    extra = tuple(sorted(frozenset(axes) - varying(value), key=str))
    if not extra:
        return value
    if hasattr(lax, 'pcast'):
        return lax.pcast(value, extra, to='varying')
    return lax.pvary(value, extra)


def typed(shape, dtype, weak_type=False, axes=NONE):
    """A jax.ShapeDtypeStruct of a value varying over `axes` (inside `jax.shard_map`)."""
    if not axes:
        return jax.ShapeDtypeStruct(shape, dtype, weak_type=weak_type)
    axes = frozenset(axes)
    if _ManualAxisType is None:
        return jax.ShapeDtypeStruct(shape, dtype, weak_type=weak_type, vma=axes)
    # The type names the axes of the mesh of the shard_map being traced.
    mesh = jax.sharding.get_abstract_mesh()
    return jax.ShapeDtypeStruct(
        shape, dtype, weak_type=weak_type,
        sharding=jax.sharding.NamedSharding(mesh, jax.sharding.PartitionSpec()),
        manual_axis_type=_ManualAxisType(varying=axes))


def inside_manual():
    """Whether the code being traced runs per device, in `jax.shard_map`."""
    return bool(jax.sharding.get_abstract_mesh().manual_axes)
