"""Staging again from the outermost statement that needs what a nested one found.

A staged statement whose branches or body call functions that change places outside it
(an attribute of an object given, a global) is staged again carrying those places
(runtime.state.statement). Every statement around it that is being staged needs them
too: each would find them only once its own run ended, and stage again, running the
statements inside it again: a statement nested d deep ran d + 1 times, and so did all
the code inside it. Instead, the nested statement notes the places for itself and for
every statement around it that began before their objects were made (the `discovered`
places of their sites, which a statement carries from the start when it is made), and
leaves the staging again to the outermost of those (`pending`): the runs inside it,
which left the places as they were, are moot and go on to their end, noting all that
they find, and the outermost one stages again once, carrying all of it.

Places that each staging makes anew (containers, closure cells) are not noted: the
statement that found them stages again on its own.
"""
from .. import context


def outermost_needing(statement, places):
    """The outermost of the statements around `statement` (being staged in the same trace
    of a Function) that began before the objects of `places` ({key: Place}) were made and
    do not carry them, up to the first that does, marked to stage again, after noting
    `places` for the sites from it down to `statement`; None where there is none."""
    state = context.current()
    chain = [s for s in state.staging if s.discovered is state.discovered]
    if statement not in chain:
        return None
    k = chain.index(statement)
    while k > 0 and not chain[k - 1].carries(places) and \
            all(_older(place, chain[k - 1].mark) for place in places.values()):
        k -= 1   # (a statement that carries them already gives them to those around)
    if chain[k] is statement:
        return None
    for inner in chain[k:chain.index(statement) + 1]:
        state.discovered.setdefault(inner.site, {}).update(places)
    chain[k].pending = True
    return chain[k]


def _older(place, mark):
    owner = place.owner
    return owner is None or not context.made_since(owner[0](), mark)
