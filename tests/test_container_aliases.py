"""Containers reached through a second name that a staged branch binds (`e = d`): the name
is that very object after the statement when every path binds it and none changes it,
else a named error (runtime.state.mutation), never a copy that later changes miss. Each
case is compared with the same function run as plain Python; a list parameter rebound on
one path only reaches the caller as passes.written_arguments reports it."""
import jax.numpy as jnp
import pytest

import autograph


def same_object_on_both_paths(x):
    d = [0.0]
    if x > 0:
        e = d
    else:
        e = d
    e[0] = x
    return d


def one_of_two_dicts(x):
    d1 = {'a': 0.0}
    d2 = {'a': 0.0}
    if x > 0:
        e = d1
    else:
        e = d2
        e['a'] = x
    e['a'] = e['a'] + 1.0
    return d1['a'], d2['a']


def rebinds_on_one_path(x, d):
    if x > 0:
        d = [x]
    d[0] = d[0] + 1.0
    return x


def _plain(value):
    return [float(v) for v in value] if isinstance(value, (list, tuple)) else float(value)


@pytest.mark.parametrize('x', [1.5, -1.0])
def test_a_name_bound_to_the_same_list_on_both_paths(x):
    assert _plain(autograph.convert(same_object_on_both_paths)(jnp.float32(x))) == \
        _plain(same_object_on_both_paths(x))


@pytest.mark.parametrize('x', [1.5, -1.0])
def test_a_name_bound_to_one_of_two_dicts_is_the_named_error(x):
    one_of_two_dicts(x)   # (valid Python)
    with pytest.raises(autograph.ControlFlowError, match="'e' is bound to an existing"):
        autograph.convert(one_of_two_dicts)(jnp.float32(x))


@pytest.mark.parametrize('x', [1.5, -1.0])
def test_a_list_parameter_rebound_on_one_path_then_changed_in_place(x):
    """(passes.written_arguments: the caller's list is selected at the return)"""
    ours, python = [0.5], [0.5]
    autograph.convert(rebinds_on_one_path)(jnp.float32(x), ours)
    rebinds_on_one_path(x, python)
    assert _plain(ours) == _plain(python)
