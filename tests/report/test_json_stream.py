"""The JSON report written as it is encoded is the rendered text, byte for byte."""

from __future__ import annotations

import io
import json
from dataclasses import replace
from pathlib import Path

from curator.cli.check import emit
from curator.core.model import Format, Report
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
    emit(report, Format.JSON, str(out))
    assert out.read_bytes() == json_report.render(report).encode("utf-8")
    assert len(json.loads(out.read_text(encoding="utf-8"))["entries"]) > 400


def test_the_scorers_trail_is_in_the_report_only_on_request(tmp_path: Path) -> None:
    """Issue 31: every signal and word the scope scorer weighed made a 227-entry report
    981 KB. By default an entry's scope keeps P(include) and its thresholds; `--scope-trail`
    keeps the rest, and both read back as a saved report."""
    from curator.core.model import Entry as ListEntry
    from curator.core.model import EntryResult, Kind, Source, Verdict
    from curator.report.reader import read_saved
    from curator.scope import PaperText, decide, load_rules

    rules = load_rules(Path(__file__).resolve().parents[2] / "rules" / "scope.yaml")
    title = "MemoryBank: Enhancing Large Language Models with Long-Term Memory"
    abstract = (
        "We propose MemoryBank, a long-term memory mechanism for large language models. "
        "It lets the model recall relevant memories and update them over time."
    )
    decision = decide(PaperText(title, abstract), rules)
    assert decision.scorer is not None and decision.scorer.signals
    entry = ListEntry("arxiv:2305.10250", Kind.PAPER, Source("README.md", 3), title=title)
    report = Report((EntryResult(entry, {}, Verdict(decision.verdict), decision),), ())
    sizes = {}
    for trail in (False, True):
        out = tmp_path / f"{trail}.json"
        emit(report, Format.JSON, str(out), trail=trail)
        scope = json.loads(out.read_text(encoding="utf-8"))["entries"][0]["scope"]
        sizes[trail] = len(json.dumps(scope, ensure_ascii=False))
        assert bool(scope["scorer"]["signals"]) is trail and ("terms" in scope["scorer"]) is trail
        assert scope["scorer"]["score"] == round(decision.scorer.score, 4)
        saved = read_saved(out).report.entries[0].scope
        assert saved is not None and saved.verdict is decision.verdict
    assert sizes[False] < 1536 < sizes[True]
