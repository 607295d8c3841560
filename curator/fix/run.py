"""The edge of `curator fix`: run the check, ask arXiv's title search about wrong IDs, read
the files, plan.

`prepare` is all a caller needs (the `fix` command, a pull request's suggestions, the
nightly fix pull request): the check's report (with the IDs the title search suggests, its
requests counted and its notes added), the title search's own notes, and the plan. Writing
is `write.write_fixes`. The check and the search share one open cache.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from curator.checks.titles import MIN_WORDS, normalize_title, titles_match
from curator.config.options import Options
from curator.core.meta import plain
from curator.core.model import Entry, Finding, Kind, Report, RequestCounts
from curator.core.outcomes import Found, Outcome, Unverified
from curator.core.subjects import arxiv_id_of
from curator.fix.plan import FixPlan, plan_fixes
from curator.fix.values import FIXABLE, ID_PREFIX

if TYPE_CHECKING:
    from curator.net.cache import Cache

#: Findings whose entry may carry a wrong arXiv ID: asked about by the entry's own title.
WRONG_ID = frozenset({"arxiv-not-found", "arxiv-title-mismatch"})


@dataclass(frozen=True)
class Prepared:
    """What `curator fix` knows before writing: the report (wrong-ID suggestions filled in,
    the title search counted in `requests`, its notes added), the plan, every entry read,
    and the title search's own notes (`curator fix` shows those, not the check's)."""

    report: Report
    plan: FixPlan
    entries: tuple[Entry, ...]
    search_notes: tuple[str, ...] = ()


def prepare(
    options: Options,
    *,
    only: frozenset[str] | None = None,
    search: bool = True,
    now: Callable[[], datetime] | None = None,
) -> Prepared:
    """Check `options.paths`, suggest IDs for wrong ones (`search`: one batched arXiv title
    search), read the files that have something to fix, and plan (limited to `only`)."""
    from curator.run import pipeline

    cache = pipeline.open_cache(options)
    try:
        ran = pipeline.run(options, now, cache)
        report, notes = suggest_ids(ran.report, options, cache) if search else (ran.report, ())
    finally:
        cache.close()
    texts = read_texts(_files_to_fix(report.findings, only))
    plan = plan_fixes(report, texts, only=only, entries=ran.entries)
    return Prepared(report, plan, ran.entries, notes)


def _files_to_fix(findings: Iterable[Finding], only: frozenset[str] | None) -> list[str]:
    """The files holding a finding `curator fix` may answer."""
    codes = FIXABLE if only is None else FIXABLE & only
    return sorted({f.source.file for f in findings if f.code in codes})


def read_texts(files: Iterable[str]) -> dict[str, str]:
    """Each file's text as the readers read it (a link out of the repository refused)."""
    from curator.textio.text import read_text

    return {file: read_text(Path(file), file) for file in files}


# -- wrong IDs ------------------------------------------------------------------------------
def suggest_ids(report: Report, options: Options, cache: Cache) -> tuple[Report, tuple[str, ...]]:
    """`report` with an ID suggested for each entry whose arXiv ID is missing or names
    another paper, where exactly one arXiv paper carries the entry's own title (asked
    through the run's `cache`); and the search's own notes (also added to the report's)."""
    asked = wrong_ids(report)
    if not asked:
        return report, ()
    outcomes, counts, notes = search_titles(sorted(set(asked.values())), options, cache)
    findings = tuple(_suggested(f, asked, outcomes) for f in report.findings)
    missed = [s for s in set(asked.values()) if isinstance(outcomes.get(s), Unverified)]
    if missed and not notes:
        reason = next(o.reason for s in missed if isinstance(o := outcomes[s], Unverified))
        notes = [f"arXiv's title search was not asked about {len(missed)} titles: {reason}"]
    requests = dict(report.requests)
    for name, n in counts.items():
        requests[name] = requests.get(name, 0) + n
    searched = replace(
        report,
        findings=findings,
        requests=RequestCounts(requests),
        notes=tuple(dict.fromkeys([*report.notes, *notes, *cache.warnings])),
    )
    return searched, tuple(notes)


def wrong_ids(report: Report) -> dict[int, str]:
    """id(finding) -> the title subject to search, for each finding that says the entry's
    own arXiv ID is wrong (not found, or another paper's) and whose entry has a real title."""
    entries = {(r.entry.source, r.entry.subject): r.entry for r in report.entries}
    out: dict[int, str] = {}
    for finding in report.findings:
        if finding.code not in WRONG_ID or finding.suggestion:
            continue  # a title suggestion: the same paper, retitled
        entry = entries.get((finding.source, finding.subject))
        if entry is None or entry.kind is not Kind.PAPER or entry.short_title:
            continue
        if len(normalize_title(entry.title).split()) >= MIN_WORDS:
            out[id(finding)] = title_subject(entry.title)
    return out


def title_subject(title: str) -> str:
    """What the title search is asked: `title:` and the title's normalised words."""
    from curator.resolvers.arxiv_titles import PREFIX

    return PREFIX + normalize_title(title)


def search_titles(
    subjects: list[str], options: Options, cache: Cache
) -> tuple[dict[str, Outcome], RequestCounts, list[str]]:
    """The title search's outcomes (through the run's `cache`), what it sent, and its notes."""
    from curator.core.outcomes import Counter
    from curator.resolvers.arxiv_titles import ArxivTitles

    counter = Counter()
    searcher = ArxivTitles(options, cache, counter, match=titles_match)
    outcomes = searcher.resolve(subjects)
    return outcomes, counter.snapshot(), list(searcher.notes)


def _suggested(
    finding: Finding, asked: Mapping[int, str], outcomes: Mapping[str, Outcome]
) -> Finding:
    """The finding with the one paper its entry's title names as `suggestion`, if one does."""
    outcome = outcomes.get(asked.get(id(finding), ""))
    if not isinstance(outcome, Found):
        return finding
    own = arxiv_id_of(finding.subject)
    papers = [p for p in plain(outcome.meta).get("papers", []) if p.get("id") != own]
    if len(papers) != 1:
        return finding
    new = str(papers[0]["id"])
    evidence = f"arXiv's title search finds the entry's title at arXiv:{new}"
    joined = f"{finding.evidence}; {evidence}" if finding.evidence else evidence
    return replace(finding, evidence=joined, suggestion=f"{ID_PREFIX}{new}")
