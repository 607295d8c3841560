"""The native catalogue: a folder of YAML files (one per section) validated by a JSON Schema.

Structure errors of a file (bad YAML, unknown top-level key, no section) are fatal and name
file and line. Problems inside one entry (missing field, bad date, unknown key) are
`entry-invalid` findings, so one bad entry never hides the rest of the list.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from curator.config.context import CheckContext
from curator.core.errors import InputError, UsageError
from curator.core.heap import bulk_build
from curator.core.model import Entry, Finding, Kind, Link, Service, Source
from curator.core.normalize import (
    ArxivId,
    link_for,
    parse_arxiv_id,
    url_subject,
)
from curator.core.subjects import arxiv_subject
from curator.sources.bad_ids import bad_arxiv_field, bad_arxiv_link
from curator.sources.catalog_schema import (
    LISTS,
    CleanFiles,
    Located,
    file_errors,
    item_errors,
    messages,
    raise_structure_error,
    schema,
)
from curator.sources.formats import Reader, reader_of, suffixes
from curator.sources.interface import Loaded
from curator.sources.select import Comparison, select_changed
from curator.textio.located_yaml import compose, construct, item_lines, line_of
from curator.textio.text import printable, read_text


def display_path(path: Path) -> str:
    """The path relative to the working folder when below it, POSIX style (`printable`)."""
    try:
        return printable(path.resolve().relative_to(Path.cwd().resolve()).as_posix())
    except ValueError:
        return printable(path.as_posix())


class CatalogSource:
    """Reads a catalogue folder (every *.yaml below it) or one catalogue YAML file."""

    name = "yaml"

    def __init__(
        self,
        context: CheckContext | None = None,
        clean: CleanFiles | None = None,
        comparison: Comparison | None = None,
    ) -> None:
        self.context = context or CheckContext()
        self.clean = clean
        #: The run's comparison with the base revision (pull-request mode), shared with
        #: the select stage.
        self.comparison = comparison

    def accepts(self, path: Path) -> bool:
        """Folders and .yaml/.yml files."""
        return reader_of(path) is Reader.CATALOGUE

    def load(self, path: Path) -> Loaded:
        """Every entry of every file, in file order."""
        with bulk_build():
            return self._read(path)

    def _read(self, path: Path) -> Loaded:
        files = catalog_files(path)
        names = [display_path(f) for f in files]
        changed = self._changed(names)
        entries: list[Entry] = []
        findings: list[Finding] = []
        for file, name in zip(files, names, strict=True):
            lines = changed.get(name) if changed is not None else None
            got = load_file(
                file, self.context, changed is None or name in changed, lines, self.clean
            )
            entries.extend(got.entries)
            findings.extend(got.findings)
        return Loaded(tuple(entries), tuple(findings), tuple(names))

    def _changed(self, names: list[str]) -> dict[str, set[int] | None] | None:
        """In pull-request mode, the files changed since the ref (the select stage's own
        question); None outside it, or when git cannot answer (the select stage says why)."""
        ref = self.context.options.changed_since
        if not ref:
            return None
        comparison = self.comparison or Comparison(ref, Path.cwd())
        try:
            return comparison.changes(names).lines
        except UsageError:
            return None


_SUFFIXES = suffixes(Reader.CATALOGUE)


def catalog_files(path: Path) -> list[Path]:
    """The YAML files of a catalogue path, sorted; InputError when there are none."""
    if path.is_file():
        return [path]
    if not path.exists():
        raise InputError("no such file or folder", display_path(path))
    files = sorted(p for p in path.rglob("*") if p.suffix.lower() in _SUFFIXES)
    if not files:
        raise InputError("no catalogue files (*.yaml) in this folder", display_path(path))
    return files


def load_file(
    path: Path,
    context: CheckContext | None = None,
    check_items: bool = True,
    lines: set[int] | None = None,
    clean: CleanFiles | None = None,
) -> Loaded:
    """Entries and offline findings of one catalogue file (severities from `context`).

    Without `check_items` only the file's structure is validated, not each item: a pull-request
    run reports no finding of a file the pull request left unchanged, and at 5,000 entries
    validating every item would be half of its time. With `lines` (the lines a pull request
    changed) only the items whose findings that run reports are validated: those on a changed
    line and those whose entry it checks. A file `clean` knows passed the whole schema before
    is not validated again.
    """
    name = display_path(path)
    return load_text(read_text(path, name), name, context, check_items, lines, clean)


def load_text(
    text: str,
    name: str,
    context: CheckContext | None = None,
    check_items: bool = True,
    lines: set[int] | None = None,
    clean: CleanFiles | None = None,
) -> Loaded:
    """`load_file` for a catalogue file's text (`name`: its name in entries and findings)."""
    ctx = context or CheckContext()
    node = compose(text, name)
    if node is None:
        raise InputError("empty catalogue file (needs `section` and `papers` or `projects`)", name)
    data = construct(node, name)
    known_clean = clean is not None and clean.known(text)
    partial = lines if check_items and not known_clean else None
    errors = [] if known_clean else _file_errors(data, check_items, partial, clean, text)
    raise_structure_error(errors, node, name)
    section = str(data.get("section", ""))
    known = {key: item_lines(node, key) for key in LISTS}
    built = [
        _build(key, index, item, Source(name, _line(node, known[key], key, index)), section, ctx)
        for key, index, item in _items(data)
    ]
    if partial is not None:
        errors = item_errors(data, _reported(built, name, partial))
    return _entries(built, messages(errors, node, name), name, ctx)


def _file_errors(
    data: Any, check_items: bool, partial: set[int] | None, clean: CleanFiles | None, text: str
) -> list[Located]:
    """The file's schema errors: its structure and items, or its structure alone (`partial`
    adds the items a pull request touched later; no `check_items`: none). A whole file that
    passes is remembered in `clean`."""
    errors = file_errors(data, items=check_items and partial is None)
    if errors and partial is not None:
        errors = file_errors(data, items=True)  # the fatal message as the whole file gives it
    if not errors and check_items and partial is None and clean is not None:
        clean.remember(text)
    return errors


@dataclass(frozen=True)
class _Built:
    """One item read: where it is, its entry (None when it has no identity), its findings."""

    list_key: str
    index: int
    source: Source
    entry: Entry | None
    findings: list[Finding]


def _line(node: yaml.Node, known: list[int], list_key: str, index: int) -> int:
    """The line of an item: read off the item list, else (a list built by a merge key)
    as deep as the path goes."""
    return known[index] if index < len(known) else line_of(node, [list_key, index])


def _build(
    list_key: str, index: int, item: dict[str, Any], source: Source, section: str, ctx: CheckContext
) -> _Built:
    """The entry and offline findings of one item (schema messages come later)."""
    build = {"papers": _paper, "projects": _project, "links": _plain_link}[list_key]
    entry, offline = build(item, source, section, ctx)
    return _Built(list_key, index, source, entry, offline)


def _reported(built: list[_Built], name: str, lines: set[int]) -> list[tuple[str, int]]:
    """The items a pull-request run reports on: on a changed line, or at an entry it checks
    (the select stage's own choice: pipeline.Selection.keeps)."""
    entries = [b.entry for b in built if b.entry is not None]
    keep = lines | {e.source.line for e in select_changed(entries, {name: lines})}
    return [(b.list_key, b.index) for b in built if b.source.line in keep]


def _entries(
    built: list[_Built], bad: dict[tuple[str, int], list[str]], name: str, ctx: CheckContext
) -> Loaded:
    """Entries, and `entry-invalid` for the items the schema refuses."""
    entries: list[Entry] = []
    findings: list[Finding] = []
    for item in built:
        entry, source = item.entry, item.source
        findings.extend(item.findings)
        problems = bad.get((item.list_key, item.index), [])
        if problems:
            subject = entry.subject if entry else f"{name}:{source.line}"
            findings.append(
                ctx.finding(
                    "entry-invalid",
                    subject,
                    source,
                    f"{item.list_key[:-1]} does not match the catalogue schema",
                    evidence="; ".join(problems),
                    suggestion="see data/schema.json and the README's catalogue section",
                )
            )
        if entry is not None:
            entries.append(entry)
    return Loaded(tuple(entries), tuple(findings))


#: A paper's own links besides its arXiv ID: (role, key).
_PAPER_URLS = (("paper", "url"), ("code", "code"))


def _items(data: dict[str, Any]) -> Iterator[tuple[str, int, dict[str, Any]]]:
    for list_key in LISTS:
        for index, item in enumerate(data.get(list_key) or []):
            yield list_key, index, item if isinstance(item, dict) else {}


def _many(item: dict[str, Any], key: str) -> Iterable[Any]:
    """The values under `key` to go through; none when it holds a single number or flag (the
    schema reports it; reading it must not crash)."""
    value = item.get(key)
    return value if isinstance(value, Iterable) else ()


def _text(item: dict[str, Any], key: str) -> str:
    value = item.get(key)
    return value.strip() if isinstance(value, str) else ""


def _paper(
    item: dict[str, Any], source: Source, section: str, ctx: CheckContext
) -> tuple[Entry | None, list[Finding]]:
    """A paper entry: subject from `arxiv`, else from `url`."""
    findings: list[Finding] = []
    built: list[Link] = []
    subject = ""
    raw_id = _text(item, "arxiv")
    if raw_id:
        parsed = parse_arxiv_id(raw_id)
        if parsed is None:
            subject = arxiv_subject(raw_id)
            findings.append(bad_arxiv_field(raw_id, source, ctx))
        else:
            subject = parsed.subject
            built.append(arxiv_link(parsed))
    links = [*built, *(link_for(r, url) for r, k in _PAPER_URLS if (url := _text(item, k)))]
    links.extend(_extra_links(item))
    if not subject and links:
        subject = links[0].subject
    if not subject:
        return None, findings
    tags = tuple(str(t) for t in _many(item, "tags") if isinstance(t, str | int | float))
    entry = Entry(
        subject=subject,
        kind=Kind.PAPER,
        source=source,
        title=_text(item, "title"),
        date=_text(item, "date"),
        section=section,
        tags=tags,
        links=_unique(links),
        summary=_text(item, "summary"),
        summary_zh=_text(item, "summary_zh"),
        fields=item,
        short_title=item.get("short_title") is True,
    )
    # The link made from a parsed `arxiv` field (first, so kept) is well formed by design.
    return entry, [*findings, *_bad_arxiv_links(entry.links[len(built) :], source, ctx)]


def _project(
    item: dict[str, Any], source: Source, section: str, ctx: CheckContext
) -> tuple[Entry | None, list[Finding]]:
    """A project entry: subject from `repo`."""
    links: list[Link] = []
    if _text(item, "repo"):
        links.append(link_for("repo", _text(item, "repo")))
    if _text(item, "website"):
        links.append(link_for("website", _text(item, "website")))
    links.extend(_extra_links(item))
    if not links:
        return None, []
    entry = Entry(
        subject=links[0].subject,
        kind=Kind.PROJECT,
        source=source,
        title=_text(item, "name"),
        date=_text(item, "since"),
        section=_text(item, "category") or section,
        links=_unique(links),
        summary=_text(item, "description"),
        summary_zh=_text(item, "description_zh"),
        fields=item,
    )
    return entry, _bad_arxiv_links(entry.links, source, ctx)


def _plain_link(
    item: dict[str, Any], source: Source, section: str, ctx: CheckContext
) -> tuple[Entry | None, list[Finding]]:
    """A plain link of the list: checked like any link, with no paper or project behind it."""
    if not _text(item, "url"):
        return None, []
    also = [u.strip() for u in _many(item, "also") if isinstance(u, str) and u.strip()]
    links = [link_for("url", url) for url in (_text(item, "url"), *also)]
    entry = Entry(
        subject=links[0].subject, kind=Kind.LINK, source=source, title=_text(item, "title"),
        section=_text(item, "section") or section, links=_unique(links), fields=item,
    )  # fmt: skip
    return entry, _bad_arxiv_links(entry.links, source, ctx)


def _bad_arxiv_links(links: Iterable[Link], source: Source, ctx: CheckContext) -> list[Finding]:
    """`arxiv-bad-id` for an arxiv.org paper link (url, code, links) whose ID does not parse."""
    found = (bad_arxiv_link(lk.url, source, ctx) for lk in links)
    return [finding for finding in found if finding is not None]


def arxiv_link(parsed: ArxivId) -> Link:
    """The paper link of an `arxiv` field: what `link_for` makes of its abs URL, without
    parsing the URL back (tests/sources/test_yaml_catalog.py holds the two equal)."""
    return Link("paper", f"https://arxiv.org/abs/{parsed}", parsed.subject, Service.ARXIV)


def _extra_links(item: dict[str, Any]) -> list[Link]:
    out = []
    for link in _many(item, "links"):
        if isinstance(link, dict) and isinstance(link.get("url"), str) and link["url"].strip():
            out.append(link_for(str(link.get("role", "other")), link["url"]))
    return out


def _unique(links: list[Link]) -> tuple[Link, ...]:
    """Links without repeated subjects, first kept."""
    seen: dict[str, Link] = {}
    for link in links:
        seen.setdefault(link.subject, link)
    return tuple(seen.values())


__all__ = [
    "CatalogSource",
    "catalog_files",
    "display_path",
    "load_file",
    "load_text",
    "schema",
    "url_subject",
]
