"""Awesome-list documents (README.md) as a source: HTML paper rows and GitHub project links.

Papers are the two-row `<tr>` format (date with rowspan, bold title, tag badges, links; then a
row of bullet summaries). Projects are GitHub repository links in Markdown tables, lists and
prose; a link that only wraps a badge image is decoration, not an entry.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from curator.checks.interface import CheckContext
from curator.model import Entry, Finding, Kind, Link, Service, Source
from curator.normalize import (
    github_repo,
    github_subject,
    is_arxiv_url,
    link_for,
    parse_arxiv_id,
    url_subject,
)
from curator.sources.doc_html import Cell, HtmlLink, Row, SectionMark, parse_fragments
from curator.sources.doc_markdown import MdLink, MdRow, MdScan, scan_markdown
from curator.sources.interface import Loaded
from curator.sources.text import read_text
from curator.sources.yaml_catalog import display_path

_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
#: Header texts (lower-case) that name a project, give its date or its category.
NAME_HEADERS = {"name", "system", "project", "名称", "项目名称", "项目"}
TIME_HEADERS = {"time", "date", "since", "时间", "日期"}
CATEGORY_HEADERS = {"category", "分类"}


def clean(text: str) -> str:
    """Collapse runs of whitespace to one space and trim."""
    return " ".join(text.split())


def date_problem(value: str) -> str:
    """Why `value` is not a YYYY-MM-DD date, or "" when it is one."""
    if not value:
        return "no date"
    if _DATE.fullmatch(value):
        try:
            date.fromisoformat(value)
            return ""
        except ValueError:
            pass
    return f"date {value!r} is not a YYYY-MM-DD date"


@dataclass
class _Reader:
    """State of one load: the file's display name, the context and what was found."""

    file: str
    context: CheckContext
    sections: list[tuple[int, str]]
    entries: list[Entry] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)

    def section_at(self, line: int) -> str:
        """The section (heading or `<summary>`) in force at `line`."""
        i = bisect.bisect_right(self.sections, (line, "\uffff")) - 1
        return self.sections[i][1] if i >= 0 else ""

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

    def __init__(self, context: CheckContext | None = None) -> None:
        self.context = context or CheckContext()

    def accepts(self, path: Path) -> bool:
        """True for `.md` and `.markdown` files."""
        return path.suffix.lower() in {".md", ".markdown"} and not path.is_dir()

    def load(self, path: Path) -> Loaded:
        """Every paper row and project link of the document, with offline findings."""
        display = display_path(path)
        scan = scan_markdown(read_text(path, display))
        html = parse_fragments(scan.html)
        reader = _Reader(display, self.context, section_table(scan.headings, html.marks))
        read_papers(reader, html.rows)
        read_projects(reader, scan)
        bad_arxiv_links(reader, scan, html.rows)
        entries = sorted(reader.entries, key=lambda e: e.source.line)
        findings = sorted(reader.findings, key=lambda f: (f.source.line, f.code))
        return Loaded(tuple(entries), tuple(findings), (display,))


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


# --- papers --------------------------------------------------------------------------------


def read_papers(reader: _Reader, rows: list[Row]) -> None:
    """Pair head and summary rows into paper entries; other rows may hold projects."""
    i = 0
    while i < len(rows):
        row = rows[i]
        follow = rows[i + 1] if i + 1 < len(rows) else None
        summary = follow if follow is not None and is_summary(follow) else None
        if is_head(row, summary):
            paper_entry(reader, row, summary)
            i += 2 if summary is not None else 1
            continue
        if is_summary(row) and row.cells[0].span("colspan") > 1:
            reader.invalid("", row.line, ["summary row without its paper row"], "paper row")
        html_projects(reader, row)
        i += 1


def is_head(row: Row, summary: Row | None) -> bool:
    """A paper's first row: a rowspan date cell, or linked cells followed by a summary row."""
    if len(row.cells) < 2:
        return False
    linked = any(c.links for c in row.cells)
    return row.cells[0].span("rowspan") > 1 or (linked and summary is not None)


def html_projects(reader: _Reader, row: Row) -> None:
    """A row of an HTML table that is not a paper: its repository links are projects."""
    seen: set[str] = set()
    for link in (lk for c in row.cells for lk in c.links):
        subject = github_subject(link.href)
        if subject is None or subject in seen or not clean(link.text):
            continue  # not a repository, a repeat, or a bare badge
        seen.add(subject)
        repo = MdLink(link.href, clean(link.text), link.line)
        project_entry(reader, repo, link_title(repo), [], {}, row.line)


def is_summary(row: Row) -> bool:
    """A paper's second row: one cell (the bullets)."""
    return len(row.cells) == 1 and row.cells[0].span("rowspan") == 1


def paper_links(links: list[HtmlLink]) -> list[Link]:
    """Links of a paper row with their roles: arXiv and venues `paper`, GitHub `code`."""
    out: list[Link] = []
    for link in links:
        label = (link.text + " " + " ".join(link.alts)).lower()
        if is_arxiv_url(link.href):
            role = "paper"
        elif github_repo(link.href) is not None:
            role = "code"
        elif "paper" in label or not any(x.role == "paper" for x in out):
            role = "paper"
        else:
            role = "website"
        out.append(link_for(role, link.href))
    return out


def paper_entry(reader: _Reader, head: Row, summary: Row | None) -> None:
    """One paper entry from its rows, plus an `entry-invalid` finding for what is missing."""
    cells = head.cells
    when = clean(cells[0].text)
    title = clean(cells[1].strong or cells[1].text)
    links = paper_links([lk for c in cells for lk in c.links])
    problems = [p for p in (date_problem(when),) if p]
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
    reader.entries.append(
        Entry(
            subject=subject,
            kind=Kind.PAPER,
            source=Source(reader.file, head.line),
            title=title,
            date=when,
            section=reader.section_at(head.line),
            tags=tuple(alt for c in cells[1:] for alt in c.image_alts),
            links=tuple(links),
            summary=bullets(summary.cells[0]) if summary is not None else "",
            fields=fields,
        )
    )


def paper_identity(links: list[Link]) -> tuple[str, dict[str, str]]:
    """The subject (first valid arXiv ID, else the paper link, else the first link) and
    the raw identity fields (`arxiv` as written, or `url`)."""
    for link in links:
        found = parse_arxiv_id(link.url) if link.service is Service.ARXIV else None
        if found is not None:
            return found.subject, {"arxiv": str(found)}
    main = next((lk for lk in links if lk.role == "paper"), links[0])
    return main.subject, {"url": main.url}


def bullets(cell: Cell) -> str:
    """The summary bullets, one per line, as written."""
    return "\n".join(clean(part) for part in cell.text.split("\n") if clean(part))


# --- projects ------------------------------------------------------------------------------


def read_projects(reader: _Reader, scan: MdScan) -> None:
    """Projects from Markdown table rows and from repository links anywhere else."""
    for row in scan.rows:
        table_projects(reader, row)
    for link in scan.loose:
        if not link.image_only and github_repo(link.url) is not None:
            project_entry(reader, link, link_title(link), [], {})


def link_title(link: MdLink) -> str:
    """A project's name from its link text; `owner/repo` when the text is the bare URL."""
    if link.text and link.text != link.url:
        return clean(link.text)
    found = github_repo(link.url)
    return f"{found[0]}/{found[1]}" if found else link.url


def column(row: MdRow, names: set[str]) -> int | None:
    """Index of the first column whose header is one of `names` (case-insensitive)."""
    for i, header in enumerate(row.headers):
        if clean(header).lower() in names and i < len(row.cells):
            return i
    return None


def table_projects(reader: _Reader, row: MdRow) -> None:
    """One project per distinct repository linked in the row (badge-only links skipped)."""
    links = [lk for c in row.cells for lk in c.links if not lk.image_only]
    repos: dict[str, MdLink] = {}
    for link in links:
        subject = github_subject(link.url)
        if subject is not None:
            repos.setdefault(subject, link)
    if not repos:
        return
    extra = row_fields(row)
    name_col = column(row, NAME_HEADERS)
    for repo in repos.values():
        title = link_title(repo)
        others: list[MdLink] = []
        if len(repos) == 1:
            others = [lk for lk in links if lk is not repo]
            if name_col is not None and not row.cells[name_col].links:
                title = clean(row.cells[name_col].text) or title
        project_entry(reader, repo, title, others, extra, row.line)


def row_fields(row: MdRow) -> dict[str, str]:
    """`since`, `category` and `description` of a table row, when its columns say so."""
    out: dict[str, str] = {}
    used: set[int] = set()
    for key, names in (("since", TIME_HEADERS), ("category", CATEGORY_HEADERS)):
        col = column(row, names)
        if col is not None:
            out[key] = clean(row.cells[col].text)
            used.add(col)
    name_col = column(row, NAME_HEADERS)
    last = len(row.cells) - 1
    if last > 0 and last not in used | {name_col} and not row.cells[last].links:
        out["description"] = clean(row.cells[last].text)
    return out


def project_entry(
    reader: _Reader,
    repo: MdLink,
    title: str,
    others: list[MdLink],
    extra: dict[str, str],
    line: int = 0,
) -> None:
    """One project entry: the repository link first, other links of its row as `website`."""
    at = line or repo.line
    links = [link_for("repo", repo.url)] + [link_for("website", lk.url) for lk in others]
    fields = {"repo": repo.url, **extra}
    if others:
        fields["website"] = others[0].url
    since = extra.get("since", "")
    subject = links[0].subject
    problem = date_problem(since) if "since" in extra else ""
    reader.invalid(subject, at, [problem] if problem else [], f"project row {title!r}")
    reader.entries.append(
        Entry(
            subject=subject,
            kind=Kind.PROJECT,
            source=Source(reader.file, at),
            title=title,
            date=since,
            section=reader.section_at(at),
            links=tuple(links),
            summary=extra.get("description", ""),
            fields=fields,
        )
    )


# --- offline ID check ----------------------------------------------------------------------


def bad_arxiv_links(reader: _Reader, scan: MdScan, rows: list[Row]) -> None:
    """`arxiv-bad-id` for every arxiv.org link anywhere whose identifier does not parse."""
    seen: set[tuple[str, int]] = set()
    md_links = [lk for r in scan.rows for c in r.cells for lk in c.links] + scan.loose
    html_links = [(lk.href, lk.line) for r in rows for c in r.cells for lk in c.links]
    for url, line in [(lk.url, lk.line) for lk in md_links] + html_links:
        if (url, line) in seen or not is_arxiv_url(url) or parse_arxiv_id(url) is not None:
            continue
        seen.add((url, line))
        message = f"{url} does not hold a valid arXiv identifier"
        reader.findings.append(
            reader.context.finding("arxiv-bad-id", url_subject(url), Source(reader.file, line),
                                   message, evidence=url)
        )  # fmt: skip
