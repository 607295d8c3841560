"""The machine formats (JSON, SARIF, Markdown) of `curator report` are pinned byte for byte on
the sample pull-request report: the terminal layout may change, what workflows and tools read
may not. (The hostile report is left to tests/report/test_markdown.py and test_sarif.py, which
check what it must not contain rather than its exact bytes.)

Regenerate (only for an intended change, said in the commit) with:
CURATOR_REGENERATE_PINNED=1 python -m pytest tests/report/test_pinned_formats.py
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from curator.cli import main
from curator.report import json as json_report
from tests.report.sample import realistic_report

PINNED = Path(__file__).parent / "pinned"
REPORTS = {"realistic": realistic_report}
SUFFIX = {"json": "json", "sarif": "sarif", "markdown": "md"}
#: What `curator report` reads from a GitHub Actions run (cleared: the pins are outside one).
ACTIONS = ("GITHUB_REPOSITORY", "GITHUB_SHA", "GITHUB_RUN_ID", "GITHUB_SERVER_URL")


@pytest.mark.parametrize("fmt", sorted(SUFFIX))
@pytest.mark.parametrize("name", sorted(REPORTS))
def test_machine_formats_are_pinned(
    name: str,
    fmt: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    for var in (*ACTIONS, "GITHUB_EVENT_PATH"):
        monkeypatch.delenv(var, raising=False)
    saved = tmp_path / f"{name}.json"
    saved.write_text(json_report.render(REPORTS[name]()), encoding="utf-8")
    assert main(["report", str(saved), "--format", fmt]) == 0
    out = capsys.readouterr().out
    pin = PINNED / f"{name}.{SUFFIX[fmt]}"
    if os.environ.get("CURATOR_REGENERATE_PINNED") == "1":
        pin.write_text(out, encoding="utf-8", newline="")
    assert pin.read_bytes() == out.encode("utf-8")
