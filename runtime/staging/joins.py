"""The value of a variable that staged branches give in different structures: `None` in
place of some parts on some paths (an optional part, runtime.checks.absent.joined), or
values of different kinds, one of them a constant (a `Choice`, runtime.values.choice).

Python reference: after the `if`, the variable holds whatever the branch taken gave it.
Each branch's value is put in one structure that holds them all (`Conform`), so that the
branches of one `lax.cond` give the same types.
"""
from ..checks.absent import DIFFERENT, Maybe, conformed, is_absent, joined
from ..values import choice
from ..values.split import merge, split


class Conform:
    """A branch gives an output in `template`'s structure: a value whose parts are None
    on some paths, with those parts optional (runtime.checks.absent.joined), or one of
    several kinds of values (a Choice)."""

    def __init__(self, template):
        self.template = template

    def leaves(self, spec, leaves):
        """The leaves of the value of Spec `spec` with `leaves`, conformed."""
        value = merge(spec, list(leaves))
        if isinstance(self.template, choice.Choice):
            return split(choice.chosen(value, self.template))[0]
        return split(conformed(value, self.template))[0]


def template(specs, values):
    """The structure (a Conform) holding the values of an output whose branches differ
    only by None in place of some parts inside a tuple, list, dict or other pytree, or by
    dict keys, or in kind where one is a constant (see the module docstring); else None.
    `specs`: the Spec of each branch's output, `values`: zeros of each."""
    if all(s.same_as(specs[0]) for s in specs[1:]):
        return None
    chosen = choice.template(values)
    if chosen is not None:
        return Conform(chosen)
    if any(is_absent_spec(s) or is_none(s) or is_maybe(s) for s in specs):
        return None
    joint = values[0]
    for value in values[1:]:
        joint = joined(joint, value)
        if joint is DIFFERENT:
            return None
    target = split(joint)[1]
    if all(split(conformed(value, joint))[1].same_as(target) for value in values):
        return Conform(joint)
    return None


def is_none(spec):
    return spec.dynamic_count == 0 and merge(spec, []) is None


def is_absent_spec(spec):
    return len(spec.statics) == 1 and is_absent(spec.statics[0])


def is_maybe(spec):
    return spec.treedef.node_data() is not None and spec.treedef.node_data()[0] is Maybe
