"""CatalogSource on odd but real YAML: keys that are not strings must never crash the reader."""

from __future__ import annotations

from pathlib import Path

import pytest

from curator.errors import InputError
from curator.sources.yaml_catalog import load_file

PAPER = '  - title: "T"\n    date: "2024-01-02"\n    arxiv: "2401.00001"\n'


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "c.yaml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("key", ["1", "~", "true", "2.5"])
def test_top_level_key_that_is_not_a_string_is_one_located_error(tmp_path: Path, key: str) -> None:
    path = write(tmp_path, f"section: X\n{key}: a\nfoo: b\npapers:\n{PAPER}")
    with pytest.raises(InputError) as caught:
        load_file(path)
    assert caught.value.line == 2
    assert f"unknown key {key!r}" in str(caught.value)


def test_item_key_that_is_not_a_string_is_entry_invalid_with_its_line(tmp_path: Path) -> None:
    path = write(tmp_path, f"section: X\npapers:\n{PAPER}    7: x\n    zeta: y\n")
    loaded = load_file(path)
    assert [e.subject for e in loaded.entries] == ["arxiv:2401.00001"]
    (finding,) = loaded.findings
    assert finding.code == "entry-invalid"
    assert finding.evidence == "line 6: unknown key '7'"
