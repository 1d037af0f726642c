"""Values: what converted code passes around that is not a plain array, and their types.

- split.py: the user's variables split into traced leaves and static parts for `lax`
  (`Undefined`, `Unbound`, `Spec`, `pack`/`unpack`);
- types.py: avals, weak-type promotion, casts and predicates;
- maybe.py: `Maybe`, a value that exists on some paths only, and its flag
  (its meaning: runtime.checks.absent);
- stacked.py: a list collected by a staged loop, kept as one stacked array;
- slot.py: an iteration's part of an array in a vectorised loop;
- text.py: text made from traced values (a named error, or a Message formed at run time).

May import messages and the foundation (context, errors, origin, protocol); used by every
package above.
"""
