"""`curator render`: the list sections of README.md regenerated from the catalogue in data/.

Only the text between `<!-- curator:begin SECTION -->` and `<!-- curator:end SECTION -->` is
rewritten; prose stays as it is. Sections of data/ without markers are appended at the end
when asked (`--append`), so nothing in the catalogue is left out. Each section keeps the
layout the document already uses (render_layout.detect): the section's own entries decide,
else the document's; a Markdown list stays a list, a pipe table a pipe table, and the home
list's two-row HTML table (date, title, tag badges, links; then the summary bullets) with its
Markdown project table stays that, which is also the layout of a document with no entries
yet. Papers are newest first. A document whose entries stand in a layout render does not
write (headings, paragraphs) gets no appended section: render refuses (exit 2).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html import escape
from pathlib import Path

from curator.core.errors import InputError, UsageError
from curator.core.model import Entry, Kind
from curator.sources.yaml_catalog import CatalogSource
from curator.textio.text import read_text
from curator.tools.render_html import paper_table, project_table
from curator.tools.render_layout import Layout, bullet_of, detect, list_block, pipe_block

# One marker comment on one line; matched per line, never over the whole document.
_MARKER = re.compile(r"^\s*<!--\s*curator:(begin|end)\s+(.+?)\s*-->\s*$")
# Count badges of shields.io: `Papers-542-`, `Open%20Source%20Projects-111-`.
_PAPERS_BADGE = re.compile(r"(img\.shields\.io/badge/Papers-)(\d+)(-)")
_PROJECTS_BADGE = re.compile(r"(img\.shields\.io/badge/(?:Open%20Source%20)?Projects-)(\d+)(-)")


@dataclass(frozen=True)
class RenderResult:
    """The document render produced and whether it differs from the one on disk."""

    text: str
    changed: bool
    papers: int
    projects: int
    added: tuple[str, ...]


def render(
    data_dir: Path | str, readme_path: Path | str, check: bool = False, append: bool = False
) -> RenderResult:
    """Regenerate README's marked sections from `data_dir`; write unless `check`.

    A document with no markers at all is left alone (UsageError) unless `append` is asked.
    """
    readme = Path(readme_path)
    # Plain links have no place in the rendered layout; they stay in the catalogue only.
    entries = tuple(
        e for e in CatalogSource().load(Path(data_dir)).entries if e.kind is not Kind.LINK
    )
    old = read_text(readme) if readme.exists() else ""
    groups = group(entries)
    old_lines = git_lines(old)[0]
    shape = Shape(detect(old_lines), bullet_of(old_lines))
    text, used = fill_markers(old, groups, readme.as_posix(), shape)
    if old.strip() and not used and not append:
        raise UsageError(
            f"{readme.as_posix()} has no `<!-- curator:begin SECTION -->` markers, so render "
            "would only append whole new sections to it; nothing was changed. Add the markers "
            "where the sections belong (see the README), or pass --append to add them at the end"
        )
    added = tuple(name for name in groups if name not in used)
    if added and shape.layout is Layout.OTHER:
        raise UsageError(
            f"{readme.as_posix()}: its entries are in none of the layouts render writes (a "
            "Markdown list, a pipe table, an HTML table), so appending would impose a foreign "
            f"one; nothing was changed. Add `<!-- curator:begin SECTION -->` markers for "
            f"{', '.join(added)} where they belong"
        )
    text = append_sections(text, {name: groups[name] for name in added}, shape)
    papers = sum(1 for e in entries if e.kind is Kind.PAPER)
    text = count_badges(text, papers, len(entries) - papers)
    changed = text != old
    if changed and not check:
        readme.write_text(text, encoding="utf-8", newline="")
    return RenderResult(text, changed, papers, len(entries) - papers, added)


def group(entries: tuple[Entry, ...]) -> dict[str, list[Entry]]:
    """Entries by section, sections in catalogue order."""
    out: dict[str, list[Entry]] = {}
    for entry in entries:
        out.setdefault(entry.section, []).append(entry)
    return out


@dataclass(frozen=True)
class Shape:
    """The document's layout (None: no entries yet, OTHER: one render does not write) and
    the bullet of its list items."""

    layout: Layout | None = None
    bullet: str = "-"

    def written(self) -> Layout:
        """The layout new sections get: the document's, else the home list's HTML."""
        return self.layout if self.layout in (Layout.LIST, Layout.PIPE) else Layout.HTML


def section_block(
    entries: list[Entry], layout: Layout = Layout.HTML, bullet: str = "-"
) -> list[str]:
    """The generated lines of one section in `layout`: papers newest first, then projects."""
    papers = [e for e in entries if e.kind is Kind.PAPER]
    projects = [e for e in entries if e.kind is Kind.PROJECT]
    papers = sorted(papers, key=lambda e: e.date, reverse=True)
    if layout is Layout.LIST:
        return list_block(papers, projects, bullet)
    if layout is Layout.PIPE:
        return pipe_block(papers, projects)
    lines: list[str] = []
    if papers:
        lines += paper_table(papers)
    if projects:
        lines += ["", *project_table(projects), ""]
    return lines


def git_lines(text: str) -> tuple[list[str], str]:
    """The text's lines as git and GitHub count them (only `\n` ends one: a U+2028, a form
    feed or a lone CR stays inside its line, as `str.splitlines` would not leave it) and the
    ending to join them with: CRLF when every line ends so, else LF (a lone `\r` stays part
    of its line). A rendered README keeps every byte outside its marked sections."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if lines and text.endswith("\n") and all(line.endswith("\r") for line in lines):
        return [line[:-1] for line in lines], "\r\n"
    return lines, "\n"


def fill_markers(
    text: str, groups: dict[str, list[Entry]], file: str, shape: Shape | None = None
) -> tuple[str, set[str]]:
    """Replace every marked block, each in the layout of the entries it held (else the
    document's); return the text and the sections that had markers."""
    shape = shape or Shape()
    out: list[str] = []
    inside: list[str] = []
    used: set[str] = set()
    open_name, open_line = "", 0
    lines, eol = git_lines(text)
    for number, line in enumerate(lines, start=1):
        marker = _MARKER.match(line)
        kind, name = (marker.group(1), marker.group(2)) if marker else ("", "")
        if kind == "begin":
            if open_name or name in used:
                raise InputError(
                    f"marker for {name!r} opened twice or inside another", file, number
                )
            open_name, open_line, inside = name, number, []
            used.add(name)
            out.append(line)
        elif kind == "end":
            if name != open_name:
                raise InputError(f"end marker for {name!r} has no begin", file, number)
            own = detect(inside)
            layout = own if own in (Layout.LIST, Layout.PIPE, Layout.HTML) else shape.written()
            bullet = bullet_of(inside) if own is Layout.LIST else shape.bullet
            out += [*section_block(groups.get(open_name, []), layout, bullet), line]
            open_name = ""
        elif open_name:
            inside.append(line)
        else:
            out.append(line)
    if open_name:
        raise InputError(f"begin marker for {open_name!r} is never ended", file, open_line)
    return eol.join(out) + (eol if out else ""), used


def append_sections(text: str, groups: dict[str, list[Entry]], shape: Shape | None = None) -> str:
    """Add a marked section for each group that README does not have yet, in the
    document's layout."""
    shape = shape or Shape()
    layout = shape.written()
    lines, eol = git_lines(text)
    lines = lines or ["# Awesome list", "", *count_badge_lines()]
    for name, entries in groups.items():
        begin, end = f"<!-- curator:begin {name} -->", f"<!-- curator:end {name} -->"
        if layout is not Layout.HTML:
            block = section_block(entries, layout, shape.bullet)
            lines += ["", f"## {name}", "", begin, *block, end]
        elif any(e.kind is Kind.PAPER for e in entries):
            summary = f"<summary><strong>{escape(name, quote=False)}</strong></summary>"
            lines += ["", "<details>", summary, begin, *section_block(entries), end, "</details>"]
        else:
            lines += ["", f"## {name}", "", begin, *section_block(entries), end]
    return eol.join(lines) + eol


def count_badge_lines() -> list[str]:
    """The two count badges a new README starts with (numbers filled by count_badges)."""
    return [
        "![Papers](https://img.shields.io/badge/Papers-0-blue.svg)",
        "![Open Source Projects](https://img.shields.io/badge/Open%20Source%20Projects-0-green.svg)",
    ]


def count_badges(text: str, papers: int, projects: int) -> str:
    """Set the numbers of the paper-count and project-count badges."""
    text = _PAPERS_BADGE.sub(lambda m: f"{m.group(1)}{papers}{m.group(3)}", text)
    return _PROJECTS_BADGE.sub(lambda m: f"{m.group(1)}{projects}{m.group(3)}", text)
