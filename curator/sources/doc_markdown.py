"""The Markdown side of an awesome-list document: headings, table rows, links, HTML blocks.

Parsed with markdown-it-py (CommonMark plus GFM tables); token `.map` gives the lines.
Code blocks are skipped whole, and HTML comments stay inside their HTML tokens, so links in
either never reach the caller.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from markdown_it import MarkdownIt
from markdown_it.token import Token

# A bare URL inside one text run of a cell (GitHub autolinks these); small and local on purpose.
_BARE_URL = re.compile(r"https?://[^\s<>\[\]()|\"']+")
_TRAILING = ".,;:!?"


@dataclass(frozen=True)
class MdLink:
    """A link as written: target, visible text, line, and whether it only wraps an image."""

    url: str
    text: str
    line: int
    image_only: bool = False


@dataclass
class MdCell:
    """A table cell: its plain text (links' text included, images left out) and links."""

    text: str = ""
    links: list[MdLink] = field(default_factory=list)


@dataclass
class MdRow:
    """A body row of a Markdown table with the header texts of its table."""

    line: int
    headers: list[str]
    cells: list[MdCell]


@dataclass
class MdScan:
    """Everything the document reader needs from the Markdown layer."""

    html: list[tuple[int, str]] = field(default_factory=list)
    headings: list[tuple[int, str]] = field(default_factory=list)
    rows: list[MdRow] = field(default_factory=list)
    loose: list[MdLink] = field(default_factory=list)


def scan_markdown(text: str) -> MdScan:
    """Walk the token stream once and sort what it holds into an MdScan."""
    tokens = MarkdownIt("commonmark").enable("table").parse(text)
    scan = MdScan()
    headers: list[str] = []
    row: MdRow | None = None
    in_head = False
    for i, tok in enumerate(tokens):
        line = tok.map[0] + 1 if tok.map else 0
        if tok.type == "html_block":
            scan.html.append((line, tok.content))
        elif tok.type == "heading_open":
            scan.headings.append((line, read_inline(tokens[i + 1]).text.strip()))
        elif tok.type == "thead_open":
            in_head, headers = True, []
        elif tok.type == "tbody_open":
            in_head = False
        elif tok.type == "tr_open" and not in_head:
            row = MdRow(line, headers, [])
        elif tok.type == "tr_close" and row is not None:
            scan.rows.append(row)
            row = None
        elif tok.type == "inline":
            _place_inline(tok, tokens[i - 1], scan, headers, row, in_head)
    return scan


def _place_inline(
    tok: Token, before: Token, scan: MdScan, headers: list[str], row: MdRow | None, in_head: bool
) -> None:
    """An inline run is a header text, a body cell, a heading (read elsewhere) or prose."""
    if before.type == "heading_open":
        return
    cell = read_inline(tok)
    if before.type == "th_open" and in_head:
        headers.append(cell.text.strip())
    elif before.type in {"td_open", "th_open"} and row is not None:
        row.cells.append(cell)
    else:
        scan.loose.extend(cell.links)


def read_inline(tok: Token) -> MdCell:
    """Plain text and links of one inline token, each link with its own line."""
    cell = MdCell()
    line = (tok.map[0] + 1) if tok.map else 0
    link: list[str] | None = None  # [href, text, saw_image, saw_text]
    for child in tok.children or []:
        if child.type in {"softbreak", "hardbreak"}:
            line += 1
            cell.text += "\n"
        elif child.type == "link_open":
            link = [str(child.attrs.get("href", "")), "", "", ""]
        elif child.type == "link_close" and link is not None:
            only_image = bool(link[2]) and not link[3].strip()
            cell.links.append(MdLink(link[0], link[1].strip(), line, only_image))
            link = None
        elif child.type == "image":
            if link is not None:
                link[2] = "image"
        elif child.type == "html_inline":
            if child.content.lower().startswith("<br"):
                cell.text += "\n"
        elif child.type in {"text", "code_inline"}:
            cell.text += child.content
            if link is not None:
                link[1] += child.content
                link[3] += child.content
            elif child.type == "text":
                cell.links.extend(bare_urls(child.content, line))
    return cell


def bare_urls(text: str, line: int) -> list[MdLink]:
    """Bare http(s) URLs in one text run, as GitHub would autolink them."""
    found = []
    for match in _BARE_URL.finditer(text):
        url = match.group(0).rstrip(_TRAILING)
        found.append(MdLink(url, url, line))
    return found
