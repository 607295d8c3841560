"""Configured severities reach findings made while loading (catalogue files and documents)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from curator.cli import main

OFFLINE = ["--skip", "arxiv,github,web,scope", "--format", "json", "--fail-on", "never"]
PYPROJECT = '[tool.curator]\nseverity = {arxiv-bad-id = "info", entry-invalid = "warning"}\n'


def _findings(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, str]:
    assert main(["check", *argv, *OFFLINE]) == 0
    return {f["code"]: f["severity"] for f in json.loads(capsys.readouterr().out)["findings"]}


def test_catalogue_findings_take_the_configured_severity(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "pyproject.toml").write_text(PYPROJECT)
    (tmp_path / "a.yaml").write_text(
        "section: A\npapers:\n"
        '  - {title: x, arxiv: "9999.99999", date: "2023-10-12"}\n'
        '  - {title: y, arxiv: "2310.08560", date: "12 Oct 2023"}\n'
    )
    monkeypatch.chdir(tmp_path)
    assert _findings(["a.yaml"], capsys) == {"arxiv-bad-id": "info", "entry-invalid": "warning"}


def test_document_findings_take_the_configured_severity(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "pyproject.toml").write_text(PYPROJECT)
    (tmp_path / "README.md").write_text(
        "# List\n\n- [A paper](https://arxiv.org/abs/9999.99999) - a bad ID.\n"
    )
    monkeypatch.chdir(tmp_path)
    assert _findings(["README.md"], capsys).get("arxiv-bad-id") == "info"
