"""Edits of an awesome-list document: the exact characters of an entry's title, date or links.

Pure. A finding names only its entry's first line; the entry's own text runs from there to
the next entry of the file, a blank line or a heading, whichever comes first (`region`).
Inside it the value is found as written: a title with its Markdown escapes or HTML entities
and any spacing, a date in any form the reader accepts (`2023-09`, `2023/9`, `2023.09.15`,
`2023年9月`), a link wherever its URL stands (a Markdown target, an `href`, a bare URL).
A value found nowhere or more than once is not guessed at: the caller leaves the finding.
New text is escaped for where it lands: HTML entities inside an HTML block, backslashes in
Markdown (a `|` in a table cell, `[`/`]`/`*`/`_` in link text or bold).
"""

from __future__ import annotations

import bisect
import html
import re
from dataclasses import dataclass, field
from functools import cached_property
from html.entities import codepoint2name

from curator.core.model import Entry, Finding
from curator.fix.model import Edit, code_spans, line_starts
from curator.fix.values import Change, Want, id_pattern, rewrite_url
from curator.sources.doc_markdown import scan_markdown
from curator.sources.document import git_lines


@dataclass
class DocText:
    """One document's text with what locating needs: where lines start, which lines are
    inside HTML blocks, and where entries start (every entry of the file, by line)."""

    file: str
    text: str
    starts: list[int]  # first lines of the file's entries, sorted
    _lines: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._lines = line_starts(self.text)

    def offset(self, line: int) -> int:
        """Offset of the first character of 1-based `line` (the text's end past the last)."""
        return self._lines[line - 1] if 0 < line <= len(self._lines) else len(self.text)

    def line_at(self, offset: int) -> int:
        """The 1-based line holding `offset`."""
        return bisect.bisect_right(self._lines, offset)

    @cached_property
    def html_lines(self) -> list[tuple[int, int]]:
        """(first, last) line of every HTML block: text there is HTML, not Markdown. In git's
        lines, as `line_at` counts: Markdown also ends a line at a lone CR."""
        git = git_lines(self.text)

        def at(line: int) -> int:
            return line if git is None else git[min(line, len(git) - 1)]

        return [(at(n), at(n + body.count("\n"))) for n, body in scan_markdown(self.text).html]

    def in_html(self, offset: int) -> bool:
        """True when `offset` stands inside an HTML block."""
        line = self.line_at(offset)
        return any(first <= line <= last for first, last in self.html_lines)

    def region(self, line: int) -> tuple[int, int]:
        """Offsets of the entry starting at `line`: up to the next entry's line, a blank line
        or a heading (the entry's own lines; a value beyond them is never another's)."""
        after = bisect.bisect_right(self.starts, line)
        end = self.starts[after] if after < len(self.starts) else len(self._lines) + 1
        for n in range(line + 1, end):
            body = self.text[self.offset(n) : self.offset(n + 1)].strip()
            if not body or body.startswith("#"):
                end = n
                break
        return self.offset(line), self.offset(end)


def edits_for(doc: DocText, want: Want, entry: Entry, finding: Finding) -> list[Edit] | None:
    """The edits that make `want` in `entry`'s own lines; None when the value cannot be found
    exactly once (a title or date) or at all (a link), or the new text cannot be written."""
    start, end = doc.region(entry.source.line)
    if want.change is Change.TITLE:
        return _title(doc, start, end, entry.title, want.new, finding)
    if want.change is Change.DATE:
        return _date(doc, start, end, entry.date, want.new, finding)
    if want.change is Change.ARXIV_ID:
        return _arxiv_id(doc, start, end, want, finding)
    return _links(doc, start, end, want, finding)


# -- titles -------------------------------------------------------------------------------
_SPACE = r"(?:\s|&nbsp;|&#160;|&#x[aA]0;)+"


def title_pattern(title: str, changed: tuple[str, str, str] | None = None) -> re.Pattern[str]:
    """The title as it may be written: any spacing, and every other character as itself,
    backslash-escaped, or an HTML entity (named, decimal or hexadecimal). With `changed`
    (the title split into what stays before, what changes, what stays after), the part that
    changes is the pattern's group 1."""
    before, middle, after = changed or ("", title, "")
    head = r"(?<![\w])" if title[:1].isalnum() else ""
    tail = r"(?![\w])" if title[-1:].isalnum() else ""
    return re.compile(head + _spelled(before) + f"({_spelled(middle)})" + _spelled(after) + tail)


def _spelled(text: str) -> str:
    """A pattern for `text` as it may be written (see `title_pattern`)."""
    parts: list[str] = []
    for ch in text:
        if ch.isspace():
            parts.append(_SPACE)
        elif ch.isalnum():
            parts.append(re.escape(ch))
        else:
            forms = [re.escape(ch), f"&#0*{ord(ch)};", f"&#[xX]0*{ord(ch):x};"]
            if ch.isascii():
                forms.append(re.escape("\\" + ch))
            if ord(ch) in codepoint2name:
                forms.append(f"&{codepoint2name[ord(ch)]};")
            parts.append("(?:" + "|".join(forms) + ")")
    return "".join(parts)


def split_words(old: str, new: str) -> tuple[str, str, str, str]:
    """The words two titles share at the start and at the end, and what differs between:
    (before, old middle, new middle, after); each word keeps the space after it."""
    a, b = re.findall(r"\S+\s*", old), re.findall(r"\S+\s*", new)
    i = 0
    while i < min(len(a), len(b)) and a[i] == b[i]:
        i += 1
    j = 0
    while j < min(len(a), len(b)) - i and a[len(a) - 1 - j] == b[len(b) - 1 - j]:
        j += 1
    before, after = "".join(a[:i]), "".join(a[len(a) - j :])
    return before, "".join(a[i : len(a) - j]), "".join(b[i : len(b) - j]), after


def _title(
    doc: DocText, start: int, end: int, old: str, new: str, finding: Finding
) -> list[Edit] | None:
    """One edit of the title's characters that change (the words it keeps stay as written,
    entities and escapes included); None unless the title stands exactly once on one line of
    the entry (a wrapped title would move every later line)."""
    if not old:
        return None
    before, gone, came, after = split_words(old, new)
    found = list(title_pattern(old, (before, gone, after)).finditer(doc.text, start, end))
    if len(found) != 1 or "\n" in found[0].group(0):
        return None
    m = found[0]
    at_start = not before and _at_line_start(doc.text, m.start(1))
    text = escape_text(came, doc.in_html(m.start()), at_start)
    return [Edit(doc.file, m.start(1), m.end(1), m.group(1), text, finding)]


# Characters Markdown may read as syntax inside a line: escaped with a backslash.
_MARKDOWN = frozenset("\\`*_[]<>|~")
_ENTITY_LIKE = re.compile(r"&(?=#?[A-Za-z0-9]+;)")
_BLOCK_START = re.compile(r"^(?:[#>+=-]|\d+[.)])")


def escape_text(text: str, in_html: bool, line_start: bool = False) -> str:
    """`text` as literal characters where it lands: HTML-escaped inside an HTML block;
    in Markdown, `\\` before every character inline syntax could take, before an `&` that
    would start an entity, and before a first character that would open a block."""
    if in_html:
        return html.escape(text, quote=False)
    out = "".join("\\" + ch if ch in _MARKDOWN else ch for ch in text)
    out = _ENTITY_LIKE.sub(r"\\&", out)
    if line_start and _BLOCK_START.match(out):
        out = "\\" + out
    return out


def _at_line_start(text: str, offset: int) -> bool:
    """True when only spacing stands between the line's start and `offset`."""
    return not text[text.rfind("\n", 0, offset) + 1 : offset].strip()


# -- dates --------------------------------------------------------------------------------
# A date as the reader takes it (doc_text._DATE_START), found anywhere in the entry's lines.
_DATE = re.compile(
    r"(?<![\d.])(\d{4})(\s*[./\-年]\s*)(\d{1,2})(?:(\s*[./\-月]\s*)(\d{1,2}))?(?![\d])"
)
_YEAR = re.compile(r"(?<![\w./-])((?:19|20)\d{2})(?![\w/-]|\.\d)")


def _date(
    doc: DocText, start: int, end: int, old: str, new: str, finding: Finding
) -> list[Edit] | None:
    """One edit of the date's characters in their own form; None unless exactly one date of
    the entry's lines reads as `old` at `new`'s precision."""
    parts = new.split("-")
    if len(parts) == 1:
        years = [m for m in _YEAR.finditer(doc.text, start, end) if m.group(1) == old]
        if len(years) != 1:
            return None
        m = years[0]
        return [Edit(doc.file, m.start(1), m.end(1), m.group(1), new, finding)]
    found = [m for m in _DATE.finditer(doc.text, start, end) if _shown(m) == old]
    if len(found) != 1 or len(parts) != (3 if found[0].group(5) else 2):
        return None
    m = found[0]
    written = _written(m, parts)
    return [Edit(doc.file, m.start(), m.end(), m.group(0), written, finding)]


def _shown(m: re.Match[str]) -> str:
    """A date token as the reader keeps it: `YYYY-MM` or `YYYY-MM-DD`."""
    shown = f"{m.group(1)}-{int(m.group(3)):02d}"
    return shown + (f"-{int(m.group(5)):02d}" if m.group(5) else "")


def _written(m: re.Match[str], parts: list[str]) -> str:
    """The new date with the old one's separators and zero-padding."""

    def number(value: str, old: str) -> str:
        return value if len(old) == 2 else str(int(value))

    text = parts[0] + m.group(2) + number(parts[1], m.group(3))
    if m.group(5):
        text += m.group(4) + number(parts[2], m.group(5))
    return text


# -- links --------------------------------------------------------------------------------
# A URL as written in Markdown or HTML: up to a space, quote, bracket, angle bracket or pipe.
_URL = re.compile(r"https?://[^\s<>\"'`()\[\]|\\]+", re.IGNORECASE)
_TRAILING = ".,;:!?*_~"
_ATTRIBUTE = re.compile(r"=\s*[\"']?\Z")


def _links(doc: DocText, start: int, end: int, want: Want, finding: Finding) -> list[Edit] | None:
    """One edit per link of the entry's lines that `want` changes; None when there is none."""
    edits: list[Edit] = []
    # A link in one form (a badge's URL, an arXiv link) is that link: the same URL quoted in
    # a code span beside it is text the list shows, never rewritten with it.
    code = code_spans(doc.text, start, end) if want.change is Change.FORM else []
    for m in _URL.finditer(doc.text, start, end):
        if any(first <= m.start() < last for first, last in code):
            continue
        raw = m.group(0).rstrip(_TRAILING)
        written = html.unescape(raw) if "&" in raw else raw
        new = rewrite_url(want, written, finding.subject)
        if new is None or new == written:
            continue
        if written != raw or doc.in_html(m.start()) or _in_attribute(doc.text, m.start()):
            # HTML (an `&amp;` in it, an HTML block, an attribute value): a `'` or `&` of a
            # redirect target, an untrusted server's answer, must not end or change the value
            new = html.escape(new, quote=True)
        edits.append(Edit(doc.file, m.start(), m.start() + len(raw), raw, new, finding))
    return edits or None


def _in_attribute(text: str, start: int) -> bool:
    """True when the URL at `start` is an HTML attribute's value (`href='…'`, `src="…"`)."""
    return _ATTRIBUTE.search(text, max(0, start - 16), start) is not None


def _arxiv_id(
    doc: DocText, start: int, end: int, want: Want, finding: Finding
) -> list[Edit] | None:
    """One edit per place the entry's lines write the wrong arXiv ID (any version): its links,
    a plain `arXiv:ID`, a badge naming it; None when there is none."""
    edits = [
        Edit(doc.file, m.start(), m.end(), m.group(0), want.new, finding)
        for m in id_pattern(want.old).finditer(doc.text, start, end)
    ]
    return edits or None
