"""Shrinks a failing program of the differential fuzzer (tests/fuzzer.py) to a few lines.

    python -m tests.fuzz_minimise --seed 10014 [--match TEXT] [--out FILE] [--source FILE]

It removes statements of the program function one at a time (a compound statement with
its body; a statement that leaves a block empty is replaced by `pass`), then unwraps
`if`/`else`/`while` headers into their bodies, and keeps each change after which the
program is still valid Python (its plain run, called as the fuzzer calls it, raises
nothing and ends within two minutes) and still fails the same way: the same kind of
failure (mismatch, named error, raw error) whose description contains TEXT (by default
the last line of the error's traceback up to the first place in the program it names;
any text for a mismatch). Passes repeat until
nothing more goes. The module's helpers stay as they are: read the result, then cut them
by hand. `--source` starts from a saved module of the seed's program (one an older
fuzzer made, or one cut by hand) instead of the one the fuzzer makes now.
"""
import argparse
import re
import signal
import sys

from tests.fuzz_speed import fast_compiles, rare_collections
from tests.fuzzer import MISMATCH, make_program, run_one

COUNTER = re.compile(r'^\s*i\d+ \+= 1$')   # (a `while` loop's counter: never removed)


class TimedOut(BaseException):   # (not an Exception: run_one must not take it for a crash)
    pass


def _alarm(signum, frame):
    raise TimedOut()


def outcome(seed, source, seconds=120):
    """run_one's answer for `source`, or 'invalid' where the plain run fails or hangs."""
    signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(seconds)
    try:
        return run_one(seed, source=source)
    except TimedOut:
        return 'invalid'
    except Exception:   # (the plain run raised: not a valid program)
        return 'invalid'
    finally:
        signal.alarm(0)


def same_failure(result, kind, match):
    return result not in (None, 'invalid') and result[0] == kind and match in result[1]


def indent(line):
    return len(line) - len(line.lstrip())


def extent(lines, i):
    """The index after the statement at `i` (its header line and its indented body)."""
    j = i + 1
    while j < len(lines) and (not lines[j].strip() or indent(lines[j]) > indent(lines[i])):
        j += 1
    return j


def function_range(lines, seed):
    """(first, end) indices of the program function's body."""
    start = next(i for i, line in enumerate(lines)
                 if line.lstrip().startswith(f'def program_{seed}('))
    return start + 1, extent(lines, start)


def candidates(lines, i):
    """Sources with the statement at `i` removed, or its header unwrapped."""
    end = extent(lines, i)
    body_indent = indent(lines[i])
    removed = lines[:i] + lines[end:]
    yield removed
    yield lines[:i] + [' ' * body_indent + 'pass'] + lines[end:]
    header = lines[i].strip()
    if header.endswith(':') and header.split()[0] in ('if', 'else:', 'elif', 'while'):
        step = indent(lines[i + 1]) - body_indent if i + 1 < end else 0
        yield lines[:i] + [line[step:] for line in lines[i + 1:end]] + lines[end:]


def shrink_pass(seed, lines, kind, match, unwrap):
    """One pass over the function's statements; returns (lines, whether any went)."""
    changed = False
    i, _ = function_range(lines, seed)
    while i < function_range(lines, seed)[1]:
        if COUNTER.match(lines[i]) or not lines[i].strip():
            i += 1
            continue
        tried = list(candidates(lines, i))
        tried = [c for c in (tried[2:] if unwrap else tried[:2]) if c != lines]
        for candidate in tried:
            if same_failure(outcome(seed, '\n'.join(candidate) + '\n'), kind, match):
                lines, changed = candidate, True
                print(f'  {len(lines)} lines', flush=True)
                break
        else:
            i += 1
    return lines, changed


def minimise(seed, match=None, source=None):
    """The smallest source found for `seed`'s failure, and the failure's kind."""
    source = source or make_program(seed)[0]
    first = outcome(seed, source)
    if first in (None, 'invalid'):
        raise SystemExit(f'seed {seed} does not fail ({first})')
    kind = first[0]
    if match is None:
        match = '' if kind == MISMATCH else first[1].strip().splitlines()[-1]
        match = match.split('<autograph fuzz')[0]   # (its line numbers change)
    print(f'{kind}: {match[:200]}', flush=True)
    lines = source.splitlines()
    changed = True
    while changed:
        lines, removed = shrink_pass(seed, lines, kind, match, unwrap=False)
        lines, unwrapped = shrink_pass(seed, lines, kind, match, unwrap=True)
        changed = removed or unwrapped
    return '\n'.join(lines) + '\n', kind


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--seed', type=int, required=True)
    parser.add_argument('--match', default=None, help='text the failure must contain')
    parser.add_argument('--out', default=None, help='file to write the result to')
    parser.add_argument('--source', default=None, help="a saved module of the program")
    options = parser.parse_args(argv)
    fast_compiles()   # (see tests/fuzz_speed.py)
    rare_collections()
    start = None
    if options.source:
        with open(options.source, encoding='utf-8') as f:
            start = f.read()
    source, kind = minimise(options.seed, options.match, start)
    start, end = function_range(source.splitlines(), options.seed)
    print('\n'.join(source.splitlines()[start - 1:end]))
    if options.out:
        with open(options.out, 'w', encoding='utf-8') as f:
            f.write(f'# {kind}, seed {options.seed} (tests/fuzz_minimise.py)\n' + source)
    return 0


if __name__ == '__main__':
    sys.exit(main())
