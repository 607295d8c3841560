"""Reading the entries of a file's text again, by the file's kind: the one way curator reads
a text it did not load from the checked paths (a base revision's version of a file in
pull-request mode, a file with `curator fix`'s edits made)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from curator.core.errors import CuratorError
from curator.core.model import Entry
from curator.sources.formats import is_catalog

if TYPE_CHECKING:
    from curator.sources.doc_parse import InlineParses


def entries_of(file: str, text: str, inlines: InlineParses | None = None) -> list[Entry] | None:
    """The entries of `file`'s text in line order, or None when it does not read
    (`inlines`: the run's inline parses, for a document read before in the run)."""
    try:
        if is_catalog(file):
            from curator.sources.yaml_catalog import load_text

            entries: Sequence[Entry] = load_text(text, file, check_items=False).entries
        else:
            from curator.sources.document import DocumentSource

            entries = DocumentSource(inlines=inlines).entries(text, file)
    except CuratorError:
        return None
    return sorted(entries, key=lambda e: e.source.line)


__all__ = ["entries_of", "is_catalog"]
