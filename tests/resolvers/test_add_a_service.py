"""Adding a service is one file (tests/resolvers/fake_service.py) plus one registry line each."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from curator.config.context import CheckContext
from curator.config.options import Options
from curator.core.model import Entry, Kind, Link, Report, Source
from curator.report import json as json_report
from curator.report.text import summary_line
from curator.run import pipeline
from tests.resolvers.fake_service import ArchiveResolver, Extra, check_archive


def _entries() -> list[Entry]:
    def entry(line: int, subject: str) -> Entry:
        link = Link("url", f"https://archive.example/{subject}", subject, Extra.ARCHIVE)
        return Entry(subject, Kind.LINK, Source("data/links.yaml", line), links=(link,))

    return [entry(3, "archive:swh-1"), entry(7, "archive:swh-gone")]


def _run(options: Options) -> Report:
    entries = _entries()
    resolved = pipeline.resolve(entries, options, {})
    findings = pipeline.run_checks(entries, resolved.outcomes, CheckContext(options))
    return Report((), tuple(findings), resolved.counter.snapshot())


def test_a_new_service_is_one_file_plus_one_line(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setitem(pipeline.RESOLVERS, Extra.ARCHIVE, ArchiveResolver)
    monkeypatch.setitem(pipeline.CHECKS, Extra.ARCHIVE, check_archive)
    options = Options(cache_path=str(tmp_path / "cache.sqlite"))

    first = _run(options)
    assert [(f.code, f.subject) for f in first.findings] == [("link-broken", "archive:swh-gone")]
    assert first.requests["archive"] == 2 and first.requests.total == 2
    counts = json.loads(json_report.render(first))["requests"]
    assert list(counts) == [
        "arxiv",
        "github_graphql",
        "github_rest",
        "web",
        "cache_hits",
        "archive",
    ]
    assert "in 0 entries (2 archive requests) in " in summary_line(first)

    again = _run(options)  # the template's cache-first path: nothing asked twice
    assert again.requests.get("archive", 0) == 0 and again.requests.cache_hits == 2
    assert [f.subject for f in again.findings] == ["archive:swh-gone"]
    assert "in 0 entries (no requests; 2 from cache) in " in summary_line(again)
