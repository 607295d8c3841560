"""Bilingual consistency: pairing English and Chinese entries, and naming what is missing."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from curator.checks.titles import compact
from curator.config.context import CheckContext
from curator.core.model import Entry, Finding

CODE = "entry-translation-missing"


def pair_translations(
    english: Iterable[Entry], chinese: Iterable[Entry], context: CheckContext
) -> tuple[list[Entry], list[Finding]]:
    """English entries with `summary_zh` from the Chinese entry of the same subject
    (arXiv ID, repository or URL), and a finding for each entry found in one language only."""
    by_subject: dict[str, Entry] = {}
    for entry in chinese:
        by_subject.setdefault(entry.subject, entry)
    merged: list[Entry] = []
    findings: list[Finding] = []
    matched: set[str] = set()
    for entry in english:
        twin = by_subject.get(entry.subject)
        if twin is None:
            findings.append(_missing(context, entry, "has no entry in the Chinese document"))
            merged.append(entry)
            continue
        matched.add(entry.subject)
        merged.append(replace(entry, summary_zh=entry.summary_zh or twin.summary))
    for subject, entry in by_subject.items():
        if subject not in matched:
            findings.append(_missing(context, entry, "is only in the Chinese document"))
    return merged, findings


def _missing(context: CheckContext, entry: Entry, what: str) -> Finding:
    name = entry.title or entry.subject
    return context.finding(CODE, entry.subject, entry.source, f"{entry.kind.value} {name!r} {what}")


def compare_documents(
    english: Iterable[Entry], chinese: Iterable[Entry], context: CheckContext
) -> list[Finding]:
    """`entry-translation-missing` between two language versions of a list: an entry in one
    only, the same paper under another arXiv ID (matched by title), or another date."""
    en, zh = list(english), list(chinese)
    zh_by_subject = {e.subject: e for e in zh}
    findings: list[Finding] = []
    lonely_en: list[Entry] = []
    for entry in en:
        twin = zh_by_subject.pop(entry.subject, None)
        if twin is None:
            lonely_en.append(entry)
        elif entry.date and twin.date and entry.date != twin.date:
            what = f"is dated {entry.date} here but {twin.date} at {twin.source} (Chinese)"
            findings.append(_missing(context, entry, what))
    by_title = {compact(e.title): e for e in zh_by_subject.values() if e.title}
    for entry in lonely_en:
        twin = by_title.pop(compact(entry.title), None) if entry.title else None
        if twin is None:
            findings.append(_missing(context, entry, "has no entry in the Chinese document"))
            continue
        zh_by_subject.pop(twin.subject, None)
        what = f"is {entry.subject} here but {twin.subject} at {twin.source} (Chinese)"
        findings.append(_missing(context, entry, what))
    for entry in zh_by_subject.values():
        findings.append(_missing(context, entry, "is only in the Chinese document"))
    return findings
