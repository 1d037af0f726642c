"""File names in messages (runtime.origin.short): relative to the current directory when
the file is under it, as given otherwise; remembered per directory, so a `chdir` between
two conversions changes the answer as it changes the relative path."""
import os

from autograph.runtime import origin


def test_file_names_are_relative_under_the_working_directory(tmp_path, monkeypatch):
    inner = tmp_path / 'project' / 'model.py'
    monkeypatch.chdir(tmp_path)
    assert origin.short(str(inner)) == os.path.join('project', 'model.py')
    monkeypatch.chdir(tmp_path / '..')
    assert origin.short(str(inner)) == os.path.join(tmp_path.name, 'project', 'model.py')


def test_file_names_outside_the_working_directory_stay_as_given(tmp_path, monkeypatch):
    (tmp_path / 'work').mkdir()
    monkeypatch.chdir(tmp_path / 'work')
    outside = str(tmp_path / 'elsewhere.py')
    assert origin.short(outside) == outside
    assert origin.short('<autograph 3: f from <string>>') == '<autograph 3: f from <string>>'
