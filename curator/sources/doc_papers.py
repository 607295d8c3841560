"""The state of one load of a document (`DocReader`) and the entries read from its units:
the home list's two-row HTML paper layout (date with rowspan, bold title, tag badges, links;
then a row of bullet summaries) paired first, every other unit through `doc_entries`, and an
`entry-invalid` finding for what a row is missing. The source itself is `document`'s.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field

from curator.config.context import CheckContext
from curator.core.model import Entry, Finding, Kind, Link, Source
from curator.core.normalize import arxiv_id_in_url, link_for
from curator.sources.doc_entries import Place, anchors_of, make_entries
from curator.sources.doc_rows import HiddenRow
from curator.sources.doc_targets import Targets
from curator.sources.doc_text import date_in, is_date_text, role_of
from curator.sources.doc_units import Unit, UnitKind, clean


@dataclass
class DocReader:
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


def read_units(reader: DocReader, units: list[Unit]) -> None:
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


def paper_row(reader: DocReader, head: Unit, summary: Unit | None) -> None:
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
