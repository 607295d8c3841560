"""`curator check README.md --zh README_cn.md`: both language versions list the same papers."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from curator.checks.bilingual import compare_documents
from curator.checks.interface import CheckContext
from curator.cli import main
from curator.core.model import Entry, Kind, Source

HERE = Path(__file__).resolve().parent / "bilingual"


def paper(subject: str, title: str, date: str, file: str, line: int) -> Entry:
    return Entry(subject, Kind.PAPER, Source(file, line), title=title, date=date)


def test_date_id_and_presence_differences() -> None:
    en = [
        paper("arxiv:2501.00001", "Same Paper", "2025-01-02", "README.md", 10),
        paper("arxiv:2501.00002", "Renumbered Paper", "2025-01-03", "README.md", 20),
        paper("arxiv:2501.00003", "English Only", "2025-01-04", "README.md", 30),
    ]
    zh = [
        paper("arxiv:2501.00001", "Same Paper", "2025-01-05", "README_cn.md", 11),
        paper("arxiv:2501.09999", "Renumbered  paper", "2025-01-03", "README_cn.md", 21),
        paper("arxiv:2501.00004", "Chinese Only", "2025-01-06", "README_cn.md", 31),
    ]
    got = [(f.subject, f.source.line, f.message) for f in compare_documents(en, zh, CheckContext())]
    assert got == [
        ("arxiv:2501.00001", 10,
         "paper 'Same Paper' is dated 2025-01-02 here but 2025-01-05 at README_cn.md:11 (Chinese)"),
        ("arxiv:2501.00002", 20,
         "paper 'Renumbered Paper' is arxiv:2501.00002 here but arxiv:2501.09999 at "
         "README_cn.md:21 (Chinese)"),
        ("arxiv:2501.00003", 30, "paper 'English Only' has no entry in the Chinese document"),
        ("arxiv:2501.00004", 31, "paper 'Chinese Only' is only in the Chinese document"),
    ]  # fmt: skip


def test_check_with_zh(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.copytree(HERE, tmp_path / "list")
    monkeypatch.chdir(tmp_path / "list")
    args = ["check", "README.md", "--zh", "README_cn.md", "--skip", "arxiv,github,web,scope"]
    assert main([*args, "--format", "json"]) == 0  # a warning: exit 0 under --fail-on error
    report = json.loads(capsys.readouterr().out)
    got = {(f["code"], f["source"]["file"], f["source"]["line"]) for f in report["findings"]}
    assert got == {
        ("entry-translation-missing", "README.md", 15),
        ("entry-translation-missing", "README_cn.md", 15),
    }
    assert main([*args, "--fail-on", "warning"]) == 1
