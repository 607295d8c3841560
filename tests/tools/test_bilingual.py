"""Bilingual consistency findings: entry-translation-missing."""

from __future__ import annotations

from curator.checks.bilingual import pair_translations
from curator.checks.interface import CheckContext
from curator.core.codes import CODES
from curator.core.model import Entry, Kind, Severity, Source

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
