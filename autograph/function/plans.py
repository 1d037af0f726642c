"""Plans: a cached call (see `calls`) as one flat function of its arguments.

Python reference: as `calls`: `return python_function(*args)`, with the state the
function reads and writes besides its arguments part of each call's inputs and outputs.

An entry of `calls` is found by the call's fingerprint, a tuple built on every call,
hashed and looked up; then its survey is asked whether the places are the same, the
state's values are read, and its program is found by their static part, another tuple.
A plan is one entry and one static part of its state, as they served a call, written
out as a straight-line Python function (its text is its `source` attribute) that tests
each thing once:

    an argument array        its type is an array type (any shape: jax.jit keys those),
                             a NumPy one where it was (see `NUMPY`)
    an argument object       the very object, of the same type (by id: the cache goes
                             back to its entries when an entry's object goes), while
                             no type's kind was found again (`forget_kinds`)
    an argument value        its type, and an equal value (as a tuple's `==` compares)
    an argument container    its structure (as JAX flattens it; a plain dict of arrays:
                             its keys), every leaf an array
    the survey's reads       as `Survey.holds` reads them (the same dicts and names,
                             the same tests), the rest (lists, cells) by the survey
    the entry's other checks the library verdicts, the logs kept apart (`_Entry.holds`)
    a state value            read where the survey read it (or by its place), an array
                             or the very Python value of the static part

then calls the program with the arrays in the order the entry passes them: the
arguments' first, then the state's. A test that fails gives the call to the entry's
path (`CallCache.call`), which finds, or makes, the plan of the entry and static part
that serve it.

Invariant: a call a plan serves is the call its entry would serve with the same
program. Arguments that pass the tests have the entry's fingerprint piece by piece
(each piece begins with what tells its kind apart, see `calls.fingerprint`), so the
same fingerprint; the entry's checks are the entry's, made on every call; state values
that pass them have the plan's static part. Arguments or state of other kinds (a bound
method, a container with Python values) get no plan.
"""
import jax

from autograph.library import verdict_changes
from autograph.runtime.context import context_made, innermost_embedding
from autograph.runtime.state.kinds import LEAF_KINDS
from autograph.runtime.state.places import MISSING

MISS = object()   # what a call gives when it must take the full path

ARRAY, VALUE, OBJECT, METHOD, TREE, OTHER, NUMPY = range(1, 8)   # (NUMPY: a NumPy
# array, an array of another meaning than a JAX one: see autograph.function.keys)
KINDS = {}   # id(type) -> one of the above, while the type lives (see `calls._kind`)
KINDS_CLEARED = [0]   # how many times KINDS was emptied (see `forget_kinds`)


def forget_kinds():
    """Find each type's kind again (a type was registered as a pytree node since its
    kind was found): no plan made before serves a call from now on."""
    KINDS.clear()
    KINDS_CLEARED[0] += 1


class NoPlan(Exception):
    """A call with an argument or state value of a kind no plan tests."""


def plan(cache, entry, jitted, args, state):
    """The function that serves the calls `entry` serves with `jitted` (see the module
    docstring), made from `args` and `state`, the arguments and state values of one of
    them. NoPlan where one has a kind a plan does not test."""
    source = _Source(cache, entry, jitted)
    dynamic = source.arguments(args)
    source.survey(entry.survey)
    if entry.epoch is not None:   # (see `_Entry.holds`, and `innermost_embedding`)
        embedding = ('(context := context_made()) is not None and context.embeddings'
                     if entry.epoch[1] is None else
                     f'innermost_embedding() is not {source.name("EMBEDDING", entry.epoch[1])}')
        source.test(f'verdict_changes[0] != {entry.epoch[0]} or ({embedding})',
                    verdict_changes=verdict_changes, innermost_embedding=innermost_embedding,
                    context_made=context_made)
    if entry.found is not None:
        source.test('not logs_apart(args)', logs_apart=entry.logs_apart)
    dynamic += source.state(entry, state)
    return source.function(dynamic)


class _Source:
    """The lines and the names of a plan's function, as they are made."""

    def __init__(self, cache, entry, jitted):
        self.lines = []
        self.names = {'call': cache.call, 'ran': cache.ran, 'entry': entry,
                      'jitted': jitted, 'kinds': KINDS, 'ARRAY': ARRAY, 'NUMPY': NUMPY,
                      'MISSING': MISSING, 'LEAF_KINDS': LEAF_KINDS,
                      'flatten': jax.tree_util.tree_flatten}
        self.read = {}   # (id of a dict or of an object, name) -> the variable read there
        self.objects = {}   # id of an argument object -> its variable

    def name(self, prefix, value):
        """A new name for `value` in the plan's namespace."""
        name = f'{prefix}{len(self.names)}'
        self.names[name] = value
        return name

    def test(self, failed, **names):
        """A line that gives the call to the entry's path where `failed` holds."""
        self.names.update(names)
        self.lines += [f'if {failed}:', '    return call(args)']

    def arguments(self, args):
        """Test each argument; the names of the arrays the program takes, in order.
        (A plan is given as many arguments as the Function has parameters: see
        `Function.__call__`, as `args` has.)"""
        variables = [f'a{i}' for i in range(len(args))]
        self.lines.append(f'{", ".join(variables)}, = args' if args else 'pass')
        dynamic = []
        if any(KINDS.get(id(type(value))) is OBJECT for value in args):
            self.test(f'kinds_cleared[0] != {KINDS_CLEARED[0]}', kinds_cleared=KINDS_CLEARED)
        for variable, value in zip(variables, args):
            kind = KINDS.get(id(type(value)))
            if kind is OBJECT:   # (the very object, of its type still)
                self.test(f'id({variable}) != {self.name("ID", id(value))} or '
                          f'type({variable}) is not {self.name("TYPE", type(value))}')
                self.objects[id(value)] = variable
            elif kind is TREE:
                dynamic.append(self.tree(variable, value))
            else:
                dynamic.append(self.leaf(variable, value, kind))
        return [variable for variable in dynamic if variable]

    def leaf(self, variable, value, kind):
        """Test an array or a Python value; the variable, when it is an array."""
        if kind is ARRAY or kind is NUMPY:
            self.test(f'kinds.get(id(type({variable}))) is not {_NAMES[kind]}'
                      + _or_not_c_order(kind, variable, value))
            return variable
        if kind is not VALUE:
            raise NoPlan(type(value).__name__)
        kind, value = self.name('TYPE', type(value)), self.name('VALUE', value)
        self.test(f'type({variable}) is not {kind} or not ({variable} is {value} '
                  f'or {variable} == {value})')
        return None

    def tree(self, variable, value):
        """Test a container: its structure, every leaf an array; `*leaves`."""
        leaves, treedef = jax.tree_util.tree_flatten(value)
        kinds = {KINDS.get(id(type(leaf))) for leaf in leaves}
        if not kinds <= {ARRAY} and kinds != {NUMPY}:
            raise NoPlan('a container of Python values, or of arrays of both kinds')
        kind = _NAMES[NUMPY if kinds == {NUMPY} else ARRAY]
        if kinds == {NUMPY}:
            _or_not_c_order(NUMPY, 'leaf', *leaves)   # (NoPlan for another layout)
        if _flat_dict(value, leaves):
            return self.flat_dict(variable, value, kind)
        self.lines.append(f'{variable}_leaves, {variable}_tree = flatten({variable})')
        self.test(f'{variable}_tree != {self.name("TREE", treedef)}')
        self.lines += [f'for leaf in {variable}_leaves:',
                       f'    if kinds.get(id(type(leaf))) is not {kind}'
                       f'{_or_not_c_order(kind, "leaf")}:',
                       '        return call(args)']
        return f'*{variable}_leaves'

    def flat_dict(self, variable, value, kind):
        """Test a plain dict of arrays (of `kind`) under string keys: its keys (which
        are its structure: JAX flattens its values in the order of its sorted keys),
        every value an array; the values, in that order."""
        self.test(f'type({variable}) is not dict or {variable}.keys() != '
                  f'{self.name("KEYS", frozenset(value))}')
        items = [f'{variable}[{self.name("KEY", key)}]' for key in sorted(value)]
        self.lines.append(f'{variable}_leaves = ({"".join(item + ", " for item in items)})')
        self.lines += [f'for leaf in {variable}_leaves:',
                       f'    if kinds.get(id(type(leaf))) is not {kind}'
                       f'{_or_not_c_order(kind, "leaf")}:',
                       '        return call(args)']
        return f'*{variable}_leaves'

    def survey(self, survey):
        """The survey's tests (see runtime.state.survey.Survey.holds), its dicts read
        into variables that the state's values are read from too (see `state`)."""
        seen, version, reads, rest = survey.plan()
        self.test(f'len(seen) != {version}', seen=seen)
        for i, (source, present, absent, identical) in enumerate(reads):
            if type(source) is dict:
                self.lines.append(f'd{i} = {self.name("DICT", source)}')
            elif id(source()) in self.objects:   # (an argument: the object tested above)
                source = source()
                self.lines.append(f'd{i} = vars({self.objects[id(source)]})')
            else:
                self.lines.append(f'o{i} = {self.name("REF", source)}()')
                self.test(f'o{i} is None')
                self.lines.append(f'd{i} = vars(o{i})')
                source = source()
            for j, (name, kind) in enumerate(present):
                self.lines.append(f'd{i}_{j} = d{i}.get({self.name("NAME", name)}, MISSING)')
                self.test(f'type(d{i}_{j}) is not {self.name("TYPE", kind)}')
                self.read[id(source), name] = f'd{i}_{j}'   # (what `state` reads too)
            for name, ref in identical:
                self.test(f'd{i}.get({self.name("NAME", name)}, MISSING) is not '
                          f'{self.name("REF", ref)}()')
            if absent:
                self.test(f'not d{i}.keys().isdisjoint({self.name("ABSENT", absent)})')
        if rest is not None:
            self.test('not rest()', rest=rest)

    def state(self, entry, values):
        """Read and test the state's values; the names of the arrays among them."""
        dynamic = []
        for i, (place, value) in enumerate(zip(entry.state_places, values)):
            variable = self.read.get(_where(place))   # (its type tested by the survey)
            kind = KINDS.get(id(type(value)))
            if variable is None:
                variable = f's{i}'
                self.lines.append(f'{variable} = {self.name("GET", place.get)}()')
                dynamic.append(self.leaf(variable, value, kind))
            elif kind is ARRAY or kind is NUMPY:
                if kind is NUMPY:
                    self.test(_not_c_order(variable, value))
                dynamic.append(variable)
            elif kind is VALUE:
                value = self.name('VALUE', value)
                self.test(f'not ({variable} is {value} or {variable} == {value})')
            else:
                raise NoPlan(type(value).__name__)
        return [variable for variable in dynamic if variable]

    def function(self, dynamic):
        """The plan's function, with its source as `source`."""
        self.lines += [
            f'out, outcome = jitted({", ".join(dynamic)})',
            "if (outcome is None and not out[1] and not out[2]",
            "        and LEAF_KINDS.get(type(out[0])) == 'array'):",
            '    return out[0]   # (the common case first: an array, nothing written)',
            'return ran(out, outcome, args, entry)']
        text = 'def serve(args):\n' + ''.join(f'    {line}\n' for line in self.lines)
        namespace = dict(self.names)
        exec(compile(text, '<autograph cached call>', 'exec'), namespace)
        serve = namespace['serve']
        serve.source = text
        return serve


_NAMES = {ARRAY: 'ARRAY', NUMPY: 'NUMPY'}


def _or_not_c_order(kind, variable, *values):
    """` or ` and the test of `_not_c_order` for a NumPy array (`kind` NUMPY or its
    name), '' for another kind."""
    if kind is not NUMPY and kind != _NAMES[NUMPY]:
        return ''
    return ' or ' + _not_c_order(variable, *values)


def _not_c_order(variable, *values):
    """The test `not <variable>.flags.c_contiguous` of a NumPy array (a call given one
    of another layout is keyed apart: see keys.ArrayKey); NoPlan where one of `values`
    is such an array (no plan serves those calls)."""
    if not all(value.flags.c_contiguous for value in values):
        raise NoPlan('a NumPy array not laid out in C order')
    return f'not {variable}.flags.c_contiguous'


def _flat_dict(value, leaves):
    """Whether `value` is a plain dict of at most 16 string keys whose `leaves` are its
    values, in the order of its sorted keys (each an array: a leaf)."""
    if type(value) is not dict or len(value) > 16 or len(value) != len(leaves) \
            or not all(type(key) is str for key in value):
        return False
    return all(value[key] is leaf for key, leaf in zip(sorted(value), leaves))


def _where(place):
    """(id of the dict or object, name) a global or attribute place reads, else None."""
    key = place.key
    if key[0] in ('global', 'attribute'):
        return key[1], key[2]
    return None
