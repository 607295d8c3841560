"""Every link and image target of a document, the anchors it defines, and where each stands.

Pure. One walk of markdown-it's tokens (the reader's own parse) and of the document's HTML
blocks gives: each link and image target as written with its line and its *group* (a table
cell, a line of a paragraph or list item, an HTML cell or list item: where a badge sits
beside the link it describes); every heading's text (Markdown ATX and setext, HTML `<h1>`
to `<h6>`) in document order; and every explicit anchor (`id=` on any element, `name=` on
`<a>`). Code spans and blocks are not links; HTML comments never reach the walk.

GitHub's heading anchors (`slugs`) follow GitHub's own renderer (Ruby's `[^\\p{Word}\\- ]`
removed; github-slugger does the same): lower case; every character that is not a letter,
mark, decimal or letter number, connector (`_`), hyphen or space dropped (punctuation,
symbols, emoji); each space a hyphen; a repeated slug gets `-1`, `-2`, … in document order.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property

from markdown_it.token import Token

from curator.sources.html_tokens import Tag, Text, tokens

# GitHub renders `:rocket:` shortcodes as emoji, which the slug drops.
_SHORTCODE = re.compile(r":[a-z0-9_+-]+:")
_VARIATION = re.compile("[\ufe00-\ufe0f]")
_HEADINGS = {"h1", "h2", "h3", "h4", "h5", "h6"}
_GROUPS = {"td", "th", "li", "p", "tr"}
#: The HTML elements whose tags the walk reads beyond an `id`.
_READ = _HEADINGS | _GROUPS | {"a", "img", "source", "video", "audio"}


@dataclass(frozen=True, slots=True)
class Target:
    """A link (`image` False) or image target as written, its line and its group."""

    url: str
    line: int
    image: bool
    group: tuple[int, int]
    row: int = 0  # the line of the table row it stands in (0: none)


@dataclass
class Targets:
    """What the walk found (see the module docstring)."""

    targets: list[Target] = field(default_factory=list)
    headings: list[tuple[int, str]] = field(default_factory=list)
    ids: set[str] = field(default_factory=set)

    def anchors(self) -> Anchors:
        """Every fragment the rendered document answers, lower-cased: GitHub's own anchors
        and the explicit ones, and the aliases accepted beside them (`slugs`)."""
        own, aliases = slugs(text for _, text in sorted(self.headings, key=lambda h: h[0]))
        return Anchors(own | {i.lower() for i in self.ids}, aliases)


@dataclass(frozen=True)
class Anchors:
    """The anchors of one document: its own (what a suggestion may name), and aliases a
    link may use without a finding."""

    own: set[str]
    aliases: set[str]

    @cached_property
    def by_loose(self) -> dict[str, list[str]]:
        """The own anchors by their letters and digits alone (how a suggestion is found)."""
        out: dict[str, list[str]] = {}
        for anchor in sorted(self.own):
            out.setdefault(loose(anchor), []).append(anchor)
        return out

    def __contains__(self, fragment: object) -> bool:
        return fragment in self.own or fragment in self.aliases


def loose(text: str) -> str:
    """Only the letters and digits of `text`."""
    return "".join(ch for ch in text if ch.isalnum())


def slug(text: str) -> str:
    """GitHub's anchor for a heading's text (before repeats are numbered)."""
    kept = (ch for ch in text.lower() if ch in "-_ " or _word(ch))
    return "".join(kept).replace(" ", "-")


def _word(ch: str) -> bool:
    """Ruby's `\\p{Word}`, which GitHub keeps: letters, marks, decimal and letter numbers,
    connectors (`_`); not other numbers (`²`, `①`)."""
    category = unicodedata.category(ch)
    return category[0] in "LM" or category in {"Nd", "Nl", "Pc"}


def slugs(texts: Iterable[str]) -> tuple[set[str], set[str]]:
    """The anchors of headings in document order (github-slugger's numbering of repeats),
    and their aliases: a heading with `:shortcodes:` also answers to the slug that keeps
    their words, so an unknown shortcode (which GitHub shows as text) is never a false
    finding; an anchor with an emoji's variation selector (a mark, so kept, and invisible
    in a link as written) also answers without it, and one with an outer space without
    the hyphen it makes."""
    seen: dict[str, int] = {}
    out: set[str] = set()
    aliases: set[str] = set()
    for text in texts:
        variants = [_SHORTCODE.sub("", text)]
        if variants[0] != text:
            variants.append(text)
        for n, variant in enumerate(variants):
            base = slug(variant)
            if n:
                aliases.add(base)
                continue
            value = base
            while value in seen:
                seen[base] += 1
                value = f"{base}-{seen[base]}"
            seen[value] = 0
            out.add(value)
            aliases.add(_VARIATION.sub("", value))
            # Text beside an inline comment (`## Contents <!-- omit in toc -->`) keeps its
            # space in GitHub's text; a link written without the hyphen it makes is accepted.
            aliases.add(slug(_SHORTCODE.sub("", text.strip())))
    return out, aliases - out


class _Walk:
    """The walk's state: the row and cell being read, the heading open in HTML."""

    def __init__(self) -> None:
        self.found = Targets()
        self.row_line = 0
        self.cell = 0

    def markdown(self, toks: list[Token]) -> None:
        """Targets, headings and anchors of the Markdown tokens."""
        heading = False
        for tok in toks:
            kind = tok.type
            if kind == "tr_open":
                self.row_line = tok.map[0] + 1 if tok.map else 0
                self.cell = 0
            elif kind in {"td_open", "th_open"}:
                self.cell += 1
            elif kind == "tr_close":
                self.row_line = 0
            elif kind == "heading_open":
                heading = True
            elif kind == "inline":
                line = tok.map[0] + 1 if tok.map else 0
                text = self.inline(tok.children or [], self.row_line or line)
                if heading:
                    self.found.headings.append((line, text))
                heading = False

    def inline(self, children: list[Token], line: int) -> str:
        """The targets of one inline run; its text content (a heading's slug is made of it)."""
        parts: list[str] = []
        in_row = self.row_line > 0
        for child in children:
            kind = child.type
            group = (line, self.cell if in_row else 0, self.row_line)
            if kind in {"text", "code_inline"}:
                parts.append(child.content)
                line += 0 if in_row else child.content.count("\n")
            elif kind in {"softbreak", "hardbreak"}:
                parts.append(" " if kind == "softbreak" else "")
                line += 0 if in_row else 1
            elif kind == "link_open":
                self.add(str(child.attrs.get("href", "")), line, False, group)
            elif kind == "image":
                self.add(str(child.attrs.get("src", "")), line, True, group)
            elif kind == "html_inline":
                for tag in tokens(child.content):
                    if isinstance(tag, Tag):
                        self.tag(tag, line, group)
        return "".join(parts)

    def add(self, url: str, line: int, image: bool, group: tuple[int, int, int]) -> None:
        if url.strip():
            self.found.targets.append(Target(url.strip(), line, image, group[:2], group[2]))

    def tag(self, tag: Tag, line: int, group: tuple[int, int, int]) -> None:
        """The targets and anchors of one HTML start tag."""
        if tag.end:
            return
        attrs = tag.attrs
        if attrs.get("id"):
            self.found.ids.add(attrs["id"])
        if tag.name == "a" and attrs.get("name"):
            self.found.ids.add(attrs["name"])
        if tag.name == "a" and "href" in attrs:
            self.add(attrs["href"], line, False, group)
        if tag.name in {"img", "source", "video", "audio"} and "src" in attrs:
            self.add(attrs["src"], line, True, group)
        if tag.name in {"img", "source"} and "srcset" in attrs:
            for part in attrs["srcset"].split(","):
                words = part.split()
                if words:
                    self.add(words[0], line, True, group)

    def html(self, fragments: list[tuple[int, str]]) -> None:
        """Targets, headings and anchors of the HTML blocks, with document lines."""
        for first, body in fragments:
            self.block(first, body)

    def block(self, first: int, body: str) -> None:
        """One HTML block (`first`: its first line). Most tags of a list are none of those
        read here (`strong`, `br`, `div`): they cost one set look-up and an `id` check."""
        group = (first, 0, 0)
        row = 0
        heading: list[str] | None = None
        heading_line = 0
        count = 0
        ids = self.found.ids
        for tok in tokens(body):
            if tok.__class__ is Text:
                if heading is not None:
                    heading.append(tok.text)
                continue
            assert isinstance(tok, Tag)
            name = tok.name
            if name not in _READ:
                if not tok.end and tok.attrs.get("id"):
                    ids.add(tok.attrs["id"])
                continue
            line = first + tok.line - 1
            if name == "tr":
                row = 0 if tok.end else line
            if name in _GROUPS and not tok.end:
                count += 1
                group = (line, count, row)
            if name in _HEADINGS:
                if tok.end and heading is not None:
                    self.found.headings.append((heading_line, " ".join("".join(heading).split())))
                    heading = None
                elif not tok.end:
                    heading, heading_line = [], line
            self.tag(tok, line, group)


def walk(toks: list[Token], html: list[tuple[int, str]]) -> Targets:
    """The targets, headings and anchors of a document (its tokens and HTML blocks)."""
    state = _Walk()
    state.markdown(toks)
    state.html(html)
    return state.found
