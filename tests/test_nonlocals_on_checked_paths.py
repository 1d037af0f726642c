"""A variable a lambda sees (a cell, carried as `nonlocals=` by converted loops), changed
by a staged loop whose body holds a run-time check.

A check inside a staged body (here an index at a traced position in the loop test of a
helper it calls) is on the path of that body: the loop's test is computed again, with
the body's inputs, for the condition it holds under (runtime.checks.raises). The test
function sets the variables in place from its arguments; before the fix it left them so,
in the middle of the body: `a = a + 1.0` was undone, the loop carried `a` as a constant
(a wrong value, or a compiled loop that never ends where `a` is its test). Found by the
idiom fuzzer, seed 121433. Ground truth: the same function run as plain Python."""
import os
import subprocess
import sys

import jax.numpy as jnp
import numpy as np

from tests.peers.corpus_harness import agree, agree_grad, agree_vmap, f32, i32

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

def root_of(parent, x):
    root = x
    while parent[root] != root:   # (a traced index of a NumPy array: checked)
        root = parent[root]
    return root


def while_calling_a_checked_helper(x, k):
    a = x * 1.0
    i = 0
    while i < 4 and a < 10.0:
        a = a * 1.5 + 1.0
        parent = np.array([1, 2, 3, 3, 0])
        r = root_of(parent, k)   # (after `a` changed: `a + root_of(...)` reads it first)
        a = a + r * 0.01
        i += 1
    g = lambda: a
    return a, i, g()


def while_on_the_variable_alone(x, k):
    a = x * 1.0
    n = 0
    while a < 10.0:   # (the bug: a compiled loop that never ends)
        a = a + 1.0
        r = root_of(np.array([1, 2, 3, 3, 0]), k)
        n = n + r
    g = lambda: a
    return a, n, g()


def for_with_break_calling_a_checked_helper(x, k):
    a = x * 1.0
    for i in range(6):
        if a > 8.0:
            break
        a = a * 1.5
        r = root_of(np.array([1, 2, 3, 3, 0]), (k + i) % 5)
        a = a + r * 0.1
    g = lambda: a * 2.0
    return a, g()


def while_loss(x, k):
    a = x * 1.0
    i = 0
    while i < 3 and a < 50.0:
        a = a * 1.5
        r = root_of(np.array([1, 2, 3, 3, 0]), k)
        a = a + r * 0.1
        i += 1
    g = lambda: a
    return g()


def test_a_while_loop_keeps_what_its_body_assigned_before_a_check():
    agree(while_calling_a_checked_helper, (f32(0.5), i32(1)), (f32(-3.0), i32(4)),
          (f32(20.0), i32(0)))


def loop_whose_test_is_the_variable_ends():
    agree(while_on_the_variable_alone, (f32(0.5), i32(1)), (f32(9.5), i32(0)))


def test_a_loop_whose_test_is_the_variable_ends():
    """In a fresh interpreter with a time limit (the bug compiled a loop that never
    ends)."""
    code = ('from tests.test_nonlocals_on_checked_paths import *; '
            'loop_whose_test_is_the_variable_ends()')
    result = subprocess.run([sys.executable, '-c', code], cwd=ROOT, capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr


def test_a_for_loop_with_a_break_keeps_what_its_body_assigned():
    agree(for_with_break_calling_a_checked_helper, (f32(0.5), i32(1)), (f32(2.0), i32(3)))


def test_under_the_callers_vmap():
    agree_vmap(while_calling_a_checked_helper, jnp.array([0.5, -3.0, 20.0], f32),
               jnp.array([1, 4, 0], i32))


def test_under_grad():
    agree_grad(while_loss, f32(0.7), i32(2))
