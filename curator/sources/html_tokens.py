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
from dataclasses import dataclass, field

_TAG = re.compile(r"<(/?)([A-Za-z][^\t\n\f\r />]*)")
_STOP = re.compile(r"[>\"']")
_ATTR = re.compile(
    r"""([^\t\n\f\r />=][^\t\n\f\r />=]*)(?:[\t\n\f\r ]*=[\t\n\f\r ]*"""
    r"""(?:"([^"]*)"|'([^']*)'|([^\t\n\f\r >]+)))?"""
)
#: Elements whose content is text, not markup (HTML's raw text and escapable raw text).
RAW_TEXT = {"script", "style", "textarea", "title", "xmp", "iframe", "noembed", "noframes"}


@dataclass(frozen=True)
class Tag:
    """A start or end tag: lower-case name, attributes (first of a name wins), line."""

    name: str
    line: int
    end: bool = False
    attrs: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Text:
    """A run of text, character references decoded, with the line it starts on."""

    text: str
    line: int


def attributes(raw: str) -> dict[str, str]:
    """The attributes of a tag's inside, names lower-cased, values decoded."""
    found: dict[str, str] = {}
    for m in _ATTR.finditer(raw):
        value = next((g for g in m.group(2, 3, 4) if g is not None), "")
        found.setdefault(m.group(1).lower(), html.unescape(value))
    return found


class _Cursor:
    """A position in the text and the line it is on, moved forward only."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self._line, self._counted = 1, 0

    def line_at(self, pos: int) -> int:
        """The 1-based line of `pos` (positions are asked for in increasing order)."""
        self._line += self.text.count("\n", self._counted, pos)
        self._counted = pos
        return self._line


def tokens(text: str) -> Iterator[Tag | Text]:
    """The tags and text runs of `text`, in order."""
    cur = _Cursor(text)
    while cur.pos < len(text):
        lt = text.find("<", cur.pos)
        if lt < 0:
            yield Text(html.unescape(text[cur.pos :]), cur.line_at(cur.pos))
            return
        if lt > cur.pos:
            yield Text(html.unescape(text[cur.pos : lt]), cur.line_at(cur.pos))
        step = _markup(cur, lt)
        if step is None:
            return  # a construct that never closes: the rest of the input is inside it
        if isinstance(step, int):
            cur.pos = step
            continue
        yield step
        if isinstance(step, Tag) and not step.end and step.name in RAW_TEXT:
            closing = re.compile(rf"</{re.escape(step.name)}[\t\n\f\r />]", re.IGNORECASE)
            found = closing.search(text, cur.pos)
            if found is None:
                return
            cur.pos = found.start()


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
