"""BENCHMARKS.md, written in parts: each benchmark script of `make bench` replaces its own
section (from its `## title` line to the next `## ` line) and leaves every other section
as it is, whatever order the scripts run in. The head (what comes before the first
section) is the workloads table of benchmarks/run.py."""
import pathlib

PATH = pathlib.Path(__file__).resolve().parent.parent / 'BENCHMARKS.md'
HEAD = '# Benchmarks\n'


def _read():
    return PATH.read_text() if PATH.exists() else HEAD


def _sections(document):
    """(head, [section text]): each section starts with its `## ` line."""
    head, *sections = document.split('\n## ')
    return head, ['## ' + section for section in sections]


def _write(head, sections):
    parts = [head.rstrip('\n')] + [section.rstrip('\n') for section in sections]
    PATH.write_text('\n\n'.join(parts) + '\n')


def write_section(title, body):
    """Replace the section whose first line is `title` (`## ...`) with `title` and `body`,
    or add it at the end."""
    assert title.startswith('## ') and '\n' not in title, title
    head, sections = _sections(_read())
    text = f'{title}\n\n{body.strip()}\n'
    for i, section in enumerate(sections):
        if section.split('\n', 1)[0] == title:
            sections[i] = text
            break
    else:
        sections.append(text)
    _write(head, sections)


def write_head(body):
    """Replace what comes before the first section (`body` starts with `# Benchmarks`)."""
    _, sections = _sections(_read())
    _write(body, sections)
