"""The layouts `curator render` writes, and which one a document already uses.

A list keeps its own layout: a Markdown list (`- [Title](url) (date) …`), a pipe table, or
the home list's HTML tables (render_html). `detect` names the layout of a stretch of a
document by the entries it holds (lines with a link): list items, pipe-table rows or HTML
rows, whichever most entries stand in; code fences are skipped. Pure.
"""

from __future__ import annotations

import re
from collections import Counter
from enum import StrEnum

from curator.core.model import Entry, Link
from curator.tools.render_html import cell, project_table


class Layout(StrEnum):
    """How a section's entries are written."""

    LIST = "Markdown list"
    PIPE = "pipe table"
    HTML = "HTML table"
    #: Entries in a layout render does not write (headings, paragraphs): never appended to.
    OTHER = "other"


_LINK = re.compile(r"\]\(\s*<?[a-z][a-z0-9+.-]*:|<a\s[^>]*href=|<https?://", re.IGNORECASE)
_BADGE_ONLY = re.compile(r"^\s*(?:\[?!\[[^\]]*\]\([^)]*\)\]?(?:\([^)]*\))?\s*)+$")
_ITEM = re.compile(r"^\s{0,3}([-*+]|\d{1,9}[.)])\s+\S")
_ROW = re.compile(r"^\s*\|.*\|\s*$")
_DELIMITER = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$")
_HTML_ROW = re.compile(r"<tr[\s>]", re.IGNORECASE)
_FENCE = re.compile(r"^\s{0,3}(`{3,}|~{3,})")
#: Linked lines in no layout render writes, from which on a document's entries are "other".
OTHER_AT_LEAST = 3


def detect(lines: list[str]) -> Layout | None:
    """The layout most entries of `lines` stand in; OTHER when they hold entries in none
    of render's layouts; None when they hold no entry."""
    found = Counter(_kinds(lines))
    # The HTML layout is the home list's: HTML paper tables and pipe project tables.
    html = found[Layout.HTML] + found[Layout.PIPE] if found[Layout.HTML] else 0
    scores = [
        (html, Layout.HTML),
        (found[Layout.PIPE], Layout.PIPE),
        (found[Layout.LIST], Layout.LIST),
    ]
    best, layout = max(scores, key=lambda pair: pair[0])  # the first of equals: HTML, then PIPE
    if best:
        return layout
    return Layout.OTHER if found[Layout.OTHER] >= OTHER_AT_LEAST else None


def bullet_of(lines: list[str]) -> str:
    """The bullet the list items of `lines` use most (`-` when none; `1.` for an ordered
    list, which Markdown numbers itself)."""
    marks = Counter(_bullet(m.group(1)) for line in lines if (m := _ITEM.match(line)))
    return marks.most_common(1)[0][0] if marks else "-"


def _bullet(mark: str) -> str:
    return mark if mark in "-*+" else f"1{mark[-1]}"


def _kinds(lines: list[str]) -> list[Layout]:
    """The layout of each line holding an entry (a link that is not only a badge)."""
    out: list[Layout] = []
    fence = ""
    in_html_row = False
    for line in lines:
        opened = _FENCE.match(line)
        if fence:
            fence = "" if opened and opened.group(1)[0] == fence[0] else fence
            continue
        if opened:
            fence = opened.group(1)
            continue
        if _HTML_ROW.search(line):
            in_html_row = True
        if "</tr" in line.lower():
            in_html_row = False
        if not _LINK.search(line) or _BADGE_ONLY.match(line):
            continue
        if in_html_row or _HTML_ROW.search(line):
            out.append(Layout.HTML)
        elif _ROW.match(line) and not _DELIMITER.match(line):
            out.append(Layout.PIPE)
        elif _ITEM.match(line):
            out.append(Layout.LIST)
        else:
            out.append(Layout.OTHER)
    return out


# -- writing ------------------------------------------------------------------------------------
def _link(text: str, url: str) -> str:
    """`[text](url)`, the URL in angle brackets when it holds a space or parenthesis."""
    target = f"<{url}>" if re.search(r"[\s()<>]", url) else url
    return f"[{cell(text)}]({target})"


def _label(link: Link) -> str:
    """What a secondary link is called: its role, capitalised (`Code`, `Website`)."""
    return {"paper": "Paper", "code": "Code", "repo": "GitHub"}.get(link.role, link.role.title())


def _summary(entry: Entry) -> str:
    """The summary on one line, its bullets joined."""
    parts = [line.strip().lstrip("•-* ").strip() for line in entry.summary.split("\n")]
    return cell("; ".join(p for p in parts if p))


def paper_item(entry: Entry, bullet: str = "-") -> str:
    """`- [Title](paper link) (date) · [Code](url) — summary`."""
    first, *rest = entry.links or ()
    head = _link(entry.title, first.url) if entry.links else cell(entry.title)
    out = f"{bullet} {head}" + (f" ({cell(entry.date)})" if entry.date else "")
    if rest:
        out += " · " + " · ".join(_link(_label(lk), lk.url) for lk in rest)
    summary = _summary(entry)
    return out + (f" — {summary}" if summary else "")


def project_item(entry: Entry, bullet: str = "-") -> str:
    """`- [name](repository) · [Website](url) — summary`."""
    return paper_item(entry, bullet)


def paper_rows(papers: list[Entry]) -> list[str]:
    """A pipe table of papers: date, title (linked), other links, summary when any has one."""
    described = any(p.summary for p in papers)
    head = ["Date", "Paper", "Links", *(["Summary"] if described else [])]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for paper in papers:
        first, *rest = paper.links or ()
        title = _link(paper.title, first.url) if paper.links else cell(paper.title)
        links = " ".join(_link(_label(lk), lk.url) for lk in rest)
        row = [cell(paper.date), title, links, *([_summary(paper)] if described else [])]
        lines.append("| " + " | ".join(row) + " |")
    return lines


def list_block(papers: list[Entry], projects: list[Entry], bullet: str) -> list[str]:
    """A section as a Markdown list: papers, then projects."""
    lines = [paper_item(p, bullet) for p in papers]
    lines += [project_item(p, bullet) for p in projects]
    return ["", *lines, ""] if lines else []


def pipe_block(papers: list[Entry], projects: list[Entry]) -> list[str]:
    """A section as pipe tables: papers, then projects."""
    lines: list[str] = []
    if papers:
        lines += ["", *paper_rows(papers), ""]
    if projects:
        lines += ["", *project_table(projects), ""]
    return lines
