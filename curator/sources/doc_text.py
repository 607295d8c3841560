"""What a unit's text says: its date, its title (or short name), venue and description.

Pure helpers for `doc_entries`. Titles come, in order of trust, from a title column, the
bold text, the paper link's own text, or the text before the first link; a link's few words
("MemoryAgentBench") are a short name, not a title. Dates are read at the precision the list
gives (`[2024/05]`, `2025-03-04`, `**[2026.05.27]**`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import date
from functools import lru_cache
from typing import NamedTuple

from curator.core.normalize import arxiv_id_in_url, github_repo
from curator.sources.doc_units import Anchor, Cell, Unit, clean

#: Header texts (lower-case) that name a column's role.
TITLE_HEADERS = {"title", "paper", "papers", "paper title", "标题", "论文", "论文标题"}
NAME_HEADERS = {
    "name", "system", "project", "tool", "framework", "library", "model", "method",
    "benchmark", "dataset", "名称", "项目名称", "项目", "框架", "工具",
}  # fmt: skip
TIME_HEADERS = {
    "time", "date", "since", "month", "year", "published", "release", "时间", "日期", "年份",
}  # fmt: skip
CATEGORY_HEADERS = {"category", "type", "分类", "类型"}
DESCRIPTION_HEADERS = {"description", "summary", "notes", "intro", "简介", "描述", "说明"}
#: Words of a link text that is a label, not a title ("[paper]", "Code", "📝 Survey Paper").
GENERIC = {
    "paper", "papers", "pdf", "arxiv", "abs", "link", "links", "code", "codes", "github",
    "repo", "repository", "project", "page", "homepage", "home", "website", "site", "web",
    "demo", "video", "blog", "post", "dataset", "data", "slides", "poster", "bib", "bibtex",
    "doi", "openreview", "html", "official", "survey", "here", "source", "docs",
    "documentation", "hf", "huggingface", "model", "models", "weights", "checkpoint",
    "leaderboard", "tweet", "twitter", "x", "zhihu", "the", "our", "full",
    "中文", "论文", "代码", "项目", "主页", "链接", "知乎", "english", "version", "v1", "v2",
    "acl", "anthology", "emnlp", "naacl", "icml", "iclr", "neurips", "nips", "aaai",
    "ijcai", "cvpr", "iccv", "eccv", "kdd", "www", "sigir", "coling", "tacl", "cikm",
}  # fmt: skip
_DATE_START = re.compile(
    r"^[\s\[(*_]*(\d{4})\s*[./\-年]\s*(\d{1,2})(?:\s*[./\-月]\s*(\d{1,2}))?\s*日?[\s\])*_:|,-]*"
)
# A year alone: a whole date cell (`2016`), or bracketed at the start of a line (`[2016]`).
_YEAR_CELL = re.compile(r"^[\s*_]*((?:19|20)\d{2})[\s*_.]*$")
_YEAR_START = re.compile(r"^[\s*_]*[\[(]\s*((?:19|20)\d{2})\s*[\])][\s*_:|,-]*")
_VENUE = re.compile(r"\(([^()]*\b(?:19|20)\d{2}\b[^()]*)\)")
EDGES = " .,;:-–—|\"'“”‘’「」"  # punctuation around a title, not part of it
_LABEL = re.compile(r"^\W*[\w .&/-]{0,20}:\s*$")  # "Paper:", "Codes:" before a link
_WORDS = re.compile(r"\w+")
_DIGIT = re.compile(r"\d")
_DESCRIPTION = re.compile(r"^\s*[-–—:]\s+(.+)")


class DateText(NamedTuple):
    """A date as written (`raw`) and as curator keeps it: `YYYY-MM` or `YYYY-MM-DD`."""

    shown: str
    raw: str
    valid: bool


@lru_cache(maxsize=4096)
def date_in(text: str) -> DateText | None:
    """The date that opens `text` (`[2024/05]`, `2025-03-04`, `2026.05.27`, `[2016]`), or None.

    A month or day out of range is kept as written with `valid` False. Cached: a list
    repeats its dates, and a row's date cell is asked about several times.
    """
    m = _DATE_START.match(text)
    if m is None:
        alone = _YEAR_START.match(text) or _YEAR_CELL.match(text)
        return DateText(alone.group(1), alone.group(1), True) if alone else None
    year, month, day = m.group(1), int(m.group(2)), m.group(3)
    raw = m.group(0).strip(" \t\n[]()*_:|,-")
    shown = f"{year}-{month:02d}" + (f"-{int(day):02d}" if day else "")
    try:
        date(int(year), month, int(day) if day else 1)
    except ValueError:
        return DateText(raw, raw, False)
    return DateText(shown, raw, True)


def date_end(text: str) -> int:
    """Where the date that opens `text` ends (0 when none opens it)."""
    m = _DATE_START.match(text) or _YEAR_START.match(text) or _YEAR_CELL.match(text)
    return m.end() if m else 0


def is_date_text(text: str) -> bool:
    """True when the whole text is a date (a date cell, a bold `[2026.05.27]`)."""
    end = date_end(text)
    return end > 0 and not clean(text[end:])


def without_date(text: str) -> str:
    """`text` without the date that opens it (`**[2024-04-21] Title**` → `Title`)."""
    return clean(text[date_end(text) :])


@lru_cache(maxsize=4096)
def generic(text: str) -> bool:
    """True for a link label that is not a name or title ("paper", "[Code]", "📝 PDF"), or
    a URL written as its own text (an autolinked `https://arxiv.org/abs/…` cell)."""
    if "://" in text:
        return True
    words = _WORDS.findall(text.lower())
    return not words or (len(words) <= 4 and all(w in GENERIC or w.isdigit() for w in words))


def column(unit: Unit, names: set[str]) -> int | None:
    """Index of the first column whose header is, or begins with, one of `names`
    (`Title`, `Title & Authors`, `Year`), case-insensitive."""
    for i, header in enumerate(unit.headers):
        text, first = header_key(header)
        if (text in names or first in names) and i < len(unit.cells):
            return i
    return None


@lru_cache(maxsize=1024)
def header_key(header: str) -> tuple[str, str | None]:
    """A header as `column` compares it: its text lower-cased and trimmed, and its first
    word (None when it has none). Every row of a table asks again for the same headers."""
    text = clean(header).lower().strip(" *:")
    words = _WORDS.findall(text)
    return text, words[0] if words else None


def role_of(anchor: Anchor) -> str:
    """A link's role in a paper entry: arXiv and labelled links `paper`, repositories `code`."""
    if arxiv_id_in_url(anchor.url) is not None:
        return "paper"
    if github_repo(anchor.url) is not None:
        return "code"
    words = set(_WORDS.findall(anchor.text.lower()))
    return "paper" if words & {"paper", "pdf", "论文"} else "website"


def unit_date(unit: Unit) -> DateText | None:
    """The unit's date: a date column, a date cell, or a date that opens its text or its
    first bold run (`**[2024-04-21] Title**`)."""
    if unit.cells:
        col = column(unit, TIME_HEADERS)
        cells = [unit.cells[col]] if col is not None else unit.cells
        for cell in cells:
            # `Unknown`, `N/A`, `-`: no date given; only text with digits tries to be one.
            if is_date_text(cell.text) or (col is not None and _DIGIT.search(cell.text)):
                found = date_in(cell.text)
                return found or DateText(clean(cell.text), clean(cell.text), False)
        return None
    first = unit.strong[0] if unit.strong and not clean(unit.lead.strip("[( ")) else ""
    return date_in(unit.lead) or (date_in(first) if first else None) or date_after(unit)


def date_after(unit: Unit) -> DateText | None:
    """A month or day date right after the title link (`[Title](…)␣␣\\n*2024-08-12* · Venue`).

    Only a valid date with its month counts: a year there is a venue's (`(2025)`), and a
    range such as `2023-2024` is no date at all.
    """
    found = date_in(unit.after[0]) if unit.after and _DATE_START.match(unit.after[0]) else None
    return found if found is not None and found.valid else None


def first_title(unit: Unit, main: Anchor | None) -> str:
    """The most trusted of the possible titles (see the module docstring), or "" when there
    is none. Candidates are worked out in order of trust, only as far as the first one."""
    return next(_titles(unit, main), "")


def _titles(unit: Unit, main: Anchor | None) -> Iterator[str]:
    """The possible titles in order of trust, trimmed, generic labels left out, lazily."""
    for raw in _raw_titles(unit, main):
        if raw:
            title = clean(raw).strip(EDGES).rstrip(" [(")
            if title and not generic(title):
                yield title


def _raw_titles(unit: Unit, main: Anchor | None) -> Iterator[str]:
    """Every place a title may stand, most trusted first, as written."""
    title_col, name_col = column(unit, TITLE_HEADERS), column(unit, NAME_HEADERS)
    if title_col is not None:
        yield cell_title(unit.cells[title_col])
    runs = [c.strong for c in unit.cells] if unit.cells else [unit.strong]
    # A bold run that ends in a colon is a label or headline (`**📢 Released (2025-07-18):**`).
    bold = [t for r in runs for t in map(without_date, r) if t and not generic(t) and t[-1] != ":"]
    if bold and len(bold[0].split()) >= 4:
        yield bold[0]
    if main is not None and not main.image_only and not main.bare and not generic(main.text):
        yield main.text
    if name_col is not None:
        yield cell_title(unit.cells[name_col])
    yield from bold[:1]
    yield lead_title(unit)
    yield earlier_name(unit, main)
    # A quoted title in italics (`*"LoopServe: An Adaptive ..."*`); plain italics are authors.
    yield from (t for t in unit.emphasis if t[:1] in '"“' and len(t.split()) >= 4)
    yield context_title(unit)
    yield from (cell_title(c) for c in unit.cells if not is_date_text(c.text))


def earlier_name(unit: Unit, main: Anchor | None) -> str:
    """The text of a named link before the paper link (`5. [Readbear AI](site) [[paper](…)]`)."""
    for anchor in unit.links:
        if anchor is main:
            break
        if not (anchor.image_only or anchor.bare or generic(anchor.text) or "://" in anchor.text):
            return anchor.text
    return ""


def is_name(title: str) -> bool:
    """True for a short name rather than a title: three words or fewer and no colon."""
    return ":" not in title and len(_WORDS.findall(title)) <= 3


def is_short(unit: Unit, title: str) -> bool:
    """True when a title of a few words is a name (a link's text, a Name column, a bold
    `**MemGPT**`); only a Title column's value is a title whatever its length."""
    if not is_name(title):
        return False
    col = column(unit, TITLE_HEADERS)
    return col is None or cell_title(unit.cells[col]).strip(EDGES) != title


def context_title(unit: Unit) -> str:
    """The enclosing bullet's text, without its date, when it reads as a title (a category
    reads as a few words, so it is never taken for one)."""
    text = without_date(unit.context).strip(EDGES)
    return text if len(text.split()) >= 4 else ""


def cell_title(cell: Cell) -> str:
    """A cell's title: its first named link, its bold text, the first line of text before
    its links (a cell of badges, title, `[Link]` and authors), or its text when it has none."""
    for link in cell.links:
        if not link.image_only and not link.bare and not generic(link.text):
            return link.text
    for run in map(without_date, cell.strong):
        if run and not generic(run):
            return run
    lines = [clean(part) for part in cell.lead.split("\n")]
    first = next((t for t in lines if t.strip(EDGES + "[(") and not is_date_text(t)), "")
    if first or cell.links:
        return first
    return without_date(cell.text)


def lead_title(unit: Unit) -> str:
    """The text before the first link, without a date or a label such as `Paper:`."""
    text = without_date(unit.lead).strip(" [(|")
    if not text or _LABEL.match(text) or generic(text):
        return ""
    return text


def titled_link(unit: Unit, anchor: Anchor) -> bool:
    """True when the link's whole text is the unit's bold title (a paper at a venue)."""
    text = clean(anchor.text).strip(EDGES)
    if github_repo(anchor.url) is not None or len(text.split()) < 4:
        return False
    return any(clean(s).strip(EDGES) == text for s in unit.strong)


def mention(unit: Unit) -> bool:
    """True when a paper link stands inside a sentence (news, prose), not as a listed entry:
    two or more words before it that are neither a date nor a label such as `Paper:`."""
    if unit.cells or unit.strong:
        return False
    title = lead_title(unit)
    return len(_WORDS.findall(title)) >= 2 or bool(
        _WORDS.search(unit.lead) and not date_end(unit.lead) and title
    )


def venue_of(unit: Unit, index: int) -> str:
    """A venue written after the paper link `(ICML 2024)` or in the authors' italics."""
    after = unit.after[index] if index < len(unit.after) else ""
    m = _VENUE.search(after.split("\n")[0])
    if m:
        return clean(m.group(1))
    for run in unit.emphasis:
        if "et al" in run:
            tail = clean(run.split("et al", 1)[1]).strip(" .,")
            if tail:
                return tail
    return ""


def description_of(unit: Unit, index: int) -> str:
    """The text after a link that opens with ` - ` (or `: `), as a description."""
    after = unit.after[index] if index < len(unit.after) else ""
    m = _DESCRIPTION.match(after.split("\n")[0])
    return clean(m.group(1)) if m else ""
