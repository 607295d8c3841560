"""docs/list.md is what `curator render` writes from data/ (so the catalogue renders cleanly)."""

from __future__ import annotations

from pathlib import Path

import pytest

from curator.cli import main
from tests.conftest import ROOT, SAMPLES


def test_rendered_list_is_current(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(ROOT)
    status = main(["render", "--data", "data", "--readme", "docs/list.md", "--check"])
    assert status == 0, capsys.readouterr().err


def test_render_check_fails_after_a_hand_edit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    edited = (
        (ROOT / "docs" / "list.md").read_text().replace('<td rowspan="2"', '<td  rowspan="2"', 1)
    )
    (tmp_path / "list.md").write_text(edited)
    monkeypatch.chdir(ROOT)
    assert main(["render", "--readme", str(tmp_path / "list.md"), "--check"]) == 1
    assert "not what `curator render` would write" in capsys.readouterr().err
    assert main(["render", "--readme", str(tmp_path / "list.md")]) == 0
    assert main(["render", "--readme", str(tmp_path / "list.md"), "--check"]) == 0


def test_import_cli_reports_counts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    sample = SAMPLES / "xiaomingx-awesome-ai-memory.README.md"
    monkeypatch.chdir(tmp_path)
    assert main(["import", str(sample), "--out", "out"]) == 0
    assert "imported 0 papers and 41 projects" in capsys.readouterr().out
    assert main(["check", "out", "--skip", "arxiv,github,web,scope", "--fail-on", "never"]) == 0
