"""Bilingual consistency: pairing English and Chinese entries, and naming what is missing."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from curator.checks.interface import CheckContext
from curator.model import Entry, Finding

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


def missing_translations(entries: Iterable[Entry], context: CheckContext) -> list[Finding]:
    """In a catalogue that has Chinese summaries at all, each summary without its twin."""
    items = list(entries)
    if not any(e.summary_zh for e in items):
        return []
    return [
        _missing(context, e, "has an English summary but no Chinese one (summary_zh)")
        for e in items
        if e.summary and not e.summary_zh
    ]


def _missing(context: CheckContext, entry: Entry, what: str) -> Finding:
    name = entry.title or entry.subject
    return context.finding(CODE, entry.subject, entry.source, f"{entry.kind.value} {name!r} {what}")
