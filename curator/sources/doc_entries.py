"""Entries from units: the papers, projects and plain links of any common awesome-list layout.

Every link of a unit is kept. What the unit becomes follows from its links and its text:
- several arXiv links, each with its own name (a benchmark table cell): one paper per link;
- an arXiv link, or a link labelled "paper"/"pdf" next to a title: one paper, the unit's
  other links its code and websites;
- repository links and no paper: one project per repository;
- anything else (and every link of a quote or a code block): a plain-link entry, so that its
  links are still checked.
A paper's title comes from a title column, the bold text, the paper link's own text, or the
text before the first link; its date from a date column or a date that opens the line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date
from typing import NamedTuple

from curator.model import Entry, Kind, Link, Service, Source
from curator.normalize import (
    arxiv_id_in_url,
    github_repo,
    github_subject,
    is_arxiv_id_url,
    is_badge_url,
    link_for,
)
from curator.sources.doc_units import Anchor, Cell, Unit, UnitKind, clean

#: Header texts (lower-case) that name a column's role.
TITLE_HEADERS = {"title", "paper", "papers", "paper title", "标题", "论文", "论文标题"}
NAME_HEADERS = {
    "name", "system", "project", "tool", "framework", "library", "model", "method",
    "benchmark", "dataset", "名称", "项目名称", "项目", "框架", "工具",
}  # fmt: skip
TIME_HEADERS = {"time", "date", "since", "month", "published", "release", "时间", "日期"}
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
_VENUE = re.compile(r"\(([^()]*\b(?:19|20)\d{2}\b[^()]*)\)")
_EDGES = " .,;:-–—|\"'“”‘’「」"  # punctuation around a title, not part of it
_LABEL = re.compile(r"^\W*[\w .&/-]{0,20}:\s*$")  # "Paper:", "Codes:" before a link


class DateText(NamedTuple):
    """A date as written (`raw`) and as curator keeps it: `YYYY-MM` or `YYYY-MM-DD`."""

    shown: str
    raw: str
    valid: bool


def date_in(text: str) -> DateText | None:
    """The date that opens `text` (`[2024/05]`, `2025-03-04`, `2026.05.27`), or None.

    A month or day out of range is kept as written with `valid` False.
    """
    m = _DATE_START.match(text)
    if m is None:
        return None
    year, month, day = m.group(1), int(m.group(2)), m.group(3)
    raw = m.group(0).strip(" \t\n[]()*_:|,-")
    shown = f"{year}-{month:02d}" + (f"-{int(day):02d}" if day else "")
    try:
        date(int(year), month, int(day) if day else 1)
    except ValueError:
        return DateText(raw, raw, False)
    return DateText(shown, raw, True)


def is_date_text(text: str) -> bool:
    """True when the whole text is a date (a date cell, a bold `[2026.05.27]`)."""
    found = date_in(text)
    return (
        found is not None
        and _DATE_START.match(text) is not None
        and not clean(
            text[_DATE_START.match(text).end() :]  # type: ignore[union-attr]
        )
    )


def generic(text: str) -> bool:
    """True for a link label that is not a name or title ("paper", "[Code]", "📝 PDF")."""
    words = re.findall(r"\w+", text.lower())
    return not words or (len(words) <= 4 and all(w in GENERIC or w.isdigit() for w in words))


@dataclass
class Made:
    """What one unit became."""

    entries: list[Entry] = field(default_factory=list)
    bad_dates: list[tuple[Entry, str]] = field(default_factory=list)


@dataclass(frozen=True)
class Place:
    """Where a unit stands: the file, the section in force and the list's own repository."""

    file: str
    section: str
    own_repo: str | None = None


def usable(anchor: Anchor, own_repo: str | None) -> bool:
    """A link worth checking: absolute http(s), not a badge, not the list's own repository."""
    url = anchor.url.strip()
    if not url.lower().startswith(("http://", "https://")) or is_badge_url(url):
        return False
    return own_repo is None or github_subject(url) != own_repo


def anchors_of(unit: Unit, own_repo: str | None) -> list[Anchor]:
    """The unit's usable links, one per subject (an English and a 中文 link are one mention)."""
    seen: set[str] = set()
    out: list[Anchor] = []
    for anchor in unit.all_links():
        if not usable(anchor, own_repo):
            continue
        subject = link_for("url", anchor.url).subject
        if subject not in seen:
            seen.add(subject)
            out.append(anchor)
    return out


def column(unit: Unit, names: set[str]) -> int | None:
    """Index of the first column whose header is one of `names` (case-insensitive)."""
    for i, header in enumerate(unit.headers):
        if clean(header).lower().strip(" *:") in names and i < len(unit.cells):
            return i
    return None


def role_of(anchor: Anchor) -> str:
    """A link's role in a paper entry: arXiv and labelled links `paper`, repositories `code`."""
    if arxiv_id_in_url(anchor.url) is not None:
        return "paper"
    if github_repo(anchor.url) is not None:
        return "code"
    words = set(re.findall(r"\w+", anchor.text.lower()))
    return "paper" if words & {"paper", "pdf", "论文"} else "website"


def unit_date(unit: Unit) -> DateText | None:
    """The unit's date: a date column, a date cell, or a date that opens its text."""
    if unit.cells:
        col = column(unit, TIME_HEADERS)
        cells = [unit.cells[col]] if col is not None else unit.cells
        for cell in cells:
            if is_date_text(cell.text) or (col is not None and clean(cell.text)):
                found = date_in(cell.text)
                return found or DateText(clean(cell.text), clean(cell.text), False)
        return None
    first = unit.strong[0] if unit.strong and not clean(unit.lead.strip("[( ")) else ""
    return date_in(unit.lead) or (date_in(first) if is_date_text(first) else None)


def title_candidates(unit: Unit, main: Anchor | None) -> list[str]:
    """Possible titles in order of trust (see the module docstring)."""
    found: list[str] = []
    if unit.cells:
        col = column(unit, TITLE_HEADERS | NAME_HEADERS)
        if col is not None:
            found.append(cell_title(unit.cells[col]))
    bold = [s for s in unit.strong if not is_date_text(s) and not generic(s)]
    if unit.cells:
        bold = [s for c in unit.cells for s in c.strong if not is_date_text(s) and not generic(s)]
    if bold and len(bold[0].split()) >= 4:
        found.append(bold[0])
    if main is not None and not main.image_only and not main.bare and not generic(main.text):
        found.append(main.text)
    found.extend(bold[:1])
    found.append(lead_title(unit))
    stripped = (clean(t).strip(_EDGES) for t in found if t)
    return [t for t in stripped if t]


def is_name(title: str) -> bool:
    """True for a short name rather than a title: three words or fewer and no colon."""
    return ":" not in title and len(re.findall(r"\w+", title)) <= 3


def is_short(unit: Unit, main: Anchor, title: str) -> bool:
    """True when the title is a short name: a link's few words, or a Name column's value."""
    if not is_name(title):
        return False
    if title == clean(main.text).strip(_EDGES):
        return True
    return column(unit, NAME_HEADERS) is not None and column(unit, TITLE_HEADERS) is None


def cell_title(cell: Cell) -> str:
    """A title cell's title: its first named link, its bold text, or its text."""
    for link in cell.links:
        if not link.image_only and not link.bare and not generic(link.text):
            return link.text
    return cell.strong[0] if cell.strong else clean(cell.text)


def lead_title(unit: Unit) -> str:
    """The text before the first link, without a date or a label such as `Paper:`."""
    text = unit.lead
    found = _DATE_START.match(text)
    if found:
        text = text[found.end() :]
    text = clean(text).strip(" [(|")
    if not text or _LABEL.match(text) or generic(text):
        return ""
    return text


def titled_link(unit: Unit, anchor: Anchor) -> bool:
    """True when the link's whole text is the unit's bold title (a paper at a venue)."""
    text = clean(anchor.text).strip(_EDGES)
    if github_repo(anchor.url) is not None or len(text.split()) < 4:
        return False
    return any(clean(s).strip(_EDGES) == text for s in unit.strong)


def mention(unit: Unit) -> bool:
    """True when a paper link stands inside a sentence (news, prose), not as a listed entry:
    two or more words before it that are neither a date nor a label such as `Paper:`."""
    if unit.cells or unit.strong:
        return False
    return len(re.findall(r"\w+", lead_title(unit))) >= 2 or bool(
        re.search(r"\w", unit.lead) and not _DATE_START.match(unit.lead) and lead_title(unit)
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
    m = re.match(r"^\s*[-–—:]\s+(.+)", after.split("\n")[0])
    return clean(m.group(1)) if m else ""


def make_entries(unit: Unit, place: Place) -> Made:
    """What one unit becomes (see the module docstring)."""
    anchors = anchors_of(unit, place.own_repo)
    if not anchors:
        return Made()
    if unit.kind in {UnitKind.QUOTE, UnitKind.CODE}:
        return Made([link_entry(unit, anchors, place)])
    named = [a for a in anchors if arxiv_id_in_url(a.url) and not a.bare and not generic(a.text)]
    arxiv = [a for a in anchors if arxiv_id_in_url(a.url) is not None]
    if len(arxiv) >= 2 and len(named) == len(arxiv) and len({a.text for a in named}) == len(named):
        return several_papers(unit, anchors, arxiv, place)
    repos = [a for a in anchors if github_repo(a.url) is not None]
    if badge_only(unit, anchors, repos):
        return Made([link_entry(unit, anchors, place)])  # a badge, not a listed project
    made = None if repos and project_table(unit) else paper_made(unit, anchors, place)
    if made is not None:
        return made
    if repos:
        return projects_made(unit, anchors, repos, place)
    return Made([link_entry(unit, anchors, place)])


def badge_only(unit: Unit, anchors: list[Anchor], repos: list[Anchor]) -> bool:
    """True for a line of repository badges with no name beside them (the list's header)."""
    if not repos or len(repos) != len(anchors) or unit.cells or unit.strong:
        return False
    return all(a.image_only for a in repos) and not lead_title(unit)


def project_table(unit: Unit) -> bool:
    """A row of a table of projects: a name column, no title column, the repository first."""
    if not unit.cells or column(unit, NAME_HEADERS) is None or column(unit, TITLE_HEADERS):
        return False
    first_repo = next((i for i, c in enumerate(unit.cells) if any(
        github_repo(a.url) for a in c.links)), len(unit.cells))  # fmt: skip
    first_paper = next((i for i, c in enumerate(unit.cells) if any(
        arxiv_id_in_url(a.url) for a in c.links)), len(unit.cells))  # fmt: skip
    return first_repo <= first_paper


def several_papers(unit: Unit, anchors: list[Anchor], arxiv: list[Anchor], place: Place) -> Made:
    """One paper per named arXiv link (a cell listing benchmarks), other links plainly."""
    made = Made()
    when = unit_date(unit)
    for anchor in arxiv:
        link = link_for("paper", anchor.url)
        found = arxiv_id_in_url(anchor.url)
        entry = Entry(
            subject=link.subject, kind=Kind.PAPER, source=Source(place.file, anchor.line),
            title=anchor.text, date=when[0] if when else "", section=place.section,
            links=(link,), fields={"arxiv": str(found)}, short_title=is_name(anchor.text),
        )  # fmt: skip
        made.entries.append(entry)
    rest = [a for a in anchors if a not in arxiv]
    if rest:
        made.entries.append(link_entry(unit, rest, place))
    return made


def paper_made(unit: Unit, anchors: list[Anchor], place: Place) -> Made | None:
    """One paper entry, or None when the unit names no paper (no paper link with a title)."""
    main = next((a for a in anchors if arxiv_id_in_url(a.url) is not None), None)
    if main is None:
        main = next((a for a in anchors if is_arxiv_id_url(a.url)), None)
    labelled = main is None
    if main is None:
        main = next((a for a in anchors if role_of(a) == "paper" and generic(a.text)), None)
    if main is None:  # `[**Title**](venue)`: the bold title is the paper's link
        main = next((a for a in anchors if titled_link(unit, a)), None)
    if main is None:
        return None
    titles = title_candidates(unit, main)
    if not titles or (labelled and not (unit.strong or lead_title(unit))):
        return None
    if main.bare and not (unit.strong or unit.cells):
        return Made([link_entry(unit, anchors, place)])  # an ID cited in a sentence
    if titles[0] == clean(main.text).strip(_EDGES) and mention(unit):
        return Made([link_entry(unit, anchors, place)])
    index = unit.all_links().index(main) if main in unit.all_links() else 0
    links = [link_for(role_of(main) if not labelled else "paper", main.url)]
    links += [link_for(role_of(a), a.url) for a in anchors if a is not main]
    found = arxiv_id_in_url(main.url)
    fields: dict[str, str] = {"arxiv": str(found)} if found else {"url": main.url}
    venue = venue_of(unit, index) if not unit.cells else ""
    if venue:
        fields["venue"] = venue
    code = next((lk.url for lk in links if lk.role == "code"), "")
    if code:
        fields["code"] = code
    when = unit_date(unit)
    entry = Entry(
        subject=links[0].subject, kind=Kind.PAPER, source=Source(place.file, unit.line),
        title=titles[0], date=when[0] if when else "", section=place.section,
        links=tuple(links), summary=unit.summary or description_of(unit, index), fields=fields,
        short_title=is_short(unit, main, titles[0]),
    )  # fmt: skip
    return Made([entry], bad_dates=_bad(entry, when))


def projects_made(unit: Unit, anchors: list[Anchor], repos: list[Anchor], place: Place) -> Made:
    """One project per repository; with one repository the unit's other links are its sites."""
    made = Made()
    extra = row_fields(unit)
    when = unit_date(unit)
    if when:
        extra["since"] = when[0]
    others = [a for a in anchors if a not in repos] if len(repos) == 1 else []
    for repo in repos:
        title = project_title(unit, repo, single=len(repos) == 1)
        links = [link_for("repo", repo.url)] + [link_for("website", a.url) for a in others]
        fields = {"repo": repo.url, **extra}
        if others:
            fields["website"] = others[0].url
        line = unit.line if unit.cells else repo.line
        summary = extra.get("description", "") or description_of(unit, _index(unit, repo))
        entry = Entry(
            subject=links[0].subject, kind=Kind.PROJECT, source=Source(place.file, line),
            title=title, date=extra.get("since", ""), section=place.section,
            links=tuple(links), summary=summary, fields=fields,
        )  # fmt: skip
        made.entries.append(entry)
        made.bad_dates += _bad(entry, when)
    if len(repos) > 1 and len(anchors) > len(repos):
        made.entries.append(link_entry(unit, [a for a in anchors if a not in repos], place))
    return made


def _index(unit: Unit, anchor: Anchor) -> int:
    links = unit.all_links()
    return links.index(anchor) if anchor in links else 0


def project_title(unit: Unit, repo: Anchor, single: bool) -> str:
    """A project's name: its name column, its bold text, its link text, or `owner/repo`."""
    if single and unit.cells:
        col = column(unit, NAME_HEADERS | TITLE_HEADERS)
        if col is not None and not unit.cells[col].links and clean(unit.cells[col].text):
            return clean(unit.cells[col].text)
    if single and not unit.cells:
        bold = [s for s in unit.strong if not is_date_text(s) and not generic(s)]
        if bold:
            return bold[0]
    if repo.text and repo.text != repo.url and not repo.image_only and not generic(repo.text):
        return repo.text
    found = github_repo(repo.url)
    return f"{found[0]}/{found[1]}" if found else repo.url


def row_fields(unit: Unit) -> dict[str, str]:
    """`category` and `description` of a table row, when its columns say so."""
    out: dict[str, str] = {}
    if not unit.cells:
        return out
    col = column(unit, CATEGORY_HEADERS)
    if col is not None:
        out["category"] = clean(unit.cells[col].text)
    col = column(unit, DESCRIPTION_HEADERS)
    last = len(unit.cells) - 1
    named = {column(unit, NAME_HEADERS), column(unit, TIME_HEADERS), column(unit, CATEGORY_HEADERS)}
    if col is None and last > 0 and last not in named and not unit.cells[last].links:
        col = last
    if col is not None and clean(unit.cells[col].text):
        out["description"] = clean(unit.cells[col].text)
    return out


def link_entry(unit: Unit, anchors: list[Anchor], place: Place) -> Entry:
    """A plain-link entry: the unit's links, checked, with no paper or project behind them."""
    links = [link_for("url", a.url) for a in anchors]
    named = next(
        (a.text for a in anchors if not a.bare and not generic(a.text) and "://" not in a.text),
        "",
    )
    return Entry(
        subject=links[0].subject, kind=Kind.LINK, source=Source(place.file, anchors[0].line),
        title=named, section=place.section, links=tuple(links),
    )  # fmt: skip


def _bad(entry: Entry, when: DateText | None) -> list[tuple[Entry, str]]:
    """The entry with its date when that date is written but is not a date."""
    return [] if when is None or when.valid else [(entry, when.raw)]


def service_count(entries: list[Entry]) -> dict[Service, int]:
    """How many distinct subjects of each service the entries link (for the reading notes)."""
    subjects: dict[Service, set[str]] = {}
    for entry in entries:
        for link in entry.links:
            subjects.setdefault(link.service, set()).add(link.subject)
    return {service: len(found) for service, found in subjects.items()}


def is_link(link: Link) -> bool:
    """True for a link checked as a web page (neither arXiv nor GitHub)."""
    return link.service is Service.WEB
