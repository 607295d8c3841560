"""Example-case folders: a catalogue in, the expected exit, entries and findings out.

Each folder under tests/cases/catalog holds YAML files and expected.json:
`exit` (0/1/2), and either `subjects` + `codes` ([code, line] pairs) or `message` (a
substring of the one-line error for exit 2).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from curator.cli import main

CASES = Path(__file__).resolve().parent.parent / "cases" / "catalog"
OFFLINE = ["--skip", "arxiv,github,web,scope"]


@pytest.mark.parametrize("case", sorted(p.name for p in CASES.iterdir() if p.is_dir()))
def test_case(
    case: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    folder = CASES / case
    expected = json.loads((folder / "expected.json").read_text())
    monkeypatch.chdir(folder)
    status = main(["check", ".", *OFFLINE, "--format", "json"])
    out, err = capsys.readouterr()
    assert status == expected["exit"], err
    if status == 2:
        assert expected["message"] in err
        assert err.count("\n") == 1, "bad input gives one line"
        assert "Traceback" not in err
        return
    report = json.loads(out)
    assert [e["subject"] for e in report["entries"]] == expected["subjects"]
    got = sorted((f["code"], f["source"]["line"]) for f in report["findings"])
    assert got == sorted(tuple(c) for c in expected["codes"])
    for entry in report["entries"]:
        assert entry["source"]["line"] > 0
        assert entry["source"]["file"].endswith(".yaml")
