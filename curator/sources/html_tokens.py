"""A linear-time HTML tokenizer: start tags with attributes, end tags and text, with lines.

It follows the HTML5 tokenizer where it decides what is markup: comments end at `-->` (or at
once for `<!-->` and `<!--->`) and run to the end when unterminated; `<!…>`, `<?…>` and `</`
not followed by a letter are bogus comments up to `>`; quoted attribute values may hold `>`;
the text of `script`, `style`, `textarea`, `title` and the like is not markup; a `<` that
opens no tag is text; character references are decoded in text and attribute values.

Why not `html.parser`: it rescans an unterminated comment from its start for every chunk it
reads, which is quadratic (a few hundred kilobytes of `<!--` kept `check` busy for minutes),
and it spends most of its time on attributes nobody reads. Here every search either moves
forward or ends the input (a construct that never closes consumes the rest, as in a browser),
so the work is linear in the size of the document.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from functools import lru_cache
from typing import NamedTuple

_TAG = re.compile(r"<(/?)([A-Za-z][^\t\n\f\r />]*)")
# A run of text and the whole tag after it in one match, for the common case: the tag's name
# as `_TAG` reads it, then attribute text in which every quote opens a value right after `=`
# (as `_tag_end` decides), up to `>`. Possessive quantifiers never backtrack, so a failed tag
# costs no more than `_tag_end`'s own scan; any other shape (a comment, a stray quote, no `>`)
# leaves the tag groups unmatched and takes the general path.
_RUN_AND_TAG = re.compile(
    r"""([^<]*+)(?:<(/?)([A-Za-z][^\t\n\f\r />]*+)"""
    r"""((?:[^>"'=]++|=\s*+"[^"]*+"|=\s*+'[^']*+'|=)*+)>)?"""
)
_STOP = re.compile(r"[>\"']")
_ATTR = re.compile(
    r"""([^\t\n\f\r />=][^\t\n\f\r />=]*)(?:[\t\n\f\r ]*=[\t\n\f\r ]*"""
    r"""(?:"([^"]*)"|'([^']*)'|([^\t\n\f\r >]+)))?"""
)
#: Elements whose content is text, not markup (HTML's raw text and escapable raw text).
RAW_TEXT = {"script", "style", "textarea", "title", "xmp", "iframe", "noembed", "noframes"}


class Tag(NamedTuple):
    """A start or end tag: lower-case name, line, end tag or not, attributes (first of a
    name wins). A tuple: a document holds hundreds of thousands of them."""

    name: str
    line: int
    end: bool
    attrs: dict[str, str]


class Text(NamedTuple):
    """A run of text, character references decoded, with the line it starts on."""

    text: str
    line: int


def attributes(raw: str) -> dict[str, str]:
    """The attributes of a tag's inside, names lower-cased, values decoded."""
    return dict(_attribute_pairs(raw)) if raw else {}


@lru_cache(maxsize=4096)
def _attribute_pairs(raw: str) -> tuple[tuple[str, str], ...]:
    # Lists repeat the same attributes (`rowspan="2"`, a badge's `src` and `alt`) thousands
    # of times; the pairs are immutable, each tag still gets a dict of its own.
    found: dict[str, str] = {}
    for m in _ATTR.finditer(raw):
        value = next((g for g in m.group(2, 3, 4) if g is not None), "")
        found.setdefault(m.group(1).lower(), html.unescape(value))
    return tuple(found.items())


class _Cursor:
    """A position in the text and the line it is on, moved forward only."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.line, self.counted = 1, 0  # the line of position `counted`

    def line_at(self, pos: int) -> int:
        """The 1-based line of `pos` (positions are asked for in increasing order)."""
        self.line += self.text.count("\n", self.counted, pos)
        self.counted = pos
        return self.line


def tokens(text: str) -> Iterator[Tag | Text]:
    """The tags and text runs of `text`, in order."""
    cur = _Cursor(text)
    size, count, run = len(text), text.count, _RUN_AND_TAG.match
    # The cursor's state is kept in locals on the common path (text, then a tag read whole)
    # and handed to `_markup` for everything else.
    pos, line, counted = 0, 1, 0
    while pos < size:
        m = run(text, pos)
        assert m is not None  # the text run may be empty: the pattern matches everywhere
        lt = m.end(1)  # the `<` after the text, or the end of the input
        if lt > pos:
            line += count("\n", counted, pos)
            counted = pos
            chunk = m.group(1)
            yield Text(html.unescape(chunk) if "&" in chunk else chunk, line)
        if m.start(3) >= 0:
            line += count("\n", counted, lt)
            counted, pos = lt, m.end()
            slash, name, inside = m.group(2, 3, 4)
            tag = Tag(name.lower(), line, bool(slash), {} if slash else attributes(inside))
            yield tag
            if slash or tag.name not in RAW_TEXT:
                continue
            step: Tag | Text | int | None = tag
        elif lt >= size:
            return
        else:
            cur.pos, cur.line, cur.counted = lt, line, counted
            step = _markup(cur, lt)
            pos, line, counted = cur.pos, cur.line, cur.counted
            if step is None:
                return  # a construct that never closes: the rest of the input is inside it
            if isinstance(step, int):
                pos = step
                continue
            yield step
        if isinstance(step, Tag) and not step.end and step.name in RAW_TEXT:
            closing_tag = re.compile(rf"</{re.escape(step.name)}[\t\n\f\r />]", re.IGNORECASE)
            found = closing_tag.search(text, pos)
            if found is None:
                return
            pos = found.start()


def _markup(cur: _Cursor, lt: int) -> Tag | Text | int | None:
    """What stands at `<`: a tag, or a `<` that opens nothing (text), with `cur.pos` moved
    past it; the position after a comment; None when it runs to the end of the input."""
    text = cur.text
    if text.startswith("<!--", lt):
        for short in ("<!-->", "<!--->"):
            if text.startswith(short, lt):
                return lt + len(short)
        end = text.find("-->", lt + 4)
        return None if end < 0 else end + 3
    m = _TAG.match(text, lt)
    if m is None:
        if text.startswith(("<!", "<?", "</"), lt):  # bogus comment, up to the next `>`
            end = text.find(">", lt + 2)
            return None if end < 0 else end + 1
        cur.pos = lt + 1
        return Text("<", cur.line_at(lt))
    close = _tag_end(text, m.end())
    if close is None:
        return None
    cur.pos = close + 1
    inside = text[m.end() : close]
    attrs = {} if m.group(1) else attributes(inside)
    return Tag(m.group(2).lower(), cur.line_at(lt), bool(m.group(1)), attrs)


def _tag_end(text: str, pos: int) -> int | None:
    """The index of the `>` that closes a tag, quoted attribute values skipped; None at EOF."""
    while True:
        stop = _STOP.search(text, pos)
        if stop is None:
            return None
        if text[stop.start()] == ">":
            return stop.start()
        quote = stop.start()
        # A quote opens a value only after `=`; elsewhere it is part of a name (HTML5 too).
        if not text[pos:quote].rstrip().endswith("="):
            pos = quote + 1
            continue
        end = text.find(text[quote], quote + 1)
        if end < 0:
            return None
        pos = end + 1
