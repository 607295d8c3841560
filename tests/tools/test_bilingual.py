"""Bilingual consistency findings: entry-translation-missing."""

from __future__ import annotations

from curator.checks.interface import CheckContext
from curator.codes import CODES
from curator.model import Entry, Kind, Severity, Source
from curator.tools.bilingual import missing_translations, pair_translations

CTX = CheckContext()


def entry(subject: str, line: int, summary: str = "", summary_zh: str = "") -> Entry:
    return Entry(subject, Kind.PAPER, Source("data/papers/x.yaml", line), title=subject,
                 summary=summary, summary_zh=summary_zh)  # fmt: skip


def test_code_is_registered_as_a_warning() -> None:
    assert CODES["entry-translation-missing"][0] is Severity.WARNING


def test_pairing_keeps_an_existing_translation() -> None:
    merged, findings = pair_translations(
        [entry("arxiv:1", 1, "en", "kept"), entry("arxiv:2", 2, "en")],
        [entry("arxiv:1", 9, "zh1"), entry("arxiv:2", 8, "zh2")],
        CTX,
    )
    assert [e.summary_zh for e in merged] == ["kept", "zh2"]
    assert findings == []


def test_catalogue_without_any_chinese_is_not_bilingual() -> None:
    assert missing_translations([entry("arxiv:1", 1, "en")], CTX) == []


def test_catalogue_with_some_chinese_names_each_gap() -> None:
    found = missing_translations(
        [entry("arxiv:1", 1, "en", "zh"), entry("arxiv:2", 2, "en"), entry("arxiv:3", 3)], CTX
    )
    assert [(f.code, f.subject, f.source.line) for f in found] == [
        ("entry-translation-missing", "arxiv:2", 2)
    ]
