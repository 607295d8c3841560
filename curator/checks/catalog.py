"""Whole-catalogue checks that need no network: the same subject listed twice."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from curator.checks.interface import CheckContext
from curator.model import Entry, Finding


def duplicates(entries: Iterable[Entry], ctx: CheckContext) -> list[Finding]:
    """`entry-duplicate` at every place of a subject listed more than once, naming the others.

    Subjects are normalised, so abs/pdf/version spellings of one arXiv ID and case or `.git`
    variants of one repository are the same subject. A paper's code repository that is also
    listed as a project is not a duplicate: only entries' main subjects are compared.
    """
    places: dict[str, list[Entry]] = defaultdict(list)
    for entry in entries:
        places[entry.subject].append(entry)
    findings: list[Finding] = []
    for subject, group in places.items():
        if len(group) < 2:
            continue
        for entry in group:
            findings.append(
                ctx.finding(
                    "entry-duplicate",
                    subject,
                    entry.source,
                    f"{subject} is listed {len(group)} times",
                    evidence=f"also at {_elsewhere(entry, group)}",
                    suggestion="keep one entry and delete the others",
                )
            )
    return findings


def _elsewhere(entry: Entry, group: list[Entry]) -> str:
    """One other place of the subject (the first) and how many more: the evidence of each of
    N copies stays one line, so N copies cost O(N), not O(N²)."""
    other = group[1] if group[0] is entry else group[0]
    more = len(group) - 2
    where = f"{other.source} ({other.title!r})"
    return where if not more else f"{where} and {more} more place{'s' if more > 1 else ''}"
