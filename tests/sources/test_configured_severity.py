"""Configured severities reach findings made while loading (catalogue files and documents)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from curator.cli import main

OFFLINE = ["--skip", "arxiv,github,web,scope", "--format", "json", "--fail-on", "never"]
PYPROJECT = '[tool.curator]\nseverity = {arxiv-bad-id = "info", entry-invalid = "warning"}\n'
CATALOGUE = (
    "section: A\npapers:\n"
    '  - {title: x, arxiv: "9999.99999", date: "2023-10-12"}\n'
    '  - {title: y, arxiv: "2310.08560", date: "12 Oct 2023"}\n'
)
DOCUMENT = "# List\n\n- [A paper](https://arxiv.org/abs/9999.99999) - a bad ID.\n"


@pytest.mark.parametrize(
    ("name", "text", "expected"),
    [
        ("a.yaml", CATALOGUE, {"arxiv-bad-id": "info", "entry-invalid": "warning"}),
        ("README.md", DOCUMENT, {"arxiv-bad-id": "info"}),
    ],
)
def test_findings_made_while_loading_take_the_configured_severity(
    name: str,
    text: str,
    expected: dict[str, str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    (tmp_path / "pyproject.toml").write_text(PYPROJECT)
    (tmp_path / name).write_text(text)
    monkeypatch.chdir(tmp_path)
    assert main(["check", name, *OFFLINE]) == 0
    findings = json.loads(capsys.readouterr().out)["findings"]
    got = {f["code"]: f["severity"] for f in findings}
    assert {code: got.get(code) for code in expected} == expected
