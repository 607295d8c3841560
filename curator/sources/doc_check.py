"""The reading check of a document: `document-unread` for the arXiv IDs and repositories its
text links but no entry holds (comments, images and inline code are not links), so that a
document that was not understood never reads as clean; and a note for arXiv IDs that can only
be checked for existence (no title beside them).
"""

from __future__ import annotations

import re

from curator.core.model import Entry, Finding, Kind, Source
from curator.core.normalize import arxiv_id_in_url, github_subject
from curator.core.subjects import arxiv_subject, is_paper
from curator.sources.doc_papers import DocReader
from curator.sources.doc_units import LineCounter

_NOT_LINKS = re.compile(
    # Comments as Markdown has them: one that opens a line runs to its `-->` (an HTML block),
    # one inside a line must close on it; a literal `<!--` in prose hides nothing. Images and
    # inline code are not links either. Each alternative is bounded or ends the text, so an
    # unterminated `<img` or `![` never costs a scan to the end for every one of them. The
    # lookahead names every alternative's first character, so other positions fail at once.
    r"(?=[ \t<!`])(?:^[ \t]*<!--.*?(?:-->|\Z)|<!--[^\n]{0,4000}?-->|<img\b[^>]{0,4000}>"
    r"|!\[[^\]\n]{0,1000}\]\([^)\n]{0,4000}\)|(?<!`)`[^`\n]+`(?!`))",
    re.DOTALL | re.MULTILINE,
)
_TEXT_ARXIV = re.compile(r"arxiv\.org/(?:abs|pdf|html)/(\d{4}\.\d{4,5})", re.IGNORECASE)
_TEXT_REPO = re.compile(r"https?://(?:www\.)?github\.com/[A-Za-z0-9-]+/[A-Za-z0-9_.-]+")


def reading_check(
    reader: DocReader, text: str, entries: list[Entry]
) -> tuple[list[Finding], list[str]]:
    """`document-unread` for what the text links but no entry holds; a note for IDs that
    could only be checked as plain links. A document that was not read is never clean."""
    file = reader.file
    if not entries:
        message = "no entries and no links were read from this document"
        return [reader.context.finding("document-unread", file, Source(file, 1), message)], []
    # Comments and images are not links: blank them out, keeping the line count.
    visible = _NOT_LINKS.sub(lambda m: "\n" * m.group(0).count("\n"), text)
    where = LineCounter(visible)
    held = {s for e in entries for s in e.subjects()}
    missed: dict[str, int] = {}
    for m in _TEXT_ARXIV.finditer(visible):
        subject = arxiv_subject(m.group(1))
        if subject not in held and arxiv_id_in_url(m.group(0)) is not None:
            missed.setdefault(subject, where.at(m.start()))
    for m in _TEXT_REPO.finditer(visible):
        repo = github_subject(m.group(0))
        if repo and repo not in held and repo != reader.own_repo:
            missed.setdefault(repo, where.at(m.start()))
    findings: list[Finding] = []
    if missed:
        lines = sorted(set(missed.values()))
        message = (
            "1 linked arXiv ID or repository was not read"
            if len(missed) == 1
            else f"{len(missed)} linked arXiv IDs or repositories were not read"
        )
        # Which link, on which line: what a maintainer looks for in the document.
        firsts = sorted(missed.items(), key=lambda item: (item[1], item[0]))
        shown = "; ".join(f"line {n}: {s}" for s, n in firsts[:20])
        shown += " …" if len(firsts) > 20 else ""
        findings.append(reader.context.finding(
            "document-unread", file, Source(file, lines[0]), message, evidence=shown
        ))  # fmt: skip
    notes: list[str] = []
    plain = {
        lk.subject for e in entries if e.kind is Kind.LINK
        for lk in e.links if is_paper(lk.subject)
    }  # fmt: skip
    plain -= {e.subject for e in entries if e.kind is Kind.PAPER}
    if len(plain) == 1:
        notes.append(f"{file}: 1 arXiv ID has no title beside it; it is checked for existence only")
    elif plain:
        notes.append(f"{file}: {len(plain)} arXiv IDs have no title beside them; "
                     "they are checked for existence only")  # fmt: skip
    return findings, notes
