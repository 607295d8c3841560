"""The JSON report written as it is encoded is the rendered text, byte for byte."""

from __future__ import annotations

import io
import json
from dataclasses import replace
from pathlib import Path

from curator.cli.check import emit
from curator.model import Report
from curator.report import json as json_report
from tests.report.sample import hostile_report, realistic_report


def _large() -> Report:
    """The realistic report with its entries repeated: far more pieces than one write batch."""
    report = realistic_report()
    return replace(report, entries=report.entries * 400, findings=report.findings * 400)


def test_written_is_rendered() -> None:
    for report in (realistic_report(), hostile_report(), _large()):
        stream = io.StringIO()
        json_report.write(report, stream)
        assert stream.getvalue() == json_report.render(report)


def test_check_writes_the_rendered_text_to_its_output(tmp_path: Path) -> None:
    report = _large()
    out = tmp_path / "deep" / "report.json"
    emit(report, "json", str(out))
    assert out.read_bytes() == json_report.render(report).encode("utf-8")
    assert len(json.loads(out.read_text(encoding="utf-8"))["entries"]) > 400
