"""BENCHMARKS.md is written in parts (benchmarks/report.py): a script replaces its own
section and leaves the others, whatever order `make bench` runs the scripts in (run.py
used to rewrite the whole file after the kernels scripts had written theirs)."""
from benchmarks import report


def test_sections_replace_their_own_part_only(tmp_path, monkeypatch):
    monkeypatch.setattr(report, 'PATH', tmp_path / 'BENCHMARKS.md')
    report.write_section('## Kernels', 'k1')
    report.write_head('# Benchmarks\n\nworkloads 1')
    report.write_section('## Loops', 'l1\n\n### a subsection\n\nmore')
    report.write_section('## Kernels', 'k2')
    report.write_head('# Benchmarks\n\nworkloads 2')
    assert report.PATH.read_text() == (
        '# Benchmarks\n\nworkloads 2\n\n## Kernels\n\nk2\n\n'
        '## Loops\n\nl1\n\n### a subsection\n\nmore\n')
