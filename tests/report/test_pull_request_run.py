"""Issue 30: a Report says whether it came from a pull-request run (a typed field set by the
pipeline), and a saved report, whose JSON does not carry it, derives it on reading."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from curator.cli.check import emit
from curator.core.model import Format
from curator.report import json as json_report
from curator.report.reader import load_report
from tests.report.sample import realistic_report


@pytest.mark.parametrize("pull_request", [False, True])
def test_the_json_report_does_not_carry_the_field(pull_request: bool) -> None:
    report = replace(realistic_report(), pull_request=pull_request)
    assert json_report.render(report) == json_report.render(realistic_report())


def test_a_saved_report_reads_back_as_a_pull_request_run_by_its_note() -> None:
    plain = json.loads(json_report.render(realistic_report()))
    assert load_report(plain).pull_request is False
    note = "pull-request mode: 1 of 3 entries changed since main"
    pr = {**plain, "notes": [note, *plain.get("notes", [])]}
    assert load_report(pr).pull_request is True


def test_markdown_says_changed_entries_by_the_field_not_a_note(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The comment's summary counts "changed entries" in a pull-request run; the field
    decides it, whatever the notes say."""
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
    report = replace(realistic_report(), notes=("a human note",), pull_request=True)
    out = tmp_path / "comment.md"
    emit(report, Format.MARKDOWN, str(out))
    assert "changed entr" in out.read_text(encoding="utf-8")
    emit(replace(report, pull_request=False), Format.MARKDOWN, str(out))
    assert "changed entr" not in out.read_text(encoding="utf-8")


@pytest.mark.parametrize("changed_since", ["", "HEAD"])
def test_the_pipeline_says_whether_it_checked_a_pull_request(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, changed_since: str
) -> None:
    from curator.config.options import Options
    from curator.core.model import Service
    from curator.run import pipeline
    from tests.unit.test_select_references import _git

    _git(tmp_path, "init", "-q", "-b", "main")
    monkeypatch.chdir(tmp_path)
    readme = tmp_path / "README.md"
    readme.write_text("# L\n\n- [A](https://arxiv.org/abs/2305.10250)\n", encoding="utf-8")
    _git(tmp_path, "add", "-A")
    _git(tmp_path, "commit", "-qm", "base")
    readme.write_text(readme.read_text() + "- [B](https://arxiv.org/abs/2401.00001)\n")
    options = Options(
        paths=("README.md",),
        root=str(tmp_path),
        changed_since=changed_since,
        skip=frozenset(Service),
        cache_path=str(tmp_path / "cache.sqlite"),
    )
    report = pipeline.check(options)
    assert report.pull_request is bool(changed_since)
    assert load_report(json.loads(json_report.render(report))).pull_request is bool(changed_since)
