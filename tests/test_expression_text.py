"""autograph.expression_text writes expressions as `ast.unparse` does: the same text for
every expression of the project's own source (a corpus of some 300 files of every
construct), parenthesised where Python's precedence needs it, and the unparser
(autograph.unparsing) gives `ast.unparse`'s text for whole modules with it."""
import ast
import pathlib

import pytest

from autograph import expression_text, unparsing

ROOT = pathlib.Path(__file__).resolve().parent.parent
CORPUS = sorted(p for folder in ('autograph', 'runtime', 'tests', 'examples')
                for p in (ROOT / folder).rglob('*.py'))
TEST = int(ast._Precedence.TEST)


def test_it_agrees_with_this_pythons_unparser():
    # (else the unparser writes every node itself: slower, never wrong)
    assert expression_text.AGREES
    assert unparsing._WRITTEN == expression_text.WRITTEN


@pytest.mark.parametrize('source', [
    'a - (b - c)', 'a - b - c', '(a ** b) ** c', 'a ** b ** c', '(-a) ** b', '-a ** b',
    'not (a and b)', '(not a) == b', '(a or b) and c', 'a or (b and c)',
    '(lambda: x)()', 'f(lambda: x, y)', '(a if b else c) + d', 'a if (b if c else d) else e',
    '(a, b)[0]', 'x[a, b:c]', 'x[()]', 'x[(a, b)]', '(a := 1) + 2', '(1).real', '1 .real',
    '-(1 - 2)', '~(a | b)', '(a < b) < c', 'a < (b < c)', '{**a, 1: (b, c)}', '[*a, *b]',
    'f(*a, **k)', 'x.y.z(1)[2]', "'it''s'", '1e400', '-1e400', "b'x'", '(-1) ** 2'])
def test_text_parses_back_to_the_same_tree(source):
    node = ast.parse(source, mode='eval').body
    written = expression_text.text(node, TEST, {})
    assert written == ast.unparse(node)
    assert ast.dump(ast.parse(written, mode='eval').body) == ast.dump(node)


def test_nodes_it_does_not_write_are_left_to_the_unparser():
    for source in ("f'{x}'", '[y for y in ys]', 'lambda x=1: x', '(1, 2) if a else ...'):
        node = ast.parse(source, mode='eval').body
        assert expression_text.text(node, TEST, {}) is None, source


def test_a_lambda_whose_body_has_another_line_is_left_to_the_line_recorder():
    node = ast.parse('f(lambda: (\n x))', mode='eval').body
    assert expression_text.text(node, TEST, {}, lambda_line=1) is None
    assert expression_text.text(node, TEST, {}, lambda_line=2) == 'f(lambda: x)'
    assert expression_text.text(node, TEST, {}) == 'f(lambda: x)'


def test_every_expression_of_the_corpus_is_written_as_ast_unparse_writes_it():
    written = 0
    for path in CORPUS:
        tree = ast.parse(path.read_text(encoding='utf-8'))
        for node in ast.walk(tree):
            if isinstance(node, ast.expr):
                text = expression_text.text(node, TEST, {})
                if text is not None:
                    written += 1
                    assert text == ast.unparse(node), (path, node.lineno)
        assert unparsing.unparse(tree) == ast.unparse(tree), path
    assert written > 100_000   # (the corpus is large: most expressions are written)
