"""Awesome-list documents (README.md) as a source: every link, in the entries it belongs to.

Two layers. `doc_markdown` and `doc_html` find every link with its line and group the links
into units (list items, lines, table rows, HTML rows and blocks); `doc_entries` turns each
unit into papers, projects or plain-link entries, whatever the layout. This module adds the
home list's two-row HTML paper layout (date with rowspan, bold title, tag badges, links; then
a row of bullet summaries), the offline findings (bad arXiv IDs, dates that are no dates,
incomplete paper rows) and a reading check: arXiv IDs and repositories that the text links
but no entry holds are reported, so a document that was not understood never reads as clean.
This module holds the source, its sections and its line numbers; the paper rows and the state
of one load are `doc_papers`'s, the reading check `doc_check`'s.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from dataclasses import replace
from pathlib import Path

from curator.config.context import CheckContext
from curator.core.heap import bulk_build
from curator.core.model import Entry, Finding, Source
from curator.core.normalize import (
    github_subject,
)
from curator.sources.bad_ids import bad_arxiv_link
from curator.sources.doc_badges import with_badges
from curator.sources.doc_check import reading_check
from curator.sources.doc_html import SectionMark, parse_fragments
from curator.sources.doc_local import LocalCheck, repository_of
from curator.sources.doc_markdown import MdScan, scan_markdown
from curator.sources.doc_papers import DocReader, read_units
from curator.sources.doc_parse import FLAT_FROM, InlineParses
from curator.sources.doc_rows import hidden_rows
from curator.sources.doc_targets import walk
from curator.sources.doc_units import Unit
from curator.sources.formats import Reader, reader_of
from curator.sources.interface import Loaded, Reference
from curator.sources.yaml_catalog import display_path
from curator.textio.text import read_text

# The list's own repository, named by its star-history chart or contributors image.
_OWN_REPO = re.compile(
    r"(?:star-history\.com/(?:#|svg\?repos=|chart\?repos=)|contrib\.rocks/image\?repo=)"
    r"([A-Za-z0-9-]+/[A-Za-z0-9_.-]+)"
)


class DocumentSource:
    """Reads entries from an awesome-list Markdown document (see the module docstring)."""

    name = "document"

    def __init__(
        self, context: CheckContext | None = None, inlines: InlineParses | None = None
    ) -> None:
        self.context = context or CheckContext()
        #: The run's inline parses, shared with its other readings of the same document
        #: (a pull-request run reads each file changed in part at its base revision too).
        self.inlines = inlines

    def accepts(self, path: Path) -> bool:
        """True for `.md` and `.markdown` files."""
        return reader_of(path) is Reader.DOCUMENT

    def load(self, path: Path) -> Loaded:
        """Every entry and link of the document, with offline findings and reading notes."""
        display = display_path(path)
        text = read_text(path, display)
        with bulk_build():
            return self.read(text, display, path)

    def read(self, text: str, display: str, path: Path | None = None) -> Loaded:
        """`load` for a document's text (`display`: its name in entries and findings;
        `path`: where it lies, whose repository its local links are checked against)."""
        scan, units, reader = self._units(text, display)
        bad_arxiv_links(reader, units)
        root = repository_of(path) if path is not None else None
        local = LocalCheck(display, self.context, reader.targets, path, root)
        reader.findings += local.run()
        reader.findings += [
            self.context.finding("document-unread", display, Source(display, row.line),
                                 row.message(), evidence="; ".join(row.links))
            for row in reader.hidden
        ]  # fmt: skip
        entries = sorted(reader.entries, key=lambda e: e.source.line)
        findings = sorted(reader.findings, key=lambda f: (f.source.line, f.code))
        unread, notes = reading_check(reader, text, entries)
        notes += local.notes
        git = git_lines(text)
        notes += flat_note(display, scan.flat, git)
        entries, findings = as_git_lines(git, entries, findings)
        findings += unread  # the reading check counts lines as git does already
        refs = references(display, scan.definitions, units, git)
        return Loaded(tuple(entries), tuple(findings), (display,), tuple(notes), refs)

    def entries(self, text: str, display: str) -> list[Entry]:
        """The entries `read` gives, in line order, without its offline findings and reading
        check (which make no entry): how a text is read again (a base revision's version of
        the document, `curator fix`'s proof that an edit kept every entry)."""
        _, _, reader = self._units(text, display)
        entries = sorted(reader.entries, key=lambda e: e.source.line)
        return as_git_lines(git_lines(text), entries, [])[0]

    def _units(self, text: str, display: str) -> tuple[MdScan, list[Unit], DocReader]:
        """The Markdown scan, the units in line order, and the reader that made their entries."""
        scan = scan_markdown(text, self.inlines)
        targets = walk(scan.tokens, scan.html)
        scan.tokens = []  # the tokens are read: not kept while the units are built
        html = parse_fragments(scan.html)
        sections = section_table(qualified(scan.headings, scan.levels), html.marks)
        units = sorted(scan.units + html.units, key=lambda u: u.line)
        header_end = scan.headings[1][0] if len(scan.headings) > 1 else len(text)
        own = own_repository(text, [u for u in units if u.line < header_end])
        reader = DocReader(display, self.context, sections, own)
        read_units(reader, units)
        reader.hidden = hidden_rows(text, units, reader.place, _units_of, reader.held_at)
        reader.entries += [e for row in reader.hidden for e in row.entries]
        reader.targets = targets
        reader.entries = with_badges(reader.entries, targets)
        return scan, units, reader


def _units_of(text: str) -> list[Unit]:
    """The units of a piece of Markdown (a row's hidden cells)."""
    return scan_markdown(text).units


def git_lines(text: str) -> list[int] | None:
    """`git[k]`: the line git and editors number k for Markdown line k; None when the two
    agree. Markdown ends a line at a lone "\r" too; git does not. A document with lone
    "\r"s would otherwise be reported (and matched to a pull request's diff) on the wrong
    lines."""
    if "\r" not in text or "\r" not in text.replace("\r\n", ""):
        return None
    git = [0, 1]
    for m in re.finditer(r"\r\n|\r|\n", text):
        git.append(git[-1] + ("\n" in m.group(0)))
    return git


def as_git_lines(
    git: list[int] | None, entries: list[Entry], findings: list[Finding]
) -> tuple[list[Entry], list[Finding]]:
    """Entries and findings with the line numbers git and editors use (`git_lines`)."""
    if git is None:
        return entries, findings

    def moved(source: Source) -> Source:
        return Source(source.file, git[min(source.line, len(git) - 1)])

    return (
        [replace(e, source=moved(e.source)) for e in entries],
        [replace(f, source=moved(f.source)) for f in findings],
    )


def flat_note(file: str, flat: list[int], git: list[int] | None) -> list[str]:
    """A note naming where lists and quotes nest too deep to be read as such (their text,
    and every link in it, is read as plain lines; see `doc_parse.FLAT_FROM`)."""
    if not flat:
        return []
    first = flat[0] if git is None else git[min(flat[0], len(git) - 1)]
    blocks = "1 block" if len(flat) == 1 else f"{len(flat)} blocks in all"
    return [
        f"{file}:{first}: lists or quotes nested deeper than {FLAT_FROM // 2} lists or "
        f"{FLAT_FROM} quotes are read as plain lines from here ({blocks})"
    ]


def references(
    file: str, definitions: list[tuple[str, int, int]], units: list[Unit], git: list[int] | None
) -> tuple[Reference, ...]:
    """Each reference definition with the lines of the links that use its label (in git's
    line numbers), so that pull-request mode checks the entries a changed one redirects."""
    if not definitions:
        return ()
    used: dict[str, list[int]] = {}
    for anchor in (a for u in units for a in u.all_links()):
        if anchor.label:
            used.setdefault(anchor.label, []).append(anchor.line)

    def at(line: int) -> int:
        return line if git is None else git[min(line, len(git) - 1)]

    return tuple(
        Reference(file, at(first), at(last), tuple(at(n) for n in used.get(label, ())))
        for label, first, last in definitions
    )


def own_repository(text: str, units: list[Unit]) -> str | None:
    """`github:owner/name` of the list itself, whose links are the list's own pages.

    GITHUB_REPOSITORY when the workflow sets it; else the repository of the list's star
    chart or contributors image; else one that two or more lines of nothing but badges link
    to in the list's header (`units`: those above its second heading).
    """
    named = os.environ.get("GITHUB_REPOSITORY", "")
    if named.count("/") == 1:
        return f"github:{named.lower()}"
    found = Counter(m.group(1).lower() for m in _OWN_REPO.finditer(text))
    if found:
        return f"github:{found.most_common(1)[0][0]}"
    badges: Counter[str | None] = Counter()
    for unit in units:
        links = unit.all_links()
        if links and all(a.image_only for a in links):
            badges.update(github_subject(a.url) for a in links)
    badges.pop(None, None)
    top = badges.most_common(1)
    return top[0][0] if top and top[0][1] >= 2 else None


def qualified(headings: list[tuple[int, str]], levels: list[int]) -> list[tuple[int, str]]:
    """Headings named so that one name is one section: a name used under several parents
    (`### Text Memory` › `#### 2024`, `## Parametric Memory` › `#### 2024`) takes its parent's.
    """
    parents: list[str] = []
    stack: list[tuple[int, str]] = []  # (level, title) of the headings enclosing this one
    for (_, title), level in zip(headings, levels, strict=True):
        while stack and stack[-1][0] >= level:
            stack.pop()
        parents.append(stack[-1][1] if stack else "")
        stack.append((level, title))
    under: dict[str, set[str]] = {}
    for (_, title), parent in zip(headings, parents, strict=True):
        under.setdefault(title, set()).add(parent)
    return [
        (line, f"{parent} › {title}" if len(under[title]) > 1 and parent else title)
        for (line, title), parent in zip(headings, parents, strict=True)
    ]


def section_table(
    headings: list[tuple[int, str]], marks: list[SectionMark]
) -> list[tuple[int, str]]:
    """(line, section) from headings and `<details><summary>` marks, in line order.

    A `<summary>` names the section until its `</details>`; then the heading is back.
    """
    events = sorted([(line, 0, title) for line, title in headings]
                    + [(m.line, 1, m.title or "") for m in marks])  # fmt: skip
    table: list[tuple[int, str]] = []
    heading, details = "", ""
    for line, kind, title in events:
        if kind == 0:
            heading = title
        else:
            details = title
        table.append((line, details or heading))
    return table


# --- offline checks ------------------------------------------------------------------------


def bad_arxiv_links(reader: DocReader, units: list[Unit]) -> None:
    """`arxiv-bad-id` for every arxiv.org paper link whose identifier does not parse."""
    seen: set[tuple[str, int]] = set()
    for anchor in (a for u in units for a in u.all_links()):
        key = (anchor.url, anchor.line)
        where = Source(reader.file, anchor.line)
        found = None if key in seen else bad_arxiv_link(anchor.url, where, reader.context)
        if found is not None:
            seen.add(key)
            reader.findings.append(found)
