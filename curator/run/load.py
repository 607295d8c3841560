"""The load stage: every path read by the source of its format (sources/formats.py), and the
list's screening records. It touches the world (the files), nothing after it does but
`resolve`."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from curator.checks.interface import CheckContext
from curator.config.options import Options
from curator.core.errors import InputError
from curator.core.model import Entry, Finding, Service
from curator.run.registries import SOURCES
from curator.sources.formats import reader_of
from curator.sources.interface import Loaded, Reference
from curator.sources.select import Comparison

if TYPE_CHECKING:
    from curator.net.cache import Cache
    from curator.scope.records import Record


def load(
    paths: Sequence[str],
    context: CheckContext | None = None,
    cache: Cache | None = None,
    comparison: Comparison | None = None,
) -> Loaded:
    """Read every path with the source for its kind (folder, YAML file, Markdown document);
    findings made while reading take the severities of `context` (the run's configuration).
    With the run's `cache`, what a source worked out before from the same text is reused;
    with its `comparison` (pull-request mode), what the select stage shares."""
    ctx = context or CheckContext()
    entries: list[Entry] = []
    findings: list[Finding] = []
    files: list[str] = []
    notes: list[str] = []
    references: list[Reference] = []
    for raw in paths:
        path = Path(raw)
        if not path.exists():
            raise InputError(_missing(path), raw)
        reader = reader_of(path)
        if reader is None:
            raise InputError("not a catalogue folder, YAML file or Markdown document", raw)
        got = SOURCES[reader](ctx, cache, comparison).load(path)
        entries.extend(got.entries)
        findings.extend(got.findings)
        files.extend(got.files)
        notes.extend(got.notes)
        references.extend(got.references)
    return Loaded(tuple(entries), tuple(findings), tuple(files), tuple(notes), tuple(references))


def _missing(path: Path) -> str:
    """Why a path cannot be read: missing, with a hint when a folder (the default `data`) is
    asked for where the list is a README.md (an awesome-list run with no PATH lands here)."""
    if not path.suffix and Path("README.md").is_file():
        return "no such file or folder (is the list README.md? give it as the PATH)"
    return "no such file or folder"


def screening_records(options: Options) -> list[Record] | None:
    """The list's screening records (`screening/*.json`), read in the load stage; None when
    it keeps none or the scope check is skipped."""
    folder = Path(options.root) / options.records_dir
    if options.skips(Service.SCOPE) or not folder.is_dir():
        return None
    from curator.scope.records import load_records

    return [r for path in sorted(folder.glob("*.json")) for r in load_records(path)]
