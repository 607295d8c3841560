"""The one table of input formats: which reader reads a file, by its suffix.

Every place that tells a catalogue from a document (the load stage, each reader's `accepts`,
a catalogue folder's files, a second reading of a file's text, a linked Markdown file's
headings) asks this table."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path


class Reader(StrEnum):
    """The readers of curator's input."""

    CATALOGUE = "catalogue"  # a folder of YAML files, or one (sources/yaml_catalog.py)
    DOCUMENT = "document"  # an awesome-list document in Markdown (sources/document.py)


#: File suffix (lower case) -> the reader of such a file. A folder is a catalogue.
SUFFIXES: dict[str, Reader] = {
    ".yaml": Reader.CATALOGUE,
    ".yml": Reader.CATALOGUE,
    ".md": Reader.DOCUMENT,
    ".markdown": Reader.DOCUMENT,
}


def suffixes(reader: Reader) -> tuple[str, ...]:
    """The file suffixes `reader` reads."""
    return tuple(suffix for suffix, read in SUFFIXES.items() if read is reader)


def reader_of(path: Path) -> Reader | None:
    """The reader of `path` (a folder: the catalogue's), None for a file of no known format."""
    if path.is_dir():
        return Reader.CATALOGUE
    return SUFFIXES.get(path.suffix.lower())


def is_catalog(file: str) -> bool:
    """True for a catalogue YAML file named `file` (else an awesome-list document)."""
    return file.lower().endswith(suffixes(Reader.CATALOGUE))
