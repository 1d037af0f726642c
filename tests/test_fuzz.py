"""A few dozen programs of the differential fuzzer (`make fuzz` runs 2,000), half of them
with closures and global/nonlocal writes: no mismatch and no named error."""
import pytest

from tests.fuzzer import make_program, run_one

SEEDS = [0, 1, 2, 4, 5, 6, 7, 8, 9]   # (3, 10 and 11, which now draw the shapes of
#   tests/fuzz_order.py too, took 15-28 s each on CI's machine: `make fuzz` runs them)


@pytest.mark.parametrize('seed', SEEDS)
def test_random_program_matches_python(seed):
    assert run_one(seed) is None


def test_programs_are_nested_and_use_every_construct():
    sources = [make_program(seed)[0] for seed in range(200)]
    text = '\n'.join(sources)
    for construct in ('while ', 'for ', 'break', 'continue', 'elif ', 'else:', ' and ',
                      ' or ', 'not (', ' if ', 'return a', 'range(n)', 'in v:', 'helper('):
        assert construct in text, construct
    deepest = max(len(line) - len(line.lstrip()) for line in text.splitlines()) // 4
    assert deepest >= 4   # function body + three nested blocks


def test_programs_use_scopes():
    text = '\n'.join(make_program(seed)[0] for seed in range(200))
    for construct in ('nonlocal acc', 'global G', 'G = G + ', 'bump(', 'peek()', 'scaled()',
                      'peek_j', 'def term_j', 'peek_t'):
        assert construct in text, construct
    assert 'nonlocal acc' not in make_program(0, scopes=False)[0]


def test_programs_use_object_state():
    import re
    text = '\n'.join(make_program(seed)[0] for seed in range(200))
    for construct in ('s.f = ', 's.f += ', 's.c = ', 'w[1:3] *= ', '] += a', '], w[',
                      'push(pair, ', 'elif ticked(s, ', 'elif (ticked(s, ',
                      ' and ticked(s, ', ' or ticked(s, ', 'if (x', 'if flag:',
                      'flag = not flag', 'flag = a > b', "dk.get('i", "' in dk:",
                      '_w = w[2:]', 'if a > b: w = w - 0.25'):   # (views after `w` rebound)
        assert construct in text, construct
    assert re.search(r'\n +t\d+ = .*\n(.*\n)*? {4}a = a \+ t\d+ \* 0\.1', text)


# --- state outside the function (tests/fuzz_state.py) ----------------------------------

@pytest.mark.parametrize('seed', [311, 204, 168])
def test_outer_items_and_state_changed_between_calls(seed):
    """Seeds with items of a global (311) or of a closure variable (204) written with no
    `global` statement, and state the harness changes between three calls (all three)."""
    assert run_one(seed) is None


def test_programs_write_outer_items_and_read_state_changed_between_calls():
    from tests.fuzz_state import Harness
    sources = [make_program(seed)[0] for seed in range(200)]
    text = '\n'.join(sources)
    for construct in ('OA[k % 4] += ', "OD['s'] = OD['s']", "OD['t'] = ", 'OL[k % 3] += ',
                      'OL.append(', 'OLOG.append(', 'put_outer(k, ', 'bump_outer(k, ',
                      'def make_program_', 'in range(SIZES[0]):', 'in COEF:', "if CFG['on']:",
                      'a = STEP(a)', 'b = b * SCALE', 'opts.gain', 'opts.total = opts.total',
                      '(x, n, v, opts):'):
        assert construct in text, construct
    # writes in staged loops and under traced ifs, from the top level to the deepest
    depths = {len(line) - len(line.lstrip()) for source in sources
              for line in source.splitlines() if line.lstrip().startswith(('OA[', 'OL[k'))}
    assert {4, 8, 12} <= depths
    # the harness changes the state between calls only where the program reads it
    _, fn = make_program(204)
    shapes = Harness(204, fn.__globals__, fn.__name__)
    assert shapes.calls == 3 and all(shapes.changes)
    assert Harness(3, make_program(3)[1].__globals__, 'program_3').changes == [[]]


# --- evaluation order, nested helpers, attributes by computed names (tests/fuzz_order.py)

@pytest.mark.parametrize('seed', [4222, 228, 36, 2506, 747, 178])
def test_ticks_nested_helpers_and_attributes_by_computed_names(seed):
    """Seeds with a counter ticked in an `elif` test (4222), a `while` test and a
    comprehension's item (228), a conditional expression and a comprehension (36),
    nested helpers writing `w`, one through its sibling (2506, 747), and attributes read
    and set by computed names (178, 36): values, `ctr.n` and `p`'s attributes match."""
    assert run_one(seed) is None


def test_programs_tick_call_nested_helpers_and_name_attributes():
    import re
    sources = [make_program(seed)[0] for seed in range(300)]
    text = '\n'.join(sources)
    for construct in ('else ctr.tick(', 'and ctr.tick()', 'or ctr.tick(', 'while ctr.tick()',
                      'while 1.0 < ctr.tick()', '< ctr.tick(', 'sum(ctr.tick(el) for el in v if',
                      'sum([ctr.tick() * el', 'max((ctr.tick(el)', 'and ctr.tick() > 2.0)',
                      'k = k + ctr.n', 'def hw(b, f):', 'def hq(b, f):', 'def hv(b, f):',
                      '    r = hw(b, f * 0.5)', 'return m * 1.0', '        return\n',
                      'hw(w, ', 'hq(w, ', 'hv(w, ', 'getattr(p, NAMES[', 'in NAMES:',
                      "setattr(p, NAMES[0] + '2'", ', ctr, p):'):
        assert construct in text, construct
    assert re.search(r'elif .*ctr\.tick\(', text) and re.search(r'while .* and .*ctr\.tick', text)
    # (`hv` defined before the `hw` it calls, and after it)
    assert any(s.index('def hv(') < s.index('def hw(') for s in sources if 'def hv(' in s)
    assert any(s.index('def hv(') > s.index('def hw(') for s in sources if 'def hv(' in s)


# --- attributes that helpers create on some paths (tests/fuzz_created.py) --------------

@pytest.mark.parametrize('seed', [100039, 100057])
def test_attributes_created_on_some_paths_by_helpers(seed):
    """Seeds whose helpers (a function, one through another, a loop that may not run, a
    method, an `__init__`) create `slot.got` on some paths, read unguarded at the end
    (100039: Python raises AttributeError there; the flag was lost, a silent value) and
    guarded: values, or the same AttributeError."""
    assert run_one(seed) is None


def test_programs_create_attributes_on_some_paths():
    text = '\n'.join(make_program(seed)[0] for seed in range(100000, 100100))
    for construct in ('slot = Slot(', 'fill_some(slot, ', 'slot.set_if(', 'fill_early(slot, ',
                      'fill_through(slot, ', 'fill_loop(slot, n - ', 'getattr(slot, "got", 0.5)',
                      'hasattr(slot, "got")', 'slot.got * 0.1', 'a = a + slot.got * 0.001'):
        assert construct in text, construct


# --- the command's settings (tests/fuzz_speed.py) ----------------------------------------

def test_fast_compiles_adds_its_flags_once_to_the_users(monkeypatch):
    import os

    import jax

    from tests.fuzz_speed import XLA_FLAGS, fast_compiles
    monkeypatch.setenv('XLA_FLAGS', '--xla_force_host_platform_device_count=2')
    monkeypatch.delenv('JAX_DISABLE_MOST_OPTIMIZATIONS', raising=False)
    before = jax.config.values['jax_disable_most_optimizations']
    try:
        fast_compiles()
        fast_compiles()
        assert os.environ['XLA_FLAGS'].split() == [
            '--xla_force_host_platform_device_count=2', *XLA_FLAGS]
        assert os.environ['JAX_DISABLE_MOST_OPTIMIZATIONS'] == '1'
        assert jax.config.values['jax_disable_most_optimizations']
    finally:
        jax.config.update('jax_disable_most_optimizations', before)


# --- index arrays, selections, exits, optional results, made arrays (tests/fuzz_arrays.py)

@pytest.mark.parametrize('seed', [500344, 500421, 500565])
def test_index_arrays_selections_exits_optional_results_and_made_arrays(seed):
    """Seeds whose plain run raises IndexError (500344: `w[jnp.array([k % 5, 3])] += ...`
    out of range on its path), TypeError (500421: `jnp.sum(maybe_half(x, 0.0))` given
    None) and SystemExit (500565: `sys.exit(2)` under a traced test), after selections'
    reductions and views of arrays made by NumPy and JAX: the converted run raises the
    same type, or gives the same values on the paths that do not raise."""
    assert run_one(seed) is None


def test_programs_use_index_arrays_selections_exits_and_made_arrays():
    text = '\n'.join(make_program(seed)[0] for seed in range(500000, 500200))
    for construct in ('w[[', '] += a * 0.1', 'w[np.array([', 'w[jnp.array([k % 5, ',
                      '= jnp.stack([', 'v[jnp.array([k % 4, ', 'jnp.sum(v[v > ', '].sum() * 0.1',
                      'jnp.sum(sel', 'if jnp.any(', 'jnp.max(', 'jnp.mean(', '.mean() * 0.1',
                      'sys.exit(', ' exit(', 'raise SystemExit(', 'jnp.sqrt(jnp.abs(maybe_half(',
                      'u = v * 2.0', 'nz = np.zeros(4, np.float32)', 'z = jnp.zeros(4)',
                      '= u[1:3]', '= nz[', '= z[', 'z = z.at['):
        assert construct in text, construct
    import re   # (an index from traced control flow: assigned under an `if`, then used)
    assert re.search(r'if .*:\n +ix\d+ = .*\n +w\[jnp\.array\(\[ix\d+, ', text)
