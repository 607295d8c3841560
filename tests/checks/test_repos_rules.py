"""load_project_rules: defaults, the shipped file, and located errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from curator.config.projects import ProjectRules, load_project_rules
from curator.core.errors import InputError
from curator.core.model import Severity

ROOT = Path(__file__).resolve().parents[2]


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "projects.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_shipped_file_is_the_defaults() -> None:
    assert load_project_rules(ROOT / "rules" / "projects.yaml") == ProjectRules()


def test_missing_or_empty_file_gives_defaults(tmp_path: Path) -> None:
    assert load_project_rules(tmp_path / "none.yaml") == ProjectRules()
    assert load_project_rules(write(tmp_path, "# nothing\n")) == ProjectRules()


def test_values_are_read(tmp_path: Path) -> None:
    text = "license_required: false\narchived: error\nstale_days: 90\nmin_stars: 25\n"
    rules = load_project_rules(write(tmp_path, text))
    assert rules == ProjectRules(False, "error", 90, 25)
    assert rules.archived_severity is Severity.ERROR


def test_archived_off_even_as_bare_yaml_boolean(tmp_path: Path) -> None:
    assert load_project_rules(write(tmp_path, "archived: off\n")).archived_severity is None
    assert load_project_rules(write(tmp_path, "archived: 'off'\n")).archived == "off"


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("stale_days: 365\nmin_starz: 3\n", 2, "unknown key 'min_starz'"),
        ("license_required: maybe\n", 1, "true or false"),
        ("\n\narchived: loud\n", 3, "archived must be one of"),
        ("stale_days: -1\n", 1, "whole number"),
        ("min_stars: 2.5\n", 1, "whole number"),
        ("stale_days: true\n", 1, "whole number"),
        ("- a\n- b\n", 1, "expected a mapping"),
        ("stale_days: [1\n", 2, "invalid YAML"),
        ("a: &x 1\nb: !!python/object:os.system x\n", 2, "invalid YAML"),
    ],
)
def test_malformed_rules_name_file_and_line(
    tmp_path: Path, text: str, line: int, words: str
) -> None:
    path = write(tmp_path, text)
    with pytest.raises(InputError) as caught:
        load_project_rules(path)
    assert caught.value.file == path.as_posix()
    assert caught.value.line == line
    assert words in caught.value.message
