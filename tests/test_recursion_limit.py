"""The process-wide recursion limit under threads that stage at once.

Staging a branch or loop body raises Python's recursion limit to keep room for JAX's
tracing (runtime.context.recursion_room), and so does the converter's worker. The limit
is one setting for the process: two threads that enter and leave in any order must each
keep their room while inside, and the limit from before must come back after both.
"""
import sys
import threading

import jax
import jax.numpy as jnp

import autograph
from autograph.runtime import context


def _deep(frames, then):
    """`then()` called `frames` Python frames deeper than the caller."""
    if frames == 0:
        return then()
    return _deep(frames - 1, then)


def test_requests_released_out_of_order_keep_the_larger_until_the_last():
    before = sys.getrecursionlimit()
    first, second = context.recursion_limit(before + 300), context.recursion_limit(before + 600)
    first.__enter__()
    second.__enter__()
    assert sys.getrecursionlimit() == before + 600
    first.__exit__(None, None, None)       # the first one leaves before the second
    assert sys.getrecursionlimit() == before + 600
    second.__exit__(None, None, None)
    assert sys.getrecursionlimit() == before


def test_a_limit_changed_outside_meanwhile_stays():
    before = sys.getrecursionlimit()
    try:
        with context.recursion_limit(before + 500):
            sys.setrecursionlimit(before + 2000)
        assert sys.getrecursionlimit() == before + 2000
    finally:
        sys.setrecursionlimit(before)


def test_two_threads_staging_at_once_keep_their_room_and_restore_the_limit():
    """Thread 1 stages at depth 300, thread 2 at depth 600; thread 1 leaves its staged
    body while thread 2 is still inside it. Inside, each has STAGED_HEADROOM frames
    above it; after both, the limit is what it was."""
    before = sys.getrecursionlimit()
    inside_1, leave_1, inside_2, leave_2 = (threading.Event() for _ in range(4))
    seen, errors = {}, []

    def body_of(name, inside, leave):
        def body(x):
            def check():
                seen[name] = sys.getrecursionlimit() - context.frames_in_use()
                inside.set()
                leave.wait(30)
                return x + 1
            return check()
        return body

    def stage(name, depth, inside, leave):
        def run():
            try:
                step = body_of(name, inside, leave)

                @autograph.convert(jit=False)
                def f(x):
                    if x > 0:
                        x = step(x)
                    return x
                _deep(depth, lambda: jax.make_jaxpr(f)(jnp.float32(1.0)))
            except Exception as error:   # reported below, in the test's thread
                errors.append(error)
                inside.set()
        return threading.Thread(target=run)

    one = stage('one', 300, inside_1, leave_1)
    two = stage('two', 600, inside_2, leave_2)
    one.start()
    inside_1.wait(60)
    two.start()
    inside_2.wait(60)
    leave_1.set()
    one.join(60)
    limit_while_two_inside = sys.getrecursionlimit()
    leave_2.set()
    two.join(60)
    assert not errors, errors
    assert seen['one'] >= 900 and seen['two'] >= 900, seen
    assert limit_while_two_inside >= 600 + 900
    assert sys.getrecursionlimit() == before
