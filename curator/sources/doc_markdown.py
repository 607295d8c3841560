"""The Markdown side of an awesome-list document: headings, units of links, HTML fragments.

Parsed with markdown-it-py (CommonMark plus GFM tables); token `.map` gives the lines. Every
link is kept with its line: Markdown links, autolinks, bare URLs (GitHub autolinks them),
plain-text `arXiv:ID`s and `<a href>` written inline. Links are grouped into units (see
`doc_units`): a list item's own paragraph, one line of another paragraph, a table row, a
code block (only its arXiv and GitHub links count). HTML blocks are handed on whole, with
their first line, for `doc_html`; HTML comments never reach either side.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock
from markdown_it.rules_core.state_core import StateCore
from markdown_it.token import Token

from curator.core.normalize import as_written_url
from curator.sources.doc_units import (
    Anchor,
    Cell,
    LineBuilder,
    Unit,
    UnitKind,
    bare_links,
    clean,
    code_links,
)
from curator.sources.html_tokens import Tag, tokens


@dataclass
class MdScan:
    """What the document reader needs from the Markdown layer."""

    units: list[Unit] = field(default_factory=list)
    html: list[tuple[int, str]] = field(default_factory=list)
    headings: list[tuple[int, str]] = field(default_factory=list)
    levels: list[int] = field(default_factory=list)  # each heading's level, 1 for `#`
    #: Reference definitions: (label, first line, last line); a definition hidden by an
    #: earlier one of the same label has the label "".
    definitions: list[tuple[str, int, int]] = field(default_factory=list)
    #: The first line of each block nested past `FLAT_FROM` levels, read as plain lines.
    flat: list[int] = field(default_factory=list)
    #: markdown-it's tokens, for the walk of link targets and anchors (`doc_targets`).
    tokens: list[Token] = field(default_factory=list)


def tag_of(text: str) -> tuple[str, bool, dict[str, str]] | None:
    """(name, closing, attributes) of one inline HTML tag, or None for anything else.

    Read by the same tokenizer as HTML blocks, so both agree with a browser (the first of
    two `href`s is the link)."""
    found = next(iter(tokens(text.strip())), None)
    return (found.name, found.end, found.attrs) if isinstance(found, Tag) else None


class _Inline:
    """Reads the children of one inline token into lines."""

    __slots__ = ("em", "kind", "line", "lines", "link", "run", "strong")

    def __init__(self, kind: UnitKind, line: int) -> None:
        self.kind = kind
        self.lines = [LineBuilder(kind, line)]
        self.line = line
        self.strong = 0
        self.em = 0
        # [href, text, saw_image, saw_text, line, alt, reference label]
        self.link: list[str] | None = None
        self.run = ""  # the bold or emphasis text being read

    @property
    def current(self) -> LineBuilder:
        return self.lines[-1]

    def newline(self, source_line: bool = True) -> None:
        """A line break: a new source line, or a `<br>` (a break on the page only)."""
        self.line += source_line
        if self.link is not None or self.strong or self.em:
            self.current.text("\n", bool(self.strong), bool(self.em), self.link is not None)
            # The break separates words in the link's text and the bold run too ("via\nLearning").
            self.run += " " if self.strong or self.em else ""
            if self.link is not None:
                self.link[1] += " "
            return  # a link or bold run that wraps keeps its line together
        self.lines.append(LineBuilder(self.kind, self.line))

    def text(self, text: str, code: bool = False) -> None:
        link, line = self.link, self.lines[-1]
        line.text(text, self.strong > 0, self.em > 0, link is not None)
        if self.strong or self.em:
            self.run += text
        if link is not None:
            link[1] += text
            link[3] += text
        elif not code:
            for anchor in bare_links(text, self.line):
                line.link(anchor)

    def open_link(self, href: str, label: str = "") -> None:
        self.close_link()
        self.link = [href.strip(), "", "", "", str(self.line), "", label]
        self.current.freeze()

    def close_link(self) -> None:
        if self.link is None:
            return
        href, text, image, seen, line, alt, label = self.link
        self.link = None
        if href:
            only_image = bool(image) and not seen.strip()
            # A badge link reads as its image's alt text (`[![Paper](…)](venue)`), as in HTML.
            shown = clean(alt if only_image else text)
            url = as_written_url(href)
            self.current.link(Anchor(url, shown, int(line), only_image, label=label))

    def style(self, which: str, opening: bool) -> None:
        depth = 1 if opening else -1
        if which == "strong":
            self.strong = max(0, self.strong + depth)
        else:
            self.em = max(0, self.em + depth)
        self.current.freeze()
        if opening:
            self.run = ""
        elif self.run.strip():
            runs = self.current.strong if which == "strong" else self.current.emphasis
            runs.append(clean(self.run))
            self.run = ""

    def html(self, content: str) -> None:
        tag = tag_of(content)
        if tag is None:
            return  # a comment, a declaration or stray text: nothing to read
        name, closing, attrs = tag
        if name == "a":
            self.close_link() if closing else self.open_link(attrs.get("href", ""))
        elif name == "br":
            self.newline(source_line=False)
        elif name == "img" and self.link is not None:
            self.link[2] = "image"
            self.link[5] += " " + attrs.get("alt", "")
        elif name in {"b", "strong"}:
            self.style("strong", not closing)
        elif name in {"i", "em"}:
            self.style("em", not closing)


def heading_title(unit: Unit) -> str:
    """A heading's text without its in-page navigation links (`### Topic ([To Top](#top))`)."""
    title = clean(unit.text)
    for anchor in unit.links:
        if anchor.url.startswith("#") and anchor.text:
            title = title.replace(anchor.text, "")
    shown = clean(re.sub(r"\(\s*\)|\[\s*\]", "", title)) if title != clean(unit.text) else title
    return shown or clean(unit.text)


#: Emphasis tokens: (which style, opening).
_STYLES = {
    "strong_open": ("strong", True), "strong_close": ("strong", False),
    "em_open": ("em", True), "em_close": ("em", False),
}  # fmt: skip


def read_inline(tok: Token, kind: UnitKind) -> list[LineBuilder]:
    """The lines of one inline token, each with its own line number."""
    reader = _Inline(kind, tok.map[0] + 1 if tok.map else 0)
    for child in tok.children or []:
        kind_ = child.type
        # Most frequent first: a list's inline runs are mostly text, links and bold.
        if kind_ == "text" or kind_ == "code_inline":
            reader.text(child.content, code=kind_ == "code_inline")
        elif kind_ == "link_open":
            # store_labels: markdown-it names the definition a reference link came from.
            label = child.meta.get("label", "") if child.meta else ""
            reader.open_link(str(child.attrs.get("href", "")), label)
        elif kind_ == "link_close":
            reader.close_link()
        elif kind_ in _STYLES:
            reader.style(*_STYLES[kind_])
        elif kind_ == "softbreak" or kind_ == "hardbreak":
            reader.newline()
        elif kind_ == "image":
            if reader.link is not None:
                reader.link[2] = "image"
                reader.link[5] += " " + child.content
        elif kind_ == "html_inline":
            reader.html(child.content)
    reader.close_link()
    return reader.lines


def group_lines(lines: list[LineBuilder]) -> list[Unit]:
    """Lines to units: a new unit at each line with links once the current one has some."""
    groups: list[LineBuilder] = []
    for line in lines:
        if groups and not (line.links and groups[-1].links):
            groups[-1].absorb(line)
        else:
            groups.append(line)
    return [g.build() for g in groups]


def as_cell(lines: list[LineBuilder]) -> Cell:
    """A table cell from its inline lines (a `<br>` inside a cell does not split it)."""
    first = lines[0]
    for line in lines[1:]:
        first.absorb(line)
    # What `first.build()` would give, without the unit's lead and gaps a cell has no use for.
    text, lead = "".join(first.text_parts), "".join(first.pre_parts)
    return Cell(text=text, lead=lead, strong=first.strong, links=first.links)


def one_unit(lines: list[LineBuilder]) -> Unit:
    """All lines as one unit (a list item's paragraph, a table cell)."""
    first = lines[0]
    for line in lines[1:]:
        first.absorb(line)
    return first.build()


@dataclass
class _State:
    """Where the token walk stands: list items, quotes, table rows."""

    item_head: bool = False
    quote: int = 0
    in_head: bool = False
    headers: list[str] = field(default_factory=list)
    row: Unit | None = None
    items: list[Unit | None] = field(default_factory=list)  # the open list items' own units

    def context(self) -> str:
        """The title an enclosing list item states when it holds no link itself
        (`- **Title**` with the paper's links in a nested bullet)."""
        for unit in reversed(self.items[:-1]):
            if unit is not None:
                return "" if unit.links else clean(unit.strong[0] if unit.strong else unit.text)
        return ""


def _as_written(url: str) -> str:
    return url.strip()


class InlineParses:
    """The inline parses of one run's documents, by the text parsed, for each set of
    reference definitions in force: what a second reading of a document (a pull request's
    base revision of it) takes over for every paragraph, cell and heading it shares with
    the first, instead of parsing them again.

    markdown-it parses an inline run from its text, the parser's options and the document's
    reference definitions (a `[text][label]` link takes its target and title from them)
    and from nothing else; so an earlier parse of the same text under the same definitions
    is the same tokens. Readers only read the tokens, never change them."""

    __slots__ = ("_by_references",)

    def __init__(self) -> None:
        self._by_references: dict[tuple[tuple[str, str, str], ...], dict[str, list[Token]]] = {}

    def under(self, references: dict[str, Any]) -> dict[str, list[Token]]:
        """The parses (text -> child tokens) made under these reference definitions."""
        key = tuple(sorted((label, d["href"], d["title"]) for label, d in references.items()))
        return self._by_references.setdefault(key, {})

    def keep(self, tokens: list[Token], env: dict[str, Any]) -> None:
        """Remember the inline parses of a finished token stream (after every core rule)."""
        known = self.under(env.get("references", {}))
        for tok in tokens:
            if tok.type == "inline" and tok.children is not None:
                known.setdefault(tok.content, tok.children)


#: The key of a parse's `env` that holds the run's InlineParses (markdown-it gives rules
#: the env for such data).
_INLINES = "curator_inline_parses"


def _inline_rule(state: StateCore) -> None:
    """markdown-it's own `inline` core rule, taking the tokens of an inline run parsed before
    under the same reference definitions from the parse's InlineParses, when it has one.

    Those tokens already went through `text_join`, which leaves such a list as it is (it
    joins adjacent text tokens, and none are left)."""
    parses: InlineParses | None = state.env.get(_INLINES)
    known = parses.under(state.env.get("references", {})) if parses is not None else {}
    for token in state.tokens:
        if token.type != "inline":
            continue
        found = known.get(token.content)
        if found is not None:
            token.children = found
            continue
        if token.children is None:
            token.children = []
        state.md.inline.parse(token.content, state.md, state.env, token.children)


#: The key of a parse's `env` that lists the first line of each block read flat.
_FLAT = "curator_flat_lines"
#: The block nesting from which lists and quotes are read as plain lines (a list item is
#: two levels: the list and the item). Below markdown-it's own `maxNesting` (20), where its
#: block parser stops and skips the rest of the enclosing block: for a list item, every line
#: to the end of the document (`- - - - - - - - - - x` was the end of the reading).
FLAT_FROM = 18
#: The block rules that open a container (and parse its content one level deeper).
_CONTAINERS = {"blockquote", "list"}


def _flat_rule(md: MarkdownIt) -> Callable[[StateBlock, int, int, bool], bool]:
    """A block rule, tried first, that reads each block nested `FLAT_FROM` levels or deeper
    with the leaf rules alone (paragraph, fence, table, HTML, heading …): a list item or
    quote there is a paragraph's text (`- > x`), whose links are read. So the nesting stays
    bounded (no deeper recursion, no rescanning per level) and nothing after it is skipped.
    The first line of each block that would have opened a list or quote is listed in the
    parse's env (`_FLAT`), for the reader to name."""
    names, rules = md.block.ruler.get_active_rules(), md.block.ruler.getRules("")
    chain = [(rule, name in _CONTAINERS) for name, rule in zip(names, rules, strict=True)]

    def flat(state: StateBlock, start: int, end: int, silent: bool) -> bool:
        if state.level < FLAT_FROM:
            return False
        opens = False
        for rule, container in chain:
            if container:
                # Asked silently: would it open here? (The rules before it come first.)
                opens = opens or rule(state, start, end, True)
            elif rule(state, start, end, silent):
                if opens and not silent:
                    state.env.setdefault(_FLAT, []).append(start + 1)
                return True
        return False

    return flat


@cache
def _parser() -> MarkdownIt:
    """CommonMark plus tables; link targets kept as written (curator normalises them itself,
    and markdown-it's percent-encoding pass was a third of the parse time); inline runs
    parsed before in the run taken over (`InlineParses`); blocks nested past `FLAT_FROM`
    read flat (`_flat_rule`)."""
    md = MarkdownIt("commonmark", {"store_labels": True}).enable("table")
    md.normalizeLink = _as_written  # type: ignore[method-assign]
    md.core.ruler.at("inline", _inline_rule)
    md.block.ruler.before("table", "curator_flat", _flat_rule(md))
    return md


#: The token types `scan_markdown` and `_table_or_inline` act on; every other only ends an
#: item's head.
_READ = {
    "html_block", "code_block", "fence", "heading_open", "list_item_open", "list_item_close",
    "blockquote_open", "blockquote_close", "thead_open", "tbody_open", "tr_open", "tr_close",
    "paragraph_open", "inline",
}  # fmt: skip


def parse(text: str, inlines: InlineParses | None = None) -> tuple[list[Token], dict[str, Any]]:
    """markdown-it's tokens of `text` and its env (the reference definitions read), taking
    over and adding to the run's inline parses when given."""
    env: dict[str, Any] = {} if inlines is None else {_INLINES: inlines}
    tokens = _parser().parse(text, env)
    if inlines is not None:
        inlines.keep(tokens, env)
    return tokens, env


def scan_markdown(text: str, inlines: InlineParses | None = None) -> MdScan:
    """Walk the token stream once and sort what it holds into an MdScan (`inlines`: the
    run's inline parses, used and added to)."""
    tokens, env = parse(text, inlines)
    scan = MdScan(definitions=definitions(env), flat=env.get(_FLAT, []), tokens=tokens)
    state = _State()
    for i, tok in enumerate(tokens):
        kind = tok.type
        if kind not in {"list_item_open", "paragraph_open"}:
            state.item_head = False  # an item that opens with HTML or a list has no own text
        if kind not in _READ:
            continue  # closing tags of cells and paragraphs, rules, list openings
        line = tok.map[0] + 1 if tok.map else 0
        if kind == "html_block":
            scan.html.append((line, tok.content))
        elif kind in {"code_block", "fence"}:
            links = code_links(tok.content, line + (kind == "fence"))
            if links:
                scan.units.append(Unit(UnitKind.CODE, line, links=links, after=[""] * len(links)))
        elif kind == "heading_open":
            heading = group_lines(read_inline(tokens[i + 1], UnitKind.LINE))
            scan.headings.append((line, heading_title(heading[0]) if heading else ""))
            scan.levels.append(int(tok.tag[1:]) if tok.tag[1:].isdigit() else 1)
            scan.units.extend(u for u in heading if u.links)
        elif kind == "list_item_open":
            state.item_head = True
            state.items.append(None)
        elif kind == "list_item_close":
            state.items.pop()
        elif kind == "blockquote_open":
            state.quote += 1
        elif kind == "blockquote_close":
            state.quote -= 1
        else:
            _table_or_inline(tok, tokens[i - 1] if i else tok, state, scan, line)
    return scan


def definitions(env: dict[str, Any]) -> list[tuple[str, int, int]]:
    """(label, first line, last line) of every reference definition markdown-it read."""
    found = [(label, ref.get("map")) for label, ref in env.get("references", {}).items()]
    # A later definition of a label is hidden by the first: no link uses it (label "").
    found += [("", ref.get("map")) for ref in env.get("duplicate_refs", [])]
    return [(label, where[0] + 1, where[1]) for label, where in found if where]


def _table_or_inline(tok: Token, before: Token, state: _State, scan: MdScan, line: int) -> None:
    """Table structure and the inline runs of paragraphs and cells."""
    kind = tok.type
    if kind == "thead_open":
        state.in_head, state.headers = True, []
    elif kind == "tbody_open":
        state.in_head = False
    elif kind == "tr_open" and not state.in_head:
        state.row = Unit(UnitKind.QUOTE if state.quote else UnitKind.ROW, line)
        state.row.headers = state.headers
    elif kind == "tr_close" and state.row is not None:
        scan.units.append(state.row)
        state.row = None
    elif kind == "paragraph_open":
        state.item_head, head = False, state.item_head
        tok.meta["head"] = head
    elif kind == "inline" and before.type != "heading_open":
        _inline(tok, before, state, scan)


def _inline(tok: Token, before: Token, state: _State, scan: MdScan) -> None:
    """Place one inline run: a header text, a body cell, or the units of a paragraph."""
    if before.type == "th_open" and state.in_head:
        state.headers.append(clean(as_cell(read_inline(tok, UnitKind.ROW)).text))
        return
    if before.type in {"td_open", "th_open"} and state.row is not None:
        state.row.cells.append(as_cell(read_inline(tok, UnitKind.ROW)))
        return
    head = before.type == "paragraph_open" and bool(before.meta.get("head")) and bool(state.items)
    kind = UnitKind.QUOTE if state.quote else (UnitKind.ITEM if head else UnitKind.LINE)
    lines = read_inline(tok, kind)
    if kind is UnitKind.ITEM:
        unit = one_unit(lines)
        unit.context = state.context()
        state.items[-1] = unit
        scan.units.append(unit)
    else:
        scan.units.extend(group_lines(lines))
