"""The native catalogue: a folder of YAML files (one per section) validated by a JSON Schema.

Structure errors of a file (bad YAML, unknown top-level key, no section) are fatal and name
file and line. Problems inside one entry (missing field, bad date, unknown key) are
`entry-invalid` findings, so one bad entry never hides the rest of the list.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
import yaml

from curator.context import CheckContext
from curator.errors import InputError
from curator.heap import bulk_build
from curator.located_yaml import compose, construct, line_of, written_keys
from curator.model import Entry, Finding, Kind, Link, Source
from curator.normalize import (
    arxiv_id_in_url,
    is_arxiv_id_url,
    link_for,
    parse_arxiv_id,
    url_subject,
)
from curator.sources.interface import Loaded
from curator.sources.text import read_text

#: The keys whose lists hold the items (entries) of a catalogue file.
_LISTS = ("papers", "projects", "links")


@cache
def schema() -> dict[str, Any]:
    """The catalogue JSON Schema shipped with curator (published as data/schema.json)."""
    text = resources.files("curator").joinpath("schema/catalog.schema.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


@cache
def _validator() -> jsonschema.protocols.Validator:
    cls = jsonschema.validators.validator_for(schema())
    # Local `$ref`s inlined once: resolving them per item is a third of validation time.
    flat = _inline(schema(), schema()["$defs"])
    return cls(flat, format_checker=cls.FORMAT_CHECKER)


def _inline(node: Any, defs: dict[str, Any]) -> Any:
    """The schema with every `{"$ref": "#/$defs/NAME"}` replaced by its definition."""
    if isinstance(node, list):
        return [_inline(item, defs) for item in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        target = _inline(defs[node["$ref"].rsplit("/", 1)[-1]], defs)
        return {**target, **{k: _inline(v, defs) for k, v in node.items() if k != "$ref"}}
    return {k: _inline(v, defs) for k, v in node.items() if k != "$defs"}


def display_path(path: Path) -> str:
    """The path relative to the working folder when below it, POSIX style."""
    try:
        return path.resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return path.as_posix()


class CatalogSource:
    """Reads a catalogue folder (every *.yaml below it) or one catalogue YAML file."""

    name = "yaml"

    def __init__(self, context: CheckContext | None = None) -> None:
        self.context = context or CheckContext()

    def accepts(self, path: Path) -> bool:
        """Folders and .yaml/.yml files."""
        return path.is_dir() or path.suffix.lower() in {".yaml", ".yml"}

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
            got = load_file(file, self.context, check_items=changed is None or name in changed)
            entries.extend(got.entries)
            findings.extend(got.findings)
        return Loaded(tuple(entries), tuple(findings), tuple(names))

    def _changed(self, names: list[str]) -> dict[str, set[int] | None] | None:
        """In pull-request mode, the files changed since the ref (the select stage's own
        question); None outside it, or when git cannot answer (the select stage says why)."""
        ref = self.context.options.changed_since
        if not ref:
            return None
        from curator.errors import UsageError
        from curator.select import changed_lines

        try:
            return changed_lines(ref, names, Path.cwd())
        except UsageError:
            return None


def catalog_files(path: Path) -> list[Path]:
    """The YAML files of a catalogue path, sorted; InputError when there are none."""
    if path.is_file():
        return [path]
    if not path.exists():
        raise InputError("no such file or folder", display_path(path))
    files = sorted(p for p in path.rglob("*") if p.suffix.lower() in {".yaml", ".yml"})
    if not files:
        raise InputError("no catalogue files (*.yaml) in this folder", display_path(path))
    return files


def load_file(path: Path, context: CheckContext | None = None, check_items: bool = True) -> Loaded:
    """Entries and offline findings of one catalogue file (severities from `context`).

    Without `check_items` only the file's structure is validated, not each item: a pull-request
    run reports no finding of a file the pull request left unchanged, and at 5,000 entries
    validating every item would be half of its time.
    """
    ctx = context or CheckContext()
    name = display_path(path)
    node = compose(read_text(path, name), name)
    if node is None:
        raise InputError("empty catalogue file (needs `section` and `papers` or `projects`)", name)
    data = construct(node, name)
    checked = data if check_items else _without_items(data)
    errors = sorted(_validator().iter_errors(checked), key=lambda e: _path_key(e.absolute_path))
    _raise_structure_error(errors, node, name)
    bad_items = _item_errors(errors, node, name)
    return _entries(data, node, name, bad_items, ctx)


def _without_items(data: Any) -> Any:
    """The file with its item lists emptied (a list key that holds no list is kept as is)."""
    if not isinstance(data, dict):
        return data
    return {k: [] if k in _LISTS and isinstance(v, list) else v for k, v in data.items()}


def _raise_structure_error(errors: list[Any], node: yaml.Node, name: str) -> None:
    """Fatal: the file is not a catalogue file at all (errors outside the item lists)."""
    for err in errors:
        path = list(err.absolute_path)
        if len(path) >= 2 and path[0] in _LISTS and isinstance(path[1], int):
            continue
        extra = _unknown_key(err, node, path)
        if extra:
            allowed = ", ".join(schema()["properties"])
            raise InputError(f"unknown key {extra[0]!r} (allowed: {allowed})", name, extra[1])
        where = "/".join(str(p) for p in path) or "top level"
        raise InputError(f"not a catalogue file: {where}: {_plain(err)}", name, line_of(node, path))


def _item_errors(errors: list[Any], node: yaml.Node, name: str) -> dict[tuple[str, int], list[str]]:
    """Schema messages per (list, index) with the line of the offending key or value."""
    out: dict[tuple[str, int], list[str]] = {}
    for err in errors:
        path = list(err.absolute_path)
        if len(path) < 2:
            continue
        key = (str(path[0]), int(path[1]))
        out.setdefault(key, []).append(_located(err, node, path, name))
    return out


def _located(err: Any, node: yaml.Node, path: list[Any], name: str) -> str:
    """`line N: message` for one schema error inside an item."""
    extra = _unknown_key(err, node, path)
    if extra:
        return f"line {extra[1]}: unknown key {extra[0]!r}"
    return f"line {line_of(node, path)}: {'/'.join(map(str, path[2:])) or 'entry'}: {_plain(err)}"


def _path_key(path: Any) -> list[tuple[int, int | str]]:
    """A sort key for a schema error path whose steps may mix indexes and keys."""
    return [(0, step) if isinstance(step, int) else (1, str(step)) for step in path]


def _unknown_key(err: Any, node: yaml.Node, path: list[Any]) -> tuple[str, int] | None:
    """For an unknown-key error: the first such key as written, with its line; else None.

    Read from the YAML nodes: a key need not load as a string (`1:`, `~:`, `true:`).
    """
    if err.validator != "additionalProperties" or not isinstance(err.schema, dict):
        return None
    allowed = err.schema.get("properties", {})
    return next(((k, line) for k, line in written_keys(node, path) if k not in allowed), None)


def _plain(err: Any) -> str:
    """A short schema message; dates get a human sentence."""
    if err.validator == "pattern" and "0[1-9]" in str(err.validator_value):
        return f"{err.instance!r} is not a date YYYY-MM-DD, YYYY-MM or YYYY (two-digit month, day)"
    if err.validator == "anyOf" and isinstance(err.instance, dict):
        return "needs `arxiv` (an arXiv ID) or `url` (for other venues)"
    message = str(err.message)
    return message if len(message) <= 200 else message[:197] + "..."


def _entries(
    data: dict[str, Any],
    node: yaml.Node,
    name: str,
    bad: dict[tuple[str, int], list[str]],
    ctx: CheckContext,
) -> Loaded:
    """Build entries; invalid items yield `entry-invalid` (and an entry when identifiable)."""
    section = str(data.get("section", ""))
    entries: list[Entry] = []
    findings: list[Finding] = []
    for list_key, index, item in _items(data):
        source = Source(name, line_of(node, [list_key, index]))
        build = {"papers": _paper, "projects": _project, "links": _plain_link}[list_key]
        entry, offline = build(item, source, section, ctx)
        findings.extend(offline)
        if entry is not None:
            findings.extend(_bad_arxiv_links(entry, source, ctx))
        problems = bad.get((list_key, index), [])
        if problems:
            subject = entry.subject if entry else f"{name}:{source.line}"
            findings.append(
                ctx.finding(
                    "entry-invalid",
                    subject,
                    source,
                    f"{list_key[:-1]} does not match the catalogue schema",
                    evidence="; ".join(problems),
                    suggestion="see data/schema.json and the README's catalogue section",
                )
            )
        if entry is not None:
            entries.append(entry)
    return Loaded(tuple(entries), tuple(findings))


def _items(data: dict[str, Any]) -> Iterator[tuple[str, int, dict[str, Any]]]:
    for list_key in _LISTS:
        for index, item in enumerate(data.get(list_key) or []):
            yield list_key, index, item if isinstance(item, dict) else {}


def _text(item: dict[str, Any], key: str) -> str:
    value = item.get(key)
    return value.strip() if isinstance(value, str) else ""


def _paper(
    item: dict[str, Any], source: Source, section: str, ctx: CheckContext
) -> tuple[Entry | None, list[Finding]]:
    """A paper entry: subject from `arxiv`, else from `url`."""
    findings: list[Finding] = []
    links: list[Link] = []
    subject = ""
    raw_id = _text(item, "arxiv")
    if raw_id:
        parsed = parse_arxiv_id(raw_id)
        if parsed is None:
            subject = f"arxiv:{raw_id}"
            findings.append(
                ctx.finding(
                    "arxiv-bad-id",
                    subject,
                    source,
                    f"{raw_id!r} is not a valid arXiv identifier",
                    evidence=f"arxiv: {raw_id}",
                    suggestion="use YYMM.NNNNN (e.g. 2305.10250), optionally with vN, "
                    "or old style archive/YYMMNNN",
                )
            )
        else:
            subject = parsed.subject
            links.append(link_for("paper", f"https://arxiv.org/abs/{parsed}"))
    for role, key in (("paper", "url"), ("code", "code")):
        if _text(item, key):
            links.append(link_for(role, _text(item, key)))
    links.extend(_extra_links(item))
    if not subject and links:
        subject = links[0].subject
    if not subject:
        return None, findings
    tags = tuple(str(t) for t in item.get("tags") or () if isinstance(t, str | int | float))
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
    return entry, findings


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
    return entry, []


def _plain_link(
    item: dict[str, Any], source: Source, section: str, ctx: CheckContext
) -> tuple[Entry | None, list[Finding]]:
    """A plain link of the list: checked like any link, with no paper or project behind it."""
    if not _text(item, "url"):
        return None, []
    also = [u.strip() for u in item.get("also") or () if isinstance(u, str) and u.strip()]
    links = [link_for("url", url) for url in (_text(item, "url"), *also)]
    entry = Entry(
        subject=links[0].subject, kind=Kind.LINK, source=source, title=_text(item, "title"),
        section=_text(item, "section") or section, links=_unique(links), fields=item,
    )  # fmt: skip
    return entry, []


def _bad_arxiv_links(entry: Entry, source: Source, ctx: CheckContext) -> list[Finding]:
    """`arxiv-bad-id` for an arxiv.org paper link (url, code, links) whose ID does not parse,
    as the document reader reports it: the catalogue says the same as the list it came from."""
    bad = [lk for lk in entry.links if is_arxiv_id_url(lk.url) and arxiv_id_in_url(lk.url) is None]
    message = "{} does not hold a valid arXiv identifier"
    return [
        ctx.finding("arxiv-bad-id", lk.subject, source, message.format(lk.url), evidence=lk.url)
        for lk in bad
    ]


def _extra_links(item: dict[str, Any]) -> list[Link]:
    out = []
    for link in item.get("links") or ():
        if isinstance(link, dict) and isinstance(link.get("url"), str) and link["url"].strip():
            out.append(link_for(str(link.get("role", "other")), link["url"]))
    return out


def _unique(links: list[Link]) -> tuple[Link, ...]:
    """Links without repeated subjects, first kept."""
    seen: dict[str, Link] = {}
    for link in links:
        seen.setdefault(link.subject, link)
    return tuple(seen.values())


__all__ = ["CatalogSource", "catalog_files", "display_path", "load_file", "schema", "url_subject"]
