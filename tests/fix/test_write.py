"""Writing fixes: atomic, inside the tree only, never through a link, never over a change."""

from __future__ import annotations

from pathlib import Path

import pytest

from curator.core.errors import InputError
from curator.core.model import Finding, Severity, Source
from curator.fix.model import Edit, FileFix
from curator.fix.write import write_fixes

FINDING = Finding(
    "arxiv-date-mismatch", Severity.WARNING, "arxiv:2310.08560", Source("a.md", 1), "m"
)


def fix_of(name: str, text: str, old: str, new: str) -> FileFix:
    start = text.index(old)
    return FileFix(name, text, (Edit(name, start, start + len(old), old, new, FINDING),))


def test_a_file_changed_since_it_was_read_is_not_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.md").write_text("- 2023-09 x\n", encoding="utf-8")
    (tmp_path / "b.md").write_text("- 2023-09 y\n", encoding="utf-8")
    fixes = [fix_of("a.md", "- 2023-09 x\n", "2023-09", "2023-10"),
             fix_of("b.md", "- 2023-09 OLD\n", "2023-09", "2023-10")]  # fmt: skip
    with pytest.raises(InputError, match=r"^b.md: changed since it was read"):
        write_fixes(fixes)
    assert (tmp_path / "a.md").read_text(encoding="utf-8") == "- 2023-09 x\n"  # nothing written


def test_written_in_place_with_the_bom_and_no_temporary_left(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.md").write_bytes(b"\xef\xbb\xbf- 2023-09 x\r\n")
    assert write_fixes([fix_of("a.md", "- 2023-09 x\r\n", "2023-09", "2023-10")]) == ["a.md"]
    assert (tmp_path / "a.md").read_bytes() == b"\xef\xbb\xbf- 2023-10 x\r\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.md"]


def test_a_link_inside_the_tree_is_refused_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "real.md").write_text("- 2023-09 x\n", encoding="utf-8")
    (tmp_path / "a.md").symlink_to("real.md")
    with pytest.raises(InputError, match=r"a\.md: refusing to write through a symbolic link"):
        write_fixes([fix_of("a.md", "- 2023-09 x\n", "2023-09", "2023-10")])
    assert (tmp_path / "real.md").read_text(encoding="utf-8") == "- 2023-09 x\n"
