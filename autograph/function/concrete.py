"""`ConcreteFunction`: one trace of a Function, as tf.function's concrete functions are.

    square = f.get_concrete_function(jax.ShapeDtypeStruct((3,), jnp.float32), b=2)
    square(x)        # the compiled program of that trace, for float32[3] arrays
    square.jaxpr, square.as_text()   # its jaxpr and StableHLO
    square.structured_input_signature, square.structured_outputs

A concrete function takes only arguments with its trace's key (see `keys`): its Python
arguments are pinned (`square(x)` uses b=2, `square(x, b=3)` is a TypeError) and its
arrays' shapes are fixed (a new shape is a ValueError that says to call the Function
itself). A Python number, or a weakly typed array, is taken for an array argument when
JAX's promotion keeps the traced dtype (3.0 for float32[], never 2.5 for int32[]).

`check_signature` checks a call against a Function's `input_signature`, which fixes the
shape and dtype of each (positional) argument, as tf.function's does.
"""
import dataclasses
import functools

import jax
import numpy as np

from autograph.errors import raise_user_facing
from autograph.runtime.checks import check_outcomes
from autograph.function.keys import (STATE, ArrayKey, ObjectKey, ValueKey, call_key, leaf_key,
                                     leaf_names, parameter_names, static_part,
                                     takes_traced_type)


class ConcreteFunction:
    """One trace of a Function: its compiled program, jaxpr, StableHLO and signature."""

    def __init__(self, function, key):
        self.function = function
        self.key = key
        treedef, keys = key
        self._treedef = treedef
        self._dynamic = [i for i, k in enumerate(keys) if isinstance(k, ArrayKey)]
        self._avals = [jax.ShapeDtypeStruct(keys[i].shape, keys[i].dtype,
                                            weak_type=keys[i].weak_type)
                       for i in self._dynamic]
        static = static_part(key)
        self._jitted = function._static_jit(static)   # (shared by the keys of `static`)
        self._flat = functools.partial(function._trace_static, static)
        self._outputs = None

    def _statics(self):
        """The leaves that are not arrays, by position (None at the arrays' places)."""
        return [k.value if isinstance(k, ValueKey) else k.obj if isinstance(k, ObjectKey)
                else None for k in self.key[1]]

    def call_leaves(self, leaves):
        """The compiled program's results (raising the user's exception for a failed
        run-time check: the program returns its error state beside its results)."""
        value, outcome = self._jitted(*[leaves[i] for i in self._dynamic])
        return check_outcomes.finish(outcome, value)

    def ensure_traced(self):
        if self._outputs is None:
            self._outputs = self._jitted.eval_shape(*self._avals)[0]

    def __call__(self, *args, **kwargs):
        try:
            if self.function.input_signature is None:
                args, kwargs = self._pin(args, kwargs)
                key, leaves = call_key(args, self.function._state.with_state(args, kwargs))
            else:
                key, leaves, (args, kwargs) = self.function._key(args, kwargs)
            if key != self.key:
                key, leaves = self._converted_to_traced_types(key, leaves)
            concrete = self
            if key != self.key and _as_jax(key) == _as_jax(self.key):   # (NumPy arrays
                # for JAX ones, or the reverse: the trace of their meaning, see keys)
                concrete = self.function._concrete.get(key) or \
                    self.function._concrete_function(key)
            elif key != self.key:
                raise self._incompatible(key)
            return self.function._state.written_back(concrete.call_leaves(leaves), args,
                                                     kwargs)
        except Exception as error:
            raise_user_facing(error)

    def _pin(self, args, kwargs):
        """The call's arguments bound to the parameters; a Python argument left out takes
        the value it was traced with (as tf.function's concrete functions do)."""
        signature = self.function._signature
        if signature is None:
            return args, kwargs
        bound = signature.bind_partial(*args, **kwargs)
        traced = signature.bind(*self.structured_input_signature[0],
                                **_without_state(self.structured_input_signature[1]))
        for name, value in traced.arguments.items():
            if name not in bound.arguments and not any(
                    isinstance(leaf, jax.ShapeDtypeStruct)
                    for leaf in jax.tree_util.tree_leaves(value)):
                bound.arguments[name] = value
        bound.apply_defaults()
        return bound.args, bound.kwargs

    def _converted_to_traced_types(self, key, leaves):
        """A weakly typed array or a Python number given where an array was traced takes
        the traced dtype, when JAX's promotion would keep that dtype (3.0 or a weak
        float32[] for float32[]; never 2.5 for int32[])."""
        treedef, keys = key
        if treedef != self.key[0]:
            return key, leaves
        keys, leaves = list(keys), list(leaves)
        for i, (mine, theirs) in enumerate(zip(self.key[1], keys)):
            if isinstance(mine, ArrayKey) and takes_traced_type(mine, theirs):
                leaves[i] = jax.numpy.asarray(leaves[i], dtype=mine.dtype)
                keys[i] = mine
        return (treedef, tuple(keys)), leaves

    def _incompatible(self, key):
        if key[0] != self.key[0]:
            return TypeError(f'{self.function.__qualname__}: this concrete function was '
                             f'traced for arguments structured as {self.key[0]}, got {key[0]}')
        names = leaf_names(self.function.python_function, key[0])
        for i, (mine, theirs) in enumerate(zip(self.key[1], key[1])):
            if mine != theirs:
                name = names[i] if i < len(names) else f'argument {i}'
                if isinstance(mine, ArrayKey):
                    return ValueError(
                        f"argument '{name}' of this concrete function of "
                        f"{self.function.__qualname__} was traced as {mine}, but got "
                        f"{theirs}. Call the Function itself to trace it again for new "
                        f"shapes.")
                return TypeError(
                    f"this concrete function of {self.function.__qualname__} was traced "
                    f"with {name}={_pinned(mine)}: its Python arguments are fixed, but got "
                    f"{name}={_pinned(theirs)}. Pass {name}={_pinned(mine)} or leave it "
                    f"out, or call the Function itself to trace it for the new value.")
        return TypeError('incompatible arguments')

    @functools.cached_property
    def jaxpr(self):
        return jax.make_jaxpr(self._flat)(*self._avals)

    def as_text(self):
        """The lowered StableHLO module."""
        return self._jitted.lower(*self._avals).as_text()

    @property
    def structured_input_signature(self):
        leaves = self._statics()
        for i, aval in zip(self._dynamic, self._avals):
            leaves[i] = aval
        return jax.tree_util.tree_unflatten(self._treedef, leaves)

    @property
    def structured_outputs(self):
        self.ensure_traced()
        return self._outputs[0]   # (the state it writes back is the rest)

    def __str__(self):
        args, kwargs = self.structured_input_signature
        kwargs = _without_state(kwargs)
        names = parameter_names(self.function.python_function)
        params = ', '.join(names[:len(args)] + list(kwargs))
        lines = [f'{self.function.__name__}({params})', '  Args:']
        for i, arg in enumerate(args):
            name = names[i] if i < len(names) else f'arg{i}'
            lines.append(f'    {name}: {_describe_tree(arg)}')
        for name, arg in kwargs.items():
            lines.append(f'    {name}: {_describe_tree(arg)}')
        lines += ['  Returns:', f'    {_describe_tree(self.structured_outputs)}']
        return '\n'.join(lines)

    __repr__ = __str__


def _as_jax(key):
    """`key` with its NumPy arrays keyed as JAX arrays."""
    return key[0], tuple(dataclasses.replace(k, numpy=False, layout=None) if isinstance(k, ArrayKey)
                         else k for k in key[1])


def _without_state(kwargs):
    return {k: v for k, v in kwargs.items() if k != STATE}


def _pinned(key):
    return repr(key.value) if isinstance(key, ValueKey) else f'<{key}>'


def _describe_tree(tree):
    def describe(leaf):
        if isinstance(leaf, jax.ShapeDtypeStruct):
            return f'{np.dtype(leaf.dtype).name}[{",".join(map(str, leaf.shape))}]'
        return repr(leaf)
    described = jax.tree_util.tree_map(describe, tree)
    return described if isinstance(described, str) else str(described).replace("'", '')


def named(fn, name):
    """`fn` under the user's function name, which jaxprs and profiles show."""
    def call(*args):
        return fn(*args)
    call.__name__ = call.__qualname__ = name
    return call


# --- input_signature --------------------------------------------------------------------

def check_signature(fn, signature, args, kwargs):
    """ValueError naming the argument whose shape/dtype does not match `signature`."""
    names = parameter_names(fn)
    if kwargs:
        raise ValueError(f'{fn.__qualname__} has an input_signature, so it takes positional '
                         f'arguments only; got keyword arguments {sorted(kwargs)}')
    if len(args) != len(signature):
        raise ValueError(f'{fn.__qualname__} takes {len(signature)} arguments by its '
                         f'input_signature, got {len(args)}')
    for i, (arg, spec) in enumerate(zip(args, signature)):
        expected = jax.tree_util.tree_map(leaf_key, spec)
        actual = jax.tree_util.tree_map(_array_key, arg)
        if (jax.tree_util.tree_structure(expected) != jax.tree_util.tree_structure(actual)
                or not all(_matches(e, a) for e, a in zip(jax.tree_util.tree_leaves(expected),
                                                          jax.tree_util.tree_leaves(actual)))):
            name = names[i] if i < len(names) else f'argument {i}'
            raise ValueError(
                f"argument '{name}' of {fn.__qualname__} does not match its input_signature: "
                f"expected {_describe_key(expected)}, got {_describe_key(actual)}")


def _array_key(value):
    """`leaf_key`, with a Python number keyed as the weakly typed array it would become."""
    if isinstance(value, (jax.Array, np.ndarray, np.generic, jax.ShapeDtypeStruct)):
        return leaf_key(value)
    if isinstance(value, (bool, int, float, complex)):
        return ArrayKey((), np.asarray(value).dtype, True)
    return leaf_key(value)


def _matches(expected, actual):
    return (isinstance(actual, ArrayKey) and isinstance(expected, ArrayKey)
            and expected.shape == actual.shape
            and (np.dtype(expected.dtype) == np.dtype(actual.dtype) or actual.weak_type))


def _describe_key(tree):
    return str(jax.tree_util.tree_map(str, tree))
