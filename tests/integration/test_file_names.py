"""A file named with bytes that are no UTF-8 (a pull request may add one): every report
format is written, the name shown with `\\xff` escapes, never a traceback."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from curator.cli import main

PAPER = """  - title: "MemoryBank: Enhancing Large Language Models with Long-Term Memory"
    arxiv: "2305.10250"
    date: "2023-05-17"
"""
#: The paper twice: a finding on the file, so every format names it.
PAPERS = "section: Memory\npapers:\n" + PAPER + PAPER


@pytest.mark.parametrize("form", ["json", "text", "markdown", "sarif", "github"])
def test_a_file_name_that_is_no_utf8_is_shown_escaped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, form: str
) -> None:
    data = tmp_path / "data"
    data.mkdir()
    name = os.fsdecode(b"\xff.yaml")
    (data / name).write_text(PAPERS, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    out = tmp_path / f"report.{form}"
    status = main(["check", "data", "--skip", "arxiv,github,web,scope", "--format", form,
                   "--output", str(out)])  # fmt: skip
    assert status == 1
    assert "xff.yaml" in out.read_text(encoding="utf-8")  # escaped as each format escapes
