"""Reading XLA's optimised HLO text: the computations that while loops run, and a census
of a compiled program (benchmarks/hlo_table.py; tests/helpers.py reads loops with it)."""
import re

import jax


def computations(hlo):
    """{name: text} of the computations of an HLO module's text."""
    found = {}
    for text in re.split(r'\n(?=\S)', hlo):
        name = re.match(r'(?:ENTRY )?%?([\w.\-]+)', text.strip())
        if name:
            found[name.group(1)] = text
    return found


_CALLED = re.compile(r'(?:body|condition|calls|to_apply|branch_computations|'
                     r'true_computation|false_computation)=\{?([%\w.\-, ]+)\}?')


def in_loops(hlo):
    """The texts of the computations that while loops run (see the module docstring)."""
    named = computations(hlo)
    todo = set(re.findall(r'(?:body|condition)=%?([\w.\-]+)', hlo))
    found = set()
    while todo:
        name = todo.pop()
        if name not in found and name in named:
            found.add(name)
            for group in _CALLED.findall(named[name]):
                todo.update(n.strip().lstrip('%') for n in group.split(','))
    return [named[name] for name in found]


def census(fn, args):
    """(while loops, conditionals, instructions in loops, copies in loops) of the
    compiled `jax.jit(fn)(*args)`."""
    hlo = jax.jit(fn).lower(*args).compile().as_text()
    looped = [line for text in in_loops(hlo) for line in text.splitlines()
              if ' = ' in line and not line.lstrip().startswith('ROOT')
              and ' parameter(' not in line]
    return (len(re.findall(r' while\(', hlo)), len(re.findall(r' conditional\(', hlo)),
            len(looped), sum(' copy(' in line for line in looped))
