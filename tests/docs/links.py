"""The links of a Markdown page and the anchors GitHub gives its headings.

Links are read with markdown-it-py (Markdown links and images, reference links, and the
`href`/`src` of raw HTML), so nothing inside a code block counts. Anchors follow GitHub's
rules (github-slugger): the heading's text, lower-cased, without punctuation, each space a
hyphen; a repeated heading gets `-1`, `-2`, …; `id`/`name` attributes of raw HTML count too.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from urllib.parse import unquote

from markdown_it import MarkdownIt
from markdown_it.token import Token

MD = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])
_HTML_TARGET = re.compile(r"""\b(?:href|src)\s*=\s*["']([^"']*)["']""", re.I)
_HTML_ANCHOR = re.compile(r"""\b(?:id|name)\s*=\s*["']([^"']+)["']""", re.I)
_SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*:", re.I)
#: What github-slugger removes: anything but letters, marks, numbers, `_`, `-` and spaces.
_NOT_SLUG = re.compile(r"[^\w\- ]", re.UNICODE)


def slug(text: str) -> str:
    """GitHub's anchor for a heading whose text is `text`."""
    return _NOT_SLUG.sub("", text.strip().lower()).replace(" ", "-")


def tokens(parsed: list[Token]) -> Iterator[Token]:
    """Every token, children included."""
    for token in parsed:
        yield token
        if token.children:
            yield from tokens(token.children)


def _heading_text(inline: Token) -> str:
    """The text of a heading as GitHub reads it: code spans' text kept, markup and HTML not."""
    parts = [c.content for c in inline.children or [] if c.type in ("text", "code_inline")]
    return "".join(parts)


@cache
def anchors(path: Path) -> frozenset[str]:
    """Every anchor of a Markdown file: its headings' (de-duplicated as GitHub does) and the
    `id`/`name` attributes of its raw HTML."""
    parsed = MD.parse(path.read_text(encoding="utf-8"))
    seen: dict[str, int] = {}
    out: set[str] = set()
    for i, token in enumerate(parsed):
        if token.type == "heading_open":
            base = slug(_heading_text(parsed[i + 1]))
            n = seen.get(base, 0)
            seen[base] = n + 1
            out.add(base if n == 0 else f"{base}-{n}")
    for token in tokens(parsed):
        if token.type in ("html_block", "html_inline"):
            out.update(_HTML_ANCHOR.findall(token.content))
    return frozenset(out)


def targets(path: Path) -> list[str]:
    """Every link and image target of a Markdown file, in order."""
    out: list[str] = []
    for token in tokens(MD.parse(path.read_text(encoding="utf-8"))):
        if token.type == "link_open":
            out.append(str(token.attrs.get("href", "")))
        elif token.type == "image":
            out.append(str(token.attrs.get("src", "")))
        elif token.type in ("html_block", "html_inline"):
            out.extend(_HTML_TARGET.findall(token.content))
    return out


def broken(path: Path, root: Path) -> list[str]:
    """The relative links of `path` that lead nowhere: a missing file, a path outside `root`,
    or an anchor the target Markdown file does not have."""
    problems = []
    for target in targets(path):
        if not target or _SCHEME.match(target) or target.startswith("//"):
            continue
        file_part, _, anchor = target.partition("#")
        where = (path.parent / unquote(file_part)).resolve() if file_part else path.resolve()
        if root.resolve() not in (where, *where.parents):
            problems.append(f"{target}: outside the repository")
        elif not where.exists():
            problems.append(f"{target}: no such file")
        elif anchor and where.suffix == ".md" and unquote(anchor) not in anchors(where):
            problems.append(f"{target}: no heading or anchor #{anchor}")
    return problems
