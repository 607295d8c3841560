"""Paper checks: what arXiv said about an entry's arXiv IDs, turned into findings (pure).

Every arXiv link of an entry is checked for existence, withdrawal and reachability. The
title and date are compared only for a paper entry's own arXiv ID (its first one), since a
project's name is not its paper's title.
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Mapping
from datetime import date, timedelta

from curator.checks.titles import same_name, same_paper, titles_match
from curator.config.context import CheckContext
from curator.core.meta import PaperMeta, paper_meta
from curator.core.model import Entry, Finding, Kind
from curator.core.outcomes import Found, NotFound, Outcome, Unverified
from curator.core.subjects import is_paper, subject_id

_DATE = re.compile(r"^\s*(\d{4})(?:[-/.](\d{1,2})(?:[-/.](\d{1,2}))?)?\s*$")


def check_paper(entry: Entry, outcomes: Mapping[str, Outcome], ctx: CheckContext) -> list[Finding]:
    """Findings for the entry's arXiv subjects (see CONTRACT.md's `arxiv-*` codes)."""
    arxiv_subjects = [s for s in entry.subjects() if is_paper(s)]
    findings: list[Finding] = []
    for subject in arxiv_subjects:
        outcome = outcomes.get(subject)
        if outcome is None:
            continue  # not resolved: arXiv skipped, or not asked in this run
        own = entry.kind is Kind.PAPER and subject == arxiv_subjects[0]
        findings.extend(_judge(entry, subject, outcome, ctx, own))
    return findings


def _judge(
    entry: Entry, subject: str, outcome: Outcome, ctx: CheckContext, own: bool
) -> list[Finding]:
    """Findings for one arXiv subject of the entry."""
    label = "arXiv:" + subject_id(subject)
    if isinstance(outcome, NotFound):
        message = f"{label} does not exist on arXiv"
        return [ctx.finding("arxiv-not-found", subject, entry.source, message, outcome.reason)]
    if isinstance(outcome, Unverified):
        message = f"{label} could not be checked on arXiv"
        return [ctx.finding("arxiv-unverified", subject, entry.source, message, outcome.reason)]
    if not isinstance(outcome, Found):
        return []
    meta = paper_meta(outcome.meta)
    findings = _withdrawn(entry, subject, label, meta, ctx)
    if own and not _reference(entry, subject, meta, ctx):
        findings += _title(entry, subject, label, meta, ctx)
        findings += _date(entry, subject, label, meta, ctx)
    return findings


def _reference(entry: Entry, subject: str, meta: PaperMeta, ctx: CheckContext) -> bool:
    """True when the list names this paper properly elsewhere (another listing carries
    arXiv's title) and this listing's title is not the paper's: a project, benchmark or
    product row that links the paper, with its own name, description and date. Its title and
    date are not the paper's to compare; its repeat is reported as a duplicate or a
    cross-listing already."""
    official = meta.title
    others = ctx.listings.get(subject, ())
    if not official or len(others) < 2 or titles_match(entry.title, official):
        return False
    return any(titles_match(title, official) for title in others)


def _withdrawn(
    entry: Entry, subject: str, label: str, meta: PaperMeta, ctx: CheckContext
) -> list[Finding]:
    """arxiv-withdrawn when the latest version is a withdrawal notice."""
    if not meta.withdrawn:
        return []
    notice = meta.comment or meta.abstract
    message = f"{label} v{meta.version} (the latest version) is a withdrawal"
    return [ctx.finding("arxiv-withdrawn", subject, entry.source, message, _clip(notice))]


def _title(
    entry: Entry, subject: str, label: str, meta: PaperMeta, ctx: CheckContext
) -> list[Finding]:
    """arxiv-title-mismatch when the words of the titles differ."""
    official = meta.title
    if not entry.title or not official or titles_match(entry.title, official):
        return []
    if entry.short_title:
        return []  # a name ("PERSONAMEM") is not a title: it cannot be told from a wrong one
    evidence = f"entry: {entry.title!r}; arXiv: {official!r}"
    if same_paper(entry.title, official):
        message = f"the title is not the title of {label}"
        return [
            ctx.finding("arxiv-title-mismatch", subject, entry.source, message, evidence, official)
        ]
    # Few words in common: the ID likely names another paper. Renaming the entry to that
    # paper's title would lose the right one, so no title is suggested (`curator fix` may
    # suggest the ID arXiv's title search finds for the entry's own title).
    message = f"the title is not the title of {label}, which likely names another paper"
    if same_name(entry.title, official):
        message = (
            f"the title is not the title of {label}: the paper retitled, or another paper "
            "of the same name (check the ID)"
        )
    return [ctx.finding("arxiv-title-mismatch", subject, entry.source, message, evidence)]


def _date(
    entry: Entry, subject: str, label: str, meta: PaperMeta, ctx: CheckContext
) -> list[Finding]:
    """arxiv-date-mismatch when the entry's date is off the v1 date by more than the tolerance."""
    period = date_span(entry.date)
    v1 = _iso_date(meta.published)
    if period is None or v1 is None:
        return []
    tolerance = timedelta(days=ctx.options.date_tolerance_days)
    first, last = period
    # A month (or year) is compared at its own precision: the paper may be listed in the
    # month after its submission, never in a month before it (an ID's yymm is that month).
    # A year alone is often the venue's: it may follow the submission year by one.
    late = tolerance if first == last else timedelta(0)
    early = timedelta(days=366) if _precision(entry.date) == "YYYY" else tolerance
    if first - early <= v1 <= last + late:
        return []
    shown = v1.isoformat()[: len(_precision(entry.date))]
    message = f"the date {entry.date} is not the v1 submission date of {label} ({v1.isoformat()})"
    evidence = f"v1 submitted {meta.published_at or v1.isoformat()}"
    evidence += f"; tolerance {ctx.options.date_tolerance_days} days"
    return [ctx.finding("arxiv-date-mismatch", subject, entry.source, message, evidence, shown)]


def date_span(text: str) -> tuple[date, date] | None:
    """First and last day meant by `YYYY`, `YYYY-MM` or `YYYY-MM-DD`; None if unreadable."""
    m = _DATE.match(text or "")
    if m is None:
        return None
    year, month, day = int(m[1]), m[2], m[3]
    try:
        if month is None:
            return date(year, 1, 1), date(year, 12, 31)
        if day is None:
            last = calendar.monthrange(year, int(month))[1]
            return date(year, int(month), 1), date(year, int(month), last)
        exact = date(year, int(month), int(day))
    except ValueError:
        return None
    return exact, exact


def _precision(text: str) -> str:
    """`YYYY`, `YYYY-MM` or `YYYY-MM-DD`: the template of the entry's precision."""
    parts = len(re.split(r"[-/.]", text.strip()))
    return ("YYYY", "YYYY-MM", "YYYY-MM-DD")[min(parts, 3) - 1]


def _iso_date(text: str) -> date | None:
    """A date from `YYYY-MM-DD` (the v1 date in resolver metadata)."""
    try:
        return date.fromisoformat(text[:10])
    except ValueError:
        return None


def _clip(text: str, limit: int = 300) -> str:
    """Evidence short enough for a report line."""
    return text if len(text) <= limit else text[: limit - 1] + "…"
