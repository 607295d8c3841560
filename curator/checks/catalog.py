"""Whole-catalogue checks that need no network: the same subject listed twice."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from curator.checks.interface import CheckContext
from curator.model import Entry, Finding, Kind


def duplicates(entries: Iterable[Entry], ctx: CheckContext) -> list[Finding]:
    """`entry-duplicate` at every place of a subject listed more than once, naming the others.

    Subjects are normalised, so abs/pdf/version spellings of one arXiv ID and case or `.git`
    variants of one repository are the same subject. A paper's code repository that is also
    listed as a project is not a duplicate: only entries' main subjects are compared.
    """
    places: dict[str, list[Entry]] = defaultdict(list)
    for entry in entries:
        if entry.kind is not Kind.LINK:  # a link mentioned twice is not a listed item twice
            places[entry.subject].append(entry)
    findings: list[Finding] = []
    for subject, group in places.items():
        if len(group) < 2:
            continue
        for entry in group:
            others = [e for e in group if e is not entry]
            where = ", ".join(f"{e.source} ({e.title!r})" for e in others)
            findings.append(
                ctx.finding(
                    "entry-duplicate",
                    subject,
                    entry.source,
                    f"{subject} is listed {len(group)} times",
                    evidence=f"also at {where}",
                    suggestion="keep one entry and delete the others",
                )
            )
    return findings
