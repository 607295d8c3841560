"""`curator import`: an awesome-list document becomes catalogue YAML, nothing dropped silently.

Papers go to DIR/papers/<section slug>.yaml, one file per section they stood in; projects go
to DIR/projects.yaml with their section as `category`. Each item carries the document line it
came from as a comment. Rows that could not be read completely are imported anyway and listed
in `ImportResult.warnings`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from curator.checks.bilingual import pair_translations
from curator.config.context import CheckContext
from curator.core.model import Entry, Finding, Kind
from curator.sources.document import DocumentSource
from curator.textio.text import refuse_links_below
from curator.tools.catalog_yaml import (
    catalog_file,
    item_lines,
    link_values,
    paper_values,
    project_values,
)

DEFAULT_PAPERS = "Papers"
PROJECTS_SECTION = "Projects"
LINKS_SECTION = "Links"


@dataclass(frozen=True)
class ImportResult:
    """What an import wrote and what needs a maintainer's eye."""

    files: tuple[str, ...]
    papers: int
    projects: int
    links: int
    warnings: tuple[str, ...]
    findings: tuple[Finding, ...]


def import_document(
    path: Path | str, out_dir: Path | str, zh: Path | str | None = None
) -> ImportResult:
    """Import `path` (and Chinese summaries from `zh`) into catalogue files under `out_dir`."""
    context = CheckContext()
    source = DocumentSource(context)
    loaded = source.load(Path(path))
    entries = list(loaded.entries)
    findings = list(loaded.findings)
    if zh is not None:
        entries, missing = pair_translations(entries, source.load(Path(zh)).entries, context)
        findings.extend(missing)
    files = write_catalog(entries, Path(out_dir))
    papers = sum(1 for e in entries if e.kind is Kind.PAPER)
    projects = sum(1 for e in entries if e.kind is Kind.PROJECT)
    return ImportResult(
        files=tuple(f.as_posix() for f in files),
        papers=papers,
        projects=projects,
        links=len(entries) - papers - projects,
        warnings=tuple(warning(f) for f in findings),
        findings=tuple(findings),
    )


def warning(finding: Finding) -> str:
    """One warning line: where, what code, what."""
    return f"{finding.source}: {finding.code}: {finding.message}"


def slug(text: str) -> str:
    """A file name from a section title: lower-case ASCII words joined by dashes."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def write_catalog(entries: list[Entry], out_dir: Path) -> list[Path]:
    """Write papers by section and all projects; return the files written."""
    sections: dict[str, list[Entry]] = {}
    projects: list[Entry] = []
    links: list[Entry] = []
    for entry in entries:
        if entry.kind is Kind.PROJECT:
            projects.append(entry)
        elif entry.kind is Kind.LINK:
            links.append(entry)
        else:
            sections.setdefault(entry.section or DEFAULT_PAPERS, []).append(entry)
    schema = out_dir / "schema.json"
    written: list[Path] = []
    names: set[str] = set()
    counts: dict[str, int] = {}
    for section, papers in sections.items():
        name = unique(slug(section) or f"section-{len(names) + 1}", names, counts)
        target = out_dir / "papers" / f"{name}.yaml"
        items = [item_lines(str(e.source), paper_values(e)) for e in papers]
        written.append(
            write(target, catalog_file(target, schema, section, "papers", items), out_dir)
        )
    if projects:
        target = out_dir / "projects.yaml"
        items = [item_lines(str(e.source), project_values(e)) for e in projects]
        text = catalog_file(target, schema, PROJECTS_SECTION, "projects", items)
        written.append(write(target, text, out_dir))
    if links:
        target = out_dir / "links.yaml"
        items = [item_lines(str(e.source), link_values(e)) for e in links]
        text = catalog_file(target, schema, LINKS_SECTION, "links", items)
        written.append(write(target, text, out_dir))
    if not schema.exists():
        written.append(write(schema, package_schema(), out_dir))
    return written


def unique(name: str, taken: set[str], counts: dict[str, int] | None = None) -> str:
    """`name`, or `name-2`, `name-3`... when two sections share a slug; `counts` remembers the
    last number used for each name, so N sections of one slug cost O(N), not O(N²)."""
    counts = {} if counts is None else counts
    n = counts.get(name, 1)
    candidate = name if n == 1 else f"{name}-{n}"
    while candidate in taken:
        n += 1
        candidate = f"{name}-{n}"
    counts[name] = n
    taken.add(candidate)
    return candidate


def write(path: Path, text: str, root: Path | None = None) -> Path:
    """Write UTF-8 text, creating folders; never through a symlink below `root` (a committed
    link in the catalogue folder would make the import write outside the repository)."""
    refuse_links_below(path, root)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def package_schema() -> str:
    """The catalogue schema shipped with curator, for the `$schema` comment to point at."""
    return resources.files("curator").joinpath("schema/catalog.schema.json").read_text("utf-8")
