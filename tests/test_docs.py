"""Every ```python block of README.md and docs/*.md runs, in order, one namespace per file.

Blocks that show output, generated code or shell commands use other fence languages
(```text, ```sh, ```pycon). A block runs as if it were a file of its own, registered in
`linecache` so that autograph can read the source of the functions it defines; blocks
check their claims with `assert`.
"""
import glob
import linecache
import os
import re
import warnings

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOCUMENTS = ['README.md'] + sorted(
    os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(ROOT, 'docs', '*.md')))
FENCE = re.compile(r'^```(\w*)[^\n]*\n(.*?)^```', re.MULTILINE | re.DOTALL)


def python_blocks(document):
    """(line number, source) of each ```python block of `document`."""
    with open(os.path.join(ROOT, document), encoding='utf-8') as f:
        text = f.read()
    return [(text.count('\n', 0, m.start()) + 2, m.group(2))
            for m in FENCE.finditer(text) if m.group(1) == 'python']


def test_the_documents_have_examples():
    assert 'docs/guide.md' in DOCUMENTS and 'docs/embedding.md' in DOCUMENTS
    for document in DOCUMENTS:
        assert python_blocks(document), f'{document} has no ```python block'


def test_readme_opens_with_the_two_commands():
    with open(os.path.join(ROOT, 'README.md'), encoding='utf-8') as f:
        text = f.read()
    first = FENCE.search(text)
    assert first.group(1) == 'sh'
    commands = [line.split('#')[0].strip() for line in first.group(2).splitlines()]
    assert commands == ['make demo', 'make test']
    assert text.index(first.group(0)) < text.index('\n## ')


@pytest.mark.parametrize('document', DOCUMENTS)
def test_python_blocks_run(document, monkeypatch):
    monkeypatch.chdir(ROOT)
    namespace = {'__name__': f'docs_{re.sub(r"[^A-Za-z0-9]", "_", document)}'}
    for line, source in python_blocks(document):
        file = f'<{document} line {line}>'
        linecache.cache[file] = (len(source), None, source.splitlines(True), file)
        with warnings.catch_warnings():
            warnings.simplefilter('ignore', DeprecationWarning)
            try:
                exec(compile(source, file, 'exec'), namespace)
            except Exception as error:
                raise AssertionError(f'the block at {document}:{line} failed: '
                                     f'{type(error).__name__}: {error}') from error
