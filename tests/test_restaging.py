"""A helper that changes an attribute of an object the function was given, called deep
inside staged statements: each statement around it must carry the attribute. The one
that finds it notes it for every statement around it, and only the outermost stages
again (runtime.state.restaging): each statement runs twice, not once per level above
it (a statement nested d deep ran d + 1 times, with all the code inside it). Ground
truth: plain Python."""
import jax.numpy as jnp
import numpy as np
import pytest

import autograph
from autograph.runtime.state import watches


class Box:
    def __init__(self):
        self.n = 0.0


def bump(box, x):
    box.n = box.n + x


def nested(box, x):
    if x > 0:
        if x > 1:
            if x > 2:
                if x > 3:
                    if x > 4:
                        bump(box, x)
                    x = x + 1.0
                x = x * 2.0
            x = x - 1.0
        x = x + 0.5
    return x


@pytest.mark.parametrize('x', [5.5, 3.5, -1.0])
def test_values_and_the_attribute_as_python(x):
    expected, got = Box(), Box()
    want = nested(expected, x)
    assert float(autograph.convert(nested)(got, jnp.float32(x))) == pytest.approx(want)
    assert float(got.n) == pytest.approx(expected.n)


def test_each_statement_runs_at_most_twice(monkeypatch):
    runs = []
    recording = watches.Journal.recording

    def counted(self, fields, run, *args):
        runs.append(run)
        return recording(self, fields, run, *args)
    monkeypatch.setattr(watches.Journal, 'recording', counted)
    autograph.convert(nested)(Box(), jnp.float32(5.5))
    assert len(runs) <= 2 * 5, len(runs)   # (five `if`s: d + 1 runs each made it 20)
