"""Awesome-list documents (README.md) as a source: every link, in the entries it belongs to.

Two layers. `doc_markdown` and `doc_html` find every link with its line and group the links
into units (list items, lines, table rows, HTML rows and blocks); `doc_entries` turns each
unit into papers, projects or plain-link entries, whatever the layout. This module adds the
home list's two-row HTML paper layout (date with rowspan, bold title, tag badges, links; then
a row of bullet summaries), the offline findings (bad arXiv IDs, dates that are no dates,
incomplete paper rows) and a reading check: arXiv IDs and repositories that the text links
but no entry holds are reported, so a document that was not understood never reads as clean.
"""

from __future__ import annotations

import bisect
import os
import re
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path

from curator.config.context import CheckContext
from curator.core.heap import bulk_build
from curator.core.model import Entry, Finding, Kind, Link, Source
from curator.core.normalize import (
    arxiv_id_in_url,
    github_subject,
    is_arxiv_id_url,
    link_for,
    url_subject,
)
from curator.sources.doc_badges import with_badges
from curator.sources.doc_entries import Place, anchors_of, make_entries
from curator.sources.doc_html import SectionMark, parse_fragments
from curator.sources.doc_local import LocalCheck, repository_of
from curator.sources.doc_markdown import MdScan, scan_markdown
from curator.sources.doc_parse import FLAT_FROM, InlineParses
from curator.sources.doc_rows import HiddenRow, hidden_rows
from curator.sources.doc_targets import Targets, walk
from curator.sources.doc_text import date_in, is_date_text, role_of
from curator.sources.doc_units import LineCounter, Unit, UnitKind, clean
from curator.sources.interface import Loaded, Reference
from curator.sources.yaml_catalog import display_path
from curator.textio.text import read_text

# The list's own repository, named by its star-history chart or contributors image.
_OWN_REPO = re.compile(
    r"(?:star-history\.com/(?:#|svg\?repos=|chart\?repos=)|contrib\.rocks/image\?repo=)"
    r"([A-Za-z0-9-]+/[A-Za-z0-9_.-]+)"
)
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


@dataclass
class _Reader:
    """State of one load: the file's display name, the context and what was found."""

    file: str
    context: CheckContext
    sections: list[tuple[int, str]]
    own_repo: str | None = None
    entries: list[Entry] = field(default_factory=list)
    targets: Targets = field(default_factory=Targets)
    hidden: list[HiddenRow] = field(default_factory=list)  # rows GitHub shows in part
    held: dict[int, set[str]] | None = None  # subjects by line, once hidden rows ask
    findings: list[Finding] = field(default_factory=list)

    def section_at(self, line: int) -> str:
        """The section (heading or `<summary>`) in force at `line`."""
        i = bisect.bisect_right(self.sections, (line, "\uffff")) - 1
        return self.sections[i][1] if i >= 0 else ""

    def place(self, line: int) -> Place:
        """Where a unit at `line` stands."""
        return Place(self.file, self.section_at(line), self.own_repo)

    def held_at(self, line: int) -> set[str]:
        """The subjects the entries read so far hold on `line` (the set itself: what is
        added to it stays held)."""
        if self.held is None:
            self.held = {}
            for entry in self.entries:
                self.held.setdefault(entry.source.line, set()).update(entry.subjects())
        return self.held.setdefault(line, set())

    def invalid(self, subject: str, line: int, problems: list[str], what: str) -> None:
        """One `entry-invalid` finding listing every problem of one row."""
        if problems:
            message = f"{what} cannot be read completely: " + "; ".join(problems)
            self.findings.append(
                self.context.finding("entry-invalid", subject, Source(self.file, line), message)
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
        return path.suffix.lower() in {".md", ".markdown"} and not path.is_dir()

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

    def _units(self, text: str, display: str) -> tuple[MdScan, list[Unit], _Reader]:
        """The Markdown scan, the units in line order, and the reader that made their entries."""
        scan = scan_markdown(text, self.inlines)
        targets = walk(scan.tokens, scan.html)
        scan.tokens = []  # the tokens are read: not kept while the units are built
        html = parse_fragments(scan.html)
        sections = section_table(qualified(scan.headings, scan.levels), html.marks)
        units = sorted(scan.units + html.units, key=lambda u: u.line)
        header_end = scan.headings[1][0] if len(scan.headings) > 1 else len(text)
        own = own_repository(text, [u for u in units if u.line < header_end])
        reader = _Reader(display, self.context, sections, own)
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


def read_units(reader: _Reader, units: list[Unit]) -> None:
    """Entries from every unit; HTML paper rows pair with their summary row first."""
    i = 0
    while i < len(units):
        unit = units[i]
        follow = units[i + 1] if i + 1 < len(units) else None
        summary = follow if follow is not None and is_summary(follow) else None
        if unit.html and is_head(unit, summary):
            paper_row(reader, unit, summary)
            i += 2 if summary is not None else 1
            continue
        if unit.html and is_summary(unit) and unit.cells[0].colspan > 1 and not unit.all_links():
            reader.invalid("", unit.line, ["summary row without its paper row"], "paper row")
        made = make_entries(unit, reader.place(unit.line))
        reader.entries.extend(made.entries)
        for entry, raw in made.bad_dates:
            what = f"{entry.kind.value} {entry.title!r}"
            reader.invalid(entry.subject, entry.source.line, [f"{raw!r} is not a date"], what)
        i += 1


def is_summary(unit: Unit) -> bool:
    """A paper's second row: an HTML row of one cell (the bullets)."""
    return unit.html and len(unit.cells) == 1 and unit.cells[0].rowspan == 1


def is_head(unit: Unit, summary: Unit | None) -> bool:
    """A paper's first row: a rowspan date cell, or linked cells followed by a summary row."""
    if unit.kind is not UnitKind.ROW or len(unit.cells) < 2:
        return False
    first = unit.cells[0]
    shown = clean(first.text)
    dated = first.rowspan > 1 and (not shown or date_in(shown) is not None)
    return dated or (bool(unit.all_links()) and summary is not None)


def paper_row(reader: _Reader, head: Unit, summary: Unit | None) -> None:
    """One paper entry from the two-row layout, plus an `entry-invalid` for what is missing."""
    cells = head.cells
    when = clean(cells[0].text)
    title = clean(cells[1].strong[0] if cells[1].strong else cells[1].text)
    anchors = anchors_of(head, reader.own_repo)
    links = [link_for(role_of(a), a.url) for a in anchors]
    links.sort(key=lambda lk: lk.role != "paper")  # the paper link is the entry's identity
    undated = date_problem(when)
    problems = [undated] if undated else []
    if not head.opened:
        problems.insert(0, "the row has no opening <tr>")
    if summary is not None and not summary.opened:
        problems.append("the summary row has no opening <tr>")
    if not title:
        problems.append("no title")
    if summary is None:
        problems.append("no summary row")
    if not links:
        reader.invalid("", head.line, [*problems, "no link, so no identity"], "paper row")
        return
    subject, fields = paper_identity(links)
    reader.invalid(subject, head.line, problems, f"paper row {title!r}")
    found = date_in(when)
    reader.entries.append(
        Entry(
            subject=subject, kind=Kind.PAPER, source=Source(reader.file, head.line),
            title=title, date=found[0] if found and not undated else when,
            section=reader.section_at(head.line),
            tags=tuple(alt for c in cells[1:] for alt in c.alts),
            links=tuple(links), summary=bullets(summary) if summary is not None else "",
            fields=fields,
        )
    )  # fmt: skip


def date_problem(value: str) -> str:
    """Why `value` is not a date (a year and month, or a full date), or "" when it is one."""
    if not value:
        return "no date"
    found = date_in(value)
    if found and found.valid and is_date_text(value):
        return ""
    return f"date {value!r} is not a date"


def paper_identity(links: list[Link]) -> tuple[str, dict[str, str]]:
    """The subject (first valid arXiv ID, else the paper link, else the first link) and
    the raw identity fields (`arxiv` as written, or `url`)."""
    for link in links:
        found = arxiv_id_in_url(link.url)
        if found is not None:
            return found.subject, {"arxiv": str(found)}
    main = next((lk for lk in links if lk.role == "paper"), links[0])
    return main.subject, {"url": main.url}


def bullets(summary: Unit) -> str:
    """The summary bullets, one per line, as written."""
    text = summary.cells[0].text
    lines = (clean(part) for part in text.split("\n"))
    return "\n".join(line for line in lines if line)


# --- offline checks ------------------------------------------------------------------------


def bad_arxiv_links(reader: _Reader, units: list[Unit]) -> None:
    """`arxiv-bad-id` for every arxiv.org paper link whose identifier does not parse."""
    seen: set[tuple[str, int]] = set()
    for anchor in (a for u in units for a in u.all_links()):
        key = (anchor.url, anchor.line)
        if key in seen or not is_arxiv_id_url(anchor.url) or arxiv_id_in_url(anchor.url):
            continue
        seen.add(key)
        message = f"{anchor.url} does not hold a valid arXiv identifier"
        reader.findings.append(
            reader.context.finding("arxiv-bad-id", url_subject(anchor.url),
                                   Source(reader.file, anchor.line), message, evidence=anchor.url)
        )  # fmt: skip


def reading_check(
    reader: _Reader, text: str, entries: list[Entry]
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
        subject = f"arxiv:{m.group(1)}"
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
        for lk in e.links if lk.subject.startswith("arxiv:")
    }  # fmt: skip
    plain -= {e.subject for e in entries if e.kind is Kind.PAPER}
    if len(plain) == 1:
        notes.append(f"{file}: 1 arXiv ID has no title beside it; it is checked for existence only")
    elif plain:
        notes.append(f"{file}: {len(plain)} arXiv IDs have no title beside them; "
                     "they are checked for existence only")  # fmt: skip
    return findings, notes
