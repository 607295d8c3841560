"""Whole-catalogue checks that need no network: the same subject listed twice."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from curator.checks.titles import compact
from curator.config.context import CheckContext
from curator.core.model import Entry, Finding, Kind


def listings(entries: Iterable[Entry]) -> dict[str, tuple[str, ...]]:
    """The titles under which the list names each paper or project listed more than once."""
    titles: dict[str, list[str]] = defaultdict(list)
    for entry in entries:
        if entry.kind is not Kind.LINK:
            titles[entry.subject].append(entry.title)
    return {subject: tuple(names) for subject, names in titles.items() if len(names) > 1}


def duplicates(entries: Iterable[Entry], ctx: CheckContext) -> list[Finding]:
    """One finding at each repeated place of a subject, naming where it was listed first.

    In the same section a repeat is `entry-duplicate`; under another section it is
    `entry-cross-listed` (categorised lists file one paper under several topics on purpose).
    Subjects are normalised, so abs/pdf/version spellings of one arXiv ID and case or `.git`
    variants of one repository are the same subject. A paper's code repository that is also
    listed as a project is not a duplicate: only entries' main subjects are compared, and
    plain links are not listed items. Each finding names the first place and the count, so
    N copies give N-1 findings of constant size.
    """
    places: dict[str, list[Entry]] = defaultdict(list)
    for entry in entries:
        if entry.kind is not Kind.LINK:
            places[entry.subject].append(entry)
    findings: list[Finding] = []
    for subject, group in places.items():
        first = group[0]
        seen_sections = {first.section}
        for entry in group[1:]:
            again = entry.section in seen_sections
            seen_sections.add(entry.section)
            findings.append(_repeat(subject, entry, first, len(group), again, ctx))
    return findings


def _repeat(
    subject: str, entry: Entry, first: Entry, count: int, same_section: bool, ctx: CheckContext
) -> Finding:
    """The finding for one repeated place."""
    where = f"first at {first.source} ({first.title!r})"
    if same_section:
        # Two titles on one ID are more likely a wrong ID than the same paper twice.
        one_paper = not (entry.title and first.title) or compact(entry.title) == compact(
            first.title
        )
        advice = (
            "keep one entry and delete the others"
            if one_paper
            else f"two titles share {subject}: check which one it belongs to and correct the other"
        )
        return ctx.finding(
            "entry-duplicate", subject, entry.source,
            f"{subject} is listed {count} times", evidence=where, suggestion=advice,
        )  # fmt: skip
    return ctx.finding(
        "entry-cross-listed", subject, entry.source,
        f"{subject} is listed again under {entry.section!r} ({count} places in all)",
        evidence=where,
    )  # fmt: skip
