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

from dataclasses import dataclass, field

from curator.core.model import Entry, Kind, Source
from curator.core.normalize import (
    arxiv_id_in_url,
    github_repo,
    github_subject,
    is_arxiv_id_url,
    is_badge_url,
    link_for,
    subject_for_url,
)
from curator.sources.doc_text import (
    CATEGORY_HEADERS,
    DESCRIPTION_HEADERS,
    EDGES,
    NAME_HEADERS,
    TIME_HEADERS,
    TITLE_HEADERS,
    DateText,
    cell_title,
    column,
    context_title,
    date_in,
    description_of,
    first_title,
    generic,
    is_date_text,
    is_name,
    is_short,
    lead_title,
    mention,
    role_of,
    titled_link,
    unit_date,
    venue_of,
)
from curator.sources.doc_units import Anchor, Unit, UnitKind, clean


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
        subject = subject_for_url(anchor.url)
        if subject not in seen:
            seen.add(subject)
            out.append(anchor)
    return out


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
    if main is None:  # `| Title [[Link](venue)] |`: a bare label in the title column
        main = title_column_link(unit, anchors)
    if main is None:  # `[**Title**](venue)`: the bold title is the paper's link
        main = next((a for a in anchors if titled_link(unit, a)), None)
    if main is None:
        return None
    title = first_title(unit, main)
    if not title or (labelled and not (unit.cells or unit.strong or lead_title(unit))):
        return None
    if main.bare and not (unit.strong or unit.cells):
        return Made([link_entry(unit, anchors, place)])  # an ID cited in a sentence
    if title == clean(main.text).strip(EDGES) and mention(unit):
        return Made([link_entry(unit, anchors, place)])
    index = _index(unit, main)
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
    if title == context_title(unit):  # title and date stand on the enclosing bullet
        when = date_in(unit.context)
    entry = Entry(
        subject=links[0].subject, kind=Kind.PAPER, source=Source(place.file, unit.line),
        title=title, date=when[0] if when else "", section=place.section,
        links=tuple(links), summary=unit.summary or description_of(unit, index), fields=fields,
        short_title=is_short(unit, title),
    )  # fmt: skip
    return Made([entry], bad_dates=_bad(entry, when))


def title_column_link(unit: Unit, anchors: list[Anchor]) -> Anchor | None:
    """A labelled link (`[Link]`, `[PDF]`) in a Title/Paper column, or the title itself linked
    to its venue (`| 2023-02-09 | [Title](journal page) |`): the paper's own link."""
    col = column(unit, TITLE_HEADERS)
    if col is None:
        return None
    cell = unit.cells[col]
    named = column(unit, TIME_HEADERS) is not None and not cell.lead.strip()
    return next(
        (a for a in anchors if a in cell.links and github_repo(a.url) is None
         and (generic(a.text) or (named and not a.image_only and a.text == cell_title(cell)))),
        None,
    )  # fmt: skip


def projects_made(unit: Unit, anchors: list[Anchor], repos: list[Anchor], place: Place) -> Made:
    """One project per repository; with one repository the unit's other links are its sites."""
    made = Made()
    extra = row_fields(unit)
    when = unit_date(unit)
    if when:
        extra["since"] = when[0]
    others = [a for a in anchors if a not in repos] if len(repos) == 1 else []
    for repo in repos:
        title = project_title(unit, repo, single=len(repos) == 1).strip(EDGES)
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
        (a.text for a in anchors if not (a.bare or a.image_only or generic(a.text))),
        "",
    )
    # A Markdown row is one line (markdown-it numbers its cells' lines from the next one).
    line = unit.line if unit.cells and not unit.html else anchors[0].line
    return Entry(
        subject=links[0].subject, kind=Kind.LINK, source=Source(place.file, line),
        title=named, section=place.section, links=tuple(links),
    )  # fmt: skip


def _bad(entry: Entry, when: DateText | None) -> list[tuple[Entry, str]]:
    """The entry with its date when that date is written but is not a date."""
    return [] if when is None or when.valid else [(entry, when.raw)]
